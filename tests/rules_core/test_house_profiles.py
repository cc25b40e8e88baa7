"""House profiles: the document format, its validation with field paths, and that a house profile
settles exactly as its base with the same overrides sent in the request."""

from __future__ import annotations

from dataclasses import replace

import pytest

from convert.house_profiles import Problem, house_registry, read_house_profile
from convert.json_read import read_overrides
from convert.profile_digest import BUILTIN_REGISTRY as DIGESTED
from generators.random_hands import HandGenerator
from rules_core import BUILTIN_PROFILES, InvalidRequest, LiabilityMode, Pattern, check_win, list_waits, settle
from rules_core.overrides import resolve_profile
from rules_core.profile import PROFILE_FIELDS
from rules_core.registry import BUILTIN_REGISTRY
from rules_core.requests import CheckWinRequest, ListWaitsRequest
from tests.worked_examples import WORKED_EXAMPLES

CLUB_A = {
    "name": "shanghai-club-a",
    "base": "lezi",
    "description": "勒子 room, base 3, liability replaces payments",
    "overrides": {"ordinaryBase": 3, "liabilityMode": "LIABILITY_MODE_REPLACE"},
}


def values(profile) -> dict:
    """Every field of a profile (profiles compare by identity)."""
    return {name: getattr(profile, name) for name in PROFILE_FIELDS}


def registry(*documents):
    found, problems = house_registry((f"{d['name']}.yaml", d) for d in documents)
    assert problems == []
    return found


def test_the_issues_example_is_its_base_with_the_overrides():
    entry, violations = read_house_profile(CLUB_A, "club-a.yaml")
    assert violations == []
    assert values(entry.profile) == values(
        replace(BUILTIN_PROFILES["lezi"], name="shanghai-club-a", ordinary_base=3, liability_mode=LiabilityMode.REPLACE)
    )
    assert (entry.base, entry.description, entry.source) == (
        "lezi",
        "勒子 room, base 3, liability replaces payments",
        "club-a.yaml",
    )


def test_snake_case_keys_and_enum_numbers_read_as_camel_case_and_names():
    snake = dict(CLUB_A, overrides={"ordinary_base": 3, "liability_mode": 3})
    assert values(read_house_profile(snake)[0].profile) == values(read_house_profile(CLUB_A)[0].profile)


def test_no_overrides_and_no_description_is_a_renamed_base():
    entry, _ = read_house_profile({"name": "plain-9", "base": "sankou"})
    assert values(entry.profile) == values(replace(BUILTIN_PROFILES["sankou"], name="plain-9"))
    assert entry.description == ""


@pytest.mark.parametrize(
    "document, expected",
    [
        (None, [("", "expected a mapping with name, base and overrides, got nothing")]),
        (["name"], [("", "expected a mapping with name, base and overrides, got list")]),
        (
            {"name": "a", "base": "lezi", "colour": "red"},
            [("colour", "unknown field; a profile has name, base, description, overrides")],
        ),
        ({"base": "lezi"}, [("name", "required: a profile name such as 'shanghai-club-a'")]),
        (
            {"name": "Club_A", "base": "lezi"},
            [("name", "'Club_A': lower-case letters, digits and '-' only (such as 'shanghai-club-a')")],
        ),
        (
            {"name": "-a", "base": "lezi"},
            [("name", "'-a': lower-case letters, digits and '-' only (such as 'shanghai-club-a')")],
        ),
        ({"name": "a" * 64, "base": "lezi"}, [("name", "at most 63 characters, got 64")]),
        ({"name": "lezi", "base": "lezi"}, [("name", "'lezi' is a built-in profile; choose another name")]),
        (
            {"name": "a"},
            [
                (
                    "base",
                    "required; a house profile is based on one of classic, sankou, lezi, qiaoma, qiaoma_lezi, qinghunpeng",
                )
            ],
        ),
        (
            {"name": "a", "base": "club-b"},
            [
                (
                    "base",
                    "unknown profile 'club-b'; a house profile is based on one of classic, sankou, lezi, qiaoma, qiaoma_lezi, qinghunpeng",
                )
            ],
        ),
        ({"name": "a", "base": "lezi", "description": 3}, [("description", "must be text")]),
        ({"name": "a", "base": "lezi", "overrides": "base 3"}, [("overrides", "expected a JSON object, got a string")]),
        ({"name": "a", "base": "lezi", "overrides": {"base": 3}}, [("overrides.base", "unknown field")]),
        (
            {"name": "a", "base": "lezi", "overrides": {"name": "b"}},
            [("overrides.name", "the profile name cannot be overridden")],
        ),
        (
            {"name": "a", "base": "lezi", "overrides": {"ordinaryBase": "three"}},
            [("overrides.ordinary_base", "expected a whole number, got 'three'")],
        ),
        (
            {"name": "a", "base": "lezi", "overrides": {"liabilityMode": "LIABILITY_MODE_SOMETIMES"}},
            [
                (
                    "overrides.liability_mode",
                    "unknown value 'LIABILITY_MODE_SOMETIMES'; expected one of LIABILITY_MODE_NONE,"
                    " LIABILITY_MODE_ADDITIVE, LIABILITY_MODE_REPLACE, LIABILITY_MODE_SANKOU,"
                    " LIABILITY_MODE_BAOSANKOU, LIABILITY_MODE_CONTRACT",
                )
            ],
        ),
        (
            {"name": "a", "base": "lezi", "overrides": {"fan": [{"pattern": "PATTERN_CONCEALED", "value": 99}]}},
            [("overrides.fan[0].value", "must be 0 to 8, got 99")],
        ),
        (  # every problem at once: the bad name does not hide the bad values
            {"name": "classic", "base": "lezi", "overrides": {"ordinaryBase": -3, "kaibaoMultiplier": 0}},
            [
                ("name", "'classic' is a built-in profile; choose another name"),
                ("overrides.ordinary_base", "must be 0 to 100000, got -3"),
                ("overrides.kaibao_multiplier", "must be at least 1"),
            ],
        ),
    ],
)
def test_a_bad_document_names_each_field_inside_it(document, expected):
    entry, violations = read_house_profile(document, "x.yaml")
    assert entry is None
    assert [(v.field, v.description) for v in violations] == expected


def test_a_registry_is_all_the_files_or_none_with_every_problem_by_file():
    good = ("a.yaml", CLUB_A)
    again = ("b.json", dict(CLUB_A, description="the same name"))
    bad = ("c.yml", {"name": "club-c", "base": "nope"})
    found, problems = house_registry([good, again, bad])
    assert found is None
    assert problems == [
        Problem("b.json", "name", "'shanghai-club-a' is already defined in a.yaml"),
        Problem(
            "c.yml",
            "base",
            "unknown profile 'nope'; a house profile is based on one of classic, sankou, lezi, qiaoma, qiaoma_lezi, qinghunpeng",
        ),
    ]
    assert [str(p) for p in problems] == [
        "b.json: name: 'shanghai-club-a' is already defined in a.yaml",
        "c.yml: base: unknown profile 'nope'; a house profile is based on one of classic, sankou, lezi, qiaoma, qiaoma_lezi, qinghunpeng",
    ]
    assert str(Problem("d.yaml", "", "not valid YAML")) == "d.yaml: not valid YAML"


def test_a_registry_lists_the_built_in_profiles_then_the_house_ones_by_name():
    found = registry(dict(CLUB_A, name="zz-room"), CLUB_A)
    built_in = ["classic", "sankou", "lezi", "qiaoma", "qiaoma_lezi", "qinghunpeng"]
    assert [e.name for e in found.entries] == [*built_in, "shanghai-club-a", "zz-room"]
    assert [e.name for e in found.house] == ["shanghai-club-a", "zz-room"]
    assert [e.base for e in found.entries] == ["", "", "", "", "", "", "lezi", "lezi"]
    assert found.known == "classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou, shanghai-club-a, zz-room"
    assert [e.name for e in BUILTIN_REGISTRY.entries] == built_in


def test_a_request_names_a_house_profile_only_in_a_registry_that_holds_it():
    found = registry(CLUB_A)
    assert resolve_profile("shanghai-club-a", None, found)[0] is found.get("shanghai-club-a")
    _, violations = resolve_profile("shanghai-club-a", None)
    assert [(v.field, v.description) for v in violations] == [
        (
            "profile",
            "unknown profile 'shanghai-club-a'; known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou",
        )
    ]
    _, violations = resolve_profile("club-b", None, found)
    assert (
        violations[0].description
        == "unknown profile 'club-b'; known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou, shanghai-club-a"
    )


def test_request_overrides_apply_on_top_of_the_house_profile():
    house = dict(CLUB_A, overrides={"ordinaryBase": 3, "fixedValues": [{"pattern": "PATTERN_FULL_FLUSH", "value": 30}]})
    found = registry(house)
    profile, _ = resolve_profile(
        "shanghai-club-a", {"ordinary_base": 5, "fixed_values": [(Pattern.ALL_HONOURS, 25)]}, found
    )
    lezi = BUILTIN_PROFILES["lezi"]
    assert profile.ordinary_base == 5  # the request's
    assert profile.fixed_values == {**lezi.fixed_values, Pattern.FULL_FLUSH: 30, Pattern.ALL_HONOURS: 25}  # merged


def test_a_reloaded_house_profile_of_the_same_name_is_not_answered_from_the_memo():
    request_overrides = {"abandon_penalty": 7}
    first = registry(CLUB_A)
    second = registry(dict(CLUB_A, overrides={"ordinaryBase": 4}))
    assert resolve_profile("shanghai-club-a", request_overrides, first)[0].ordinary_base == 3
    assert resolve_profile("shanghai-club-a", request_overrides, second)[0].ordinary_base == 4
    assert resolve_profile("shanghai-club-a", request_overrides, first)[0].ordinary_base == 3


# House profiles with their overrides, one per base: each must settle as the base with the overrides.
HOUSE_OVERRIDES = {
    "classic": {
        "ordinaryBase": 5,
        "fan": [{"pattern": "PATTERN_CONCEALED", "value": 2}],
        "fixedValues": [
            {"pattern": "PATTERN_FULL_FLUSH", "value": 30},
            {"pattern": "PATTERN_BIG_HANGING", "value": 25},
        ],
        "huangfanMultiplier": 3,
    },
    "sankou": {"ordinaryLaziThreshold": 6, "flowerValues": [{"source": "FLOWER_SOURCE_WIND_PUNG", "value": 2}]},
    "lezi": {
        "ordinaryBase": 3,
        "fixedValues": [{"pattern": "PATTERN_FULL_FLUSH", "value": 15}],
        "liabilityMode": "LIABILITY_MODE_REPLACE",
        "abandonPenalty": 20,
    },
}
HOUSE = registry(*({"name": f"house-{base}", "base": base, "overrides": o} for base, o in HOUSE_OVERRIDES.items()))


def _core_overrides(base: str) -> dict:
    violations: list = []
    found = read_overrides(HOUSE_OVERRIDES[base], "overrides", violations)
    assert violations == []
    return found


def _outcome(compute):
    """The result of a settlement with its profile name and digest blanked (the digests are
    held in test_profile_digest), or the violations it raised."""
    try:
        result = compute()
    except InvalidRequest as error:
        return [(v.field, v.description.replace("house-", "")) for v in error.violations]
    return result._replace(profile="", profile_digest="") if hasattr(result, "profile") else result


def _house_and_base(request):
    """(settled under the house profile, settled under its base with the house's overrides sent)."""
    base = request.profile
    house = request._replace(profile=f"house-{base}")
    sent = request._replace(overrides=_core_overrides(base))
    return _outcome(lambda: settle(house, HOUSE)), _outcome(lambda: settle(sent))


@pytest.mark.parametrize("name, request_, deltas, next_hand", WORKED_EXAMPLES, ids=[e[0] for e in WORKED_EXAMPLES])
def test_worked_examples_settle_under_a_house_profile_as_under_its_base_with_its_overrides(
    name, request_, deltas, next_hand
):
    in_house, with_overrides = _house_and_base(request_)
    assert in_house == with_overrides


# The examples the house overrides change: the others are illegal wins, 天胡 or draws.
CHANGED = [
    "1",
    "2",
    "3",
    "4",
    "5",
    "7",
    "9",
    "10",
    "11",
    "12",
    "13",
    "13-both",
    "14",
    "16",
    "17",
    "19-self",
    "19-other",
]


def test_the_house_overrides_change_most_worked_examples():
    """So that the comparison above compares something: these settle differently from the base."""
    changed = [
        name
        for name, request, *_ in WORKED_EXAMPLES
        if _house_and_base(request)[0] != _outcome(lambda r=request: settle(r))
    ]
    assert changed == CHANGED


def test_the_house_profile_name_is_the_result_profile():
    assert settle(WORKED_EXAMPLES[0][1]._replace(profile="house-classic"), HOUSE).profile == "house-classic"


def test_generated_requests_settle_under_a_house_profile_as_under_its_base_with_its_overrides():
    generator = HandGenerator(seed=15)
    requests = [generator.request(i) for i in range(300)]
    assert {r.profile for r in requests} == {"classic", "sankou", "lezi"}
    for request in requests:
        in_house, with_overrides = _house_and_base(request)
        assert in_house == with_overrides, request


def test_check_win_and_list_waits_take_the_registry_too():
    request = WORKED_EXAMPLES[0][1]
    winner = request.winners[0]
    common = {"dealer_seat": request.dealer_seat, "overrides": None}
    house = check_win(CheckWinRequest(profile="house-classic", outcome=request.outcome, winner=winner, **common), HOUSE)
    sent = check_win(
        CheckWinRequest(
            profile="classic",
            outcome=request.outcome,
            winner=winner,
            **dict(common, overrides=_core_overrides("classic")),
        )
    )
    assert house == sent
    short = winner.hand._replace(concealed=winner.hand.concealed[:-1], winning_tile=None)
    waits = list_waits(ListWaitsRequest(profile="house-classic", hand=short, seat=0, **common), HOUSE)
    assert [w.tile for w in waits.self_draw] and waits == list_waits(
        ListWaitsRequest(profile="classic", hand=short, seat=0, **dict(common, overrides=_core_overrides("classic"))),
        DIGESTED,  # the house registry digests its profiles: so does the wire layer's
    )

"""Input that cannot be a real request under the fields of RULES.md section 14, named by field,
and the bounds of their overrides."""

from __future__ import annotations

import pytest

from rules_core import InvalidRequest, Pattern, settle
from rules_core.build import winner
from rules_core.builtin_profiles import BUILTIN_PROFILES, CLASSIC, QIAOMA, QIAOMA_LEZI, QINGHUNPENG
from rules_core.overrides import apply_overrides
from rules_core.profile import FAMILY_DEFAULTS
from tests.rules_core.conftest import DISCARD, SELF, request


def violations(req) -> list[tuple[str, str]]:
    with pytest.raises(InvalidRequest) as caught:
        settle(req)
    return [(v.field, v.description) for v in caught.value.violations]


def fields(req) -> list[str]:
    return [field for field, _ in violations(req)]


_KNOCKED = {"declared_seats": (0,)}


_DRAGONS = "中发白 are flowers under this profile (dragons_are_flowers): a dragon goes in hand.dragon_flowers"


def test_a_dragon_among_the_tiles_under_dragons_are_flowers_is_named():
    concealed = winner(0, "123m 123p 123s CCC NN", win="N")
    assert violations(request("qiaoma", SELF, [concealed], **_KNOCKED)) == [
        ("winners[0].hand.concealed", f"{_DRAGONS}: C C C at [9, 10, 11]")
    ]
    won_on = winner(0, "123m 123p 123s 789m PP", win="P")
    assert violations(request("qiaoma_lezi", SELF, [won_on])) == [
        ("winners[0].hand.concealed", f"{_DRAGONS}: P P at [12, 13]"),
        ("winners[0].hand.winning_tile", _DRAGONS),
    ]
    melded = winner(0, "123p 123s 789m NN [FFF@3]", win="N")
    assert violations(request("qiaoma_lezi", SELF, [melded])) == [
        ("winners[0].hand.melds[0]", f"{_DRAGONS}: F F F at [0, 1, 2]")
    ]
    passed = winner(0, "123m 123p 123s 789m NN", win="N", passed="E C")
    assert violations(request("qiaoma_lezi", DISCARD, [passed], discarder_seat=2)) == [
        ("winners[0].passed_tiles", f"{_DRAGONS}: C at [1]")
    ]


def test_a_fifth_dragon_flower_and_a_dragon_flower_that_is_no_dragon():
    five = winner(0, "123m 123p 123s 789m NN", win="N", dragon_flowers="C C C C C")
    assert violations(request("qiaoma_lezi", SELF, [five])) == [
        ("winners[0].hand.dragon_flowers[4]", "a dragon has only four copies: a fifth C")
    ]
    wind = winner(0, "123m 123p 123s 789m NN", win="N", dragon_flowers="E")
    assert violations(request("qiaoma_lezi", SELF, [wind])) == [
        ("winners[0].hand.dragon_flowers[0]", "must be a dragon 中发白 (C, F, P), got E")
    ]


def test_dragon_flowers_without_dragons_are_flowers():
    w = winner(0, "123m 123p 123s 789m NN", win="N", dragon_flowers="C")
    for profile in ("classic", "qinghunpeng"):
        assert fields(request(profile, SELF, [w])) == ["winners[0].hand.dragon_flowers"]


@pytest.mark.parametrize("profile", ["classic", "lezi", "qiaoma"])
def test_declared_seats_out_of_range_or_repeated(profile):
    w = winner(0, "111m 555m 999p EEE 77s", win="7s", flowers="1f 5f")
    assert violations(request(profile, SELF, [w], declared_seats=(0, 4, 0))) == [
        ("declared_seats[1]", "must be a seat 0-3"),
        ("declared_seats[2]", "seat 0 is listed twice"),
    ]
    assert fields(request(profile, SELF, [w], declared_seats=(0, 1, 2, 3, 1))) == ["declared_seats"]


@pytest.mark.parametrize("profile", ["classic", "qiaoma_lezi"])
def test_last_tile_on_a_discard(profile):
    w = winner(0, "111m 555m 999p EEE 77s", win="7s", flowers="1f 5f", last_tile=True)
    assert fields(request(profile, DISCARD, [w], discarder_seat=1)) == ["winners[0].last_tile"]


def test_the_section_14_fields_default_to_today():
    assert all(getattr(CLASSIC, name) == default for name, default in FAMILY_DEFAULTS.items())
    for profile in (QIAOMA, QIAOMA_LEZI, QINGHUNPENG):
        assert any(getattr(profile, name) != default for name, default in FAMILY_DEFAULTS.items())


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("cap_lazi_extra", 1000, "must be 0 to 999, got 1000"),
        ("max_fan", 25, "must be 0 to 24, got 25"),
        ("huangfan_max_count", -1, "must be 0 to 24, got -1"),
        ("min_fan", 65, "must be 0 to 64, got 65"),
        ("no_flowers_value", 101, "must be 0 to 100, got 101"),
        ("ordinary_min_flowers_discard", 101, "must be 0 to 100, got 101"),
        ("ordinary_base_fan", 9, "must be 0 to 8, got 9"),
        ("liability_threshold_unconditional", 100_001, "must be 0 to 100000, got 100001"),
        ("dragons_are_flowers", 1, "must be true or false"),
        ("uncapped", "yes", "must be true or false"),
    ],
)
def test_override_bounds_are_named_by_field(field, value, problem):
    profile, faults = apply_overrides(CLASSIC, {field: value})
    assert profile is None
    assert [(v.field, v.description) for v in faults] == [(f"overrides.{field}", problem)]


def test_shape_fan_is_merged_entry_by_entry_and_bounded():
    qhp = QINGHUNPENG
    profile, _ = apply_overrides(qhp, {"shape_fan": {Pattern.SEVEN_PAIRS: 2}})
    assert dict(profile.shape_fan) == {**qhp.shape_fan, Pattern.SEVEN_PAIRS: 2}
    _, faults = apply_overrides(qhp, {"shape_fan": [(Pattern.ALL_PUNGS, 9)]})
    assert [(v.field, v.description) for v in faults] == [("overrides.shape_fan[0].value", "must be 0 to 8, got 9")]


def test_overriding_a_section_14_field_takes_today_profiles_down_that_path():
    w = winner(0, "111m 555m 999p EEE 77s", win="7s", flowers="1f 5f")
    # classic with additive 番 and a cap of 3 喇: (3 + 3) x max(1, 1 门清) = 6
    result = settle(request("classic", SELF, [w], overrides={"fan_additive": True, "cap_lazi_extra": 2}))
    assert result.winners[0].value == 6
    assert result.seat_deltas == (18, -6, -6, -6)


def test_waits_under_dragons_are_flowers_keep_the_dragon_flowers_and_never_wait_on_a_dragon():
    from rules_core import ListWaitsRequest, list_waits
    from rules_core.build import hand

    waiting = hand("123m 123p 123s 789m N", dragon_flowers="C")
    waits = list_waits(ListWaitsRequest("qiaoma_lezi", 0, waiting))
    assert [w.tile.notation for w in waits.self_draw] == ["N"]
    (drawn,) = waits.self_draw
    assert drawn.result.flowers == 1 and drawn.result.value == 8  # (3 + 1) x (1 兜底 + 1 门清)
    assert [w.tile.notation for w in waits.discard] == ["N"]


def test_house_profiles_set_section_14_fields_named_by_field():
    from convert.house_profiles import house_registry, read_house_profile

    room = {
        "name": "qiaoma-two-point-room",
        "base": "qiaoma_lezi",
        "overrides": {
            "ordinaryBase": 2,
            "sevenPairs": True,
            "shapeFan": [{"pattern": "PATTERN_SEVEN_PAIRS", "value": 2}],
        },
    }
    entry, faults = read_house_profile(room, "room.yaml")
    assert faults == []
    profile = entry.profile
    assert (profile.ordinary_base, profile.seven_pairs, profile.shape_fan[Pattern.SEVEN_PAIRS]) == (2, True, 2)
    assert profile.dragons_are_flowers and profile.fan_additive  # the rest as its base
    assert entry.base == "qiaoma_lezi"
    _, faults = read_house_profile(dict(room, base="qiaoma-lezi"), "room.yaml")
    assert [(v.field, v.description) for v in faults] == [
        (
            "base",
            "unknown profile 'qiaoma-lezi'; a house profile is based on one of "
            "classic, sankou, lezi, qiaoma, qiaoma_lezi, qinghunpeng",
        ),
    ]
    on_classic, faults = read_house_profile(dict(room, base="classic"), "room.yaml")
    assert faults == [] and (on_classic.profile.seven_pairs, on_classic.profile.shape_fan) == (
        True,
        {Pattern.SEVEN_PAIRS: 2},
    )
    for base in ("classic", "qiaoma_lezi"):
        not_a_flag = {"uncapped": "no"}
        _, faults = read_house_profile(dict(room, base=base, overrides=not_a_flag), "room.yaml")
        assert [(v.field, v.description) for v in faults] == [
            ("overrides.uncapped", "expected true or false, got 'no'")
        ]
        out_of_bounds = {"maxFan": 30, "shapeFan": [{"pattern": "PATTERN_SEVEN_PAIRS", "value": 9}]}
        _, faults = read_house_profile(dict(room, base=base, overrides=out_of_bounds), "room.yaml")
        assert [(v.field, v.description) for v in faults] == [
            ("overrides.max_fan", "must be 0 to 24, got 30"),
            ("overrides.shape_fan[0].value", "must be 0 to 8, got 9"),
        ]
    registry, problems = house_registry([("room.yaml", room)])
    assert problems == [] and registry.get("qiaoma") is BUILTIN_PROFILES["qiaoma"]
    assert registry.get("qiaoma-two-point-room").ordinary_base == 2


def test_a_pattern_of_section_14_named_by_an_override_is_judged():
    w = winner(0, "111m 555m 999p EEE 77s", win="7s", flowers="1f 5f", last_tile=True)
    result = settle(request("classic", SELF, [w], overrides={"fan": {Pattern.LAST_TILE: 1}}))
    assert result.winners[0].patterns == (Pattern.ALL_PUNGS, Pattern.CONCEALED, Pattern.LAST_TILE)
    assert result.winners[0].value == 20  # (3 + 3) x 2^2 = 24, capped at 1 喇
    assert settle(request("classic", SELF, [w])).winners[0].patterns == (Pattern.ALL_PUNGS, Pattern.CONCEALED)

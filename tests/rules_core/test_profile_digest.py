"""The digest of an effective profile (API.md, "Versioned answers"): the rule values alone,
canonical, equal wherever the values are equal and different wherever one differs."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import rules_core as rc
from convert import profile_digest as digest_module
from convert.house_profiles import read_house_profile
from convert.json_read import read_overrides, read_settle_record_request
from convert.profile_digest import BUILTIN_REGISTRY as DIGESTED
from convert.profile_digest import canonical_profile_json, profile_digest
from rules_core import BUILTIN_PROFILES
from rules_core.build import hand
from rules_core.overrides import resolve_profile
from rules_core.registry import ProfileRegistry

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SETTLE_REQUEST = json.loads((EXAMPLES / "settle-request.json").read_text())

# Fixed for good: a change here changes every stored answer's digest.
GOLDEN = {
    "classic": "sha256:60f281dad8e607b302c88b713d00f9123cf4c2a55bdc98b2bd0f18a8196de2ea",
    "sankou": "sha256:0a5e1873cd88e22eec9ddf104f004fb34f4b75d8cceede6fab6707c09ce8577d",
    "lezi": "sha256:33e4bd19998a17c18f44f816573a4eca52f7ea20b6a4a6b08659329e7e7cfa34",
    "qiaoma": "sha256:c236da1b43dbd1badf592b6f478418f23e21188fd9a1da611abc7120c35597fd",
    "qiaoma_lezi": "sha256:b5d46b7d72912397079fabc42e509e6b6a8eb471afbb2eb0b4be020b697ca2ee",
    "qinghunpeng": "sha256:50a985fcc4e2e86fca4cc6456e55f5b860b95c9098a81abfccb5a7509e0af0d4",
}


def example_record(name: str) -> dict:
    """examples/record.json under a profile; where 中发白 are flowers (dragons_are_flowers), seat 0
    is dealt them as flowers, with three more tiles of its suits in their place."""
    record = {**json.loads((EXAMPLES / "record.json").read_text()), "profile": name}
    if BUILTIN_PROFILES[name].dragons_are_flowers:
        first, *rest = record["events"]
        dragons = ("TILE_RED", "TILE_GREEN", "TILE_WHITE")
        tiles = [t for t in first["tiles"] if t not in dragons] + ["TILE_S2", "TILE_S4", "TILE_S6"]
        record["events"] = [{**first, "tiles": tiles, "dragonFlowers": list(dragons)}, *rest]
    return record


def effective(name: str, overrides_json: dict | None):
    violations: list = []
    overrides = read_overrides(overrides_json, "overrides", violations)
    assert violations == []
    profile, faults = resolve_profile(name, overrides)
    assert faults == []
    return profile


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_the_built_in_profiles_digests_are_fixed(name):
    assert profile_digest(BUILTIN_PROFILES[name]) == GOLDEN[name]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_every_answer_under_a_built_in_profile_carries_its_fixed_digest(name):
    """Through the JSON entry points alone, whichever module computes the digest."""
    request = SETTLE_REQUEST
    waits = json.loads((EXAMPLES / "list-waits-request.json").read_text())
    answers = (
        rc.settle_json({**request, "profile": name}),
        rc.list_waits_json({**waits, "profile": name}),
        rc.settle_record_json(example_record(name)),
    )
    assert [answer["profileDigest"] for answer in answers] == [GOLDEN[name]] * 3


def test_the_digest_is_sha256_of_the_canonical_json():
    lezi = BUILTIN_PROFILES["lezi"]
    assert profile_digest(lezi) == "sha256:" + hashlib.sha256(canonical_profile_json(lezi)).hexdigest()


def test_the_canonical_json_has_proto_names_sorted_keys_no_whitespace_and_no_defaults():
    text = canonical_profile_json(BUILTIN_PROFILES["lezi"]).decode()
    assert text.startswith('{"abandon_penalty":15,"combine_fixed":"COMBINE_FIXED_MAX","discard_share":1,')
    assert " " not in text
    assert '"name"' not in text
    assert "ordinary_lazi_threshold" not in text  # 0 in lezi: left out
    assert "fan_on_fixed" not in text  # false in lezi
    assert '"dice_huangfan"' not in text  # empty in lezi
    assert '{"source":"FLOWER_SOURCE_SUITED_PUNG"}' in text  # an entry's value of 0 is left out too
    assert '"sankou_self_draw_shares":[1,5,3.5,3]' in text  # whole doubles as integers


def test_the_digest_is_the_same_in_another_process():
    code = "from rules_core import BUILTIN_PROFILES as P; from convert.profile_digest import profile_digest; print(profile_digest(P['sankou']))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "SHMJ_PURE_PYTHON": "1"},
    )
    assert out.stdout.strip() == GOLDEN["sankou"]


def test_a_house_profile_of_the_same_values_has_the_base_profiles_digest():
    entry, faults = read_house_profile({"name": "club-a", "base": "classic", "description": "ours"})
    assert faults == []
    assert profile_digest(entry.profile) == GOLDEN["classic"]


@pytest.mark.parametrize(
    "overrides",
    [
        {"laziValue": 20},  # the value classic already has
        {"lazi_value": 20},
        {"liabilityMode": "LIABILITY_MODE_NONE"},
        {"liability_mode": 1},  # the enum by number
        {"fan": [{"pattern": "PATTERN_CONCEALED", "value": 1}]},
        {"fan": [{"pattern": 13, "value": 1}, {"pattern": "PATTERN_KONG_BLOOM", "value": 1}]},
        {
            "qualifying_patterns": list(
                reversed(
                    [
                        "PATTERN_ALL_PUNGS",
                        "PATTERN_HALF_FLUSH",
                        "PATTERN_FULL_FLUSH",
                        "PATTERN_HALF_FLUSH_PUNGS",
                        "PATTERN_FULL_FLUSH_PUNGS",
                        "PATTERN_ALL_HONOURS",
                        "PATTERN_ALL_HONOURS_PUNGS",
                        "PATTERN_EIGHT_FLOWERS",
                        "PATTERN_BIG_HANGING",
                        "PATTERN_HEAVENLY",
                        "PATTERN_EARTHLY",
                        "PATTERN_KONG_BLOOM",
                    ]
                )
            )
        },
        {"diceHuangfan": [{"dice": {"first": 2, "second": 1}, "value": 1}]},  # the throw 1-2, either way up
        {"selfDrawShare": 1.0, "discard_share": 1},
        {"ordinaryLaziThreshold": 0, "fanOnFixed": False},  # fields at their default
    ],
)
def test_spelling_order_and_unchanged_values_leave_the_digest_alone(overrides):
    assert profile_digest(effective("classic", overrides)) == GOLDEN["classic"]


def test_field_order_of_the_overrides_does_not_matter():
    one = effective("sankou", {"laziValue": 30, "ordinaryBase": 2, "huangfanMode": "HUANGFAN_MODE_PER_LEVEL"})
    other = effective("sankou", {"huangfan_mode": 2, "ordinary_base": 2, "lazi_value": 30})
    assert profile_digest(one) == profile_digest(other) != GOLDEN["sankou"]


@pytest.mark.parametrize(
    "overrides",
    [
        {"laziValue": 21},
        {"ordinaryBase": 4},
        {"ordinaryLaziThreshold": 8},
        {"fixedValues": [{"pattern": "PATTERN_FULL_FLUSH", "value": 21}]},
        {"fixedValues": [{"pattern": "PATTERN_FULL_FLUSH", "value": 0}]},
        {"fan": [{"pattern": "PATTERN_CONCEALED", "value": 2}]},
        {"floorPatterns": ["PATTERN_BIG_HANGING"]},
        {"qualifyingPatterns": ["PATTERN_ALL_PUNGS"]},
        {"combineFixed": "COMBINE_FIXED_SUM"},
        {"fanOnFixed": True},
        {"flowerValues": [{"source": "FLOWER_SOURCE_SUITED_PUNG", "value": 1}]},
        {"huangfanMode": "HUANGFAN_MODE_PER_LEVEL"},
        {"huangfanMultiplier": 3},
        {"diceHuangfan": [{"dice": {"first": 2, "second": 3}, "value": 1}]},
        {"kaibaoThrows": [{"first": 1, "second": 1}]},
        {"kaibaoMultiplier": 3},
        {"selfDrawShare": 1.5},
        {"discardShare": 2},
        {"robbingKongShare": 2.5},
        {"liabilityMode": "LIABILITY_MODE_ADDITIVE"},
        {"liabilityThreshold": 4},
        {"liabilityDiscardShare": 0.5},
        {"liabilitySelfDrawShare": 2},
        {"liabilityRobbingKongShare": 2},
        {"sankouSelfDrawShares": [1, 5, 3.5, 2.5]},
        {"sankouRelatedDiscarderShare": 3},
        {"sankouRelatedSeatShare": 0.5},
        {"abandonPenalty": 10},
        {"unit": "UNIT_POINT"},
    ],
)
def test_any_value_changed_changes_the_digest(overrides):
    changed = profile_digest(effective("classic", overrides))
    assert changed.startswith("sha256:") and len(changed) == len("sha256:") + 64
    assert changed not in GOLDEN.values()


def test_a_merged_profile_is_hashed_once_then_looked_up(monkeypatch):
    calls = []
    real = digest_module.computed_digest
    monkeypatch.setattr(digest_module, "computed_digest", lambda p: calls.append(p) or real(p))
    overrides = {"laziValue": 37, "kaibaoMultiplier": 5}
    first = profile_digest(effective("lezi", overrides))
    for _ in range(3):
        assert profile_digest(effective("lezi", overrides)) == first
        assert rc.settle_json({**SETTLE_REQUEST, "profile": "lezi", "overrides": overrides})["profileDigest"] == first
    assert len(calls) == 1


def test_the_digest_lives_on_its_profile_alone():
    """Stamped on the profile object, it goes with it: a copy of other values starts unstamped."""
    sankou = BUILTIN_PROFILES["sankou"]
    assert sankou.digest_stamp == GOLDEN["sankou"]  # the wire layer's registry stamped it at import
    copy = dataclasses.replace(sankou, lazi_value=31)
    assert copy.digest_stamp == ""
    assert profile_digest(copy) == copy.digest_stamp != GOLDEN["sankou"]


def test_a_registry_without_a_digest_function_answers_without_a_digest():
    bare = ProfileRegistry()
    assert rc.settle_json(SETTLE_REQUEST, bare)["profileDigest"] == ""
    assert rc.settle_json(SETTLE_REQUEST)["profileDigest"] == GOLDEN["classic"]
    with pytest.raises(rc.ProfileDigestMismatch) as raised:
        rc.settle_json({**SETTLE_REQUEST, "profileDigest": GOLDEN["classic"]}, bare)
    assert (raised.value.expected, raised.value.actual) == (GOLDEN["classic"], "")
    assert str(raised.value).endswith(
        "but the effective profile is not digested (its registry was given no digest function)"
    )


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_advice_and_reviews_carry_the_digest_of_their_registry(name):
    request = rc.AdviseRequest(name, 0, hand("111m 555m 999p EE 77s"), ())
    assert rc.advise(request, DIGESTED).profile_digest == GOLDEN[name]
    assert rc.advise(request).profile_digest == ""  # rules_core's own registry digests nothing
    record = read_settle_record_request(example_record(name))
    assert rc.review_record(record, DIGESTED).profile_digest == GOLDEN[name]
    assert rc.review_record(record).profile_digest == ""

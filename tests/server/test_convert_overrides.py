"""Overrides from a RuleProfile message: faults are named at the deepest field, as from JSON."""

from __future__ import annotations

import pytest
from mahjong.shanghai.v1 import profile_pb2
from mahjong.shanghai.v1 import settlement_pb2 as svc

import convert
import rules_core as rc
from rules_core.build import winner

HAND = convert.winner_message(winner(0, "111m 555m 999p EEE 77s", win="7s"))


def faults(overrides: profile_pb2.RuleProfile) -> list[tuple[str, str]]:
    message = svc.SettleRequest(profile="classic", outcome=1, winners=[HAND], overrides=overrides)
    with pytest.raises(rc.InvalidRequest) as error:
        rc.settle(convert.settle_request(message))
    return [(v.field, v.description) for v in error.value.violations]


def test_table_entries_are_named_at_their_value():
    overrides = profile_pb2.RuleProfile(
        fixed_values=[profile_pb2.PatternValue(pattern=3, value=-1)],
        fan=[profile_pb2.PatternValue(pattern=13, value=1), profile_pb2.PatternValue(pattern=12, value=99)],
        flower_values=[profile_pb2.FlowerValue(source=3, value=100_001)],
    )
    assert faults(overrides) == [
        ("overrides.fixed_values[0].value", "must be 0 to 100000, got -1"),
        ("overrides.fan[1].value", "must be 0 to 8, got 99"),
        ("overrides.flower_values[0].value", "must be 0 to 100000, got 100001"),
    ]


def test_dice_shares_and_pattern_lists_are_named_at_their_item():
    dice = profile_pb2.Dice
    overrides = profile_pb2.RuleProfile(
        dice_huangfan=[
            profile_pb2.DiceValue(dice=dice(first=7, second=1), value=1),
            profile_pb2.DiceValue(dice=dice(first=1, second=7), value=1),
        ],
        kaibao_throws=[dice(first=1, second=0)],
        sankou_self_draw_shares=[1, 5, 3.2, 3],
        qualifying_patterns=[1, 0],
    )
    with pytest.raises(rc.InvalidRequest) as error:
        convert.settle_request(svc.SettleRequest(profile="classic", outcome=1, winners=[HAND], overrides=overrides))
    assert [(v.field, v.description) for v in error.value.violations] == [
        ("overrides.qualifying_patterns[1]", "must be a specified pattern")
    ]
    overrides.ClearField("qualifying_patterns")
    assert faults(overrides) == [
        ("overrides.dice_huangfan[0].dice.first", "a die shows 1-6, got 7"),
        ("overrides.dice_huangfan[1].dice.second", "a die shows 1-6, got 7"),
        ("overrides.kaibao_throws[0].second", "a die shows 1-6, got 0"),
        ("overrides.sankou_self_draw_shares[2]", "must be a multiple of 0.5 from 0 to 100, got 3.2"),
    ]


def test_a_table_entry_given_twice_is_named_at_the_later_entry():
    overrides = profile_pb2.RuleProfile(
        fan=[profile_pb2.PatternValue(pattern=13, value=1), profile_pb2.PatternValue(pattern=13, value=2)]
    )
    assert faults(overrides) == [("overrides.fan[1].pattern", "CONCEALED is given twice (also [0])")]


def test_overrides_go_back_to_the_same_message():
    overrides = profile_pb2.RuleProfile(
        fan=[profile_pb2.PatternValue(pattern=13, value=2)],
        dice_huangfan=[profile_pb2.DiceValue(dice=profile_pb2.Dice(first=2, second=5), value=3)],
    )
    found = convert.overrides(overrides, "overrides", convert.Violations())
    assert convert.overrides_message(found) == overrides

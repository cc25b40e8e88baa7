"""Overrides are exact under any profile (issue 14): each finding of the issue, as a test.

The requests are the issue's own, in the proto3 JSON mapping of API.md.
"""

from __future__ import annotations

import json

import pytest

from rules_core import FieldViolation, InvalidRequest, Pattern, overrides, settle_json
from rules_core.overrides import resolve_profile


def tiles(*names_and_counts) -> list[str]:
    """["TILE_P7"] * 3 + ... from ("P7", 3), ...."""
    return [f"TILE_{name}" for name, count in names_and_counts for _ in range(count)]


def violations(request: dict) -> list[tuple[str, str]]:
    with pytest.raises(InvalidRequest) as error:
        settle_json(request)
    return [(v.field, v.description) for v in error.value.violations]


# --- 1. the decomposition is chosen by value ---------------------------------------------------

# 777 888 999p read as 789p three times: 混一色 + 门清, (1 + 8 花) x 2 = 18 >= 8, so 1 喇 = 40;
# read as pungs it is 混碰, fixed at 20.
SANKOU_LAZI_40 = json.loads(
    '{"profile":"sankou","outcome":"OUTCOME_DISCARD","discarderSeat":0,"overrides":{"laziValue":40},'
    '"winners":[{"seat":1,"hand":{"concealed":["TILE_P7","TILE_P7","TILE_P7","TILE_P8","TILE_P8","TILE_P8",'
    '"TILE_P9","TILE_P9","TILE_P9","TILE_WHITE","TILE_WHITE","TILE_WHITE","TILE_RED","TILE_RED"],'
    '"winningTile":"TILE_P8","flowers":["FLOWER_SPRING","FLOWER_SUMMER","FLOWER_AUTUMN","FLOWER_WINTER",'
    '"FLOWER_PLUM","FLOWER_ORCHID"]}}]}'
)


def test_a_chow_reading_worth_more_than_the_pungs_counts():
    response = settle_json(SANKOU_LAZI_40)
    assert response["seatDeltas"] == [-40.0, 40.0, 0.0, 0.0]
    (winner,) = response["winners"]
    assert winner["patterns"] == ["PATTERN_HALF_FLUSH", "PATTERN_CONCEALED"]
    assert winner["flowers"] == 8 and winner["baseValue"] == 40.0


def test_summed_fixed_values_choose_the_full_flush_reading():
    # 111 222 333m as 123m three times is 清一色 20; as pungs 清碰, here fixed at 5.
    request = {
        "profile": "classic",
        "outcome": "OUTCOME_SELF_DRAW",
        "overrides": {
            "combineFixed": "COMBINE_FIXED_SUM",
            "fixedValues": [{"pattern": "PATTERN_FULL_FLUSH_PUNGS", "value": 5}],
        },
        "winners": [
            {
                "seat": 0,
                "hand": {
                    "concealed": tiles(("M1", 3), ("M2", 3), ("M3", 3), ("M9", 3), ("M5", 2)),
                    "winningTile": "TILE_M5",
                },
            }
        ],
    }
    response = settle_json(request)
    assert response["seatDeltas"] == [60.0, -20.0, -20.0, -20.0]
    assert response["winners"][0]["patterns"] == ["PATTERN_FULL_FLUSH", "PATTERN_CONCEALED"]


def test_an_illegal_winner_reports_the_patterns_of_the_reading_that_counts():
    passed = dict(SANKOU_LAZI_40["winners"][0], passedTiles=["TILE_P8"])  # 漏胡 on 8p
    response = settle_json(dict(SANKOU_LAZI_40, winners=[passed]))
    (winner,) = response["winners"]
    assert winner["legal"] is False and winner["illegalReasons"] == ["ILLEGAL_REASON_MISSED_WIN"]
    assert winner["patterns"] == ["PATTERN_HALF_FLUSH", "PATTERN_CONCEALED"]
    assert response["seatDeltas"] == [0.0, 0.0, 0.0, 0.0]


def test_equal_values_choose_the_all_pungs_reading():
    # laziValue 20 (sankou's own): 混一色 reaches 1 喇 = 20, 混碰 is 20 too: the pungs reading counts.
    request = dict(SANKOU_LAZI_40, overrides={"laziValue": 20})
    (winner,) = settle_json(request)["winners"]
    assert winner["patterns"] == [
        "PATTERN_ALL_PUNGS",
        "PATTERN_HALF_FLUSH",
        "PATTERN_HALF_FLUSH_PUNGS",
        "PATTERN_CONCEALED",
    ]
    assert winner["value"] == 20.0


# A suited pung worth 1 花 and 无花 qualifying: 111 222 333m read as pungs is 3 花 and no qualifying
# pattern; read as 123m three times it is 0 花, 无花, and legal. The legal reading counts (section 4).
SUITED_PUNG_FLOWERS = {
    "profile": "classic",
    "outcome": "OUTCOME_SELF_DRAW",
    "overrides": {
        "flowerValues": [{"source": "FLOWER_SOURCE_SUITED_PUNG", "value": 1}],
        "qualifyingPatterns": ["PATTERN_ALL_PUNGS", "PATTERN_HALF_FLUSH", "PATTERN_NO_FLOWERS"],
    },
    "winners": [
        {
            "seat": 0,
            "hand": {
                "concealed": tiles(("M1", 3), ("M2", 3), ("M3", 3), ("P4", 1), ("P5", 1), ("P6", 1), ("S7", 2)),
                "winningTile": "TILE_S7",
            },
        }
    ],
}


def test_a_reading_with_fewer_pungs_wins_through_no_flowers():
    response = settle_json(SUITED_PUNG_FLOWERS)
    (winner,) = response["winners"]
    assert (winner["legal"], winner["patterns"], winner["flowers"]) == (
        True,
        ["PATTERN_CONCEALED", "PATTERN_NO_FLOWERS"],
        0,
    )
    assert response["seatDeltas"] == [18.0, -6.0, -6.0, -6.0]  # (3 + 0 花) x 2 (门清), by each other seat


def test_a_flower_tile_leaves_the_reading_with_more_pungs_to_count():
    flowered = json.loads(json.dumps(SUITED_PUNG_FLOWERS))
    flowered["winners"][0]["hand"]["flowers"] = ["FLOWER_SPRING"]
    (winner,) = settle_json(flowered)["winners"]
    assert (winner["legal"], winner["illegalReasons"], winner["flowers"]) == (
        False,
        ["ILLEGAL_REASON_NO_QUALIFYING_PATTERN"],
        4,
    )


# --- 2. dice 荒番 values above 2 -----------------------------------------------------------------


def test_dice_huangfan_values_above_two_are_accepted():
    request = json.loads(
        '{"profile":"classic","outcome":"OUTCOME_EXHAUSTIVE_DRAW","dice":{"first":2,"second":5},'
        '"overrides":{"diceHuangfan":[{"dice":{"first":2,"second":5},"value":3}]}}'
    )
    response = settle_json(request)
    assert response["huangfanAfterDice"] == 3
    assert response["nextHand"] == {"dealerSeat": 0, "huangfanCount": 4}


# --- 3. a shapeless all-honour hand wins only as ALL_HONOURS, and is never incomplete ----------

SHAPELESS_HONOURS = tiles(("EAST", 2), ("SOUTH", 2), ("WEST", 2), ("NORTH", 2), ("RED", 2), ("GREEN", 2), ("WHITE", 2))
WITHOUT_ALL_HONOURS = {
    "qualifyingPatterns": ["PATTERN_ALL_PUNGS", "PATTERN_HALF_FLUSH", "PATTERN_FULL_FLUSH", "PATTERN_CONCEALED"]
}


def test_a_shapeless_all_honour_hand_without_all_honours_qualifying_has_no_qualifying_pattern():
    """RULES.md section 4 (issue 20): ALL_HONOURS holds whatever the shape, so the hand is not
    incomplete; what stops it is the profile (乱风向 does not count in this room). CONCEALED
    qualifying does not let a shapeless hand win."""
    request = {
        "profile": "classic",
        "outcome": "OUTCOME_SELF_DRAW",
        "overrides": WITHOUT_ALL_HONOURS,
        "winners": [{"seat": 0, "hand": {"concealed": SHAPELESS_HONOURS, "winningTile": "TILE_WHITE"}}],
    }
    response = settle_json(request)
    (winner,) = response["winners"]
    assert winner["illegalReasons"] == ["ILLEGAL_REASON_NO_QUALIFYING_PATTERN"]
    assert winner["patterns"] == ["PATTERN_ALL_HONOURS", "PATTERN_CONCEALED"]
    assert (winner["legal"], winner["value"]) == (False, 0.0)
    assert response["seatDeltas"] == [0.0, 0.0, 0.0, 0.0]
    assert "nextHand" not in response


def test_a_shapeless_all_honour_hand_on_a_passed_tile_also_missed_the_win():
    request = {
        "profile": "classic",
        "outcome": "OUTCOME_DISCARD",
        "discarderSeat": 2,
        "overrides": WITHOUT_ALL_HONOURS,
        "winners": [
            {
                "seat": 0,
                "hand": {"concealed": SHAPELESS_HONOURS, "winningTile": "TILE_WHITE"},
                "passedTiles": ["TILE_WHITE"],
            }
        ],
    }
    (winner,) = settle_json(request)["winners"]
    assert winner["illegalReasons"] == ["ILLEGAL_REASON_NO_QUALIFYING_PATTERN", "ILLEGAL_REASON_MISSED_WIN"]
    assert winner["patterns"] == ["PATTERN_ALL_HONOURS", "PATTERN_CONCEALED"]


# --- 4. the deepest field inside overrides -------------------------------------------------------

EXAMPLE = {
    "profile": "classic",
    "outcome": "OUTCOME_SELF_DRAW",
    "winners": [
        {
            "seat": 0,
            "hand": {
                "concealed": tiles(("M1", 3), ("M5", 3), ("P9", 3), ("EAST", 3), ("S7", 2)),
                "winningTile": "TILE_S7",
            },
        }
    ],
}


def with_overrides(**overrides) -> dict:
    return dict(EXAMPLE, overrides=overrides)


def test_a_bad_table_value_is_reported_at_its_entry():
    found = violations(
        with_overrides(
            fan=[{"pattern": "PATTERN_CONCEALED", "value": 1}, {"pattern": "PATTERN_KONG_BLOOM", "value": 99}],
            fixedValues=[{"pattern": "PATTERN_FULL_FLUSH", "value": -1}],
            flowerValues=[{"source": "FLOWER_SOURCE_WIND_PUNG", "value": 100001}],
        )
    )
    assert found == [
        ("overrides.fixed_values[0].value", "must be 0 to 100000, got -1"),
        ("overrides.fan[1].value", "must be 0 to 8, got 99"),
        ("overrides.flower_values[0].value", "must be 0 to 100000, got 100001"),
    ]


def test_dice_entries_are_reported_at_the_die_and_the_value():
    found = violations(
        with_overrides(
            diceHuangfan=[
                {"dice": {"first": 7, "second": 1}, "value": 1},
                {"dice": {"first": 2, "second": 2}, "value": -3},
            ],
            kaibaoThrows=[{"first": 1, "second": 4}, {"first": 1, "second": 0}],
        )
    )
    assert found == [
        ("overrides.dice_huangfan[0].dice.first", "a die shows 1-6, got 7"),
        ("overrides.dice_huangfan[1].value", "must be 0 to 100000, got -3"),
        ("overrides.kaibao_throws[1].second", "a die shows 1-6, got 0"),
    ]


def test_a_bad_sankou_share_is_reported_at_its_item():
    found = violations(with_overrides(sankouSelfDrawShares=[1, 5, 3.2, 3]))
    assert found == [("overrides.sankou_self_draw_shares[2]", "must be a multiple of 0.5 from 0 to 100, got 3.2")]
    found = violations(with_overrides(sankouSelfDrawShares=[1, 5, 3]))
    assert found == [("overrides.sankou_self_draw_shares", "needs 4 shares, for 0 to 3 related seats, got 3")]


def test_an_unspecified_pattern_in_a_list_is_reported_at_its_index():
    found = violations(
        with_overrides(qualifyingPatterns=["PATTERN_ALL_PUNGS", "PATTERN_UNSPECIFIED"], floorPatterns=[0])
    )
    assert found == [
        ("overrides.floor_patterns[0]", "must be a specified pattern"),
        ("overrides.qualifying_patterns[1]", "must be a specified pattern"),
    ]


# --- 5. bounds, the sankou table's first entry, duplicates ---------------------------------------


def test_zero_is_refused_where_it_would_erase_every_value_or_relate_every_seat():
    found = violations(with_overrides(laziValue=0, huangfanMultiplier=0, kaibaoMultiplier=0, liabilityThreshold=0))
    assert found == [
        ("overrides.lazi_value", "must be at least 1"),
        ("overrides.huangfan_multiplier", "must be at least 1"),
        ("overrides.kaibao_multiplier", "must be at least 1"),
        ("overrides.liability_threshold", "must be at least 1"),
    ]


def test_the_sankou_table_row_for_no_related_seat_takes_effect():
    # 111 555m 999p EEE 77s, sankou self-draw: (1 + 1 花) x 2 = 4; with no related seat each pays 2 shares.
    request = dict(EXAMPLE, profile="sankou", overrides={"sankouSelfDrawShares": [2, 5, 3.5, 3]})
    response = settle_json(request)
    assert response["seatDeltas"] == [24.0, -8.0, -8.0, -8.0]
    assert [p["reason"] for p in response["payments"]] == ["PAYMENT_REASON_SELF_DRAW"] * 3
    # selfDrawShare is the other profiles' self-draw share; in sankou the table decides.
    request = dict(EXAMPLE, profile="sankou", overrides={"selfDrawShare": 2})
    assert settle_json(request)["seatDeltas"] == [12.0, -4.0, -4.0, -4.0]
    request = dict(EXAMPLE, overrides={"selfDrawShare": 2, "sankouSelfDrawShares": [3, 5, 3.5, 3]})
    assert settle_json(request)["seatDeltas"] == [48.0, -16.0, -16.0, -16.0]  # classic: (3 + 1) x 2, 2 shares each


def test_a_table_entry_given_twice_is_refused_at_the_later_entry():
    found = violations(
        with_overrides(
            fixedValues=[
                {"pattern": "PATTERN_FULL_FLUSH", "value": 30},
                {"pattern": "PATTERN_HEAVENLY", "value": 300},
                {"pattern": "PATTERN_FULL_FLUSH", "value": 40},
            ],
            diceHuangfan=[
                {"dice": {"first": 2, "second": 5}, "value": 1},
                {"dice": {"first": 5, "second": 2}, "value": 2},
            ],
        )
    )
    assert found == [
        ("overrides.fixed_values[2].pattern", "FULL_FLUSH is given twice (also [0])"),
        ("overrides.dice_huangfan[1].dice", "the throw 2 and 5 (in either order) is given twice (also [0])"),
    ]


def test_dice_huangfan_keeps_a_per_level_count_small():
    request = dict(
        EXAMPLE,
        dice={"first": 2, "second": 5},
        huangfanCount=20,
        overrides={"huangfanMode": "PER_LEVEL", "diceHuangfan": [{"dice": {"first": 2, "second": 5}, "value": 5}]},
    )
    assert violations(request) == [
        (
            "huangfan_count",
            "with huangfan_mode PER_LEVEL the count doubles per level: at most 24, got 20 + 5 from the dice",
        )
    ]
    request["huangfanCount"] = 19  # 2^24 x (3 + 1) x 2 each
    assert settle_json(request)["seatDeltas"] == [3 * 2**27, -(2**27), -(2**27), -(2**27)]


# --- 7. merged profiles are memoised by the value of the overrides ----------------------------


def test_equal_overrides_give_the_same_merged_profile():
    first, _ = resolve_profile("classic", {"lazi_value": 40, "fan": [(Pattern.CONCEALED, 2)]})
    again, _ = resolve_profile("classic", {"lazi_value": 40, "fan": [(Pattern.CONCEALED, 2)]})
    assert first is again and first.lazi_value == 40 and first.fan[Pattern.CONCEALED] == 2
    other, _ = resolve_profile("sankou", {"lazi_value": 40, "fan": [(Pattern.CONCEALED, 2)]})
    assert other is not first and other.name == "sankou"


def test_values_equal_in_python_but_of_another_type_are_not_taken_from_the_memo():
    assert resolve_profile("classic", {"fan": [(Pattern.CONCEALED, 1)]})[0] is not None
    assert resolve_profile("classic", {"fan": [(Pattern.CONCEALED, True)]})[1] == [
        FieldViolation("overrides.fan[0].value", "must be a whole number")
    ]
    assert resolve_profile("classic", {"qualifying_patterns": frozenset({Pattern.FULL_FLUSH})})[0] is not None
    assert resolve_profile("classic", {"qualifying_patterns": frozenset({3})})[1] == [
        FieldViolation("overrides.qualifying_patterns[0]", "must be a specified pattern")
    ]
    assert resolve_profile("classic", {"fan_on_fixed": True})[0] is not None
    assert resolve_profile("classic", {"fan_on_fixed": 1})[1] == [
        FieldViolation("overrides.fan_on_fixed", "must be true or false")
    ]


def test_a_value_of_another_type_inside_a_set_is_not_taken_from_the_memo():
    # A set of throws was keyed by its values and the types of its members (tuple), not of the
    # dice inside them: (1.0, 2) took the profile merged for (1, 2).
    assert resolve_profile("classic", {"kaibao_throws": {(1, 2)}})[0] is not None
    assert resolve_profile("classic", {"kaibao_throws": {(1.0, 2)}})[1] == [
        FieldViolation("overrides.kaibao_throws[0].first", "a die shows 1-6, got 1.0")
    ]
    assert resolve_profile("classic", {"dice_huangfan": {((1, 2), 1)}})[0] is not None
    assert resolve_profile("classic", {"dice_huangfan": {((1, 2), 1.0)}})[1] == [
        FieldViolation("overrides.dice_huangfan[0].value", "must be a whole number")
    ]


def test_the_memo_keeps_at_most_its_bound(monkeypatch):
    monkeypatch.setattr(overrides, "MAX_MERGED_PROFILES", 4)
    monkeypatch.setattr(overrides, "_MERGED", {})
    kept = [resolve_profile("classic", {"ordinary_base": n})[0] for n in range(10)]
    assert len(overrides._MERGED) == 4
    assert resolve_profile("classic", {"ordinary_base": 9})[0] is kept[9]  # the newest stay
    assert resolve_profile("classic", {"ordinary_base": 0})[0] is not kept[0]  # the oldest went

"""Advice and review as proto3 JSON (API.md "Advice and review"): RULES.md 15.7's worked examples
through `advise_json` and `review_record_json`, and malformed input named by its field."""

from __future__ import annotations

import pytest

from convert.json_write import settle_record_request_dict
from rules_core import advise_json, review_record_json
from rules_core.errors import InvalidRequest
from rules_core.records import SettleRecordRequest
from tests.rules_core.test_advice_review import EXAMPLE_11

EXAMPLE_1 = ["TILE_M1"] * 3 + ["TILE_M5"] * 3 + ["TILE_P9"] * 3 + ["TILE_RED"] * 2 + ["TILE_S7"] * 2


def _fields(violations) -> list[str]:
    return [v.field for v in violations]


def test_example_1_ready_on_two_tiles_with_values():
    answer = advise_json({"profile": "classic", "seat": 1, "requestId": "e1", "hand": {"concealed": EXAMPLE_1}})
    assert (answer["requestId"], answer["reachable"], answer["shanten"]) == ("e1", True, 0)
    assert answer["paths"][:2] == [
        {"pattern": "PATTERN_ALL_PUNGS", "suit": "SUIT_UNSPECIFIED", "shanten": 0},
        {"pattern": "PATTERN_HALF_FLUSH", "suit": "SUIT_CHARACTERS", "shanten": 5},
    ]
    assert answer["useful"] == [{"tile": "TILE_S7", "live": 2}, {"tile": "TILE_RED", "live": 2}]
    assert answer["waits"] == [
        {"tile": "TILE_S7", "live": 2, "value": 6.0},
        {"tile": "TILE_RED", "live": 2, "value": 10.0},
    ]
    assert (answer["liveTotal"], answer["liveValue"], answer["options"]) == (4, 32.0, [])
    assert answer["profileDigest"].startswith("sha256:") and answer["engineVersion"]


def test_example_2_seen_in_either_spelling_and_by_number():
    """`C C 7s` seen: C has 0 live and is still listed. snake_case keys and enum numbers read as
    their lowerCamelCase and named forms (TILE_RED is 32, TILE_S7 25)."""
    for request in (
        {
            "profile": "classic",
            "seat": 1,
            "hand": {"concealed": EXAMPLE_1},
            "seen": ["TILE_RED", "TILE_RED", "TILE_S7"],
        },
        {"profile": "classic", "seat": 1, "hand": {"concealed": EXAMPLE_1}, "seen": [32, 32, 25]},
    ):
        answer = advise_json(request)
        assert answer["waits"] == [
            {"tile": "TILE_S7", "live": 1, "value": 6.0},
            {"tile": "TILE_RED", "live": 0, "value": 10.0},
        ]
        assert (answer["shanten"], answer["liveTotal"]) == (0, 1)
    snake = advise_json({"profile": "classic", "seat": 1, "dealer_seat": 1, "hand": {"concealed": EXAMPLE_1}})
    camel = advise_json({"profile": "classic", "seat": 1, "dealerSeat": 1, "hand": {"concealed": EXAMPLE_1}})
    assert snake == camel


def test_example_8_a_dead_holding_has_no_shanten_key():
    hand = {
        "concealed": ["TILE_S7", "TILE_S8", "TILE_S9", "TILE_S1", "TILE_S1", "TILE_EAST", "TILE_EAST"],
        "melds": [
            {"kind": "MELD_KIND_CHOW", "tiles": ["TILE_M1", "TILE_M2", "TILE_M3"], "fromSeat": 0},
            {"kind": "MELD_KIND_CHOW", "tiles": ["TILE_P4", "TILE_P5", "TILE_P6"], "fromSeat": 0},
        ],
    }
    answer = advise_json({"profile": "classic", "seat": 1, "hand": hand})
    assert "shanten" not in answer
    assert (answer["reachable"], answer["paths"], answer["useful"], answer["options"]) == (False, [], [], [])


def test_example_10_options_of_a_win_in_order():
    concealed = EXAMPLE_1 + ["TILE_RED"]
    answer = advise_json({"profile": "classic", "seat": 1, "hand": {"concealed": concealed}})
    assert answer["shanten"] == -1
    rows = [(o["tile"], o["liveValue"], o["liveTotal"], o["best"]) for o in answer["options"]]
    assert rows == [
        ("TILE_M1", 30.0, 3, True),
        ("TILE_M5", 30.0, 3, True),
        ("TILE_P9", 30.0, 3, True),
        ("TILE_RED", 22.0, 3, False),
        ("TILE_S7", 20.0, 2, False),
    ]
    assert answer["options"][3]["waits"] == [
        {"tile": "TILE_S7", "live": 2, "value": 6.0},
        {"tile": "TILE_RED", "live": 1, "value": 10.0},
    ]


def test_malformed_advice_names_every_field_in_snake_case():
    with pytest.raises(InvalidRequest) as caught:
        advise_json(
            {
                "profile": "classic",
                "dealerSeat": "east",
                "hand": {"concealed": ["TILE_M1", "TILE_M99"]},
                "seen": ["TILE_M2", {}],
                "colour": 1,
            }
        )
    assert _fields(caught.value.violations) == ["colour", "dealer_seat", "hand.concealed[1]", "seen[1]"]


def test_too_many_seen_tiles_are_refused_unread():
    with pytest.raises(InvalidRequest) as caught:
        advise_json({"profile": "classic", "hand": {"concealed": EXAMPLE_1}, "seen": ["TILE_M1"] * 137})
    assert [tuple(v) for v in caught.value.violations] == [
        ("seen", "at most 136 tiles (every tile of the game once), got 137")
    ]


def test_a_winning_tile_or_a_fifth_copy_is_malformed():
    with pytest.raises(InvalidRequest) as caught:
        advise_json({"profile": "classic", "hand": {"concealed": EXAMPLE_1, "winningTile": "TILE_S7"}})
    assert _fields(caught.value.violations) == ["hand.winning_tile"]
    with pytest.raises(InvalidRequest) as caught:
        advise_json({"profile": "classic", "hand": {"concealed": EXAMPLE_1}, "seen": ["TILE_M1"] * 2})
    assert _fields(caught.value.violations) == ["seen"]


def test_example_11_review_as_json():
    record = settle_record_request_dict(SettleRecordRequest("classic", EXAMPLE_11, request_id="r11"))
    answer = review_record_json(record)
    assert answer["requestId"] == "r11"
    rows = [
        (d["eventIndex"], d["seat"], d["shanten"], d["discarded"], d["bestTiles"], d["agrees"], d["backward"])
        for d in answer["discards"]
    ]
    assert rows == [
        (4, 0, 0, "TILE_P7", ["TILE_RED"], False, False),
        (6, 1, 0, "TILE_M4", ["TILE_M4"], True, False),
        (8, 2, 1, "TILE_WEST", ["TILE_S9"], False, False),
    ]
    assert answer["discards"][1]["chosen"]["waits"] == [
        {"tile": "TILE_M9", "live": 2, "value": 3.0},
        {"tile": "TILE_EAST", "live": 2, "value": 4.0},
    ]
    summaries = [
        (s["seat"], s["discards"], s["agreements"], s["backward"], s["deadDiscards"], s["forcedDiscards"])
        for s in answer["seats"]
    ]
    assert summaries == [(0, 1, 0, 0, 0, 0), (1, 1, 1, 0, 0, 0), (2, 1, 0, 0, 0, 0), (3, 0, 0, 0, 0, 0)]
    assert [(p["seat"], p["tile"], p["eventIndex"]) for p in answer["seats"][3]["passes"]] == [(3, "TILE_WEST", 8)]


def test_a_malformed_record_is_refused_as_settle_record_json_refuses_it():
    record = settle_record_request_dict(SettleRecordRequest("classic", EXAMPLE_11))
    record["events"][4]["tile"] = "TILE_M9"  # seat 0 holds no 9m
    with pytest.raises(InvalidRequest) as caught:
        review_record_json(record)
    assert _fields(caught.value.violations) == ["events[4].tile"]


def test_a_holding_and_seen_tiles_in_notation_read_as_their_names():
    """As every request's hands and tiles, in the notation of RULES.md section 2."""
    named = advise_json(
        {"profile": "classic", "seat": 1, "hand": {"concealed": EXAMPLE_1}, "seen": ["TILE_RED", "TILE_RED", "TILE_S7"]}
    )
    written = advise_json(
        {"profile": "classic", "seat": 1, "hand": {"concealed": "111m 555m 999p CC 77s"}, "seen": "C C 7s"}
    )
    assert written == named
    with pytest.raises(InvalidRequest) as caught:
        advise_json(
            {"profile": "classic", "hand": {"concealed": "111m 555m 999p CC 77s"}, "seen": "123456789m " * 15 + "12m"}
        )
    assert [tuple(v) for v in caught.value.violations] == [
        ("seen", "at most 136 tiles (every tile of the game once), got 137")
    ]

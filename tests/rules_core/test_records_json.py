"""`rules_core.settle_record_json`: a hand record in the proto3 JSON mapping of API.md, and its answer."""

import pytest

from rules_core import InvalidRequest, settle_record_json
from tests.rules_core.words import ONE_OF_TILES

DEALS = [
    {"kind": "EVENT_KIND_DEAL", "seat": 0, "tiles": ["TILE_M5", "TILE_P8", "TILE_P9", "TILE_P9", "TILE_S2", "TILE_S4",
                                                     "TILE_S6", "TILE_S8", "TILE_WEST", "TILE_WEST", "TILE_NORTH",
                                                     "TILE_RED", "TILE_GREEN", "TILE_WHITE"]},
    {"kind": "EVENT_KIND_DEAL", "seat": 1, "tiles": ["TILE_M1"] * 3 + [f"TILE_M{n}" for n in range(2, 9)] + ["TILE_M9"] * 3},
    {"kind": "EVENT_KIND_DEAL", "seat": 2, "tiles": ["TILE_EAST"] * 3 + ["TILE_SOUTH"] * 3
     + [f"TILE_P{n}" for n in range(2, 9)], "flowers": ["FLOWER_PLUM"]},
    {"kind": "EVENT_KIND_DEAL", "seat": 3, "tiles": ["TILE_P1"] * 3 + ["TILE_P3"] * 2 + ["TILE_S9"] * 2
     + ["TILE_S7"] * 2 + ["TILE_S5"] * 2 + ["TILE_S3", "TILE_NORTH"]},
]  # fmt: skip


def test_a_record_and_its_answer_in_json():
    events = DEALS + [
        {"kind": "EVENT_KIND_DISCARD", "seat": 0, "tile": "TILE_M5"},
        {"kind": "EVENT_KIND_WIN", "seat": 1},
    ]
    answer = settle_record_json(
        {"requestId": "r1", "profile": "classic", "events": events, "recordedDeltas": [0, 0, 0, 0]}
    )
    assert answer["requestId"] == "r1"
    assert answer["settlement"]["seatDeltas"] == [-160.0, 160.0, 0.0, 0.0]
    assert answer["derived"]["outcome"] == "OUTCOME_DISCARD"
    assert answer["derived"]["winners"][0]["hand"]["winningTile"] == "TILE_M5"
    assert answer["derived"]["winners"][0]["firstGoAround"] is True
    assert answer["passes"] == []
    assert (answer["recordedMatch"], answer["mismatchedSeats"]) == (False, [0, 1])


def test_a_pass_in_json():
    events = DEALS + [
        {"kind": "EVENT_KIND_DISCARD", "seat": 0, "tile": "TILE_M5"},
        {"kind": "EVENT_KIND_EXHAUSTIVE_DRAW"},
    ]
    answer = settle_record_json({"profile": "classic", "events": events})
    assert answer["passes"] == [
        {
            "seat": 1,
            "tile": "TILE_M5",
            "eventIndex": 4,
            "patterns": ["PATTERN_FULL_FLUSH", "PATTERN_EARTHLY", "PATTERN_CONCEALED"],
        }
    ]


def test_snake_case_keys_and_enum_numbers_are_read():
    events = DEALS + [{"kind": 3, "seat": 0, "tile": 5}, {"kind": "EVENT_KIND_WIN", "seat": 1}]
    answer = settle_record_json({"profile": "classic", "events": events, "recorded_deltas": [-160, 160, 0, 0]})
    assert answer["recordedMatch"] is True


def faults(request: dict) -> list[tuple[str, str]]:
    with pytest.raises(InvalidRequest) as error:
        settle_record_json(request)
    return [(v.field, v.description) for v in error.value.violations]


def test_hostile_records_are_refused_unread():
    assert faults({"profile": "classic", "events": [{}] * 10_000}) == [
        ("events", "at most 238 events (the longest legal hand), got 10000")
    ]
    deal = {"kind": "EVENT_KIND_DEAL", "seat": 0, "tiles": ["TILE_M1"] * 1000}
    assert faults({"profile": "classic", "events": [deal]}) == [("events[0].tiles", "at most 14 entries, got 1000")]
    assert faults({"profile": "classic", "recordedDeltas": [0.0] * 100}) == [
        ("recorded_deltas", "at most 4 entries (none, or the four seat deltas), got 100")
    ]


def test_wrong_values_are_named():
    events = [{"kind": "EVENT_KIND_DEAL", "seat": "x", "tiles": ["TILE_M10"], "colour": 1}, {"kind": "EVENT_KIND_NAP"}]
    assert faults({"profile": "classic", "events": events}) == [
        ("events[0].colour", "unknown field"),
        ("events[0].seat", "expected a whole number, got 'x'"),
        ("events[0].tiles[0]", "unknown value 'TILE_M10'" + ONE_OF_TILES),
    ]  # and nothing after the first impossible event: events[1] is not read


def test_an_event_that_cannot_be_read_is_named_only_when_no_earlier_event_is_impossible():
    """Found trying records as a hostile client: the reader named an unknown tile at events[6]
    though seat 2 had drawn out of turn at events[5], the first impossible event."""
    events = DEALS + [
        {"kind": "EVENT_KIND_DISCARD", "seat": 0, "tile": "TILE_M5"},
        {"kind": "EVENT_KIND_DRAW", "seat": 2, "tile": "TILE_S1"},
        {"kind": "EVENT_KIND_DISCARD", "seat": 2, "tile": "TILE_FOO", "colour": 1},
    ]
    assert faults({"profile": "classic", "events": events}) == [
        ("events[5].seat", "after seat 0's discard seat 1 draws, not seat 2")
    ]
    events[5]["seat"] = 1
    assert faults({"profile": "classic", "requestId": 7, "events": events}) == [
        ("request_id", "expected a string, got 7"),
        ("events[6].colour", "unknown field"),
        ("events[6].tile", "unknown value 'TILE_FOO'" + ONE_OF_TILES),
    ]


def test_a_null_event_is_refused_as_protobuf_refuses_it_in_words_of_json():
    """Found trying records as a hostile client: a null among the events was read as an empty
    event ("events[5].kind: must be specified") where protobuf refuses it, and values were
    quoted in Python's words (None, True) where the input was JSON (null, true)."""
    events = DEALS + [None, {"kind": "EVENT_KIND_WIN", "seat": True}]
    assert faults({"profile": "classic", "events": events}) == [("events[4]", "expected a JSON object, got null")]
    events[4] = {"kind": "EVENT_KIND_DISCARD", "seat": True, "tile": None}
    assert faults({"profile": "classic", "events": events}) == [("events[4].seat", "expected a whole number, got true")]


def test_a_field_given_by_both_its_names_is_refused():
    """Found trying records as a hostile client: {"dealer_seat": 0, "dealerSeat": 3} was settled
    with the dealer of whichever key came last, as protobuf's Python parser does (Go's refuses
    it): two readers of one audit record could see two different hands."""
    events = DEALS + [
        {"kind": "EVENT_KIND_DISCARD", "seat": 0, "tile": "TILE_M5"},
        {"kind": "EVENT_KIND_WIN", "seat": 1},
    ]
    assert faults({"profile": "classic", "dealer_seat": 0, "dealerSeat": 0, "events": events}) == [
        ("dealer_seat", "given twice, as dealer_seat and as dealerSeat")
    ]
    events[4] = {"kind": "EVENT_KIND_DISCARD", "seat": 0, "tile": "TILE_M5", "recorded_deltas": 1}
    assert faults({"profile": "classic", "events": events, "recordedDeltas": [0] * 4, "recorded_deltas": []}) == [
        ("recorded_deltas", "given twice, as recordedDeltas and as recorded_deltas"),
        ("events[4].recorded_deltas", "unknown field"),
    ]


def test_an_event_with_two_hundred_thousand_unknown_keys_costs_what_one_with_twenty_does():
    """The events are read one at a time until one cannot be: that event's faults are kept as
    every request's are, twenty and a count, not one entry a key (27 MB for this one)."""
    import tracemalloc

    event = {"kind": "EVENT_KIND_WIN", "seat": 1, **{f"k{i}": 0 for i in range(200_000)}}
    request = {"profile": "classic", "events": [*DEALS, event]}
    tracemalloc.start()
    try:
        found = faults(request)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found == [(f"events[4].k{i}", "unknown field") for i in range(20)] + [
        ("request", "199980 more violation(s) not listed")
    ]
    assert peak < 1_000_000


def test_the_usual_event_reader_agrees_with_the_general_one_wherever_it_answers():
    """`usual_event` reads the form this product writes at once and leaves every other form to
    the general reader: where it answers, its event is the general reader's, with no fault."""
    import random

    from convert.json_read import read_event, usual_event

    rng = random.Random(24)
    kinds = [
        "EVENT_KIND_DEAL",
        "EVENT_KIND_DRAW",
        "EVENT_KIND_WIN",
        "EVENT_KIND_NAP",
        "EVENT_KIND_UNSPECIFIED",
        3,
        None,
    ]
    tiles = ["TILE_M1", "TILE_WHITE", "TILE_UNSPECIFIED", "TILE_M10", 5, 0, None, [], 1.5]
    flowers = ["FLOWER_PLUM", "FLOWER_UNSPECIFIED", 2, None, "x"]
    seats = [0, 3, 4, -1, "1", 1.0, True, None, 10**40]
    answered = 0
    for _ in range(30_000):
        event = {}
        for key, values in (("kind", kinds), ("seat", seats), ("tile", tiles), ("flower", flowers)):
            if rng.random() < 0.6:
                event[key] = rng.choice(values)
        for key, values, longest in (("tiles", tiles, 16), ("flowers", flowers, 10)):
            if rng.random() < 0.4:
                event[key] = rng.choice((None, [rng.choice(values[:2]) for _ in range(rng.randint(0, longest))]))
        if rng.random() < 0.05:
            event[rng.choice(("colour", "Seat", "tile_s"))] = 1
        usual = usual_event(event)
        if usual is not None:
            answered += 1
            found: list = []
            assert (usual, found) == (read_event(event, "e", found), []), event
    assert answered > 1_000, answered

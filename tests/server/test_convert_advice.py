"""Advice and review between rules_core's values and their messages (convert/advice.py): each
worked example of RULES.md 15.7 survives the trip both ways, and its JSON is what protobuf prints."""

from __future__ import annotations

import pytest
from google.protobuf.json_format import MessageToDict
from mahjong.shanghai.v1 import advice_pb2

from convert.advice import (
    advice_result,
    advise_request,
    advise_request_message,
    advise_response,
    review_record_response,
    review_result,
)
from convert.advice_json import advise_response_dict, review_record_response_dict
from rules_core.advice import advise
from rules_core.advice_values import AdviseRequest
from rules_core.build import hand
from rules_core.errors import InvalidRequest
from rules_core.notation import parse_tiles
from rules_core.records import SettleRecordRequest
from rules_core.requests import Dice
from rules_core.review import review_record
from tests.rules_core.test_advice_review import EXAMPLE_11

HOLDINGS = {
    "example 1, ready": ("111m 555m 999p CC 77s", 1, ""),
    "example 2, a dead wait": ("111m 555m 999p CC 77s", 1, "C C 7s"),
    "example 3, big hanging": ("[123m@3] [456p@3] [789s@3] [EEE@1] 7s", 0, ""),
    "example 8, dead": ("[123m@0] [456p@0] 789s 11s EE", 1, ""),
    "example 9, options": ("111p 222p 333p 7789p C", 1, ""),
    "example 10, a win": ("111m 555m 999p CCC 77s", 1, ""),
}


def _request(text: str, seat: int, seen: str) -> AdviseRequest:
    return AdviseRequest(
        "classic", seat, hand(text), parse_tiles(seen) if seen else (), dice=Dice(3, 4), request_id="a"
    )


def _proto_json(message) -> dict:
    return MessageToDict(message, always_print_fields_with_no_presence=True)


@pytest.mark.parametrize("example", list(HOLDINGS))
def test_advice_both_ways_and_as_protobuf_prints_it(example):
    request = _request(*HOLDINGS[example])
    assert advise_request(advise_request_message(request)) == request
    result = advise(request)
    message = advise_response(result)
    assert advice_result(advice_pb2.AdviseResponse.FromString(message.SerializeToString())) == result
    assert _proto_json(message) == advise_response_dict(result)


def test_a_dead_holding_leaves_shanten_unset_on_the_wire():
    message = advise_response(advise(_request(*HOLDINGS["example 8, dead"])))
    assert not message.reachable and not message.HasField("shanten")
    ready = advise_response(advise(_request(*HOLDINGS["example 1, ready"])))
    assert ready.HasField("shanten") and ready.shanten == 0


def test_review_both_ways_and_as_protobuf_prints_it():
    result = review_record(SettleRecordRequest("classic", EXAMPLE_11, request_id="r11"))
    message = review_record_response(result)
    assert review_result(message) == result
    assert _proto_json(message) == review_record_response_dict(result)
    assert [d.event_index for d in message.discards] == [4, 6, 8]
    assert [(p.seat, p.event_index) for p in message.seats[3].passes] == [(3, 8)]


def test_an_undefined_tile_number_is_named_by_its_field():
    message = advise_request_message(_request(*HOLDINGS["example 1, ready"]))
    message.seen.extend([5, 99])
    message.hand.concealed[2] = 77
    with pytest.raises(InvalidRequest) as caught:
        advise_request(message)
    assert [tuple(v) for v in caught.value.violations] == [
        ("hand.concealed[2]", "unknown value 77"),
        ("seen[1]", "unknown value 99"),
    ]


def test_more_seen_tiles_than_the_game_has_are_refused_unread():
    message = advise_request_message(_request(*HOLDINGS["example 1, ready"]))
    message.seen.extend([1] * 137)
    with pytest.raises(InvalidRequest) as caught:
        advise_request(message)
    assert [tuple(v) for v in caught.value.violations] == [
        ("seen", "at most 136 tiles (every tile of the game once), got 137")
    ]

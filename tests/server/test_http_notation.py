"""Over HTTP, a hand may be written in the notation of RULES.md section 2, as settle_json takes it:
Settle, a SettleBatch's entries, CheckWin and ListWaits answer it exactly as the same hand in
TILE_ names; a fault points into the string; a string longer than a request holds is refused
unread by the bound on a body's values."""

from __future__ import annotations

import json

from google.protobuf.json_format import MessageToDict

import convert
from server.http.json_steps import STEP_MAX_CHARS, STEP_MIN_BYTES
from tests.server.error_details import http_bad_request
from tests.server.test_bounded_json import refusal, violations
from tests.worked_examples import REQUESTS

EXAMPLE_1_HAND = {"concealed": "111m 555m 999p EEE 77s", "winningTile": "7s", "flowers": "1f 5f"}
EXAMPLE_9_HAND = {"concealed": "222m 333p 999s 55m [EEE@2] 2f 3f 4f", "winningTile": "5m"}


def _names(example: str) -> dict:
    return MessageToDict(convert.settle_request_message(REQUESTS[example]))


def _in_notation(example: str, hand: dict) -> dict:
    request = _names(example)
    request["winners"][0]["hand"] = hand
    return request


def _post(http, method: str, request: dict):
    return http.post(method, json.dumps(request).encode())


def _answer(http, method: str, request: dict) -> dict:
    reply = _post(http, method, request)
    assert reply.status == 200, reply.body
    return reply.json()


def test_settle_answers_example_1_in_notation_as_in_tile_names(http):
    request = {"profile": "classic", "outcome": "OUTCOME_SELF_DRAW", "winners": [{"seat": 0, "hand": EXAMPLE_1_HAND}]}
    answer = _answer(http, "Settle", request)
    assert answer == _answer(http, "Settle", _names("1"))
    assert answer["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]


def test_settle_answers_melds_and_flowers_in_notation_as_in_tile_names(http):
    assert _answer(http, "Settle", _in_notation("9", EXAMPLE_9_HAND)) == _answer(http, "Settle", _names("9"))
    melds_apart = {"concealed": "111p 555s 777s 33m", "melds": "[9999m@0]", "winningTile": "3m", "flowers": "6f"}
    request = _in_notation("11", melds_apart)
    request["winners"][0]["replacementDraw"] = True
    assert _answer(http, "Settle", request) == _answer(http, "Settle", _names("11"))


def test_a_batch_entry_in_notation_is_settled_as_in_tile_names(http):
    notation = _in_notation("1", EXAMPLE_1_HAND)
    answer = _answer(http, "SettleBatch", {"requests": [notation, _names("9"), _in_notation("9", EXAMPLE_9_HAND)]})
    first, ninth, ninth_in_notation = answer["results"]
    assert first["response"] == _answer(http, "Settle", _names("1"))
    assert ninth_in_notation == ninth


def test_check_win_and_list_waits_take_notation(http):
    check = {"profile": "classic", "outcome": "OUTCOME_SELF_DRAW", "winner": {"seat": 0, "hand": EXAMPLE_1_HAND}}
    names = {"profile": "classic", "outcome": "OUTCOME_SELF_DRAW", "winner": _names("1")["winners"][0]}
    answer = _answer(http, "CheckWin", check)
    assert answer == _answer(http, "CheckWin", names)
    assert answer["result"]["legal"] is True
    waits = {"profile": "classic", "hand": {"concealed": "111m 555m 999p EEE 7s"}, "passedTiles": "8s"}
    waits_in_names = {
        "profile": "classic",
        "hand": {"concealed": names["winner"]["hand"]["concealed"][:-1]},
        "passedTiles": ["TILE_S8"],
    }
    answer = _answer(http, "ListWaits", waits)
    assert answer == _answer(http, "ListWaits", waits_in_names)
    assert [w["tile"] for w in answer["discardWaits"]] == ["TILE_S7"]


def test_a_fault_in_the_notation_is_named_with_its_position(http):
    hand = {"concealed": "111m 555m x99p EEE 77s", "winningTile": "7s"}
    reply = _post(http, "Settle", _in_notation("1", hand))
    assert reply.status == 400
    assert http_bad_request(reply) == [
        (
            "winners[0].hand.concealed",
            "bad notation at position 10 ('111m 555m ⟨x⟩99p EEE 77…'): "
            "unexpected 'x': tiles are 1-9 with m/p/s, E S W N C F P, flowers 1f-8f",
        )
    ]


def test_a_hand_spaced_out_over_hundreds_of_characters_is_read(http):
    spaced = (" " * 90).join(["111m", "555m", "999p", "EEE", "77s"])
    assert 300 < len(spaced) < 400
    request = _in_notation("1", dict(EXAMPLE_1_HAND, concealed=spaced))
    assert _answer(http, "Settle", request) == _answer(http, "Settle", _names("1"))


def test_a_notation_string_of_10_mb_is_refused_unread_by_the_bound_on_a_body_value(http):
    body = json.dumps(_in_notation("1", dict(EXAMPLE_1_HAND, concealed="1m " * 3_500_000))).encode()
    assert len(body) > 10_000_000
    failure, allocated = refusal("Settle", body)
    too_long = f"longer than {STEP_MAX_CHARS:,} characters of JSON, more than a request holds"
    assert violations(failure) == [("winners[0]", too_long)]
    assert allocated < 1.5 * len(body)  # the text once: no tile of it was made
    failure, allocated = refusal("SettleBatch", b'{"requests":[' + body + b"]}")
    assert violations(failure) == [("requests[0]", too_long)]
    assert allocated < 1.5 * len(body)


def test_a_large_batch_in_notation_read_in_steps_is_settled_as_in_tile_names(http):
    """A body of 64 KiB or more is read element by element (server/http/json_steps.py): its
    notation strings, a few hundred characters each, pass the steps' bounds."""
    spaced = (" " * 90).join(["111m", "555m", "999p", "EEE", "77s"])
    entry = _in_notation("1", dict(EXAMPLE_1_HAND, concealed=spaced))
    body = json.dumps({"requests": [entry] * 300}).encode()
    assert len(body) > STEP_MIN_BYTES
    reply = http.post("SettleBatch", body)
    assert reply.status == 200, reply.body[:300]
    expected = _answer(http, "Settle", _names("1"))
    assert [result["response"] for result in reply.json()["results"]] == [expected] * 300

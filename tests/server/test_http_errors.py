"""Connect's error format over plain HTTP: codes, HTTP statuses, and the field violations
of a google.rpc.BadRequest in ``details`` (base64 ``value`` and readable ``debug``)."""

from __future__ import annotations

import gzip
import json
import socket
import time
from urllib.parse import urlsplit

import pytest
from google.protobuf import json_format
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
from rules_core.build import hand
from tests.server.conftest import ROOT
from tests.server.error_details import http_bad_request, http_error
from tests.server.http_calls import SERVICE_PATH, Reply
from tests.worked_examples import WORKED_EXAMPLES


def bad_request_of(reply: Reply) -> list[tuple[str, str]]:
    """The field violations of an invalid_argument answer (`tests.server.error_details`)."""
    assert reply.json()["code"] == "invalid_argument"
    return http_bad_request(reply)


def test_a_malformed_hand_names_each_field(http):
    request = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    del request.winners[0].hand.concealed[-1]
    reply = http.json_call("Settle", request)
    assert (reply.status, reply.headers["content-type"]) == (400, "application/json")
    assert reply.json()["message"] == "winners[0].hand.concealed: 0 meld(s) leave 14 concealed tiles, got 13"
    assert bad_request_of(reply) == [("winners[0].hand.concealed", "0 meld(s) leave 14 concealed tiles, got 13")]
    assert bad_request_of(http.proto_call("Settle", request)) == bad_request_of(reply)


def test_json_that_protobuf_cannot_read_names_the_field_with_its_index(http):
    body = {"profile": "classic", "winners": [{"seat": 1, "hand": {"concealed": ["TILE_M1", "M2"]}, "seet": 2}]}
    reply = http.post("Settle", json.dumps(body).encode())
    assert reply.status == 400
    assert bad_request_of(reply) == [
        ("winners[0].seet", "unknown field"),
        ("winners[0].hand.concealed[1]", "unknown value 'M2' (did you mean TILE_M2?)"),
    ]


def test_an_unknown_name_says_the_names_accepted(http):
    body = {"profile": "classic", "outcome": "self-draw", "winners": [{"hand": {"concealed": ["TILE_M1", "X9"]}}]}
    reply = http.post("Settle", json.dumps(body).encode())
    assert (reply.status, bad_request_of(reply)) == (
        400,
        [
            ("outcome", "unknown value 'self-draw' (did you mean OUTCOME_SELF_DRAW?)"),
            (
                "winners[0].hand.concealed[1]",
                "unknown value 'X9'; expected one of TILE_M1…TILE_M9, TILE_P1…TILE_P9, TILE_S1…TILE_S9, TILE_EAST,"
                " TILE_SOUTH, TILE_WEST, TILE_NORTH, TILE_RED, TILE_GREEN, TILE_WHITE",
            ),
        ],
    )


def test_a_body_that_is_not_json_or_not_protobuf(http):
    reply = http.post("Settle", b"{profile: classic")
    assert (reply.status, reply.json()["code"]) == (400, "invalid_argument")
    assert reply.json()["message"].startswith("the body is not JSON: ")
    reply = http.post("Settle", b"\xff\xff\xff", "application/proto")
    assert http_error(reply) == (
        400,
        {
            "code": "invalid_argument",
            "message": "the body is not a mahjong.shanghai.v1.SettleRequest message",
            "reason": "MALFORMED_BODY",
        },
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"[]", "the body must be a JSON object (a mahjong.shanghai.v1.SettleRequest), got an array"),
        (b"null", "the body must be a JSON object (a mahjong.shanghai.v1.SettleRequest), got null"),
        (b"[" * 100_000 + b"]" * 100_000, "the body is not JSON: nested deeper than 64 levels"),
    ],
    ids=["array", "null", "deep"],
)
def test_a_body_that_is_no_json_object(http, body, message):
    reply = http.post("Settle", body)
    assert http_error(reply) == (400, {"code": "invalid_argument", "message": message, "reason": "MALFORMED_BODY"})


def test_json_of_the_wrong_shape_inside_is_invalid_argument_not_a_crash(http):
    reply = http.post("CheckWin", b'{"profile": "classic", "winner": 5}')
    assert reply.status == 400
    assert bad_request_of(reply)[0][0] == "winner"
    reply = http.post("Settle", b'{"profile": "classic", "winners": [{"hand": 5}]}')
    assert bad_request_of(reply) == [("winners[0].hand", "expected a JSON object, got 5")]


def test_semantic_errors_of_every_rpc(http):
    reply = http.json_call(
        "ListWaits", svc.ListWaitsRequest(profile="classic", hand=convert.hand_message(hand("111m")))
    )
    assert bad_request_of(reply) == [("hand.concealed", "0 meld(s) leave 13 concealed tiles, got 3")]
    reply = http.post("CheckWin", b'{"profile": "classic", "outcome": "OUTCOME_EXHAUSTIVE_DRAW"}')
    assert bad_request_of(reply)[0][0] == "outcome"


def test_an_unknown_profile_is_not_found(http):
    reply = http.post("GetProfile", b'{"name": "riichi"}')
    assert reply.status == 404
    assert reply.json()["code"] == "not_found"
    assert "classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou" in reply.json()["message"]


def test_settle_stream_is_unimplemented_and_says_where_to_go(http):
    reply = http.post("SettleStream", b"{}")
    assert reply.status == 501
    assert reply.json()["code"] == "unimplemented"
    assert "call SettleStream over gRPC on port" in reply.json()["message"]
    assert "send the hands to SettleBatch" in reply.json()["message"]


def test_protocol_level_refusals(http):
    reply = http.post("Shuffle", b"{}")
    assert (reply.status, reply.json()["code"]) == (501, "unimplemented")
    assert (
        "it has Settle, SettleBatch, SettleStream, CheckWin, ListWaits, GetProfile, ListProfiles"
        in reply.json()["message"]
    )
    reply = http.post("Settle", b"profile=classic", "application/x-www-form-urlencoded")
    assert (reply.status, reply.headers["accept-post"]) == (415, "application/json, application/proto")
    reply = http.get("/mahjong.shanghai.v1.ScoringService/ListProfiles")
    assert (reply.status, reply.headers["allow"]) == (405, "POST")
    assert http.get("/nothing-here").status == 404
    reply = http.post("ListProfiles", b"{}", **{"Content-Encoding": "br"})
    assert (reply.status, reply.json()["code"]) == (501, "unimplemented")


def test_gzip_bodies_are_read(http):
    body = gzip.compress(b'{"name": "lezi"}')
    reply = http.post("GetProfile", body, **{"Content-Encoding": "gzip"})
    assert reply.status == 200 and reply.json()["profile"]["name"] == "lezi"
    reply = http.post("GetProfile", body[:-4], **{"Content-Encoding": "gzip"})
    assert http_error(reply) == (
        400,
        {"code": "invalid_argument", "message": "the gzip body is truncated", "reason": "MALFORMED_BODY"},
    )


def test_the_server_goes_on_after_errors(http):
    assert http.post("ListProfiles", b"{}").status == 200


@pytest.mark.parametrize("path", [SERVICE_PATH + "Settle", "/explorer/notation"])
def test_a_client_that_leaves_mid_body_leaves_no_traceback(server, http, path):
    host, port = urlsplit(server.http_url).hostname, urlsplit(server.http_url).port
    with socket.create_connection((host, port), timeout=10) as leaving:
        leaving.sendall(
            f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{".encode()
        )
    assert http.post("ListProfiles", b"{}").status == 200  # the worker carries on
    time.sleep(0.5)  # what the worker would print about the departed client has been written
    assert "Traceback" not in server.log()


def test_a_protobuf_body_larger_than_any_legal_request_is_refused_before_it_is_decoded(http):
    reply = http.post("Settle", b"\xff" * 41985, "application/proto")
    assert reply.status == 400
    assert bad_request_of(reply) == [
        ("body", "a legal mahjong.shanghai.v1.SettleRequest is at most 41984 bytes, got 41985")
    ]


@pytest.mark.parametrize(
    ("method", "body", "violations"),
    [
        ("GetProfile", {"name": "lezi", "bogusKey": 1}, [("bogusKey", "unknown field")]),
        ("ListProfiles", {"bogusKey": 1}, [("bogusKey", "unknown field")]),
        (
            "CheckWin",
            {"profile": "classic", "winner": {"seat": 0, "hand": {"concealed": ["TILE_M1"], "bogus": 1}}},
            [("winner.hand.bogus", "unknown field")],
        ),
        ("SettleBatch", {"requests": [], "bogusKey": 1}, [("bogusKey", "unknown field")]),
        (
            "GetProfile",
            {"name": "lezi", "overrides": {"fan": [{"pattern": "PATTERN_ALL_PUNGS", "value": 1, "extra": 2}]}},
            [("overrides.fan[0].extra", "unknown field")],
        ),
    ],
    ids=["GetProfile", "ListProfiles", "CheckWin", "SettleBatch", "nested"],
)
def test_an_unknown_key_of_any_rpc_is_a_violation_naming_it(http, method, body, violations):
    """Issue 20: protobuf's own text came back, beginning with an empty field."""
    reply = http.post(method, json.dumps(body).encode())
    assert reply.status == 400
    assert bad_request_of(reply) == violations


def test_a_check_win_body_is_named_in_the_words_of_a_settle_body(http):
    body = b'{"profile": "classic", "winner": {"seat": "north", "hand": {"concealed": ["TILE_M1", "TILE_X"]}}}'
    assert bad_request_of(http.post("CheckWin", body)) == [
        ("winner.seat", "expected a whole number, got 'north'"),
        (
            "winner.hand.concealed[1]",
            "unknown value 'TILE_X'; expected one of TILE_M1…TILE_M9, TILE_P1…TILE_P9, TILE_S1…TILE_S9, "
            "TILE_EAST, TILE_SOUTH, TILE_WEST, TILE_NORTH, TILE_RED, TILE_GREEN, TILE_WHITE",
        ),
    ]


def test_one_misspelt_key_in_one_batch_entry_is_that_entrys_error(http, stub):
    """Issue 20: the whole batch failed with protobuf's text; over gRPC a bad entry is its own error."""
    good = json.loads(json_format.MessageToJson(convert.settle_request_message(WORKED_EXAMPLES[0][1])))
    bad = {**good, "requestId": "b-1", "winners": [{**good["winners"][0], "seet": 2}]}
    reply = http.post("SettleBatch", json.dumps({"requests": [good, bad, good]}).encode())
    assert reply.status == 200
    results = reply.json()["results"]
    expected = convert.message_dict(
        stub.SettleBatch(svc.SettleBatchRequest(requests=[convert.settle_request_message(WORKED_EXAMPLES[0][1])]))
    )["results"][0]
    assert results[0]["response"] == results[2]["response"] == expected["response"]
    assert results[1]["requestId"] == "b-1"
    assert results[1]["error"] == {
        "code": "INVALID_ARGUMENT",
        "message": "winners[0].seet: unknown field",
        "reason": "INVALID_REQUEST",
        "metadata": {},
        "fieldViolations": [{"field": "winners[0].seet", "description": "unknown field"}],
    }
    assert "response" not in results[1]


def test_an_empty_settle_body_says_what_is_missing(http):
    """Issue 20: it said "unknown profile an empty name"."""
    for body in (b"", b"{}"):
        assert bad_request_of(http.post("Settle", body)) == [
            ("profile", "must be specified: one of classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou"),
            ("outcome", "must be specified"),
        ]


def with_a_lone_surrogate(name: str) -> dict:
    """An example body of each rpc rules_core reads, its request id an escaped lone surrogate."""
    examples = {
        "Settle": "settle-request.json",
        "CheckWin": "check-win-request.json",
        "ListWaits": "list-waits-request.json",
        "SettleRecord": "record.json",
        "ReviewRecord": "record.json",
    }
    if name == "Advise":
        body = {"profile": "classic", "seat": 1, "hand": {"concealed": "111m 555m 999p CC 77s"}}
    else:
        body = json.loads((ROOT / "examples" / examples[name]).read_text())
    return {**body, "requestId": "\ud800"}


LONE = ("request_id", "'\\ud800' holds a lone surrogate, which no UTF-8 text can hold")


@pytest.mark.parametrize("method", ["Settle", "CheckWin", "ListWaits", "SettleRecord", "ReviewRecord", "Advise"])
def test_a_string_no_message_can_hold_is_a_violation_naming_it_not_an_internal_error(http, method):
    """Found as a hostile client: JSON can escape a lone surrogate ("\\ud800"), which rules_core
    reads and a protobuf message cannot hold: every rpc that makes its message from rules_core's
    reading answered 500, "internal error"."""
    reply = http.post(method, json.dumps(with_a_lone_surrogate(method)).encode())
    assert (reply.status, bad_request_of(reply)) == (400, [LONE])


def test_a_batch_entry_no_message_can_hold_is_that_entrys_error(http):
    good = json.loads((ROOT / "examples" / "settle-request.json").read_text())
    reply = http.post("SettleBatch", json.dumps({"requests": [good, with_a_lone_surrogate("Settle")]}).encode())
    assert reply.status == 200
    results = reply.json()["results"]
    assert results[0]["response"]["seatDeltas"] and results[1]["requestId"] == ""
    assert results[1]["error"]["fieldViolations"] == [{"field": LONE[0], "description": LONE[1]}]

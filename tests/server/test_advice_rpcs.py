"""Advise and ReviewRecord (RULES.md section 15) over gRPC and over HTTP, against the real server:
rules_core's answers for the worked examples, versioned and pinned, malformed input named by its
field, hostile bodies refused before they are read, and each call counted and logged."""

from __future__ import annotations

import json
import time

import grpc
import pytest
from mahjong.shanghai.v1 import advice_pb2, scoring_service_pb2_grpc

import convert
import rules_core as rc
from convert.advice import advise_request_message
from convert.json_read import read_settle_record_request
from convert.json_write import settle_record_request_dict
from rules_core import advise_json, review_record_json
from rules_core.advice_values import AdviseRequest
from rules_core.build import hand
from rules_core.notation import parse_tiles
from rules_core.records import SettleRecordRequest
from tests.rules_core.test_advice_review import EXAMPLE_11
from tests.server import test_tracing
from tests.server.error_details import bad_request, error_info, http_error_info
from tests.server.otlp_receiver import GrpcReceiver
from tests.server.test_http_errors import bad_request_of
from tests.server.test_tracing import PARENT_ID, SERVICE, TRACE_ID, TRACEPARENT
from tests.server.test_versioned_answers import CLASSIC, LEZI, OTHER
from tests.worked_examples import WORKED_EXAMPLES

EXAMPLE_9 = AdviseRequest("classic", 1, hand("111p 222p 333p 7789p C"), request_id="e9")
EXAMPLE_2 = AdviseRequest("classic", 1, hand("111m 555m 999p CC 77s"), parse_tiles("C C 7s"), request_id="e2")


def _record(**fields) -> dict:
    return {**settle_record_request_dict(SettleRecordRequest("classic", EXAMPLE_11, request_id="r11")), **fields}


def _record_message(record: dict):
    return convert.settle_record_request_message(read_settle_record_request(record))


@pytest.mark.parametrize("request_", [EXAMPLE_9, EXAMPLE_2], ids=["example 9", "example 2"])
def test_advice_is_rules_cores_over_grpc_and_http(stub, http, request_):
    message = advise_request_message(request_)
    expected = advise_json(convert.message_dict(message))
    answer = stub.Advise(message, timeout=10)
    assert convert.message_dict(answer) == expected
    assert (answer.engine_version, answer.profile_digest) == (rc.ENGINE_VERSION, CLASSIC)
    over_http = http.json_call("Advise", message)
    assert (over_http.status, over_http.json()) == (200, expected)
    as_proto = http.proto_call("Advise", message)
    assert advice_pb2.AdviseResponse.FromString(as_proto.body) == answer


def test_example_9_options_over_grpc():
    """Checked in the test above against rules_core; here its values, as RULES.md 15.7 gives them."""
    answer = advise_json(convert.message_dict(advise_request_message(EXAMPLE_9)))
    rows = [(o["tile"], o["shanten"], o["liveTotal"], o["liveValue"], o["best"]) for o in answer["options"]]
    assert rows == [
        ("TILE_RED", 0, 2, 40.0, True),
        ("TILE_P7", 0, 3, 18.0, False),
        ("TILE_P1", 1, 24, 0.0, False),
        ("TILE_P2", 1, 20, 0.0, False),
        ("TILE_P3", 1, 20, 0.0, False),
        ("TILE_P9", 1, 15, 0.0, False),
        ("TILE_P8", 1, 11, 0.0, False),
    ]


def test_review_is_rules_cores_over_grpc_and_http(stub, http):
    record = _record()
    expected = review_record_json(record)
    message = _record_message(record)
    answer = stub.ReviewRecord(message, timeout=10)
    assert convert.message_dict(answer) == expected
    assert [(d.event_index, d.agrees) for d in answer.discards] == [(4, False), (6, True), (8, False)]
    assert [s.agreements for s in answer.seats] == [0, 1, 0, 0]
    over_http = http.post("ReviewRecord", json.dumps(record).encode())
    assert (over_http.status, over_http.json()) == (200, expected)


def test_a_pinned_digest_is_honoured_and_another_refused(stub, http):
    message = advise_request_message(EXAMPLE_9._replace(profile="lezi", profile_digest=LEZI))
    assert stub.Advise(message, timeout=10).profile_digest == LEZI
    message.profile_digest = CLASSIC
    with pytest.raises(grpc.RpcError) as raised:
        stub.Advise(message, timeout=10)
    assert raised.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error_info(raised.value) == ("PROFILE_DIGEST_MISMATCH", {"expected": CLASSIC, "actual": LEZI})
    record = _record(profileDigest=OTHER)
    with pytest.raises(grpc.RpcError) as raised:
        stub.ReviewRecord(_record_message(record), timeout=10)
    assert error_info(raised.value) == ("PROFILE_DIGEST_MISMATCH", {"expected": OTHER, "actual": CLASSIC})
    reply = http.post("ReviewRecord", json.dumps(record).encode())
    assert (reply.status, http_error_info(reply)) == (
        400,  # Connect maps failed_precondition to 400
        ("PROFILE_DIGEST_MISMATCH", {"expected": OTHER, "actual": CLASSIC}),
    )


def test_malformed_advice_is_invalid_argument_naming_each_field(stub, http):
    message = advise_request_message(EXAMPLE_2)
    message.hand.winning_tile = 5
    message.seen.append(77)
    with pytest.raises(grpc.RpcError) as raised:
        stub.Advise(message, timeout=10)
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(raised.value)[0] == "INVALID_REQUEST"
    assert [field for field, _ in bad_request(raised.value)] == ["seen[3]"]
    body = {"profile": "classic", "seat": 1, "hand": {"concealed": ["TILE_M1"] * 13}, "seen": ["TILE_M10"]}
    reply = http.post("Advise", json.dumps(body).encode())
    assert reply.status == 400
    assert [field for field, _ in bad_request_of(reply)] == ["seen[0]"]


def test_more_seen_tiles_than_the_game_has_are_refused_unread(stub):
    message = advise_request_message(EXAMPLE_2)
    message.seen.extend([1] * 2000)
    with pytest.raises(grpc.RpcError) as raised:
        stub.Advise(message, timeout=10)
    assert bad_request(raised.value) == [("seen", "at most 136 tiles (every tile of the game once), got 2003")]
    message.seen.extend([1] * 30_000)  # past any legal AdviseRequest: refused before protobuf reads it
    with pytest.raises(grpc.RpcError) as raised:
        stub.Advise(message, timeout=10)
    assert bad_request(raised.value) == [
        ("body", f"a legal mahjong.shanghai.v1.AdviseRequest is at most 25600 bytes, got {message.ByteSize()}")
    ]


def test_advice_and_review_are_counted_and_logged(server, stub):
    stub.Advise(advise_request_message(EXAMPLE_9._replace(request_id="counted-advice")), timeout=10)
    stub.ReviewRecord(_record_message(_record(requestId="counted-review")), timeout=10)
    metrics = server.metrics()
    assert 'grpc_server_handled_total{grpc_code="OK",grpc_method="Advise"' in metrics
    assert 'grpc_server_handled_total{grpc_code="OK",grpc_method="ReviewRecord"' in metrics
    logged = (json.loads(line) for line in server.log().splitlines() if "counted-" in line)
    # the session's server is shared by the test files of this process: its other calls are not ours
    lines = [line for line in logged if line.get("request_id") in ("counted-advice", "counted-review")]
    assert sorted((line["method"], line["code"], line["profile_digest"]) for line in lines) == [
        ("mahjong.shanghai.v1.ScoringService/Advise", "OK", CLASSIC),
        ("mahjong.shanghai.v1.ScoringService/ReviewRecord", "OK", CLASSIC),
    ]


traced = test_tracing.traced  # the fixture: a server exporting its spans to a receiver


def test_advice_and_review_are_traced_as_the_other_rpcs(traced):
    with GrpcReceiver() as receiver, traced(receiver, "grpc") as server:
        with grpc.insecure_channel(server.address) as channel:
            stub = scoring_service_pb2_grpc.ScoringServiceStub(channel)
            stub.Advise(advise_request_message(EXAMPLE_9), metadata=[("traceparent", TRACEPARENT)])
            stub.ReviewRecord(_record_message(_record()))
        spans = {s["name"]: s for s in receiver.wait_for(2)}
    advise = spans[f"{SERVICE}/Advise"]
    assert (advise["trace_id"], advise["parent_span_id"]) == (TRACE_ID, PARENT_ID)
    assert advise["attributes"] == {
        "rpc.system": "grpc",
        "rpc.service": SERVICE,
        "rpc.method": "Advise",
        "rpc.grpc.status_code": 0,
        "shmj.profile": "classic",
        "shmj.profile_digest": CLASSIC,
    }
    review = spans[f"{SERVICE}/ReviewRecord"]
    assert (review["attributes"]["rpc.method"], review["attributes"]["shmj.profile_digest"]) == (
        "ReviewRecord",
        CLASSIC,
    )


def test_over_http_too_many_seen_tiles_are_one_violation(http):
    body = {"profile": "classic", "seat": 1, "hand": {"concealed": ["TILE_M1"] * 13}, "seen": ["TILE_M2"] * 5000}
    reply = http.post("Advise", json.dumps(body).encode())
    assert (reply.status, bad_request_of(reply)) == (
        400,
        [("seen", "at most 136 tiles (every tile of the game once), got 5000")],
    )


def test_over_http_a_large_seen_list_is_refused_before_it_is_read(http):
    body = {"profile": "classic", "seat": 1, "hand": {"concealed": ["TILE_M1"] * 13}, "seen": ["TILE_M2"] * 100_000}
    reply = http.post("Advise", json.dumps(body).encode())
    assert (reply.status, bad_request_of(reply)) == (400, [("seen", "at most 136 entries, got more")])


def a_long_record() -> SettleRecordRequest:
    """A hand of 84 discards, every holding thirteen scattered tiles and the one just drawn (each
    seat discards what it draws), under overrides that open the most paths: among the dearest
    records to review, 1.4 KB on the wire."""
    from rules_core import EventKind, HandEvent, Tile

    scattered = [0, 3, 6, 10, 13, 16, 20, 23, 26, 27, 28, 29, 30, 31, 32, 33, 1, 4, 7, 9, 12, 15, 18, 21, 24]
    scattered += [2, 5, 8, 11, 14, 17, 19, 22, 25]
    wall = [t for t in range(34) for _ in range(4)]
    deals: list[list[int]] = [[], [], [], []]
    kinds = iter(scattered * 8)
    for seat, deal in enumerate(deals):
        while len(deal) < (14 if seat == 0 else 13):
            tile = next(kinds)
            if tile in wall:
                wall.remove(tile)
                deal.append(tile)
    events = [HandEvent(EventKind.DEAL, seat, tiles=tuple(map(Tile, deal))) for seat, deal in enumerate(deals)]
    events.append(HandEvent(EventKind.DISCARD, 0, Tile(deals[0][-1])))
    for turn, tile in enumerate(wall):
        seat = (turn + 1) % 4
        events += [HandEvent(EventKind.DRAW, seat, Tile(tile)), HandEvent(EventKind.DISCARD, seat, Tile(tile))]
    events.append(HandEvent(EventKind.EXHAUSTIVE_DRAW))
    overrides = {"ordinary_hand_wins": True, "seven_pairs": True}
    return SettleRecordRequest("classic", tuple(events), overrides=overrides, request_id="long")


def test_a_long_review_leaves_the_worker_free_for_other_calls(stub):
    """Found as a hostile client: ReviewRecord ran on the worker's event loop. While four reviews
    of a 1.4 KB record ran (1.5 s each, 0.7 s compiled), one worker's Settle calls waited 3 s:
    every other call and the health checks waited for the reviews. A review now runs in a thread,
    and the loop answers the others meanwhile."""
    message = convert.settle_record_request_message(a_long_record())
    assert len(message.SerializeToString()) < 1500
    finished: list[str] = []
    review = stub.ReviewRecord.future(message, timeout=60)
    review.add_done_callback(lambda _: finished.append("review"))
    time.sleep(0.1)  # the review under way
    settle = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    assert stub.Settle(settle, timeout=60).seat_deltas
    finished.append("settle")
    assert len(review.result().discards) == 84
    assert finished == ["settle", "review"]

"""Issue 21, its last finding: calls whose body never arrives. A worker takes 72 gRPC calls at
once and a connection 18, counted from a call's headers; four raw HTTP/2 connections each
opening 18 streams and sending 1 KB of a Settle body they never finish (answering pings) held
all 72 for as long as they liked, and every other client's call on that worker was
RESOURCE_EXHAUSTED (72 KB of traffic, no deadline sent). Now a call's request must be whole
within `--grpc-body-timeout-s` of its headers, a SettleStream's next message within it of the
answer before; the call then ends CANCELLED, reason BODY_TIMEOUT, logged at info and counted."""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time

import grpc
import pytest
from mahjong.shanghai.v1 import settlement_pb2 as pb
from mahjong.shanghai.v1.scoring_service_pb2_grpc import ScoringServiceStub

import convert
from server import body_deadline
from server.config import ServerConfig, parse_config
from tests.server.conftest import run_server
from tests.server.error_details import error_info
from tests.server.raw_h2 import RawGrpcCall, RawGrpcConnection, grpc_frame
from tests.worked_examples import WORKED_EXAMPLES

SERVICE = "mahjong.shanghai.v1.ScoringService"
NAME, REQUEST, DELTAS, _ = WORKED_EXAMPLES[0]
SETTLE_BODY = convert.settle_request_message(REQUEST).SerializeToString()


def address(server) -> tuple[str, int]:
    host, port = server.address.split(":")
    return host, int(port)


def rpc_lines(server, code: str) -> list[dict]:
    lines = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
    return [line for line in lines if line.get("event") == "rpc" and line["code"] == code]


def handled(server, code: str, method: str = "Settle", expected: float | None = None) -> float:
    """``grpc_server_handled_total`` of ``method`` and ``code``; given ``expected``, read again
    until it is that (for a while): a call is counted just after its client has its answer."""
    wanted = f'grpc_server_handled_total{{grpc_code="{code}",grpc_method="{method}",grpc_service="{SERVICE}"'
    give_up = time.monotonic() + 10
    while True:
        found = [float(line.rsplit(" ", 1)[1]) for line in server.metrics().splitlines() if line.startswith(wanted)]
        count = found[0] if found else 0.0
        if expected is None or count == expected or time.monotonic() > give_up:
            return count
        time.sleep(0.05)


def settled_answer(call: RawGrpcCall) -> pb.SettleResponse:
    assert call.status == "0", call.trailers
    length = int.from_bytes(call.messages[1:5], "big")
    assert len(call.messages) == 5 + length  # one answer
    return pb.SettleResponse.FromString(call.messages[5:])


def test_the_default_body_timeout_and_its_flag():
    assert ServerConfig().grpc_body_timeout_s == 10.0
    assert parse_config(["--grpc-body-timeout-s", "2.5"]).grpc_body_timeout_s == 2.5
    assert parse_config([], {"SHMJ_GRPC_BODY_TIMEOUT_S": "4"}).grpc_body_timeout_s == 4.0
    with pytest.raises(SystemExit) as exited:
        parse_config(["--grpc-body-timeout-s", "0"])
    assert exited.value.code == 2


def test_calls_holding_every_slot_with_bodies_that_never_end_are_ended_and_free_the_worker(tmp_path):
    """Four connections of 18 streams, each 1 KB into a Settle body it never finishes: all 72
    of the worker's calls at once (each connection from an address of its own: one address
    has at most 18 waiting, tests/server/test_waiting_share.py). After the body timeout (1 s here) each of them is ended
    CANCELLED, one info line each says so, the metric counts them, and a client on a fresh
    channel is settled."""
    with run_server(tmp_path, "--grpc-body-timeout-s", "1") as server:
        holders = [RawGrpcConnection(address(server), 18, 1024, source=f"127.0.0.{2 + i}") for i in range(4)]
        try:
            give_up = time.monotonic() + 20
            while sum(holder.refused for holder in holders) < 72 and time.monotonic() < give_up:
                for holder in holders:
                    holder.pump()
            assert [(holder.closed, holder.refused, holder.statuses) for holder in holders] == [
                (False, 18, ["1"] * 18)  # CANCELLED, the connection left open
            ] * 4
            with server.channel() as channel:
                answer = ScoringServiceStub(channel).Settle(convert.settle_request_message(REQUEST), timeout=10)
            assert tuple(answer.seat_deltas) == DELTAS, NAME
        finally:
            for holder in holders:
                holder.close()
        lines = [json.loads(line) for line in server.log().splitlines() if '"request not received"' in line]
        assert len(lines) == 72
        assert {(line["level"], line["method"], line["what"], line["timeout_s"]) for line in lines} == {
            ("info", f"{SERVICE}/Settle", "the request", 1.0)
        }
        cancelled = rpc_lines(server, "CANCELLED")
        assert (len(cancelled), {line["level"] for line in cancelled}) == (72, {"info"})
        assert handled(server, "Cancelled", expected=72.0) == 72.0
        assert handled(server, "OK", expected=1.0) == 1.0
        assert '"level": "error"' not in server.log()


def test_a_client_sees_the_status_and_reason_of_a_request_that_did_not_arrive(tmp_path):
    """A call that sends its headers and nothing more (a stream-unary client whose request
    iterator never yields) is ended CANCELLED, ErrorInfo reason BODY_TIMEOUT."""

    ended = threading.Event()

    def never_sends():
        ended.wait(30)
        yield SETTLE_BODY

    with run_server(tmp_path, "--grpc-body-timeout-s", "1") as server, server.channel() as channel:
        settle = channel.stream_unary(f"/{SERVICE}/Settle")
        with pytest.raises(grpc.RpcError) as failed:
            settle(never_sends(), timeout=20)
        ended.set()
    assert failed.value.code() == grpc.StatusCode.CANCELLED
    assert failed.value.details() == "the request did not arrive within 1 s (--grpc-body-timeout-s)"
    assert error_info(failed.value) == ("BODY_TIMEOUT", {"timeout_s": "1"})


def test_a_slow_client_whose_body_arrives_within_the_limit_is_settled(tmp_path):
    """A Settle body sent in four pieces over about 1.2 s, with a 4 s limit: settled."""
    frame = grpc_frame(SETTLE_BODY)
    quarter = len(frame) // 4
    with run_server(tmp_path, "--grpc-body-timeout-s", "4") as server:
        call = RawGrpcCall(address(server))
        try:
            for start in range(0, 3 * quarter, quarter):
                call.send(frame[start : start + quarter])
                time.sleep(0.4)
            call.send(frame[3 * quarter :], end=True)
            call.read_for(10)
            assert tuple(settled_answer(call).seat_deltas) == DELTAS, NAME
        finally:
            call.close()
        assert handled(server, "OK", expected=1.0) == 1.0


def test_unary_calls_keep_their_wire_behaviour(tmp_path):
    """A second message on a unary method is not read, as gRPC's unary path never read it: the
    first is settled. A body without the half-close is answered as well. A half-close before
    one whole message (none, or part of one) is MALFORMED_BODY at once: gRPC's unary path
    never answered such a call, and it held one of the worker's calls till its connection
    closed."""
    frame = grpc_frame(SETTLE_BODY)
    with run_server(tmp_path, "--grpc-body-timeout-s", "30") as server:
        calls = {
            "two messages": (frame + frame, True),
            "no half-close": (frame, False),
            "no message": (b"", True),
            "part of a message": (frame[:20], True),
        }
        answered = {}
        for name, (body, end) in calls.items():
            call = RawGrpcCall(address(server))
            try:
                if body:
                    call.send(body, end=end)
                else:
                    call.half_close()
                call.read_for(10)  # well under the body timeout: answered, not timed out
                answered[name] = call
            finally:
                call.close()
        for name in ("two messages", "no half-close"):
            assert tuple(settled_answer(answered[name]).seat_deltas) == DELTAS, name
        for name in ("no message", "part of a message"):
            assert (answered[name].status, answered[name].trailers.get("grpc-message")) == (
                "3",
                "the call was half-closed without a whole request message",
            ), name
        assert (handled(server, "OK", expected=2.0), handled(server, "InvalidArgument", expected=2.0)) == (2.0, 2.0)


def test_a_deadline_or_cancel_while_the_request_arrives_is_what_it_is_not_a_malformed_body(tmp_path):
    """Found with issue 21's last race: grpc.aio's read gives the same end-of-stream for a
    call that ended (its deadline passed, its client cancelled) as for a half-close, so a
    call whose deadline passed while its body was still arriving (a large batch over a slow
    link, or a loaded machine: the suite's 2,000-hand batches with deadlines of milliseconds)
    was logged and counted INVALID_ARGUMENT, "half-closed without a whole request message".
    The abort's status then cannot be sent, the call having ended: the call is what ended it."""
    frame = grpc_frame(SETTLE_BODY)
    with run_server(tmp_path, "--grpc-body-timeout-s", "30") as server:
        past_deadline = RawGrpcCall(address(server), timeout="1S")
        cancelled = RawGrpcCall(address(server))
        try:
            past_deadline.send(frame[:20])
            cancelled.send(frame[:20])
            past_deadline.read_for(10)
            cancelled.cancel()
            assert (past_deadline.ended, past_deadline.status) == (True, "4")  # DEADLINE_EXCEEDED
            assert handled(server, "Cancelled", expected=1.0) == 1.0
        finally:
            past_deadline.close()
            cancelled.close()
        assert (handled(server, "DeadlineExceeded"), handled(server, "InvalidArgument")) == (1.0, 0.0)
        assert [line["code"] for line in rpc_lines(server, "DEADLINE_EXCEEDED") + rpc_lines(server, "CANCELLED")] == [
            "DEADLINE_EXCEEDED",
            "CANCELLED",
        ]
        logged = [json.loads(line) for line in server.log().splitlines()]
        assert [e for e in logged if e["level"] != "info"] == []


def test_a_stream_whose_next_message_does_not_come_is_ended_after_its_answers(tmp_path):
    """SettleStream: two requests answered, then nothing for longer than the limit (1 s):
    the stream ends CANCELLED BODY_TIMEOUT after both answers, naming the message it waited
    for."""
    message = convert.settle_request_message(REQUEST)

    ended = threading.Event()

    def two_then_silence():
        yield message
        yield message
        ended.wait(30)

    with run_server(tmp_path, "--grpc-body-timeout-s", "1") as server, server.channel() as channel:
        answers = []
        with pytest.raises(grpc.RpcError) as failed:
            for answer in ScoringServiceStub(channel).SettleStream(two_then_silence(), timeout=20):
                answers.append(tuple(answer.seat_deltas))
        ended.set()
        assert answers == [DELTAS, DELTAS]
        assert failed.value.code() == grpc.StatusCode.CANCELLED
        assert failed.value.details() == "message 3 of the stream did not arrive within 1 s (--grpc-body-timeout-s)"
        assert error_info(failed.value) == ("BODY_TIMEOUT", {"timeout_s": "1"})
        assert handled(server, "Cancelled", "SettleStream", 1.0) == 1.0


def test_a_stream_that_keeps_sending_within_the_limit_is_served_in_full(tmp_path):
    """Messages 0.5 s apart under a 1.5 s limit: the limit is per message, not per stream
    (the stream runs about 2.5 s)."""
    message = convert.settle_request_message(REQUEST)

    def paced():
        for _ in range(5):
            yield message
            time.sleep(0.5)

    with run_server(tmp_path, "--grpc-body-timeout-s", "1.5") as server, server.channel() as channel:
        answers = [tuple(a.seat_deltas) for a in ScoringServiceStub(channel).SettleStream(paced(), timeout=20)]
        assert answers == [DELTAS] * 5
        assert handled(server, "OK", "SettleStream", 1.0) == 1.0


def test_the_sweeper_cancels_only_the_waits_past_their_deadline():
    """`server.body_deadline`: a sweep cancels the tasks whose deadline has passed, and only
    those; a cancelled task is `expired` once (its cancel then withdrawn, so that it can
    answer), a task cancelled otherwise (the client went) is not."""

    async def scenario():
        never = asyncio.Event()
        late, early, other = (asyncio.create_task(never.wait()) for _ in range(3))
        body_deadline.REQUESTS[late] = 10.0
        body_deadline.NEXT_MESSAGES[early] = 20.0
        try:
            assert body_deadline.sweep(15.0) == 1
            assert (body_deadline.REQUESTS, body_deadline.NEXT_MESSAGES) == ({}, {early: 20.0})
            other.cancel()
            await asyncio.gather(late, other, return_exceptions=True)
            assert (late.cancelled(), early.done()) == (True, False)
            assert (body_deadline.expired(late), body_deadline.expired(late), body_deadline.expired(other)) == (
                True,
                False,
                False,
            )
            assert body_deadline.EXPIRED == set()
        finally:
            body_deadline.NEXT_MESSAGES.clear()
            early.cancel()

    asyncio.run(scenario())
    assert [body_deadline.sweep_period(s) for s in (1.0, 10.0, 60.0)] == [0.1, 1.0, 1.0]


def test_a_drain_does_not_wait_for_requests_that_have_not_arrived(tmp_path):
    """A unary call whose request comes while draining is held, never answered, so the drain
    does not wait for calls still waiting for theirs: with 72 held bodies and a grace period
    of 20 s (the body timeout 30 s) the worker exits at once after its NOT_SERVING delay,
    without cutting calls at the end of its grace, and the holders' connections close."""
    args = ("--grpc-body-timeout-s", "30", "--grace-period-s", "20", "--shutdown-delay-s", "0.2")
    with run_server(tmp_path, *args) as server:
        holders = [RawGrpcConnection(address(server), 18, 1024, source=f"127.0.0.{2 + i}") for i in range(4)]
        try:
            for _ in range(10):
                for holder in holders:
                    holder.pump()
            server.process.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
            assert server.process.wait(timeout=30) == 0
            took = time.monotonic() - signalled
            for _ in range(20):
                for holder in holders:
                    holder.pump()
            assert [holder.closed for holder in holders] == [True] * 4
        finally:
            for holder in holders:
                holder.close()
        assert took < 10, took  # the grace period is 20 s
        assert "grace period ending" not in server.log()

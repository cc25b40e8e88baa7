"""Issue 21, its last gap: the body deadline ends held calls, not the client holding them. One
address opening 4 connections x 18 streams, sending 1 KB of each body and reopening each
stream as the deadline ends it, kept the worker's 72 calls at once full (284
RESOURCE_EXHAUSTED and 1 OK for everyone else in 30 s). Now an address may have a share of the
calls waiting for their request, a connection's (18): a call past it is refused at once,
RESOURCE_EXHAUSTED, TOO_MANY_WAITING_CALLS, counted, and noted in one line per 10 s at most.
Loopback is the whole of 127.0.0.0/8: the hostile client comes from 127.0.0.2."""

from __future__ import annotations

import json
import threading
import time

import grpc
from mahjong.shanghai.v1.scoring_service_pb2_grpc import ScoringServiceStub

import convert
from server.peer_share import peer_host
from tests.server.conftest import run_server
from tests.server.error_details import trailers_error_info
from tests.server.raw_h2 import RawGrpcCall, RawGrpcConnection, grpc_frame
from tests.server.test_body_timeout import SETTLE_BODY, address, rpc_lines, settled_answer
from tests.worked_examples import WORKED_EXAMPLES

HOSTILE = "127.0.0.2"
REFUSED = ("8", "TOO_MANY_WAITING_CALLS", (("share", "18"),))  # RESOURCE_EXHAUSTED


def ending(status: str, details_bin: str) -> tuple:
    """(grpc-status, ErrorInfo reason, its metadata's items) of a raw call's trailers."""
    reason, metadata = trailers_error_info(details_bin)
    return status, reason, tuple(sorted(metadata.items()))


def refused_total(server, expected: float) -> float:
    """``shmj_waiting_calls_refused_total``, read until it is ``expected`` (for a while): a
    refusal is counted as it is sent, the client may read it first."""
    give_up = time.monotonic() + 10
    while True:
        lines = [line for line in server.metrics().splitlines() if line.startswith("shmj_waiting_calls_refused_total ")]
        count = float(lines[0].rsplit(" ", 1)[1]) if lines else 0.0
        if count == expected or time.monotonic() > give_up:
            return count
        time.sleep(0.05)


def settle_worked_examples(server, stop: threading.Event, made: list, settled: list) -> None:
    """A well-behaved client on 127.0.0.1: every worked example settled in turn until ``stop``;
    each call made goes in ``made``, each answered with the example's deltas in ``settled``."""
    with server.channel() as channel:
        settle = ScoringServiceStub(channel).Settle
        while not stop.is_set():
            for name, request, deltas, _ in WORKED_EXAMPLES:
                made.append(name)
                try:
                    answer = settle(convert.settle_request_message(request), timeout=5)
                except grpc.RpcError as error:
                    settled.append((name, error.code().name))
                    continue
                settled.append(name if tuple(answer.seat_deltas) == deltas else (name, tuple(answer.seat_deltas)))


def test_an_address_reopening_held_calls_cannot_keep_other_clients_out(tmp_path):
    """From 127.0.0.2, 4 connections x 18 streams, 1 KB of each Settle body, each stream
    reopened as the server ends it, for 6 s under a 1 s body timeout; from 127.0.0.1, worked
    examples settled throughout: every one of them OK. The hostile streams past the share were
    refused at once, reason TOO_MANY_WAITING_CALLS read from the wire, the metric counts each,
    one info line notes them (not one per call, nor an rpc line each); the held ones end
    BODY_TIMEOUT (CANCELLED)."""
    with run_server(tmp_path, "--grpc-body-timeout-s", "1") as server:
        holders = [RawGrpcConnection(address(server), 18, 1024, reopen=True, source=HOSTILE) for _ in range(4)]
        stop = threading.Event()
        made: list = []
        settled: list = []
        prober = threading.Thread(target=settle_worked_examples, args=(server, stop, made, settled))
        try:
            for _ in range(3):  # the holders in place first
                for holder in holders:
                    holder.pump()
            prober.start()
            held_until = time.monotonic() + 6
            while time.monotonic() < held_until:
                for holder in holders:
                    holder.pump()
            stop.set()
            prober.join()
            for holder in holders:
                holder.reopen, holder.to_open = False, 0
            settle_by = time.monotonic() + 3  # the held streams end within the body timeout
            while time.monotonic() < settle_by:
                for holder in holders:
                    holder.pump()
        finally:
            stop.set()
            for holder in holders:
                holder.close()
        names = [name for name, *_ in WORKED_EXAMPLES]
        assert len(made) >= len(names), made
        assert settled == made  # each call made, settled with the example's deltas
        endings = [
            ending(status, details)
            for holder in holders
            for status, details in zip(holder.statuses, holder.details, strict=True)
        ]
        assert set(endings) - {REFUSED} == {("1", "BODY_TIMEOUT", (("timeout_s", "1"),))}
        refusals = endings.count(REFUSED)
        assert refusals >= 54, refusals  # at least the first flight past the share
        assert refused_total(server, refusals) == refusals
        notes = [json.loads(line) for line in server.log().splitlines() if '"calls refused: too many waiting' in line]
        assert [(n["level"], n["peer_host"], n["share"], n["every_s"]) for n in notes] == [("info", HOSTILE, 18, 10.0)]
        assert rpc_lines(server, "RESOURCE_EXHAUSTED") == []
        assert '"level": "error"' not in server.log()


def test_streams_waiting_for_their_next_message_count_in_their_address_share(tmp_path):
    """18 SettleStreams from 127.0.0.1, each answered once and then idle, wait for their next
    message: the address has its share waiting, and a Settle from it is refused at once
    (RESOURCE_EXHAUSTED, TOO_MANY_WAITING_CALLS) where one from 127.0.0.2 is settled. Once the
    streams end, 127.0.0.1 is settled again."""
    name, request, deltas, _ = WORKED_EXAMPLES[0]
    message = convert.settle_request_message(request)
    release = threading.Event()

    def one_then_idle():
        yield message
        release.wait(30)

    def settle_raw(source: str) -> RawGrpcCall:
        call = RawGrpcCall(address(server), source=source)
        try:
            call.send(grpc_frame(SETTLE_BODY), end=True)
            call.read_for(10)
        finally:
            call.close()
        return call

    with run_server(tmp_path, "--grpc-body-timeout-s", "30") as server, server.channel() as channel:
        streams = [ScoringServiceStub(channel).SettleStream(one_then_idle(), timeout=40) for _ in range(18)]
        try:
            assert [tuple(next(stream).seat_deltas) for stream in streams] == [deltas] * 18, name
            time.sleep(0.2)  # each stream back waiting for message 2
            refused = settle_raw("127.0.0.1")
            assert ending(refused.status, refused.trailers["grpc-status-details-bin"]) == REFUSED
            assert refused.trailers["grpc-message"] == (
                "this client address has 18 calls waiting for their request already; send them, then retry"
            )
            assert tuple(settled_answer(settle_raw(HOSTILE)).seat_deltas) == deltas, name
        finally:
            release.set()
        assert [list(stream) for stream in streams] == [[]] * 18
        assert tuple(settled_answer(settle_raw("127.0.0.1")).seat_deltas) == deltas, name
        assert refused_total(server, 1.0) == 1.0


def test_the_address_of_a_peer_is_its_host_without_the_port():
    assert [
        peer_host(peer)
        for peer in (
            "ipv4:127.0.0.2:51234",
            "ipv6:[::1]:51234",
            "ipv6:[2001:db8::7]:443",
            "ipv4:10.0.0.1",
            "unix:/run/shmj.sock",
        )
    ] == ["127.0.0.2", "::1", "2001:db8::7", "10.0.0.1", "unix:/run/shmj.sock"]


def test_an_address_holding_health_watch_streams_has_its_share_and_no_more(tmp_path):
    """Health's Watch is a server stream its clients rightly hold open (gRPC's client-side
    health checking holds one per connection), and each holds one of the worker's calls at
    once: 72 of them from one address took every call. A Watch counts in its address's share
    for as long as it is open: from 127.0.0.2 the 19th is refused at once, TOO_MANY_WAITING_CALLS,
    and so is a Settle from there while the 18 are open; 127.0.0.1 settles throughout; when the
    watches close, 127.0.0.2 settles again."""
    from grpc_health.v1 import health_pb2

    watch = grpc_frame(health_pb2.HealthCheckRequest(service="").SerializeToString())
    with run_server(tmp_path, "--workers", "1") as server:
        watches = []
        try:
            for _ in range(18):
                call = RawGrpcCall(address(server), "/grpc.health.v1.Health/Watch", source=HOSTILE)
                call.send(watch, end=True)
                call.read_for(0.5)  # its first answer, SERVING, and the stream stays open
                watches.append(call)
            assert [(c.ended, c.messages[5:]) for c in watches] == [
                (False, health_pb2.HealthCheckResponse(status="SERVING").SerializeToString())
            ] * 18
            one_more = RawGrpcCall(address(server), "/grpc.health.v1.Health/Watch", source=HOSTILE)
            one_more.send(watch, end=True)
            one_more.read_for(5)
            assert ending(one_more.status, one_more.trailers.get("grpc-status-details-bin", "")) == REFUSED
            settle = RawGrpcCall(address(server), source=HOSTILE)
            settle.send(grpc_frame(SETTLE_BODY), end=True)
            settle.read_for(5)
            assert ending(settle.status, settle.trailers.get("grpc-status-details-bin", "")) == REFUSED
            welcome = RawGrpcCall(address(server))  # from 127.0.0.1
            welcome.send(grpc_frame(SETTLE_BODY), end=True)
            welcome.read_for(5)
            answered = settled_answer(welcome)
            assert refused_total(server, 2) == 2
        finally:
            for call in watches:
                call.close()
        time.sleep(0.5)  # the server sees the watches' connections close
        again = RawGrpcCall(address(server), source=HOSTILE)
        again.send(grpc_frame(SETTLE_BODY), end=True)
        again.read_for(5)
        assert settled_answer(again) == answered

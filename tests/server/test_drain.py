"""Issue 8, finding 6: at SIGTERM, calls in flight finish within the grace period or end
UNAVAILABLE, which the client library retries; never CANCELLED."""

from __future__ import annotations

import collections
import concurrent.futures
import json
import signal
import threading
import time

import grpc
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc

import convert
import rules_core as rc
from generators.random_hands import generate_requests
from rules_core.errors import InvalidRequest
from tests.server.conftest import run_server, wait_logged

HANDS = [convert.settle_request_message(r) for r in generate_requests(2000, 12)]


def _valid(request) -> bool:
    try:
        rc.settle(request)
        return True
    except InvalidRequest:
        return False


VALID_HANDS = [convert.settle_request_message(r) for r in generate_requests(400, 12) if _valid(r)]


def outcome(call) -> grpc.StatusCode:
    try:
        call()
        return grpc.StatusCode.OK
    except grpc.RpcError as error:
        return error.code()


def test_calls_longer_than_the_grace_period_end_unavailable_not_cancelled(tmp_path):
    """Finding 6: a call in flight at SIGTERM came back CANCELLED, which no retry policy retries."""
    args = ("--grace-period-s", "1", "--shutdown-delay-s", "0.2", "--max-batch-size", "1000000")
    args += ("--max-request-bytes", "16777216")  # the batch of 200,000 hands is about 14 MB
    with run_server(tmp_path, *args) as server:
        stub = server.stub()
        huge_batch = svc.SettleBatchRequest(requests=HANDS * 100)  # 200,000 hands: several seconds

        def endless_stream():
            while True:
                yield from HANDS[:50]
                time.sleep(0.05)

        def stream():
            for _ in stub.SettleStream(endless_stream(), timeout=60):
                pass

        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            calls = [
                pool.submit(outcome, lambda: stub.SettleBatch(huge_batch, timeout=60)),
                pool.submit(outcome, stream),
                pool.submit(outcome, stream),
            ]
            time.sleep(1.0)  # all three are being served
            server.process.send_signal(signal.SIGTERM)
            codes = [call.result(timeout=60) for call in calls]
        assert codes == [grpc.StatusCode.UNAVAILABLE] * 3
        assert server.process.wait(timeout=30) == 0
        wait_logged(server, "stopped", 2)
        assert "CANCELLED" not in server.log()


def sigterm_under_load(tmp_path, batches: int) -> collections.Counter:
    """How the calls of 64 clients sending non-stop (each retrying 5 ms after an error), and of
    ``batches`` clients sending SettleBatch calls of 10,000 hands, end across a SIGTERM to a
    2-worker server. Also run by `bench.drain_under_load`."""
    args = ("--grace-period-s", "3", "--shutdown-delay-s", "0.3", "--max-batch-size", "1000000")
    codes: collections.Counter = collections.Counter()
    answered: set[str] = set()  # the clients with an answer OK so far
    lock = threading.Lock()
    with run_server(tmp_path, *args, workers=2) as server:
        # one connection each (channels with the same options share one), hashed over both workers
        channels = [
            grpc.insecure_channel(server.address, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(16)
        ]
        stubs = [scoring_service_pb2_grpc.ScoringServiceStub(channel) for channel in channels]
        gone = threading.Event()

        def note(code: grpc.StatusCode, who: str) -> grpc.StatusCode:
            with lock:
                codes[code] += 1
                if code == grpc.StatusCode.OK:
                    answered.add(who)
            return code

        def client(index: int) -> None:
            stub, sent = stubs[index % len(stubs)], 0
            while not gone.is_set():
                hand = VALID_HANDS[(index * 31 + sent) % len(VALID_HANDS)]
                sent += 1
                if (
                    note(outcome(lambda hand=hand: stub.Settle(hand, timeout=20)), f"client {index}")
                    != grpc.StatusCode.OK
                ):
                    time.sleep(0.005)  # the retry a client would make, without its backoff

        def batcher(index: int) -> None:
            batch = svc.SettleBatchRequest(requests=HANDS * 5)  # 10,000 hands: well over a second here
            while not gone.is_set():
                note(outcome(lambda: stubs[index].SettleBatch(batch, timeout=30)), f"batcher {index}")

        threads = [threading.Thread(target=client, args=(i,)) for i in range(64)]
        threads += [threading.Thread(target=batcher, args=(i,)) for i in range(batches)]
        for thread in threads:
            thread.start()
        try:
            # Every client answered, on both workers, the batchers in their next batch: on a
            # loaded machine that takes more than the 3 s it takes on a quiet one.
            wait_for(lambda: len(answered) == len(threads) and len(settling_workers(server)) == 2)
        except BaseException:
            gone.set()
            raise
        server.process.send_signal(signal.SIGTERM)
        try:
            assert server.process.wait(timeout=120) == 0
        finally:
            time.sleep(0.5)  # calls made while the ports were closing
            gone.set()
            for thread in threads:
                thread.join(timeout=30)
            for channel in channels:
                channel.close()
    return codes


def settling_workers(server) -> set[int]:
    """The pids of the workers that have logged a Settle."""
    return {
        json.loads(line)["pid"]
        for line in server.log().splitlines()
        if '"method": "mahjong.shanghai.v1.ScoringService/Settle"' in line
    }


def wait_for(condition, timeout: float = 120.0) -> None:
    give_up = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > give_up:
            raise AssertionError(f"not within {timeout:g} s: {condition}")
        time.sleep(0.1)


def test_sigterm_under_non_stop_load_ends_every_call_ok_or_unavailable(tmp_path):
    """Issue 8, what stop 16 left: with 64 clients sending non-stop, 55 to 60 calls ended
    CANCELLED across a SIGTERM: calls gRPC's core had taken in but no handler had taken up when
    gRPC stopped (the drain's UNAVAILABLE answers came back at once, the clients' next calls
    flooded the core, and calls waited there overtaken by later ones), and calls that reached
    the other worker in the instant its stop began. Now a draining worker holds the calls that
    start, so their clients send no more, and exits without gRPC's stop (`server.drain`)."""
    codes = sigterm_under_load(tmp_path, batches=0)
    assert codes[grpc.StatusCode.OK] > 0 and codes[grpc.StatusCode.UNAVAILABLE] > 0  # served, then drained
    assert set(codes) == {grpc.StatusCode.OK, grpc.StatusCode.UNAVAILABLE}, codes


def test_sigterm_with_long_batches_in_flight_ends_every_call_ok_or_unavailable(tmp_path):
    """What the test above left: with 4 clients sending 10,000-hand batches as well, 5 runs in 28
    (bench.drain_under_load) still had CANCELLED calls, 1 to 39 of them: calls from
    before the SIGTERM that gRPC's core still held, never handed to the worker, when gRPC's
    stop began, and calls sent right after an answer into a worker whose stop had begun. A
    draining worker now never calls gRPC's stop: it holds new calls, lets the working ones
    finish, and exits; the closing connections end every call left UNAVAILABLE. One run here
    (0 CANCELLED in each of the bench's 29 runs since; docs/RELIABILITY.md)."""
    codes = sigterm_under_load(tmp_path, batches=4)
    assert codes[grpc.StatusCode.OK] > 0 and codes[grpc.StatusCode.UNAVAILABLE] > 0
    assert set(codes) == {grpc.StatusCode.OK, grpc.StatusCode.UNAVAILABLE}, codes

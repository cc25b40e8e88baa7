"""Issue 8, finding 6: at SIGTERM, calls in flight finish within the grace period or end
UNAVAILABLE, which the client library retries; never CANCELLED."""

from __future__ import annotations

import collections
import concurrent.futures
import signal
import threading
import time

import grpc
import pytest
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc

import convert
import rules_core as rc
from rules_core.errors import InvalidRequest
from rules_core.random_hands import generate_requests
from tests.server.conftest import run_server, wait_logged

STARVED_CALLS = (
    "gRPC's core keeps the calls that arrive while the worker has no request for a call outstanding "
    "in a queue that new arrivals overtake (they take the next request first), so under a flood a "
    "call waits there for seconds; gRPC's stop (server.stop, whenever it is called) cancels every "
    "call in that queue: CANCELLED. See docs/RELIABILITY.md"
)

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


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=STARVED_CALLS)
def test_under_heavy_load_a_sigterm_ends_every_call_ok_or_unavailable(tmp_path):
    """Issue 8, what stop 16 left: with 64 clients sending non-stop and long batches in flight,
    about 58 calls still ended CANCELLED across a SIGTERM (calls gRPC's core had taken in but
    no handler had taken up when the server stopped). Every call should be OK or UNAVAILABLE;
    it is not yet (see STARVED_CALLS): strict, so the day it passes it must be unmarked."""
    args = ("--grace-period-s", "3", "--shutdown-delay-s", "0.3", "--max-batch-size", "1000000")
    codes: collections.Counter = collections.Counter()
    lock = threading.Lock()
    with run_server(tmp_path, *args, workers=2) as server:
        # one connection each (channels with the same options share one), hashed over both workers
        channels = [
            grpc.insecure_channel(server.address, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(16)
        ]
        stubs = [scoring_service_pb2_grpc.ScoringServiceStub(channel) for channel in channels]
        gone = threading.Event()

        def note(code: grpc.StatusCode) -> None:
            with lock:
                codes[code] += 1

        def client(index: int) -> None:
            stub, sent = stubs[index % len(stubs)], 0
            while not gone.is_set():
                hand = VALID_HANDS[(index * 31 + sent) % len(VALID_HANDS)]
                code = outcome(lambda hand=hand: stub.Settle(hand, timeout=20))
                note(code)
                sent += 1
                if code != grpc.StatusCode.OK:
                    time.sleep(0.005)  # the retry a client would make, without its backoff

        def batcher(index: int) -> None:
            batch = svc.SettleBatchRequest(requests=HANDS * 5)  # 10,000 hands: well over a second here
            while not gone.is_set():
                note(outcome(lambda: stubs[index].SettleBatch(batch, timeout=30)))

        threads = [threading.Thread(target=client, args=(i,)) for i in range(64)]
        threads += [threading.Thread(target=batcher, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        time.sleep(3.0)  # every client sending, batches in flight on both workers
        server.process.send_signal(signal.SIGTERM)
        try:
            assert server.process.wait(timeout=30) == 0
        finally:
            time.sleep(0.5)  # calls made while the ports were closing
            gone.set()
            for thread in threads:
                thread.join(timeout=30)
            for channel in channels:
                channel.close()
        assert codes[grpc.StatusCode.OK] > 10
        assert codes[grpc.StatusCode.UNAVAILABLE] > 0
        assert set(codes) == {grpc.StatusCode.OK, grpc.StatusCode.UNAVAILABLE}, codes

"""Issue 8, finding 6: at SIGTERM, calls in flight finish within the grace period or end
UNAVAILABLE, which the client library retries; never CANCELLED."""

from __future__ import annotations

import concurrent.futures
import signal
import time

import grpc
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
from rules_core.random_hands import generate_requests
from tests.server.conftest import run_server, wait_logged

HANDS = [convert.settle_request_message(r) for r in generate_requests(2000, 12)]


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

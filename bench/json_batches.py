"""Benchmark: gRPC health latency while large JSON batches run over HTTP in the same worker.

    make bench-json-batches      # or: python -m bench.json_batches --batches 2 --hands 10000

One worker (so the batches and the health checks share it); ``--batches`` clients each send
``SettleBatch`` of ``--hands`` generated hands as JSON over HTTP, one after another, for
``--seconds``; meanwhile a gRPC health check every 10 ms on its own connection, timed. The
target (issue 21, finding 5): health p99 under 200 ms while two 10k-hand JSON batches run.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import sys
import tempfile
import threading
import time
from pathlib import Path

import grpc
from google.protobuf.json_format import MessageToJson
from grpc_health.v1 import health_pb2, health_pb2_grpc
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
from bench.unary_cost import percentiles
from bench.verdict import verdict
from generators.random_hands import generate_requests
from tests.server.conftest import run_server

PATH = "/mahjong.shanghai.v1.ScoringService/SettleBatch"


def _batch_body(hands: int) -> bytes:
    requests = [convert.settle_request_message(r) for r in generate_requests(hands, 5)]
    return MessageToJson(svc.SettleBatchRequest(requests=requests), indent=None).encode()


def _send_batches(url: str, body: bytes, stop: threading.Event, answers: list) -> None:
    host, port = url.rsplit("/", 1)[1].split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=120)
    while not stop.is_set():
        start = time.monotonic()
        connection.request("POST", PATH, body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        answers.append((response.status, time.monotonic() - start))
    connection.close()


async def _health_latencies(address: str, seconds: float) -> list[float]:
    latencies = []
    async with grpc.aio.insecure_channel(address) as channel:
        check = health_pb2_grpc.HealthStub(channel).Check
        await check(health_pb2.HealthCheckRequest(), timeout=10)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            start = time.monotonic()
            await check(health_pb2.HealthCheckRequest(), timeout=10)
            latencies.append(time.monotonic() - start)
            await asyncio.sleep(0.01)
    return latencies


def run(batches: int, hands: int, seconds: float) -> dict:
    body = _batch_body(hands)
    folder = Path(tempfile.mkdtemp(prefix="shmj-json-batches-"))
    with run_server(folder, "--max-batch-size", str(max(hands, 10_000))) as server:
        idle = asyncio.run(_health_latencies(server.address, 2.0))
        stop, answers = threading.Event(), []
        senders = [
            threading.Thread(target=_send_batches, args=(server.http_url, body, stop, answers)) for _ in range(batches)
        ]
        for sender in senders:
            sender.start()
        time.sleep(1.0)  # the batches under way
        loaded = asyncio.run(_health_latencies(server.address, seconds))
        stop.set()
        for sender in senders:
            sender.join()
    return {
        "batches_at_once": batches,
        "hands_per_batch": hands,
        "json_body_bytes": len(body),
        "batches_answered": len(answers),
        "batch_statuses": sorted({status for status, _ in answers}),
        "batch_ms": percentiles([s * 1000 for _, s in answers]) if answers else {},
        "health_idle_ms": percentiles([s * 1000 for s in idle]),
        "health_under_batches_ms": percentiles([s * 1000 for s in loaded]),
        "health_checks": len(loaded),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batches", type=int, default=2, help="JSON batch clients at once")
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--target-p99-ms", type=float, default=200.0)
    parser.add_argument("--report", default="", help="write the report here as JSON")
    args = parser.parse_args(argv)
    report = run(args.batches, args.hands, args.seconds)
    report["passed"] = report["health_under_batches_ms"]["p99_ms"] < args.target_p99_ms
    return verdict(report, args.report)


if __name__ == "__main__":
    sys.exit(main())

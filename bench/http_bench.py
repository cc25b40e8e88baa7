"""Benchmark: what serving HTTP costs gRPC, and what HTTP calls cost, in one run.

    make bench-http      # or: python -m bench.http_bench

One worker is started with the HTTP endpoint off and on, alternately (off, on, off, on), and
gRPC SettleBatch hands/s and unary Settle calls/s are measured each time; the figure is the
ratio on/off. Then unary Settle over Connect (protobuf and JSON, keep-alive connections,
closed loop) is measured against gRPC's on the same server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from google.protobuf.json_format import MessageToJson
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
from bench.service_bench import ROOT, _settles, batch_throughput, free_port, unary_closed_loop
from rules_core.random_hands import generate_requests

PATH = "/mahjong.shanghai.v1.ScoringService/Settle"


class Server:
    def __init__(self, http: bool):
        self.port, self.http_port = free_port(), free_port() if http else 0
        self.log = tempfile.NamedTemporaryFile(prefix="shmj-bench-http-", suffix=".log", delete=False)
        command = [sys.executable, "-m", "server", "--workers", "1", "--port", str(self.port)]
        command += ["--http-port", str(self.http_port), "--metrics-port", "0", "--log-level", "warning"]
        command += ["--max-batch-size", "100000", "--shutdown-delay-s", "0"]
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)
        self.address = f"127.0.0.1:{self.port}"
        time.sleep(3.0)  # started: the worker logs at warning level only

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


async def http_closed_loop(port: int, bodies: list[bytes], content_type: str, connections: int, seconds: float):
    """Calls per second and p50/p99 of unary Connect calls over keep-alive HTTP/1.1 connections."""
    latencies: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def loop(worker: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        index = worker
        while time.perf_counter() < stop_at:
            body = bodies[index % len(bodies)]
            index += connections
            head = f"POST {PATH} HTTP/1.1\r\nHost: bench\r\nContent-Type: {content_type}\r\n"
            t0 = time.perf_counter()
            writer.write(head.encode() + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            headers = await reader.readuntil(b"\r\n\r\n")
            length = next(
                int(line.split(b":")[1])
                for line in headers.split(b"\r\n")
                if line.lower().startswith(b"content-length")
            )
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - t0)
        writer.close()

    start = time.perf_counter()
    await asyncio.gather(*(loop(i) for i in range(connections)))
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {
        "calls_per_second": round(len(latencies) / elapsed, 1),
        "p50_ms": round(latencies[len(latencies) // 2] * 1000, 3),
        "p99_ms": round(latencies[int(len(latencies) * 0.99)] * 1000, 3),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each timed measurement")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--output", default="bench/results/http.json")
    args = parser.parse_args(argv)

    requests = generate_requests(20_000, args.seed)
    messages = [convert.settle_request_message(r) for r in requests]
    batches = [
        svc.SettleBatchRequest(requests=messages[i : i + 1000]).SerializeToString() for i in range(0, 20_000, 1000)
    ]
    valid = [m for m, r in zip(messages, requests, strict=True) if _settles(r)][:5000]
    unary = [m.SerializeToString() for m in valid]

    rounds: dict[str, list[dict]] = {"off": [], "on": []}
    for http in (False, True, False, True):
        server = Server(http)
        try:
            rounds["on" if http else "off"].append(
                {
                    "settle_batch_hands_per_second": asyncio.run(
                        batch_throughput(server.address, batches, 1000, 4, args.seconds)
                    ),
                    "unary_settle": asyncio.run(unary_closed_loop(server.address, unary, 4, 16, args.seconds)),
                }
            )
        finally:
            server.stop()

    def mean(side: str, figure) -> float:
        return sum(figure(r) for r in rounds[side]) / len(rounds[side])

    batch_ratio = mean("on", lambda r: r["settle_batch_hands_per_second"]) / mean(
        "off", lambda r: r["settle_batch_hands_per_second"]
    )
    unary_ratio = mean("on", lambda r: r["unary_settle"]["calls_per_second"]) / mean(
        "off", lambda r: r["unary_settle"]["calls_per_second"]
    )
    print(f"gRPC with HTTP on / off: SettleBatch {batch_ratio:.3f}x, unary Settle {unary_ratio:.3f}x")

    server = Server(True)
    try:
        over = {
            "grpc": asyncio.run(unary_closed_loop(server.address, unary, 4, 16, args.seconds)),
            "connect_proto": asyncio.run(
                http_closed_loop(server.http_port, unary, "application/proto", 16, args.seconds)
            ),
            "connect_json": asyncio.run(
                http_closed_loop(
                    server.http_port,
                    [MessageToJson(m, indent=None).encode() for m in valid],
                    "application/json",
                    16,
                    args.seconds,
                )
            ),
        }
    finally:
        server.stop()
    for name, figures in over.items():
        print(
            f"  unary Settle over {name:<13} {figures['calls_per_second']:>8,.0f} calls/s"
            f"  p50 {figures['p50_ms']} ms  p99 {figures['p99_ms']} ms"
        )
    results = {"rounds": rounds, "grpc_batch_on_over_off": batch_ratio, "grpc_unary_on_over_off": unary_ratio}
    results["unary_settle_by_protocol"] = over
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(results, indent=2) + "\n")
    print(f"figures written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

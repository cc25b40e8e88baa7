"""Benchmark: what serving HTTP costs gRPC, and what a call costs over each protocol, in one run.

    make bench-http      # or: python -m bench.http_bench

One worker is started with the HTTP endpoint off and on, alternately, and gRPC SettleBatch
and unary Settle are measured each time. Then unary Settle over Connect (protobuf and
JSON, keep-alive HTTP/1.1 connections, closed loop) is measured beside gRPC's on one server.
Besides calls per second, each figure has the worker's CPU time per call or hand (from
/proc), which holds steady on a machine that others load, where throughput does not.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from google.protobuf.json_format import MessageToJson
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
from bench.service_bench import ROOT, _settles, batch_throughput, free_port, unary_closed_loop
from generators.random_hands import generate_requests

PATH = "/mahjong.shanghai.v1.ScoringService/Settle"
TICKS = os.sysconf("SC_CLK_TCK")


class Server:
    def __init__(self, http: bool):
        self.port, self.http_port = free_port(), free_port() if http else 0
        self.log = tempfile.NamedTemporaryFile(prefix="shmj-bench-http-", suffix=".log", delete=False)
        command = [sys.executable, "-m", "server", "--workers", "1", "--port", str(self.port)]
        command += ["--http-port", str(self.http_port), "--metrics-port", "0"]
        command += ["--max-batch-size", "100000", "--shutdown-delay-s", "0"]
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)
        self.address = f"127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while not (serving := [line for line in self.log_lines() if line.get("event") == "serving"]):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("server did not start")
            time.sleep(0.1)
        self.worker = serving[0]["pid"]

    def log_lines(self) -> list[dict]:
        text = Path(self.log.name).read_text()
        return [json.loads(line) for line in text.splitlines() if line.startswith("{") and line.endswith("}")]

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.worker}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def with_cpu(server: Server, measure, count_of) -> dict:
    """Run ``measure(server)``; add the worker's CPU microseconds per unit (``count_of(figures)`` units)."""
    before = server.cpu_seconds()
    figures = measure(server)
    if not isinstance(figures, dict):
        figures = {"per_second": figures}
    figures["worker_cpu_us_per_unit"] = round((server.cpu_seconds() - before) / count_of(figures) * 1e6, 2)
    return figures


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
        "calls": len(latencies),
        "calls_per_second": round(len(latencies) / elapsed, 1),
        "p50_ms": round(latencies[len(latencies) // 2] * 1000, 3),
        "p99_ms": round(latencies[int(len(latencies) * 0.99)] * 1000, 3),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each timed measurement")
    parser.add_argument("--rounds", type=int, default=2, help="off/on pairs")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--output", default="bench/results/http-bench.json")
    args = parser.parse_args(argv)

    requests = generate_requests(20_000, args.seed)
    messages = [convert.settle_request_message(r) for r in requests]
    batches = [
        svc.SettleBatchRequest(requests=messages[i : i + 1000]).SerializeToString() for i in range(0, 20_000, 1000)
    ]
    valid = [m for m, r in zip(messages, requests, strict=True) if _settles(r)][:5000]
    unary = [m.SerializeToString() for m in valid]
    seconds = args.seconds

    def calls_of(figures: dict) -> float:
        return figures["calls_per_second"] * seconds  # the closed loops report a rate over about `seconds`

    rounds: dict[str, list[dict]] = {"off": [], "on": []}
    for http in (False, True) * args.rounds:
        server = Server(http)
        try:
            rounds["on" if http else "off"].append(
                {
                    "settle_batch": with_cpu(
                        server,
                        lambda s: asyncio.run(batch_throughput(s.address, batches, 1000, 4, seconds)),
                        lambda f: f["per_second"] * seconds,
                    ),
                    "unary_settle": with_cpu(
                        server, lambda s: asyncio.run(unary_closed_loop(s.address, unary, 4, 16, seconds)), calls_of
                    ),
                }
            )
        finally:
            server.stop()

    def mean(side: str, rpc: str, figure: str) -> float:
        return sum(r[rpc][figure] for r in rounds[side]) / len(rounds[side])

    ratios = {
        f"{rpc}_{figure}_on_over_off": round(mean("on", rpc, figure) / mean("off", rpc, figure), 3)
        for rpc, rate in (("settle_batch", "per_second"), ("unary_settle", "calls_per_second"))
        for figure in (rate, "worker_cpu_us_per_unit")
    }
    print("gRPC with the HTTP endpoint on, over off:")
    for name, ratio in ratios.items():
        print(f"  {name:<48} {ratio:.3f}")

    json_bodies = [MessageToJson(m, indent=None).encode() for m in valid]
    server = Server(True)
    try:
        protocols = {
            "grpc": with_cpu(
                server, lambda s: asyncio.run(unary_closed_loop(s.address, unary, 4, 16, seconds)), calls_of
            ),
            "connect_proto": with_cpu(
                server,
                lambda s: asyncio.run(http_closed_loop(s.http_port, unary, "application/proto", 16, seconds)),
                lambda f: f["calls"],
            ),
            "connect_json": with_cpu(
                server,
                lambda s: asyncio.run(http_closed_loop(s.http_port, json_bodies, "application/json", 16, seconds)),
                lambda f: f["calls"],
            ),
        }
    finally:
        server.stop()
    print("unary Settle by protocol, one worker:")
    for name, figures in protocols.items():
        print(
            f"  {name:<14} {figures['calls_per_second']:>8,.0f} calls/s  p50 {figures['p50_ms']} ms"
            f"  p99 {figures['p99_ms']} ms  worker CPU {figures['worker_cpu_us_per_unit']} µs a call"
        )
    results = {"rounds": rounds, "ratios": ratios, "unary_settle_by_protocol": protocols, "cpus": os.cpu_count()}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(results, indent=2) + "\n")
    print(f"figures written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

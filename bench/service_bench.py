"""Benchmark: the service against the in-process ceiling, with 1 and 2 server workers, in one run.

    make bench-service      # or: python -m bench.service_bench

For each worker count it starts the real server and measures SettleBatch and
SettleStream hands/second, unary Settle throughput and latency (closed loop),
and unary Settle latency under an open-loop 1,000 requests/second. The
in-process rules_core throughput on one core is the ceiling every figure is
divided by. The load client sends pre-serialised bytes over several
connections (SO_REUSEPORT spreads connections, not calls, over workers), so it
takes as little CPU from the server as a client can on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
import rules_core as rc
from bench import unary_cost
from bench.unary_cost import free_port
from rules_core.random_hands import generate_requests

ROOT = Path(__file__).resolve().parents[1]
SERVICE = "/mahjong.shanghai.v1.ScoringService/"


def ceiling(requests) -> float:
    """rules_core settlements per second in this process (one core), best of three passes."""
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        for request in requests:
            try:
                rc.settle(request)
            except rc.InvalidRequest:
                pass
        best = max(best, len(requests) / (time.perf_counter() - start))
    return best


class Server:
    def __init__(self, workers: int):
        self.port = free_port()
        self.workers = workers
        self.log = tempfile.NamedTemporaryFile(prefix="shmj-bench-", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server",
                "--port",
                str(self.port),
                "--workers",
                str(workers),
                "--metrics-port",
                "0",
                "--http-port",
                "0",
                "--log-level",
                "warning",
                "--max-batch-size",
                "100000",
                "--shutdown-delay-s",
                "0",
            ],
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.address = f"127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with grpc.insecure_channel(self.address) as channel:
                    grpc.channel_ready_future(channel).result(timeout=1)
                time.sleep(1.0)  # let every worker finish starting
                return
            except grpc.FutureTimeoutError:
                pass
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


def channels(address: str, count: int) -> list[grpc.aio.Channel]:
    options = [
        ("grpc.use_local_subchannel_pool", 1),
        ("grpc.max_receive_message_length", 256 << 20),
        ("grpc.max_send_message_length", 256 << 20),
    ]
    return [grpc.aio.insecure_channel(address, options=options) for _ in range(count)]


async def batch_throughput(address: str, payloads: list[bytes], size: int, connections: int, seconds: float) -> float:
    """Batches cycle through distinct hands, so no cache of the server's is flattered by repeats."""
    chans = channels(address, connections)
    calls = [c.unary_unary(SERVICE + "SettleBatch") for c in chans]
    done = 0
    sent = 0
    stop_at = time.perf_counter() + seconds

    async def loop(call):
        nonlocal done, sent
        while time.perf_counter() < stop_at:
            payload = payloads[sent % len(payloads)]
            sent += 1
            await call(payload, timeout=120)
            done += size

    await asyncio.gather(*(call(payloads[-1], timeout=120) for call in calls))  # warm every connection
    start = time.perf_counter()
    await asyncio.gather(*(loop(call) for call in calls))
    elapsed = time.perf_counter() - start
    for c in chans:
        await c.close()
    return done / elapsed


async def stream_throughput(address: str, messages: list[bytes], connections: int, rounds: int) -> float:
    chans = channels(address, connections)
    calls = [c.stream_stream(SERVICE + "SettleStream") for c in chans]

    async def one(call) -> int:
        count = 0
        for _ in range(rounds):
            async for _response in call(iter(messages), timeout=300):
                count += 1
        return count

    await asyncio.gather(*(c.channel_ready() for c in chans))
    start = time.perf_counter()
    counts = await asyncio.gather(*(one(call) for call in calls))
    elapsed = time.perf_counter() - start
    for c in chans:
        await c.close()
    return sum(counts) / elapsed


def _percentiles(latencies: list[float]) -> dict[str, float]:
    """p50, p90, p99 and max in ms of latencies in seconds."""
    return unary_cost.percentiles([latency * 1000 for latency in latencies])


async def unary_closed_loop(
    address: str, messages: list[bytes], connections: int, concurrency: int, seconds: float
) -> dict:
    chans = channels(address, connections)
    calls = [c.unary_unary(SERVICE + "Settle") for c in chans]
    latencies: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def loop(worker: int):
        call = calls[worker % len(calls)]
        index = worker
        while time.perf_counter() < stop_at:
            t0 = time.perf_counter()
            await call(messages[index % len(messages)], timeout=30)
            latencies.append(time.perf_counter() - t0)
            index += concurrency

    await asyncio.gather(*(c.channel_ready() for c in chans))
    start = time.perf_counter()
    await asyncio.gather(*(loop(i) for i in range(concurrency)))
    elapsed = time.perf_counter() - start
    for c in chans:
        await c.close()
    return {
        "calls_per_second": round(len(latencies) / elapsed, 1),
        "concurrency": concurrency,
        **_percentiles(latencies),
    }


async def unary_open_loop(address: str, messages: list[bytes], connections: int, rate: float, seconds: float) -> dict:
    chans = channels(address, connections)
    calls = [c.unary_unary(SERVICE + "Settle") for c in chans]
    await asyncio.gather(*(c.channel_ready() for c in chans))
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    errors = 0

    async def one(index: int, scheduled: float):
        nonlocal errors
        try:
            await calls[index % len(calls)](messages[index % len(messages)], timeout=30)
        except grpc.aio.AioRpcError:
            errors += 1
        latencies.append(loop.time() - scheduled)

    tasks = []
    start = loop.time()
    for index in range(int(rate * seconds)):
        scheduled = start + index / rate
        delay = scheduled - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(index, scheduled)))
    await asyncio.gather(*tasks)
    for c in chans:
        await c.close()
    return {"rate": rate, "calls": len(latencies), "errors": errors, **_percentiles(latencies)}


def measure(
    workers: int,
    batch_payloads: list[bytes],
    batch_size: int,
    stream_messages: list[bytes],
    unary_messages: list[bytes],
    seconds: float,
) -> dict:
    server = Server(workers)
    connections = 4 * workers
    try:
        figures = {
            "settle_batch_hands_per_second": asyncio.run(
                batch_throughput(server.address, batch_payloads, batch_size, connections, seconds)
            ),
            "settle_stream_hands_per_second": asyncio.run(
                stream_throughput(server.address, stream_messages, connections, rounds=1)
            ),
            "unary_settle": asyncio.run(
                unary_closed_loop(server.address, unary_messages, connections, concurrency=16, seconds=seconds)
            ),
            "unary_settle_open_loop": asyncio.run(
                unary_open_loop(server.address, unary_messages, connections, rate=1000, seconds=seconds)
            ),
        }
    finally:
        server.stop()
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throughput-seconds", type=float, default=8.0, help="length of each timed measurement")
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument(
        "--distinct-hands", type=int, default=60_000, help="distinct requests the batches cycle through"
    )
    parser.add_argument("--stream-hands", type=int, default=20_000, help="hands per stream and connection")
    parser.add_argument("--workers", default="1,2", help="worker counts to measure")
    parser.add_argument("--output", default="bench/results/service.json")
    parser.add_argument(
        "--unary-only", action="store_true", help="only the unary comparison with a bare grpc.aio servicer (h2load)"
    )
    unary_cost.add_arguments(parser.add_argument_group("unary Settle against a bare grpc.aio servicer"))
    args = parser.parse_args(argv)
    results: dict = {"cpus": os.cpu_count()}
    if not args.unary_only:
        results.update(_throughput(args))
    print("unary Settle against a bare grpc.aio servicer (h2load):", flush=True)
    results["unary_against_bare"] = unary_cost.measure(args)
    unary_cost.report(results["unary_against_bare"])
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(results, indent=2) + "\n")
    print(f"figures written to {args.output}")
    return 0


def _throughput(args) -> dict:
    """Batch, stream and unary throughput with 1 and 2 workers against the in-process ceiling."""

    requests = generate_requests(max(args.distinct_hands, args.stream_hands, 20_000), args.seed)
    messages = [convert.settle_request_message(r) for r in requests]
    valid = [m for m, r in zip(messages, requests, strict=True) if _settles(r)]
    batch_payloads = [
        svc.SettleBatchRequest(requests=messages[i : i + args.batch_size]).SerializeToString()
        for i in range(0, args.distinct_hands - args.batch_size + 1, args.batch_size)
    ]
    stream_messages = [m.SerializeToString() for m in messages[: args.stream_hands]]
    unary_messages = [m.SerializeToString() for m in valid[:5000]]
    top = ceiling(requests[:20_000])
    print(f"in-process ceiling (rules_core, one core): {top:,.0f} settlements/s")

    results: dict = {"ceiling_per_second": top, "workers": {}}
    for workers in (int(w) for w in args.workers.split(",")):
        figures = measure(
            workers, batch_payloads, args.batch_size, stream_messages, unary_messages, args.throughput_seconds
        )
        results["workers"][str(workers)] = figures
        batch = figures["settle_batch_hands_per_second"]
        stream = figures["settle_stream_hands_per_second"]
        unary = figures["unary_settle"]
        open_loop = figures["unary_settle_open_loop"]
        print(f"{workers} worker(s):")
        print(
            f"  SettleBatch   {batch:>10,.0f} hands/s  {batch / top:5.0%} of the ceiling"
            f"  ({batch / top / workers:.0%} per worker)"
        )
        print(f"  SettleStream  {stream:>10,.0f} hands/s  {stream / top:5.0%} of the ceiling")
        print(
            f"  Settle        {unary['calls_per_second']:>10,.0f} calls/s  {unary['calls_per_second'] / top:5.0%}"
            f" of the ceiling; closed loop x{unary['concurrency']}: p50 {unary['p50_ms']} ms p99 {unary['p99_ms']} ms"
        )
        print(
            f"  Settle at {open_loop['rate']:g}/s open loop: p50 {open_loop['p50_ms']} ms p99 {open_loop['p99_ms']} ms"
            f" max {open_loop['max_ms']} ms, {open_loop['errors']} errors"
        )
    if "1" in results["workers"] and "2" in results["workers"]:
        one, two = results["workers"]["1"], results["workers"]["2"]
        scale = two["settle_batch_hands_per_second"] / one["settle_batch_hands_per_second"]
        results["two_workers_over_one_batch"] = scale
        print(f"2 workers / 1 worker (SettleBatch): {scale:.2f}x")
    return results


def _settles(request) -> bool:
    try:
        rc.settle(request)
        return True
    except rc.InvalidRequest:
        return False


if __name__ == "__main__":
    sys.exit(main())

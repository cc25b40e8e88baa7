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
import gc
import json
import os
import signal
import statistics
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
from bench.batch_in_process import handler_rate, step_costs
from bench.engine_rate import settle_rate
from bench.unary_cost import cpu_seconds, free_port
from generators.random_hands import generate_requests
from server import garbage

ROOT = Path(__file__).resolve().parents[1]
SERVICE = "/mahjong.shanghai.v1.ScoringService/"


def ceiling(requests) -> float:
    """rules_core settlements per CPU-second in this process (one core), best of three passes,
    what the bench built frozen (`bench.engine_rate`) and the cyclic collector's thresholds a
    server worker has (`server.garbage`), so that the engine runs as in a worker."""
    previous = gc.get_threshold()
    gc.set_threshold(garbage.GEN0_THRESHOLD, garbage.GEN1_THRESHOLD, garbage.GEN2_THRESHOLD)
    try:
        return settle_rate(requests, passes=3)
    finally:
        gc.set_threshold(*previous)


class Server:
    def __init__(self, workers: int, checkout: Path = ROOT):
        """The server of ``checkout`` (another checkout of the project: a before/after figure)."""
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
            cwd=checkout,
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

    def worker_cpu(self) -> float:
        """CPU seconds of the worker processes so far."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        workers = [int(c) for c in children if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]
        return sum(cpu_seconds(pid) for pid in workers if b"resource_tracker" not in _command(pid))

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


def _command(pid: int) -> bytes:
    return Path(f"/proc/{pid}/cmdline").read_bytes()


def channels(address: str, count: int) -> list[grpc.aio.Channel]:
    options = [
        ("grpc.use_local_subchannel_pool", 1),
        ("grpc.max_receive_message_length", 256 << 20),
        ("grpc.max_send_message_length", 256 << 20),
    ]
    return [grpc.aio.insecure_channel(address, options=options) for _ in range(count)]


async def batch_throughput(
    address: str, payloads: list[bytes], size: int, connections: int, seconds: float, worker_cpu=None
) -> dict:
    """Batches cycle through distinct hands, so no cache of the server's is flattered by repeats.
    Hands per second, and per CPU-second of the server's workers when ``worker_cpu`` reads it."""
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
    cpu = worker_cpu() if worker_cpu else 0.0
    start = time.perf_counter()
    await asyncio.gather(*(loop(call) for call in calls))
    elapsed = time.perf_counter() - start
    figures = {"hands_per_second": done / elapsed}
    if worker_cpu:
        figures["hands_per_worker_cpu_second"] = done / (worker_cpu() - cpu)
    for c in chans:
        await c.close()
    return figures


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
        batch = asyncio.run(
            batch_throughput(server.address, batch_payloads, batch_size, connections, seconds, server.worker_cpu)
        )
        figures = {
            "settle_batch_hands_per_second": batch["hands_per_second"],
            "settle_batch_hands_per_worker_cpu_second": batch["hands_per_worker_cpu_second"],
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
    parser.add_argument("--output", default="bench/results/service-bench.json")
    parser.add_argument(
        "--unary-only", action="store_true", help="only the unary comparison with a bare grpc.aio servicer (h2load)"
    )
    parser.add_argument(
        "--batch-only",
        action="store_true",
        help="only SettleBatch with one worker against the ceiling, --batch-rounds times (--baseline's server too)",
    )
    parser.add_argument("--batch-rounds", type=int, default=3, help="rounds of --batch-only")
    unary_cost.add_arguments(parser.add_argument_group("unary Settle against a bare grpc.aio servicer"))
    args = parser.parse_args(argv)
    results: dict = {"cpus": os.cpu_count()}
    if args.batch_only:
        results.update(batch_rounds(args))
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(json.dumps(results, indent=2) + "\n")
        print(f"figures written to {args.output}")
        return 0
    if not args.unary_only:
        results.update(_throughput(args))
    print("unary Settle against a bare grpc.aio servicer (h2load):", flush=True)
    results["unary_against_bare"] = unary_cost.measure(args)
    unary_cost.report(results["unary_against_bare"])
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(results, indent=2) + "\n")
    print(f"figures written to {args.output}")
    return 0


def _batches(args) -> tuple[list, list, list[bytes]]:
    """The generated requests, their messages and the serialised batches of ``--distinct-hands``."""
    requests = generate_requests(max(args.distinct_hands, args.stream_hands, 20_000), args.seed)
    messages = [convert.settle_request_message(r) for r in requests]
    batch_payloads = [
        svc.SettleBatchRequest(requests=messages[i : i + args.batch_size]).SerializeToString()
        for i in range(0, args.distinct_hands - args.batch_size + 1, args.batch_size)
    ]
    return requests, messages, batch_payloads


def batch_rounds(args) -> dict:
    """SettleBatch with one worker against the ceiling and against this checkout's handler in
    this process (`bench.batch_in_process`), round after round; with ``--baseline``, that
    checkout's server too, the two alternating first and second (A/B in one run)."""
    requests, _, payloads = _batches(args)
    checkouts = {"this": ROOT, **({"baseline": Path(args.baseline)} if args.baseline else {})}
    steps = step_costs(payloads[:20])
    print("the handler's steps in this process, CPU us a hand: " + ", ".join(f"{k} {v:.1f}" for k, v in steps.items()))
    rounds = []
    for number in range(args.batch_rounds):
        top = ceiling(requests[:20_000])
        in_process = handler_rate(payloads)
        figures: dict = {
            "ceiling_per_cpu_second": top,
            "in_process_handler_per_cpu_second": in_process,
            "load": os.getloadavg()[0],
        }
        order = list(checkouts.items())
        for name, checkout in order[::-1] if number % 2 else order:
            server = Server(1, checkout)
            try:
                batch = asyncio.run(
                    batch_throughput(
                        server.address, payloads, args.batch_size, 4, args.throughput_seconds, server.worker_cpu
                    )
                )
            finally:
                server.stop()
            figures[name] = {
                **batch,
                "of_ceiling": batch["hands_per_second"] / top,
                "per_cpu_of_ceiling": batch["hands_per_worker_cpu_second"] / top,
                "per_cpu_of_in_process": batch["hands_per_worker_cpu_second"] / in_process,
            }
        rounds.append(figures)
        print(
            f"round {number + 1}: ceiling {top:,.0f}/CPU-s, handler in process {in_process:,.0f}/CPU-s,"
            f" load {figures['load']:.1f}; "
            + "; ".join(
                f"{name} {f['hands_per_second']:,.0f} hands/s = {f['of_ceiling']:.0%}, "
                f"{f['hands_per_worker_cpu_second']:,.0f} per worker CPU-s = {f['per_cpu_of_ceiling']:.0%}"
                f" ({f['per_cpu_of_in_process']:.0%} of in process)"
                for name, f in figures.items()
                if name in checkouts
            ),
            flush=True,
        )
    keys = ("of_ceiling", "per_cpu_of_ceiling", "per_cpu_of_in_process")
    summary = {name: {key: statistics.median(r[name][key] for r in rounds) for key in keys} for name in checkouts}
    for name, medians in summary.items():
        print(
            f"{name}: median of rounds {medians['of_ceiling']:.0%} of the ceiling by the clock, "
            f"{medians['per_cpu_of_ceiling']:.0%} per worker CPU-second, "
            f"{medians['per_cpu_of_in_process']:.0%} of the handler in process"
        )
    if "baseline" in checkouts:
        ratios = [
            r["this"]["hands_per_worker_cpu_second"] / r["baseline"]["hands_per_worker_cpu_second"] for r in rounds
        ]
        summary["this_over_baseline"] = {"rounds": ratios, "median": statistics.median(ratios)}
        print(f"this / baseline per worker CPU-second: median {statistics.median(ratios):.2f} of {len(ratios)} rounds")
    return {"handler_steps_us": steps, "batch_rounds": rounds, "medians": summary}


def _throughput(args) -> dict:
    """Batch, stream and unary throughput with 1 and 2 workers against the in-process ceiling."""

    requests, messages, batch_payloads = _batches(args)
    valid = [m for m, r in zip(messages, requests, strict=True) if _settles(r)]
    stream_messages = [m.SerializeToString() for m in messages[: args.stream_hands]]
    unary_messages = [m.SerializeToString() for m in valid[:5000]]
    top = ceiling(requests[:20_000])
    print(f"in-process ceiling (rules_core, one core): {top:,.0f} settlements per CPU-second")

    results: dict = {"ceiling_per_second": top, "workers": {}}
    for workers in (int(w) for w in args.workers.split(",")):
        figures = measure(
            workers, batch_payloads, args.batch_size, stream_messages, unary_messages, args.throughput_seconds
        )
        results["workers"][str(workers)] = figures
        batch = figures["settle_batch_hands_per_second"]
        per_cpu = figures["settle_batch_hands_per_worker_cpu_second"]
        stream = figures["settle_stream_hands_per_second"]
        unary = figures["unary_settle"]
        open_loop = figures["unary_settle_open_loop"]
        print(f"{workers} worker(s):")
        print(
            f"  SettleBatch   {batch:>10,.0f} hands/s  {batch / top:5.0%} of the ceiling"
            f"  ({batch / top / workers:.0%} per worker); {per_cpu:,.0f} per worker CPU-second = {per_cpu / top:.0%}"
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

"""Soak: a two-worker server under a fixed rate for a long time, 10% of the calls malformed.

    make soak                                   # 10 minutes at 200 calls/s
    python -m bench.soak --duration 60 --rate 100 --report soak.json --plot soak.png

Calls start on a fixed schedule (open loop, latency from the scheduled start). Every second the
workers' RSS and open file descriptors are read from /proc. Pass: no worker dies, RSS and fds
flat after the warm-up (growth within --rss-slack-mb and --fd-slack), no error but the
malformed calls' INVALID_ARGUMENT, every call counted in the metrics, every log line bounded JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from mahjong.shanghai.v1.settlement_pb2 import SettleRequest

from bench.soak_load import SoakLoad
from clients.loadtest import open_loop
from tests.fuzz import procs
from tests.fuzz.seeds import method_path
from tests.fuzz.server_checks import counted_calls, log_problems
from tests.server.conftest import run_server


@dataclass
class Samples:
    calls: list[tuple[float, float, str, bool, str]] = field(default_factory=list)  # at, latency, rpc, bad, code
    procs: list[tuple[float, dict[int, tuple[int, int]]]] = field(default_factory=list)  # at, pid -> (rss, fds)
    sent: int = 0
    probes: int = 0  # the calls that found which worker each connection goes to
    max_send_lag: float = 0.0
    unfinished: int = 0


async def _call(channel, rpc: str, body: bytes, malformed: bool, scheduled: float, start: float, samples, loop):
    try:
        await channel.unary_unary(method_path(rpc))(body, timeout=30)
        code = "OK"
    except grpc.aio.AioRpcError as error:
        code = error.code().name
    samples.calls.append((scheduled - start, loop.time() - scheduled, rpc, malformed, code))


async def _watch(pids: list[int], start: float, interval: float, samples: Samples, stop: asyncio.Event, loop):
    while not stop.is_set():
        samples.procs.append((loop.time() - start, {p: (procs.rss_bytes(p), procs.open_fds(p)) for p in pids}))
        try:
            await asyncio.wait_for(stop.wait(), timeout=interval)
        except TimeoutError:
            pass


async def _balanced_channels(address: str, pids: list[int], server_log, per_worker: int, samples) -> list:
    """``per_worker`` connections to each worker. SO_REUSEPORT hashes connections, not calls, to
    workers: a probe call on each of several connections, found in the log by its request id,
    tells which worker took it."""
    options = [("grpc.max_receive_message_length", 64 * 2**20), ("grpc.use_local_subchannel_pool", 1)]
    probe = SettleRequest(profile="nope")  # INVALID_ARGUMENT: cheap, and logged with its id
    channels = []
    for index in range(per_worker * len(pids) * 4):
        channel = grpc.aio.insecure_channel(address, options=options)
        probe.request_id = f"soak-probe-{index}"
        try:
            await channel.unary_unary(method_path("Settle"))(probe.SerializeToString(), timeout=10)
        except grpc.aio.AioRpcError:
            pass
        channels.append(channel)
        samples.probes += 1
    await asyncio.sleep(0.5)  # the log lines are written after the answers
    owner = {}
    for line in server_log().splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and str(event.get("request_id", "")).startswith("soak-probe-"):
            owner[int(event["request_id"].rsplit("-", 1)[1])] = event.get("pid")
    kept, taken = [], {pid: 0 for pid in pids}
    for index, channel in enumerate(channels):
        pid = owner.get(index)
        if pid in taken and taken[pid] < per_worker:
            taken[pid] += 1
            kept.append(channel)
        else:
            await channel.close()
    return kept


async def soak(
    address: str,
    pids: list[int],
    load: SoakLoad,
    rate: float,
    duration: float,
    interval: float,
    server_log,
    per_worker: int = 4,
) -> Samples:
    """Open-loop calls spread evenly over the workers, and the workers' RSS and fds every ``interval``."""
    samples = Samples()
    loop = asyncio.get_running_loop()
    channels = await _balanced_channels(address, pids, server_log, per_worker, samples)
    connections = len(channels)
    try:
        stop = asyncio.Event()
        start = loop.time()
        watcher = asyncio.create_task(_watch(pids, start, interval, samples, stop, loop))
        tasks: set[asyncio.Task] = set()
        async for index, scheduled, lag in open_loop(rate, int(rate * duration), start):
            samples.max_send_lag = max(samples.max_send_lag, lag)
            rpc, body, malformed = load.next()
            channel = channels[index % connections]
            task = asyncio.create_task(_call(channel, rpc, body, malformed, scheduled, start, samples, loop))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            samples.sent += 1
        if tasks:
            _, pending = await asyncio.wait(set(tasks), timeout=30)
            for task in pending:
                task.cancel()
            samples.unfinished = len(pending)
        stop.set()
        await watcher
    finally:
        for channel in channels:
            await channel.close()
    return samples


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else 0.0


def _flatness(series: list[tuple[float, int]], warmup: float) -> dict:
    """A worker's value at the end of the warm-up, at the end, the range after the warm-up, and the
    least-squares slope per minute after it."""
    after = [(t, v) for t, v in series if t >= warmup]
    if len(after) < 2:
        return {}
    n = len(after)
    mean_t = sum(t for t, _ in after) / n
    mean_v = sum(v for _, v in after) / n
    spread = sum((t - mean_t) ** 2 for t, _ in after)
    slope = sum((t - mean_t) * (v - mean_v) for t, v in after) / spread if spread else 0.0
    values = [v for _, v in after]
    return {
        "at_warmup": after[0][1],
        "at_end": after[-1][1],
        "min": min(values),
        "max": max(values),
        "slope_per_min": slope * 60,
    }


def calls_by_worker(log_text: str) -> dict[str, int]:
    """How many calls each worker answered, from its log lines."""
    counts: dict[str, int] = {}
    for line in log_text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("event") == "rpc":
            counts[str(event.get("pid"))] = counts.get(str(event.get("pid")), 0) + 1
    return counts


def build_report(samples: Samples, args, pids: list[int], replaced: bool, counted, log_text: str) -> dict:
    valid_codes: dict[str, int] = {}
    malformed_codes: dict[str, int] = {}
    for _, _, _, malformed, code in samples.calls:
        target = malformed_codes if malformed else valid_codes
        target[code] = target.get(code, 0) + 1
    errors = sum(n for c, n in valid_codes.items() if c != "OK")
    errors += sum(n for c, n in malformed_codes.items() if c != "INVALID_ARGUMENT") + samples.unfinished
    latencies = [latency * 1000 for _, latency, _, _, _ in samples.calls]
    log_notes = log_problems(log_text)
    served = calls_by_worker(log_text)
    workers = {}
    flat = True
    for pid in pids:
        rss = _flatness([(t, by_pid[pid][0]) for t, by_pid in samples.procs if by_pid[pid][0]], args.warmup)
        fds = _flatness([(t, by_pid[pid][1]) for t, by_pid in samples.procs if by_pid[pid][1]], args.warmup)
        rss_growth = (rss["at_end"] - rss["at_warmup"]) / 2**20 if rss else float("inf")
        fd_growth = fds["max"] - fds["at_warmup"] if fds else float("inf")
        flat &= rss_growth <= args.rss_slack_mb and fd_growth <= args.fd_slack
        workers[str(pid)] = {
            "calls": served.get(str(pid), 0),
            "rss_mb": {k: round(v / 2**20, 2) for k, v in rss.items()},
            "rss_growth_after_warmup_mb": round(rss_growth, 2),
            "fds": fds,
            "fd_growth_after_warmup": fd_growth,
        }
    return {
        "target_rate": args.rate,
        "duration_s": args.duration,
        "warmup_s": args.warmup,
        "malformed_share": args.malformed,
        "workers": len(pids),
        "sent": samples.sent,
        "completed": len(samples.calls),
        "unfinished": samples.unfinished,
        "achieved_rate": round(samples.sent / args.duration, 1),
        "max_send_lag_ms": round(samples.max_send_lag * 1000, 2),
        "valid_codes": valid_codes,
        "malformed_codes": malformed_codes,
        "unexpected_errors": errors,
        "latency_ms": {
            "p50": round(_percentile(latencies, 0.5), 3),
            "p99": round(_percentile(latencies, 0.99), 3),
            "max": round(max(latencies, default=0.0), 3),
        },
        "by_worker": workers,
        "worker_replaced": replaced,
        "metrics_counted": {"started": counted[0], "handled": counted[1]} if counted else None,
        "log_problems": log_notes,
        "passed": errors == 0
        and flat
        and not replaced
        and not log_notes
        and counted == (samples.sent + samples.probes,) * 2,
    }


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=600.0, help="seconds of load (default 600)")
    parser.add_argument("--rate", type=float, default=200.0, help="calls started per second (default 200)")
    parser.add_argument("--malformed", type=float, default=0.10, help="share of malformed calls (default 0.10)")
    parser.add_argument(
        "--warmup", type=float, help="seconds before RSS and fds must be flat (default: 60%% of the run)"
    )
    parser.add_argument("--rss-slack-mb", type=float, default=5.0, help="RSS growth allowed after warm-up (5)")
    parser.add_argument("--fd-slack", type=int, default=2, help="fd growth allowed after warm-up (2)")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between two /proc readings (1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the requests and the mix (1)")
    parser.add_argument("--report", default="soak-report.json", help="JSON report (soak-report.json)")
    parser.add_argument("--plot", default="soak-report.png", help="PNG plot (soak-report.png); empty for none")
    args = parser.parse_args(argv)
    for name in ("duration", "rate", "interval"):
        if getattr(args, name) <= 0:
            parser.error(f"--{name} must be positive")
    if not 0 <= args.malformed <= 1:
        parser.error("--malformed is a share between 0 and 1")
    if args.warmup is None:
        # The workers collect cyclic garbage rarely (gc thresholds 100,000/50/100): RSS climbs for the
        # first ~30,000 calls a worker answers (5 minutes at 200 calls/s over two), then stays flat.
        args.warmup = args.duration * 0.6
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    load = SoakLoad(args.seed, args.malformed)
    with tempfile.TemporaryDirectory(prefix="shmj-soak-") as tmp:
        with run_server(Path(tmp), workers=2) as server:
            pids = procs.worker_pids(server.process.pid)
            started = time.time()
            samples = asyncio.run(soak(server.address, pids, load, args.rate, args.duration, args.interval, server.log))
            replaced = procs.worker_pids(server.process.pid) != pids
            counted = counted_calls(server.metrics()) if server.process.poll() is None else None
            log_text = server.log()
    report = build_report(samples, args, pids, replaced, counted, log_text)
    report["started_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started))
    Path(args.report).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    if args.plot:
        from bench.soak_plot import plot_soak

        plot_soak(samples, pids, args, args.plot)
    growth = [w["rss_growth_after_warmup_mb"] for w in report["by_worker"].values()]
    print(
        f"sent {report['sent']} at {report['achieved_rate']}/s; valid {report['valid_codes']}, "
        f"malformed {report['malformed_codes']}; unexpected errors {report['unexpected_errors']}; "
        f"latency ms p50 {report['latency_ms']['p50']} p99 {report['latency_ms']['p99']}; "
        f"RSS growth after warm-up MB {growth}; {'PASS' if report['passed'] else 'FAIL'}; report {args.report}"
    )
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())

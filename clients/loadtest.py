"""``shmj loadtest``: open-loop load against a running server, then a report and a plot.

Calls start on a fixed schedule (``--rate`` per second for ``--duration``
seconds) whatever the server's answers do, and each latency is measured from
the call's scheduled start, so a slow server cannot hide behind a slow client
(no coordinated omission). Requests come from the seeded hand generator,
valid ones only, in a mix of rpcs. It stops by itself: after the schedule,
in-flight calls get ``--drain-timeout`` seconds, then the report is written. Ctrl-C (or
SIGTERM) ends the schedule early: the calls in flight are cancelled, and the report of what was
sent is written all the same (``stopped_by`` says so), with exit status 130 (143).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc as svc_grpc

import convert
import rules_core as rc
from clients import trace_context
from clients.cli_failures import status_name_said
from clients.client import SERVICE
from generators.random_hands import HandGenerator
from rules_core.vocabulary import term

DEFAULT_MIX = "settle=80,check_win=10,list_waits=5,settle_batch=5"
RPCS = ("settle", "check_win", "list_waits", "settle_batch")
WORKLOAD_SIZE = 2000  # distinct requests made in advance
MAX_BATCH_SIZE = WORKLOAD_SIZE // 2
MAX_CALLS = 10_000_000  # every call's latency is kept until the report
STOP_SIGNALS = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}  # end the load, write what was measured
# A call that starts this late adds the generator's own delay to its latency; when more than
# LATE_SHARE of the calls do, the p99 and above measure the generator, not the server.
LATE_AFTER_S = 0.010
LATE_SHARE = 0.01


def add_loadtest_arguments(parser: argparse.ArgumentParser) -> None:
    from clients import cli_args as check

    parser.add_argument(
        "--rate", type=check.number(0, above=True), default=200.0, help="calls started per second (default 200)"
    )
    parser.add_argument("--duration", type=check.seconds, default=10.0, help="seconds of load (default 10)")
    parser.add_argument(
        "--seed", type=check.integer, default=1, help="seed of the hand generator and the rpc mix (default 1)"
    )
    parser.add_argument("--mix", type=_mix_flag, default=DEFAULT_MIX, help=f"rpc weights (default {DEFAULT_MIX})")
    parser.add_argument(
        "--batch-size",
        type=check.whole_number(1, MAX_BATCH_SIZE),
        default=10,
        help=f"requests per SettleBatch call (1 to {MAX_BATCH_SIZE}, default 10)",
    )
    parser.add_argument(
        "--drain-timeout", type=check.number(0), default=10.0, help="seconds to wait for in-flight calls (default 10)"
    )
    parser.add_argument(
        "--report", type=check.writable_path, default="loadtest.json", help="JSON report path (default loadtest.json)"
    )
    parser.add_argument(
        "--plot",
        type=check.plot_path,
        default="loadtest.png",
        help="latency plot (.png, .svg or .pdf; default loadtest.png); empty for none",
    )


def parse_mix(text: str) -> dict[str, float]:
    mix = {}
    for part in text.split(","):
        name, sep, weight = part.partition("=")
        name = name.strip()
        if name not in RPCS:
            raise ValueError(f"unknown rpc {name!r}; known: {', '.join(RPCS)}")
        if not sep:
            raise ValueError(f"{name} needs a weight, such as {name}=80")
        try:
            mix[name] = float(weight)
        except ValueError:
            mix[name] = math.nan
        if not math.isfinite(mix[name]) or mix[name] < 0:
            raise ValueError(f"the weight of {name} must be a number of at least 0, got {weight!r}")
    if not any(mix.values()):
        raise ValueError("needs a positive weight")
    return mix


def _mix_flag(text: str) -> str:
    from clients.cli_args import Invalid

    try:
        parse_mix(text)
    except ValueError as error:
        raise Invalid(str(error)) from None
    return text


def check_loadtest_flags(args) -> None:
    """What no single flag can check: refused before any load is sent."""
    from batch.paths import same_file
    from clients.cli_args import UsageError

    calls = int(args.rate * args.duration)
    if calls > MAX_CALLS:
        raise UsageError(f"--rate x --duration asks for {calls:,} calls; at most {MAX_CALLS:,} in one run")
    if args.plot and same_file(Path(args.report), Path(args.plot)):
        raise UsageError(f"--report and --plot name the same file {args.plot}")


class Workload:
    """Valid requests of each rpc, made in advance so the sending loop stays light."""

    def __init__(self, seed: int, batch_size: int, size: int = WORKLOAD_SIZE):
        generator = HandGenerator(seed)
        settles, checks, waits = [], [], []
        while len(settles) < size:
            request = generator.request(len(settles))
            try:
                rc.settle(request)
            except rc.InvalidRequest:
                continue
            settles.append(convert.settle_request_message(request))
            if request.winners and request.outcome.is_win:
                first = request.winners[0]
                checks.append(
                    svc.CheckWinRequest(
                        profile=request.profile,
                        outcome=request.outcome,
                        dealer_seat=request.dealer_seat,
                        winner=convert.winner_message(first),
                    )
                )
                short = rc.Hand(first.hand.concealed[1:], None, first.hand.melds, first.hand.flowers)
                waits.append(
                    svc.ListWaitsRequest(profile=request.profile, seat=first.seat, hand=convert.hand_message(short))
                )
        self.requests = {
            "settle": settles,
            "check_win": checks,
            "list_waits": waits,
            "settle_batch": [
                svc.SettleBatchRequest(requests=settles[i : i + batch_size])
                for i in range(0, len(settles) - batch_size, batch_size)
            ],
        }


@dataclass
class Sample:
    scheduled: float  # seconds after the start
    latency: float  # seconds from the scheduled start to the answer
    rpc: str
    code: str


@dataclass
class Run:
    samples: list[Sample] = field(default_factory=list)
    sent: int = 0
    max_send_lag: float = 0.0
    late_calls: int = 0  # started more than LATE_AFTER_S after their scheduled time
    unfinished: int = 0
    sending_seconds: float = 0.0
    stopped_by: str = ""  # the signal that ended the schedule early (SIGINT for Ctrl-C), or ""


# The rpc of each --mix name, as the service names it (a traced call's span).
METHOD_NAMES = {"settle": "Settle", "check_win": "CheckWin", "list_waits": "ListWaits", "settle_batch": "SettleBatch"}


async def _call(method, request, scheduled_at: float, offset: float, rpc: str, run: Run, loop, target: str) -> None:
    try:
        if trace_context.TRACER is None:
            await method(request, timeout=30)
        else:  # a client span per call (sampled as OTEL_TRACES_SAMPLER says), its context sent
            with trace_context.client_span(SERVICE, METHOD_NAMES[rpc], target) as metadata:
                await method(request, timeout=30, metadata=metadata)
        code = "OK"
    except grpc.aio.AioRpcError as error:
        code = error.code().name
    run.samples.append(Sample(offset, loop.time() - scheduled_at, rpc, code))


async def open_loop(rate: float, count: int, start: float) -> AsyncIterator[tuple[int, float, float]]:
    """The open-loop schedule: ``(index, scheduled_at, lag)`` for ``count`` calls at ``rate`` a
    second from ``start`` (the event loop's clock), each yielded when its time comes, or at once
    with ``lag`` (seconds late) when the sender is behind. Calls start on this schedule whatever
    the answers do, so a latency counted from ``scheduled_at`` hides no slow answer (no
    coordinated omission). Shared by this load test and `bench.soak`."""
    loop = asyncio.get_running_loop()
    for index in range(count):
        scheduled_at = start + index / rate
        delay = scheduled_at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        yield index, scheduled_at, max(-delay, 0.0)


async def generate_load(
    channel: grpc.aio.Channel,
    workload: Workload,
    rate: float,
    duration: float,
    mix: dict[str, float],
    seed: int,
    drain_timeout: float,
    stop_signals: tuple[signal.Signals, ...] = (),
    target: str = "",
) -> Run:
    """The load, and what came of it. One of ``stop_signals`` (Ctrl-C) ends the schedule early:
    the calls in flight are cancelled (counted unfinished) and ``run.stopped_by`` names it.
    ``target`` is the server's address, for the calls' spans when they are traced."""
    stub = svc_grpc.ScoringServiceStub(channel)
    methods = {rpc: getattr(stub, name) for rpc, name in METHOD_NAMES.items()}

    names = [name for name, weight in mix.items() if weight > 0]
    weights = [mix[name] for name in names]
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    run = Run()
    tasks: set[asyncio.Task] = set()
    start = loop.time()

    async def send() -> None:
        async for index, scheduled_at, lag in open_loop(rate, int(rate * duration), start):
            run.max_send_lag = max(run.max_send_lag, lag)
            run.late_calls += lag > LATE_AFTER_S
            rpc = rng.choices(names, weights)[0]
            pool = workload.requests[rpc]
            task = asyncio.create_task(
                _call(methods[rpc], pool[index % len(pool)], scheduled_at, scheduled_at - start, rpc, run, loop, target)
            )
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            run.sent += 1

    sender = asyncio.create_task(send())

    def stop(signum: signal.Signals) -> None:
        run.stopped_by = signum.name
        sender.cancel()

    for signum in stop_signals:
        loop.add_signal_handler(signum, stop, signum)
    try:
        await asyncio.wait({sender})
    finally:
        for signum in stop_signals:
            loop.remove_signal_handler(signum)
    run.sending_seconds = loop.time() - start
    if tasks:
        _, pending = await asyncio.wait(set(tasks), timeout=0 if run.stopped_by else drain_timeout)
        for task in pending:
            task.cancel()
        run.unfinished = len(pending)
    return run


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def _latency(values: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values]
    return {
        "p50": round(_percentile(ms, 0.50), 3),
        "p90": round(_percentile(ms, 0.90), 3),
        "p99": round(_percentile(ms, 0.99), 3),
        "max": round(max(ms, default=0.0), 3),
        "mean": round(sum(ms) / len(ms), 3) if ms else 0.0,
    }


def build_report(run: Run, target: str, rate: float, duration: float, mix: dict[str, float]) -> dict:
    errors: dict[str, int] = {}
    for sample in run.samples:
        if sample.code != "OK":
            errors[sample.code] = errors.get(sample.code, 0) + 1
    if run.unfinished:
        errors["UNFINISHED"] = run.unfinished
    by_rpc = {}
    for rpc in mix:
        values = [s.latency for s in run.samples if s.rpc == rpc]
        if values:
            by_rpc[rpc] = {"count": len(values), "latency_ms": _latency(values)}
    completed = len(run.samples)
    last = max((s.scheduled + s.latency for s in run.samples), default=run.sending_seconds)
    return {
        "target": target,
        "requested_rate": rate,
        "duration_s": duration,
        "mix": mix,
        "sent": run.sent,
        "completed": completed,
        "achieved_rate": round(run.sent / run.sending_seconds, 1) if run.sending_seconds else 0.0,
        "completed_rate": round(completed / last, 1) if last else 0.0,
        "max_send_lag_ms": round(run.max_send_lag * 1000, 3),
        "late_calls": run.late_calls,
        "late_after_ms": LATE_AFTER_S * 1000,
        "generator_fell_behind": fell_behind(run),
        "measures_the_server": not fell_behind(run),
        "warning": behind_warning(run) if fell_behind(run) else None,
        "errors_by_code": errors,
        "latency_ms": _latency([s.latency for s in run.samples]),
        "by_rpc": by_rpc,
        "stopped_by": run.stopped_by or None,  # a partial report: the schedule was cut short
    }


def fell_behind(run: Run) -> bool:
    """Whether so many calls started late that the upper percentiles are the generator's delay."""
    return run.late_calls > LATE_SHARE * run.sent


def summary_line(report: dict, report_path: str, plot_path: str) -> str:
    """The run in one line, each figure said in English and Chinese, each error code in words."""
    latency, errors = report["latency_ms"], report["errors_by_code"]
    errors_said = ", ".join(f"{status_name_said(code)} {count:,}" for code, count in errors.items()) or term("none")
    return (
        f"{term('sent')} {report['sent']:,} at {report['achieved_rate']:g}/s, {term('completed')} {report['completed']:,};"
        f" {term('errors')} {errors_said}; {term('latency_ms')} p50 {latency['p50']} p90 {latency['p90']}"
        f" p99 {latency['p99']} max {latency['max']}; {term('report')} {report_path}"
        + (f", {term('plot')} {plot_path}" if plot_path else "")
    )


def behind_warning(run: Run) -> str:
    return (
        f"the generator fell behind its schedule: {run.late_calls:,} of {run.sent:,} calls started more than "
        f"{LATE_AFTER_S * 1000:g} ms late, up to {run.max_send_lag * 1000:,.0f} ms; the latencies measure this "
        "client, not the server (lower --rate, or send the load from more processes). "
        f"负载生成器跟不上计划：{run.sent:,} 次调用中 {run.late_calls:,} 次晚于 {LATE_AFTER_S * 1000:g} ms 才开始，"
        f"最多晚 {run.max_send_lag * 1000:,.0f} ms；这些延迟反映的是本客户端，而不是服务器（降低 --rate，或用更多进程发送负载）"
    )


def plot_latency(run: Run, path: str, title: str) -> None:
    figure = latency_figure(run, title)
    figure.savefig(path)
    import matplotlib.pyplot as plt

    plt.close(figure)


def latency_figure(run: Run, title: str):
    """Latency over time on a log axis, labelled at 1, 2 and 5 of each decade so that no labels
    overlap, with the legend beside the plot, where it hides no point of the tail."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    figure, axis = plt.subplots(figsize=(11, 5), dpi=100)
    for rpc in RPCS:
        points = [(s.scheduled, s.latency * 1000) for s in run.samples if s.rpc == rpc]
        if points:
            xs, ys = zip(*points, strict=True)
            axis.scatter(xs, ys, s=3, alpha=0.5, label=rpc)
    seconds = int(max((s.scheduled for s in run.samples), default=0)) + 1
    p99 = []
    for second in range(seconds):
        window = [s.latency * 1000 for s in run.samples if second <= s.scheduled < second + 1]
        p99.append(_percentile(window, 0.99))
    axis.plot([s + 0.5 for s in range(seconds)], p99, color="black", linewidth=1.5, label="p99 per second")
    axis.set_xlabel("seconds since start")
    axis.set_ylabel("latency (ms, from scheduled start)")
    axis.set_yscale("log")
    label = matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:g}")
    axis.yaxis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.yaxis.set_major_formatter(label)
    axis.yaxis.set_minor_locator(matplotlib.ticker.LogLocator(base=10, subs=(3.0, 4.0, 6.0, 7.0, 8.0, 9.0)))
    axis.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    if fell_behind(run):
        title += f"\ngenerator fell behind by up to {run.max_send_lag * 1000:,.0f} ms: not the server's latency"
    axis.set_title(title)
    axis.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, markerscale=3)
    axis.grid(True, which="both", alpha=0.3)
    figure.tight_layout()
    return figure


async def run_loadtest(
    target: str,
    rate: float,
    duration: float,
    seed: int = 1,
    mix: str = DEFAULT_MIX,
    batch_size: int = 10,
    drain_timeout: float = 10.0,
    credentials=None,
    stop_signals: tuple[signal.Signals, ...] = (),
) -> tuple[dict, Run]:
    weights = parse_mix(mix)
    workload = Workload(seed, batch_size)
    options = [("grpc.max_receive_message_length", 64 * 1024 * 1024)]
    if credentials is None:
        channel = grpc.aio.insecure_channel(target, options=options)
    else:
        channel = grpc.aio.secure_channel(target, credentials, options=options)
    async with channel:
        await asyncio.wait_for(channel.channel_ready(), timeout=10)
        run = await generate_load(channel, workload, rate, duration, weights, seed, drain_timeout, stop_signals, target)
    return build_report(run, target, rate, duration, weights), run


def loadtest_command(args) -> int:
    check_loadtest_flags(args)
    credentials = None
    if args.tls or args.ca or args.cert:
        credentials = grpc.ssl_channel_credentials(
            root_certificates=Path(args.ca).read_bytes() if args.ca else None,
            private_key=Path(args.key).read_bytes() if args.key else None,
            certificate_chain=Path(args.cert).read_bytes() if args.cert else None,
        )
    started = time.time()
    try:
        report, run = asyncio.run(
            run_loadtest(
                args.target,
                args.rate,
                args.duration,
                args.seed,
                args.mix,
                args.batch_size,
                args.drain_timeout,
                credentials,
                STOP_SIGNALS,
            )
        )
    except TimeoutError:
        from clients.cli_failures import START_OR_NAME_THE_SERVER

        print(f"shmj loadtest: no server answers at {args.target}: {START_OR_NAME_THE_SERVER}", file=sys.stderr)
        return 1
    report["started_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started))
    Path(args.report).write_text(json.dumps(report, indent=2) + "\n")
    if args.plot:
        plot_latency(run, args.plot, f"{args.target}: {args.rate:g}/s for {args.duration:g} s")
    print(summary_line(report, args.report, args.plot), file=sys.stderr)
    if fell_behind(run):
        print(f"shmj loadtest: {behind_warning(run)}", file=sys.stderr)
    if run.stopped_by:
        signum = signal.Signals[run.stopped_by]
        print(
            f"shmj loadtest: {STOP_SIGNALS[signum]} after {run.sending_seconds:.1f} s of {args.duration:g}; "
            f"the report covers the calls sent until then",
            file=sys.stderr,
        )
        return 128 + signum
    return 0 if not report["errors_by_code"] else 1

"""What one unary Settle costs a worker, against a bare ``grpc.aio`` servicer, driven by h2load.

    python -m bench.unary_cost            # also run by `make bench-service`

In one run it starts the real server (one worker, metrics and logging on, as deployed) and
`bench.bare_servicer` (same request, a fixed pre-serialised response of the same size),
then drives each with ``h2load`` (nghttp2's C load generator: it speaks gRPC when given
the headers and a body file with the 5-byte gRPC frame prefix), so the client takes as
little CPU from the machine as a client can:

- **CPU per call**: the worker's user+system CPU seconds (``/proc/PID/stat``) over a fixed
  number of calls at full speed, rounds alternating between the two servers so the shared
  host's load falls on both alike; the ratio real/bare is the figure (target at most 1.5x).
- **Latency at 1,000 calls/s**: h2load's ``--rps`` sends on a timer whatever the answers do
  (``-m`` streams per connection leave it room: open loop while latency stays under
  ``m / rps`` seconds), and ``--log-file`` gives each call's time to its response, from
  which p50/p99/max are computed (target p99 under 5 ms).

The worker's CPU is also split by thread (``/proc/PID/task``), so time spent beside the
event loop shows.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

import convert
import rules_core as rc
from convert.profile_digest import BUILTIN_REGISTRY
from generators.random_hands import generate_requests

ROOT = Path(__file__).resolve().parents[1]
SETTLE_PATH = "/mahjong.shanghai.v1.ScoringService/Settle"
GRPC_HEADERS = ("-H", "content-type: application/grpc", "-H", "te: trailers")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
WARM_UP_US = 1_000_000


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def bench_request(seed: int):
    """A request with a legal winner, its serialised body and the real service's answer to it."""
    for request in generate_requests(500, seed):
        try:
            result = rc.settle(request)
        except rc.InvalidRequest:
            continue
        if any(w.legal and w.patterns for w in result.winners):
            message = convert.settle_request_message(request)
            message.request_id = "h2load-bench-0001"
            answer = convert.settle_response_bytes(rc.settle(convert.settle_request(message), BUILTIN_REGISTRY))
            return message.SerializeToString(), answer
    raise RuntimeError("no legal win among the generated hands")


def grpc_frame(payload: bytes) -> bytes:
    """One uncompressed gRPC message: flag byte, big-endian length, payload."""
    return b"\x00" + len(payload).to_bytes(4, "big") + payload


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds by thread name (threads of one name added up; the event loop's thread is
    ``main``, and gRPC's completion-queue poller is the other ``python`` thread)."""
    totals: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue  # the thread ended
        name = "main" if task.name == str(pid) else stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        totals[name] = totals.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return totals


def wait_serving(address: str, process: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        with grpc.insecure_channel(address) as channel:
            try:
                health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1)
                return
            except grpc.RpcError as error:
                if error.code() == grpc.StatusCode.UNIMPLEMENTED:  # the bare servicer has no health
                    return
                time.sleep(0.1)
    raise RuntimeError(f"nothing serving on {address}")


@dataclass
class Target:
    name: str
    process: subprocess.Popen
    port: int
    worker_pid: int
    log_path: Path
    metrics_url: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{SETTLE_PATH}"

    def settled(self) -> dict[str, float]:
        """Settle calls answered, by code, from the server's /metrics (the real server only)."""
        with urllib.request.urlopen(self.metrics_url, timeout=10) as response:
            text = response.read().decode()
        pattern = r'^grpc_server_handled_total\{[^}]*grpc_code="(\w+)"[^}]*grpc_method="Settle"[^}]*\} (\S+)$'
        return {code: float(count) for code, count in re.findall(pattern, text, re.M)}

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()


def core_build(checkout: Path) -> str:
    """Which build of rules_core's hot path a server of ``checkout`` runs: ``compiled``, or
    ``pure`` when a hot-path source is newer than its compiled module (a rebase, an edit since
    `make install`), which would measure the pure-Python rules against compiled ones."""
    command = [sys.executable, "-c", "import rules_core.compiled as c; print(c.BUILD)"]
    return subprocess.run(command, cwd=checkout, capture_output=True, text=True, check=True).stdout.strip()


def checkout_commit(checkout: Path) -> str:
    """The commit a checkout's server runs (short hash), ``+changes`` when its tracked files
    differ from it; ``unknown`` outside git."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=checkout, capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    return commit + ("+changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def start_service(workdir: Path, extra_flags: list[str], checkout: Path = ROOT, name: str = "service") -> Target:
    port, metrics_port = free_port(), free_port()
    log_path = workdir / f"{name}.log"
    command = [sys.executable, "-m", "server", "--workers", "1", "--port", str(port)]
    command += ["--metrics-port", str(metrics_port), "--http-port", "0", "--shutdown-delay-s", "0"]
    command += ["--log-level", "info", *extra_flags]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=checkout, stdout=log, stderr=subprocess.STDOUT)
    wait_serving(f"127.0.0.1:{port}", process)
    worker = None
    deadline = time.monotonic() + 30
    while worker is None and time.monotonic() < deadline:
        worker = _worker_pid(process.pid)
        time.sleep(0.1)
    if worker is None:
        raise RuntimeError("no worker process found")
    return Target(name, process, port, worker, log_path, f"http://127.0.0.1:{metrics_port}/metrics")


def _worker_pid(supervisor: int) -> int | None:
    """The supervisor's one worker: its child started by multiprocessing's spawn (not the
    resource tracker, which is started the same way)."""
    children = Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split()
    for child in children:
        command = Path(f"/proc/{child}/cmdline").read_bytes()
        if b"spawn_main" in command and b"resource_tracker" not in command:
            return int(child)
    return None


def start_bare(workdir: Path, response: bytes) -> Target:
    port = free_port()
    response_path = workdir / "response.bin"
    response_path.write_bytes(response)
    log_path = workdir / "bare.log"
    command = [sys.executable, "-m", "bench.bare_servicer", "--port", str(port), "--response", str(response_path)]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    wait_serving(f"127.0.0.1:{port}", process)
    return Target("bare", process, port, process.pid, log_path)


def h2load(target: Target, body: Path, *options: str, cores: set[int] | None = None) -> str:
    command = ["h2load", *GRPC_HEADERS, "-d", str(body), *options, target.url]
    pin = None if cores is None else (lambda: os.sched_setaffinity(0, cores))
    ended = subprocess.run(command, capture_output=True, text=True, timeout=600, preexec_fn=pin)
    if ended.returncode != 0:
        raise RuntimeError(f"h2load failed: {ended.stderr or ended.stdout}")
    return ended.stdout


def succeeded(report: str) -> int:
    found = re.search(r"requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed", report)
    if not found:
        raise RuntimeError(f"cannot read h2load's report:\n{report}")
    if int(found.group(2)):
        raise RuntimeError(f"h2load saw failed requests:\n{report}")
    return int(found.group(1))


def full_speed(target: Target, body: Path, calls: int, connections: int, streams: int) -> dict:
    """CPU seconds per call over ``calls`` calls as fast as the server answers them."""
    before, threads_before = cpu_seconds(target.worker_pid), thread_cpu(target.worker_pid)
    start = time.perf_counter()
    report = h2load(target, body, "-n", str(calls), "-c", str(connections), "-m", str(streams))
    elapsed = time.perf_counter() - start
    spent = cpu_seconds(target.worker_pid) - before
    threads_after = thread_cpu(target.worker_pid)
    done = succeeded(report)
    return {
        "calls": done,
        "calls_per_second": round(done / elapsed, 1),
        "cpu_ms_per_call": round(1000 * spent / done, 4),
        "cpu_share_by_thread": {
            name: round((threads_after[name] - threads_before.get(name, 0.0)) / spent, 3)
            for name in sorted(threads_after)
            if spent and threads_after[name] - threads_before.get(name, 0.0) > 0
        },
    }


def pin_server(target: Target, cores: set[int]) -> None:
    """Every thread of the target's worker onto ``cores`` (threads it starts later inherit it)."""
    for task in Path(f"/proc/{target.worker_pid}/task").iterdir():
        try:
            os.sched_setaffinity(int(task.name), cores)
        except ProcessLookupError:
            pass  # the thread ended


def split_cores() -> tuple[set[int], set[int]] | None:
    """(server cores, client cores): the last core this process may run on for the server,
    the others for h2load; None on a single core."""
    cores = sorted(os.sched_getaffinity(0))
    return None if len(cores) < 2 else ({cores[-1]}, set(cores[:-1]))


def percentiles(latencies: list[float]) -> dict:
    """p50, p90, p99 and max of latencies in ms (the bench's service figures use it too)."""
    ordered = sorted(latencies)

    def at(fraction: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(len(ordered) * fraction))], 3)

    return {"p50_ms": at(0.5), "p90_ms": at(0.9), "p99_ms": at(0.99), "max_ms": round(ordered[-1], 3)}


def open_loop(
    target: Target, body: Path, workdir: Path, rate: int, seconds: int, connections: int, cores: set[int] | None = None
) -> dict:
    """Latency of each call at a fixed ``rate``, from h2load's per-request log."""
    log_file = workdir / f"latency-{target.name}.tsv"
    log_file.unlink(missing_ok=True)  # h2load appends to it
    before = cpu_seconds(target.worker_pid)
    streams = 64  # open loop while a call takes less than streams * connections / rate seconds
    report = h2load(
        target,
        body,
        "-c",
        str(connections),
        "-m",
        str(streams),
        "--rps",
        str(rate / connections),
        "-D",
        str(seconds),
        "--log-file",
        str(log_file),
        cores=cores,
    )
    spent = cpu_seconds(target.worker_pid) - before
    done = succeeded(report)
    rows = [[int(column) for column in line.split("\t")[:3]] for line in log_file.read_text().splitlines()]
    first = min(row[0] for row in rows)
    # Calls of the first second are left out: they include connecting and h2load's first burst.
    latencies = [row[2] / 1000 for row in rows if row[1] == 200 and row[0] - first >= WARM_UP_US]
    return {
        "rate": rate,
        "calls": done,
        "achieved_per_second": round(done / seconds, 1),
        "cpu_ms_per_call": round(1000 * spent / max(done, 1), 4),
        **percentiles(latencies),
        "latencies_ms": latencies,
    }


def profile(target: Target, body: Path, output: str, seconds: int, connections: int, streams: int) -> None:
    """A py-spy flame graph of the worker under full-speed unary load (`make profile-service`)."""
    spy = shutil.which("py-spy") or str(ROOT / ".bench-deps" / "bin" / "py-spy")
    load = subprocess.Popen(
        ["h2load", *GRPC_HEADERS, "-d", str(body), "-c", str(connections), "-m", str(streams)]
        + ["-D", str(seconds + 3), target.url],
        stdout=subprocess.DEVNULL,
    )
    try:
        time.sleep(1)
        command = [spy, "record", "--pid", str(target.worker_pid), "-d", str(seconds), "-r", "250", "--nonblocking"]
        subprocess.run([*command, "-o", output], check=True, env={**os.environ, "PYTHONPATH": ""})
    finally:
        load.wait()


def ensure_h2load() -> None:
    """h2load comes with Debian's nghttp2-client: installed here when missing (as root)."""
    if shutil.which("h2load"):
        return
    print("h2load not found: installing Debian's nghttp2-client", flush=True)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run([*sudo, "apt-get", "install", "-y", "-q", "nghttp2-client"], check=False)
    if not shutil.which("h2load"):
        subprocess.run([*sudo, "apt-get", "update", "-q"], check=True)
        subprocess.run([*sudo, "apt-get", "install", "-y", "-q", "nghttp2-client"], check=True)


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def measure(args) -> dict:
    ensure_h2load()
    request, response = bench_request(args.seed)
    workdir = Path(tempfile.mkdtemp(prefix="shmj-unary-bench-"))
    body = workdir / "settle.grpc"
    body.write_bytes(grpc_frame(request))
    service = start_service(workdir, args.server_flag)
    bare = start_bare(workdir, response)
    targets: tuple[Target, ...] = (service, bare)
    if args.baseline:  # another checkout of the project (its server/), started the same way
        targets += (start_service(workdir, args.server_flag, Path(args.baseline), "baseline"),)
    checkouts = {"service": ROOT, **({"baseline": Path(args.baseline)} if args.baseline else {})}
    builds = {name: core_build(path) for name, path in checkouts.items()}
    results: dict = {
        "rules_core_build": builds,
        "commits": {name: checkout_commit(path) for name, path in checkouts.items()},
        "request_bytes": len(request),
        "response_bytes": len(response),
        "load_average_before": load_average(),
        "rounds": [],
    }
    try:
        for target in targets:  # warm up: first calls import, allocate and fill caches
            h2load(target, body, "-n", "2000", "-c", str(args.connections), "-m", str(args.streams))
        if args.profile:
            profile(service, body, args.profile, args.seconds, args.connections, args.streams)
        ok_before = service.settled().get("OK", 0)
        for index in range(args.rounds):
            order = targets if index % 2 == 0 else targets[::-1]
            figures = {t.name: full_speed(t, body, args.calls, args.connections, args.streams) for t in order}
            figures["ratio"] = round(figures["service"]["cpu_ms_per_call"] / figures["bare"]["cpu_ms_per_call"], 3)
            if args.baseline:
                figures["baseline_ratio"] = round(
                    figures["baseline"]["cpu_ms_per_call"] / figures["bare"]["cpu_ms_per_call"], 3
                )
                # this checkout against the baseline in the same round: the A/B figure
                figures["over_baseline"] = round(
                    figures["service"]["cpu_ms_per_call"] / figures["baseline"]["cpu_ms_per_call"], 3
                )
            results["rounds"].append(figures)
            print(
                f"  round {index + 1}: service {figures['service']['cpu_ms_per_call']:.3f} ms CPU/call"
                f" ({figures['service']['calls_per_second']:,.0f} calls/s), bare"
                f" {figures['bare']['cpu_ms_per_call']:.3f} ms ({figures['bare']['calls_per_second']:,.0f} calls/s):"
                f" {figures['ratio']:.2f}x"
                + (
                    f"; baseline {figures['baseline']['cpu_ms_per_call']:.3f} ms: {figures['baseline_ratio']:.2f}x"
                    f"; service / baseline {figures['over_baseline']:.3f}"
                    if args.baseline
                    else ""
                ),
                flush=True,
            )
        answered = service.settled()
        if answered.get("OK", 0) - ok_before < args.rounds * args.calls or set(answered) != {"OK"}:
            raise RuntimeError(
                f"the service answered {answered} Settle calls (before: {ok_before} OK), h2load {args.rounds * args.calls}"
            )
        results["open_loop"] = open_loop_rounds(targets, body, workdir, args)
        answered = service.settled()
        expected = args.rounds * args.calls + sum(run["calls"] for run in results["open_loop"]["service"]["runs"])
        # h2load leaves out of its count the calls still running when its duration ends, and
        # cancels them: counted CANCELLED when they had started (a call counts from its headers)
        if answered.get("OK", 0) - ok_before < expected or not set(answered) <= {"OK", "Cancelled"}:
            raise RuntimeError(
                f"the service answered {answered} Settle calls (before: {ok_before} OK), h2load {expected}"
            )
        results["cancelled_at_the_end_of_open_loop_runs"] = answered.get("Cancelled", 0)
        results["service_worker_log_lines"] = sum(
            1 for line in service.log_path.read_text().splitlines() if '"event": "rpc"' in line
        )
    finally:
        for target in targets:
            target.stop()
    results["load_average_after"] = load_average()
    service_cpu = sorted(r["service"]["cpu_ms_per_call"] for r in results["rounds"])
    bare_cpu = sorted(r["bare"]["cpu_ms_per_call"] for r in results["rounds"])
    results["median_ratio"] = _median(r["ratio"] for r in results["rounds"])
    if args.baseline:
        results["median_baseline_ratio"] = _median(r["baseline_ratio"] for r in results["rounds"])
        over = [r["over_baseline"] for r in results["rounds"]]
        results["over_baseline"] = {"median": _median(over), "min": min(over), "max": max(over)}
    results["best_service_cpu_ms"], results["best_bare_cpu_ms"] = service_cpu[0], bare_cpu[0]
    shutil.rmtree(workdir, ignore_errors=True)
    return results


def open_loop_rounds(targets: tuple[Target, ...], body: Path, workdir: Path, args) -> dict:
    """``args.open_loop_rounds`` open-loop runs per server, alternating the servers, each run's
    percentiles and those of all its runs' calls together. With ``args.pin`` each server's
    worker runs on a core of its own and h2load on the others, as a server with its own cores
    does in production (Kubernetes' static CPU manager gives a pod whole cores)."""
    cores = split_cores() if args.pin else None
    if cores is not None:
        for target in targets:
            pin_server(target, cores[0])
    runs: dict[str, list[dict]] = {t.name: [] for t in targets}
    for index in range(args.open_loop_rounds):
        for target in targets if index % 2 == 0 else targets[::-1]:
            client = None if cores is None else cores[1]
            runs[target.name].append(
                open_loop(target, body, workdir, args.rate, args.seconds, args.connections, client)
            )
    summary = {}
    for name, done in runs.items():
        pooled = [latency for run in done for latency in run.pop("latencies_ms")]
        summary[name] = {"rate": args.rate, "pinned": cores is not None, **percentiles(pooled), "runs": done}
    return summary


def _median(values) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return round(ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2, 3)


def report(results: dict) -> None:
    print(
        f"unary Settle, one worker, h2load ({results['request_bytes']}-byte request,"
        f" {results['response_bytes']}-byte response); load average {results['load_average_before']}"
        f" before, {results['load_average_after']} after"
    )
    builds = results["rules_core_build"]
    print("  rules_core hot path: " + ", ".join(f"{name} {build}" for name, build in builds.items()))
    print("  commits: " + ", ".join(f"{name} {commit}" for name, commit in results["commits"].items()))
    if len(set(builds.values())) > 1:
        print("  (the builds differ: `make install` in each checkout compiles its hot path again)")
    print(
        f"  CPU per call: service {results['best_service_cpu_ms']:.3f} ms, bare grpc.aio"
        f" {results['best_bare_cpu_ms']:.3f} ms (best rounds); median ratio of rounds"
        f" {results['median_ratio']:.2f}x (target <= 1.5x)"
    )
    if "median_baseline_ratio" in results:
        over = results["over_baseline"]
        print(
            f"  baseline checkout: median ratio of rounds {results['median_baseline_ratio']:.2f}x; this checkout's"
            f" CPU per call over the baseline's, median of rounds {over['median']:.3f} ({over['min']:.3f}-{over['max']:.3f})"
        )
    for name in ("service", "bare"):
        shares = results["rounds"][-1][name]["cpu_share_by_thread"]
        print(f"  {name} CPU by thread (last round): " + ", ".join(f"{k} {v:.0%}" for k, v in shares.items()))
    for name, figures in results["open_loop"].items():
        runs = figures["runs"]
        print(
            f"  {name} at {figures['rate']}/s open loop{' (pinned)' if figures['pinned'] else ''},"
            f" {len(runs)} runs of {sum(r['calls'] for r in runs):,} calls: p50 {figures['p50_ms']} ms"
            f" p90 {figures['p90_ms']} ms p99 {figures['p99_ms']} ms max {figures['max_ms']} ms;"
            f" p99 by run " + ", ".join(f"{r['p99_ms']}" for r in runs) + " ms"
        )


def open_loop_seconds(text: str) -> int:
    """``--seconds``: an open-loop run's calls of its first second are left out (`WARM_UP_US`),
    so a run of one second or less would have none to give percentiles of."""
    try:
        seconds = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of seconds, got {text!r}") from None
    if seconds * 1_000_000 <= WARM_UP_US:
        raise argparse.ArgumentTypeError(
            f"at least 2 (the first second of an open-loop run is left out), got {seconds}"
        )
    return seconds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--calls", type=int, default=10_000, help="calls per full-speed round and server")
    parser.add_argument("--rounds", type=int, default=6, help="full-speed rounds, alternating the servers")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--streams", type=int, default=8, help="concurrent streams per connection at full speed")
    parser.add_argument("--rate", type=int, default=1000, help="calls per second of the open-loop run")
    parser.add_argument(
        "--seconds", type=open_loop_seconds, default=10, help="length of each open-loop run (at least 2)"
    )
    parser.add_argument(
        "--open-loop-rounds", type=int, default=3, help="open-loop runs per server, alternating the servers"
    )
    parser.add_argument(
        "--pin", action="store_true", help="open loop: each server's worker on a core of its own, h2load on the others"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--profile", default="", help="also write a py-spy flame graph (SVG) of the service's worker")
    parser.add_argument(
        "--baseline", default="", help="a checkout of the project whose server is measured too (before/after)"
    )
    parser.add_argument(
        "--server-flag", action="append", default=[], help="an extra flag for the real server (repeatable)"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--output", default="", help="write the figures as JSON here")
    args = parser.parse_args(argv)
    results = measure(args)
    report(results)
    if args.output:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

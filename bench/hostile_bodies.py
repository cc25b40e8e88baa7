"""Hostile bodies against a real 2-worker server: each one's worker CPU, and a probe's latency.

    make soak-hostile                                   # part of it: every case, full size
    python -m bench.hostile_bodies --cases json-winners --scale 0.01 --requests 1

For each case (`CASES`: the bodies a hostile client sent in the hardening rounds), one client
sends the body ``--requests`` times, one after another, each on a new connection (so either
worker may take it), while four probe clients, each on a gRPC connection of its own, call
``Health.Check`` and a worked-example ``Settle`` in turn every 20 ms (a call that waits counts
too for the calls it held up, as if they had been sent on time). Per case: the answers'
statuses and the first words of one, the workers' CPU (from /proc) less what the probe costs
alone, per request and per byte sent, the workers' peak RSS, and the probe's p50/p99/max
latency. A case passes when the probe's p99 is under ``--target-p99-ms`` (200) and every
request was answered. Cases marked traced run on a second server with tracing on
(``OTEL_TRACES_EXPORTER=console``, spans to its log). ``--scale`` multiplies the bodies'
sizes (1: about 15 MiB each, under the default ``--max-message-bytes``).
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from mahjong.shanghai.v1.scoring_service_pb2_grpc import ScoringServiceStub

import convert
from bench.unary_cost import percentiles
from bench.verdict import verdict
from tests.fuzz import procs
from tests.server.conftest import run_server
from tests.worked_examples import WORKED_EXAMPLES

FULL_BYTES = 15 * 1024 * 1024
SERVICE = "/mahjong.shanghai.v1.ScoringService/"
PROBE_CLIENTS = 4
PROBE_EVERY_S = 0.02
REPORT = "bench/results/soak-hostile.json"


@dataclass(frozen=True)
class Body:
    path: str  # the HTTP path, or the gRPC method's full name for a gRPC case
    body: bytes
    headers: dict[str, str]
    grpc: bool = False


@dataclass(frozen=True)
class Case:
    finding: str  # what the hardening rounds found it to cost
    make: Callable[[int], Body]  # the body of about the given size in bytes
    traced: bool = False


def _json(method: str, body: bytes, **headers: str) -> Body:
    return Body(SERVICE + method, body, {"Content-Type": "application/json", **headers})


def _repeated(prefix: bytes, item: bytes, size: int, suffix: bytes, separator: bytes = b",") -> bytes:
    count = max(1, (size - len(prefix) - len(suffix)) // (len(item) + len(separator)))
    return prefix + separator.join([item] * count) + suffix


_NESTED_62 = b"[" * 62 + b"]" * 62
_SETTLE = convert.settle_request_message(WORKED_EXAMPLES[0][1])


def _fat_entry(size: int) -> bytes:
    return _repeated(b'{"winners":[', b"[]", size - 1, b"]}")


def _proto_empty_entries(size: int) -> Body:
    return Body(SERVICE + "SettleBatch", b"\x0a\x00" * (size // 2), {"Content-Type": "application/proto"})


def _proto_fat_entries(size: int) -> Body:
    """An application/proto SettleBatch of entries each just under the entry bound, of empty
    winners: within every limit, all of it for protobuf to parse."""
    entry = b"\x4a\x00" * 17_000  # SettleRequest.winners (field 9), empty, 34,000 bytes
    framed = b"\x0a" + _varint(len(entry)) + entry
    return Body(SERVICE + "SettleBatch", framed * max(1, size // len(framed)), {"Content-Type": "application/proto"})


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    return bytes(out + bytes([value]))


def _two_members(_size: int) -> Body:
    text = json.dumps(convert.message_dict(_SETTLE)).encode()
    body = gzip.compress(text[:10]) + gzip.compress(text[10:]) + b"trailing junk"
    return _json("Settle", body, **{"Content-Encoding": "gzip"})


def _baggage(size: int) -> Body:
    blanks = max(1, min(size, 7_600))
    return Body(SERVICE + "Settle", _SETTLE.SerializeToString(), {"baggage": "k=" + " " * blanks + "v"}, True)


CASES: dict[str, Case] = {
    "json-batch-zeros": Case(
        "a JSON SettleBatch {requests:[0,0,...]}: a million entries 9.3 s, +700 MB",
        lambda size: _json("SettleBatch", _repeated(b'{"requests":[', b"0", size, b"]}")),
    ),
    "json-winners": Case(
        "a 15 MiB Settle {winners:[[],[],...]}: 11.7 s",
        lambda size: _json("Settle", _repeated(b'{"winners":[', b"[]", size, b"]}")),
    ),
    "json-nested-62": Case(
        "a 15 MiB Settle of arrays nested 62 deep: 3.1 s, +430 MB",
        lambda size: _json("Settle", _repeated(b'{"winners":[', _NESTED_62, size, b"]}")),
    ),
    "json-batch-fat-entries": Case(
        "a JSON SettleBatch of 9,000 entries each of hundreds of short lists (the worst read whole)",
        lambda size: _json("SettleBatch", _repeated(b'{"requests":[', _fat_entry(size // 9_000), size, b"]}")),
    ),
    "proto-batch-empty-entries": Case(
        "an application/proto SettleBatch of 8.3M empty entries: 2.7 s on the loop",
        _proto_empty_entries,
    ),
    "proto-batch-fat-entries": Case(
        "an application/proto SettleBatch of 470 entries of 17,000 empty winners: protobuf's one parse 0.4 s",
        _proto_fat_entries,
    ),
    "explorer-profile-words": Case(
        "POST /explorer/profile-words, a sankouSelfDrawShares of 7.8M values: 17.4 s on the loop",
        lambda size: Body(
            "/explorer/profile-words",
            _repeated(b'{"profiles":[{"name":"x","sankouSelfDrawShares":[', b"1", size, b"]}]}"),
            {"Content-Type": "application/json"},
        ),
    ),
    "explorer-why-nested-62": Case(
        "POST /explorer/why with arrays nested 62 deep: 3.2 s on the loop",
        lambda size: Body(
            "/explorer/why", _repeated(b'{"payments":[', _NESTED_62, size, b"]}"), {"Content-Type": "application/json"}
        ),
    ),
    "gzip-two-members": Case("a two-member gzip Settle with trailing junk: answered as its first member", _two_members),
    "json-long-profile": Case(
        "a 15 MiB Settle naming an unknown profile, tracing on: the span kept it whole",
        lambda size: _json("Settle", b'{"profile":"' + b"x" * max(1, size - 20) + b'"}'),
        traced=True,
    ),
    "grpc-baggage-blanks": Case(
        "a gRPC Settle with a baggage of 7,600 blanks, tracing on: 50 ms a call", _baggage, traced=True
    ),
}


def _cpu_s(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


class Probe:
    """``PROBE_CLIENTS`` threads, each on a gRPC connection of its own, calling Health.Check and
    Settle in turn; and the workers' RSS, sampled as they go."""

    def __init__(self, address: str, pids: list[int]):
        self.address = address
        self.pids = pids
        self.latencies: list[float] = []
        self.calls = 0
        self.failures = 0
        self.peak_rss = 0
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._run, args=(n,), daemon=True) for n in range(PROBE_CLIENTS)]

    def __enter__(self) -> Probe:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join()

    def _record(self, latency: float) -> None:
        """A call's latency, and those of the calls a client sending every `PROBE_EVERY_S`
        would have made while it waited (each waiting as long as this one still had to go), so
        that a stall weighs as long as it lasted, not as one sample."""
        self.calls += 1
        self.latencies.append(latency)
        waited = latency - PROBE_EVERY_S
        while waited > PROBE_EVERY_S:
            self.latencies.append(waited)
            waited -= PROBE_EVERY_S

    def _run(self, number: int) -> None:
        options = [("grpc.use_local_subchannel_pool", 1), ("grpc.enable_retries", 0), ("shmj.probe", number)]
        with grpc.insecure_channel(self.address, options=options) as channel:
            check, settle = health_pb2_grpc.HealthStub(channel).Check, ScoringServiceStub(channel).Settle
            calls = [lambda: check(health_pb2.HealthCheckRequest(), timeout=30), lambda: settle(_SETTLE, timeout=30)]
            turn = 0
            while not self.stop.is_set():
                start = time.monotonic()
                try:
                    calls[turn % 2]()
                    self._record(time.monotonic() - start)
                except grpc.RpcError:
                    self.failures += 1
                turn += 1
                if number == 0:
                    self.peak_rss = max(self.peak_rss, sum(procs.rss_bytes(pid) for pid in self.pids))
                time.sleep(PROBE_EVERY_S)


def _send(server, body: Body) -> tuple[int | str, bytes]:
    if body.grpc:
        with grpc.insecure_channel(server.address) as channel:
            call = channel.unary_unary(body.path)
            try:
                return "OK", call(body.body, metadata=list(body.headers.items()), timeout=120)[:200]
            except grpc.RpcError as error:
                return error.code().name, (error.details() or "").encode()[:200]
    parts = urlsplit(server.http_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
    try:
        connection.request("POST", body.path, body.body, body.headers)
        response = connection.getresponse()
        return response.status, response.read()[:300]
    except (OSError, http.client.HTTPException) as error:
        return type(error).__name__, b""
    finally:
        connection.close()


def _probe_alone(server, pids: list[int], seconds: float) -> tuple[float, dict]:
    """What the probe costs the workers a second, and its latencies, with nothing else sent."""
    with Probe(server.address, pids) as probe:
        time.sleep(0.5)
        before, start = _cpu_s(pids), time.monotonic()
        time.sleep(seconds)
        cpu, elapsed = _cpu_s(pids) - before, time.monotonic() - start
    return cpu / elapsed, percentiles([s * 1000 for s in probe.latencies])


def run_case(server, pids: list[int], probe_cpu_per_s: float, name: str, size: int, requests: int) -> dict:
    case = CASES[name]
    body = case.make(size)
    answers = []
    with Probe(server.address, pids) as probe:
        time.sleep(0.3)
        idle_rss = sum(procs.rss_bytes(pid) for pid in pids)
        before, start = _cpu_s(pids), time.monotonic()
        for _ in range(requests):
            answers.append(_send(server, body))
        time.sleep(0.3)  # what the last request left to do
        elapsed = time.monotonic() - start
        cpu = max(0.0, _cpu_s(pids) - before - probe_cpu_per_s * elapsed)
    sent = len(body.body) + sum(len(k) + len(v) for k, v in body.headers.items())
    latency = percentiles([s * 1000 for s in probe.latencies]) if probe.latencies else {}
    return {
        "finding": case.finding,
        "traced": case.traced,
        "body_bytes": sent,
        "requests": requests,
        "statuses": sorted({str(status) for status, _ in answers}),
        "answer": answers[0][1].decode("utf-8", "replace"),
        "elapsed_s": round(elapsed, 3),
        "worker_cpu_s": round(cpu, 3),
        "cpu_ms_per_request": round(cpu * 1000 / requests, 2),
        "cpu_ns_per_byte": round(cpu * 1e9 / (sent * requests), 2),
        "rss_idle_mb": round(idle_rss / 2**20, 1),
        "rss_peak_mb": round(max(probe.peak_rss, idle_rss) / 2**20, 1),
        "probe_calls": probe.calls,
        "probe_failures": probe.failures,
        "probe_ms": latency,
    }


def run(names: list[str], scale: float, requests: int, workers: int, target_ms: float) -> dict:
    size = max(64, int(FULL_BYTES * scale))
    report: dict = {"workers": workers, "scale": scale, "target_p99_ms": target_ms, "cases": {}}
    for traced in (False, True):
        chosen = [name for name in names if CASES[name].traced == traced]
        if not chosen:
            continue
        folder = Path(tempfile.mkdtemp(prefix="shmj-hostile-bodies-"))
        saved = os.environ.get("OTEL_TRACES_EXPORTER")
        if traced:
            os.environ["OTEL_TRACES_EXPORTER"] = "console"
        try:
            with run_server(folder, workers=workers) as server:
                pids = procs.worker_pids(server.process.pid)
                probe_cpu, idle = _probe_alone(server, pids, 2.0)
                report["probe_alone_traced" if traced else "probe_alone"] = {
                    "worker_cpu_ms_per_s": round(probe_cpu * 1000, 1),
                    "probe_ms": idle,
                }
                for name in chosen:
                    report["cases"][name] = run_case(server, pids, probe_cpu, name, size, requests)
                    print(name, json.dumps(report["cases"][name]["probe_ms"]), file=sys.stderr)
        finally:
            if saved is None:
                os.environ.pop("OTEL_TRACES_EXPORTER", None)
            else:
                os.environ["OTEL_TRACES_EXPORTER"] = saved
    cases = report["cases"].values()
    report["passed"] = all(
        c["probe_ms"] and c["probe_ms"]["p99_ms"] < target_ms and all(s.isdigit() or s.isupper() for s in c["statuses"])
        for c in cases
    )
    return report


def table(report: dict) -> str:
    """The report as a Markdown table, one row a case."""
    rows = [
        "| case | body | worker CPU a request | a byte | worker RSS peak | probe p50 | p99 | answer |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, c in report["cases"].items():
        p = c["probe_ms"] or {"p50_ms": "-", "p99_ms": "-"}
        rows.append(
            f"| {name} | {c['body_bytes'] / 2**20:.2f} MiB | {c['cpu_ms_per_request']:,} ms | "
            f"{c['cpu_ns_per_byte']} ns | {c['rss_peak_mb']:,} MB | {p['p50_ms']} ms | {p['p99_ms']} ms | "
            f"{', '.join(c['statuses'])} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default=",".join(CASES), help=f"a comma-separated list of: {', '.join(CASES)}")
    parser.add_argument("--scale", type=float, default=1.0, help="the bodies' size, as a fraction of 15 MiB")
    parser.add_argument("--requests", type=int, default=3, help="of each case, one after another")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--target-p99-ms", type=float, default=200.0)
    parser.add_argument("--report", default=REPORT, help="write the report here as JSON")
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.cases.split(",") if name.strip()]
    unknown = [name for name in names if name not in CASES]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r}; the cases are {', '.join(CASES)}")
    report = run(names, args.scale, args.requests, args.workers, args.target_p99_ms)
    print(table(report), file=sys.stderr)
    if args.report:
        Path(args.report).parent.mkdir(parents=True, exist_ok=True)
    return verdict(report, args.report)


if __name__ == "__main__":
    sys.exit(main())

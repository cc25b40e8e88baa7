"""Send fuzz bodies to a running server as raw bytes and judge every answer.

A body passes when its call ends OK, INVALID_ARGUMENT, RESOURCE_EXHAUSTED, FAILED_PRECONDITION
(a mutant that gained a ``profile_digest`` pins rules that are not in force: API.md) (or
NOT_FOUND from GetProfile) within the deadline, its answer parses, a stream answers every message it was sent,
and an error's trailers stay small. Across the run no worker may die or grow more than
``rss_growth_limit`` bytes. Every other outcome is a `Finding` naming the body's index, so
``python -m tests.fuzz --seed S --only I`` replays it.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from dataclasses import asdict, dataclass, field

import grpc
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2

from server.worker import core_receive_limit
from tests.fuzz import procs
from tests.fuzz.bodies import Body, BodyMaker, body_at, generate
from tests.fuzz.seeds import REQUEST_TYPES, RESPONSE_TYPES, RPCS, method_path

ALLOWED = {"OK", "INVALID_ARGUMENT", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION"}
ALLOWED_BY_RPC = {"GetProfile": ALLOWED | {"NOT_FOUND"}}
STREAM_ERROR_CODES = {"INVALID_ARGUMENT", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION"}
MAX_TRAILER_BYTES = 16 * 1024  # gRPC's default hard limit on a client's received metadata
RSS_GROWTH_LIMIT = 50 * 1024 * 1024
WATCH_EVERY = 200  # bodies between two looks at the workers


@dataclass
class Finding:
    index: int
    rpc: str
    kind: str
    problem: str
    code: str = ""
    details: str = ""
    seconds: float = 0.0
    size: int = 0


@dataclass
class Outcome:
    code: str
    seconds: float
    problems: list[str]
    details: str = ""


@dataclass
class FuzzReport:
    seed: int
    start: int
    count: int
    limit: int
    deadline_s: float
    seconds: float = 0.0
    calls: int = 0  # warm-up included
    # Unary bodies over the core's limit (twice the server's, `server.worker.core_receive_limit`):
    # gRPC's core answers them RESOURCE_EXHAUSTED before any handler or call wrapper runs, so the
    # server's metrics and log never see them. Bodies between the two limits are counted.
    refused_by_core: int = 0
    bytes_sent: int = 0
    codes: dict[str, dict[str, int]] = field(default_factory=dict)
    kinds: dict[str, int] = field(default_factory=dict)
    slowest: dict = field(default_factory=dict)
    workers_before: dict[int, int] = field(default_factory=dict)  # pid -> RSS bytes after warm-up
    workers_after: dict[int, int] = field(default_factory=dict)
    fds_before: dict[int, int] = field(default_factory=dict)
    fds_after: dict[int, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)

    @property
    def reaching_handlers(self) -> int:
        """The calls the server's metrics must count."""
        return self.calls - self.refused_by_core

    @property
    def passed(self) -> bool:
        return not self.findings

    def to_json(self) -> str:
        data = asdict(self)
        data["passed"] = self.passed
        data["rss_growth_mb"] = {
            str(pid): round((self.workers_after[pid] - rss) / 2**20, 1)
            for pid, rss in self.workers_before.items()
            if pid in self.workers_after
        }
        return json.dumps(data, indent=2, ensure_ascii=False)

    def summary(self) -> str:
        total = Counter()
        for codes in self.codes.values():
            total.update(codes)
        growth = [
            (self.workers_after[p] - r) / 2**20 for p, r in self.workers_before.items() if p in self.workers_after
        ]
        return (
            f"{self.count} bodies (seed {self.seed}) in {self.seconds:.1f} s, {self.bytes_sent / 2**20:.1f} MiB; "
            f"codes {dict(sorted(total.items()))}; slowest {self.slowest.get('seconds', 0):.3f} s; "
            f"worker RSS growth MB {[round(g, 1) for g in growth]}; findings {len(self.findings)}"
        )


def _trailer_bytes(error: grpc.RpcError) -> int:
    metadata = error.trailing_metadata() or ()
    return len(error.details() or "") + sum(len(k) + len(v) for k, v in metadata)


def _violation_count(error: grpc.RpcError) -> int:
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                bad = error_details_pb2.BadRequest()
                if detail.Unpack(bad):
                    return len(bad.field_violations)
    return 0


def _expected_results(body: Body) -> int | None:
    """How many entries a SettleBatch answer must have, when the body decodes."""
    try:
        return len(REQUEST_TYPES["SettleBatch"].FromString(body.messages[0]).requests)
    except DecodeError:
        return None


def _check_answers(body: Body, answers: list[bytes]) -> list[str]:
    problems = []
    response_type = RESPONSE_TYPES[body.rpc]
    parsed = []
    for answer in answers:
        try:
            parsed.append(response_type.FromString(answer))
        except DecodeError:
            problems.append("an answer does not parse")
            return problems
    if body.rpc == "SettleStream":
        if len(parsed) != len(body.messages):
            problems.append(f"stream answered {len(parsed)} of {len(body.messages)} messages")
        for response in parsed:
            if response.HasField("error") and response.error.code not in STREAM_ERROR_CODES:
                problems.append(f"stream error entry {response.error.code}")
    elif body.rpc == "SettleBatch":
        expected = _expected_results(body)
        if expected is not None and len(parsed[0].results) != expected:
            problems.append(f"batch answered {len(parsed[0].results)} results for {expected} requests")
        for result in parsed[0].results:
            if result.HasField("error") and result.error.code not in STREAM_ERROR_CODES:
                problems.append(f"batch error entry {result.error.code}")
    elif body.rpc == "Settle" and len(parsed[0].seat_deltas) != 4:
        problems.append(f"{len(parsed[0].seat_deltas)} seat deltas")
    return problems


def call(channel: grpc.Channel, body: Body, deadline: float) -> Outcome:
    """One call with the body's bytes as they are (no serializer on either side)."""
    path = method_path(body.rpc)
    start = time.monotonic()
    try:
        if body.rpc == "SettleStream":
            answers = list(channel.stream_stream(path)(iter(body.messages), timeout=deadline))
        else:
            answers = [channel.unary_unary(path)(body.messages[0], timeout=deadline)]
    except grpc.RpcError as error:
        seconds = time.monotonic() - start
        code = error.code().name
        problems = []
        if code not in ALLOWED_BY_RPC.get(body.rpc, ALLOWED):
            problems.append(f"answered {code}")
        size = _trailer_bytes(error)
        if size > MAX_TRAILER_BYTES:
            problems.append(f"error trailers of {size} bytes ({_violation_count(error)} violations)")
        if seconds > deadline:
            problems.append(f"took {seconds:.2f} s")
        return Outcome(code, seconds, problems, (error.details() or "")[:300])
    seconds = time.monotonic() - start
    problems = _check_answers(body, answers)
    if seconds > deadline:
        problems.append(f"took {seconds:.2f} s")
    return Outcome("OK", seconds, problems)


def open_channels(address: str, count: int, limit: int) -> list[grpc.Channel]:
    """Several connections, so SO_REUSEPORT spreads the bodies over the workers. The client's own
    limits are far above the server's: whatever the server answers reaches the judge."""
    options = [
        ("grpc.max_receive_message_length", 4 * limit + 2**20),
        ("grpc.max_send_message_length", 4 * limit + 2**20),
        ("grpc.max_metadata_size", 64 * 2**20),
        ("grpc.use_local_subchannel_pool", 1),
    ]
    return [grpc.insecure_channel(address, options=options) for _ in range(count)]


class WorkerWatch:
    """Notices a worker that dies or is replaced, and when."""

    def __init__(self, supervisor: int | None):
        self.supervisor = supervisor
        self.pids = procs.worker_pids(supervisor) if supervisor else []

    def server_gone(self) -> bool:
        return bool(self.supervisor) and not procs.alive(self.supervisor)

    def deaths(self) -> list[str]:
        if not self.supervisor:
            return []
        gone = [pid for pid in self.pids if not procs.alive(pid)]
        current = procs.worker_pids(self.supervisor)
        new = sorted(set(current) - set(self.pids))
        self.pids = current
        if not gone and not new:
            return []
        return [f"worker(s) {gone} died" + (f", replaced by {new}" if new else "")]

    def memory(self) -> tuple[dict[int, int], dict[int, int]]:
        return {p: procs.rss_bytes(p) for p in self.pids}, {p: procs.open_fds(p) for p in self.pids}


def warm_up(channels: list[grpc.Channel], seed: int, limit: int, rounds: int = 20) -> int:
    """Valid calls of every rpc on every channel, so caches and arenas fill before RSS is read."""
    maker = BodyMaker(seed, limit, 10_000)
    rng = random.Random(seed)
    calls = 0
    for _ in range(rounds):
        for channel in channels:
            for rpc in RPCS:
                call(channel, Body(-1, rpc, "valid", (maker.valid(rng, rpc),)), 30.0)
                calls += 1
    return calls


def run_fuzz(
    address: str,
    seed: int,
    count: int,
    limit: int,
    supervisor: int | None = None,
    deadline: float = 5.0,
    start: int = 0,
    only: list[int] | None = None,
    max_batch_size: int = 10_000,
    channels: int = 4,
    progress=None,
) -> FuzzReport:
    report = FuzzReport(seed, start, len(only) if only else count, limit, deadline)
    pool = open_channels(address, channels, limit)
    try:
        report.calls = warm_up(pool, seed, limit)
        watch = WorkerWatch(supervisor)
        report.workers_before, report.fds_before = watch.memory()
        if only:
            maker = BodyMaker(seed, limit, max_batch_size)
            bodies = (body_at(maker, seed, index) for index in only)
        else:
            bodies = generate(seed, count, limit, max_batch_size, start)
        began = time.monotonic()
        slowest = 0.0
        for done, body in enumerate(bodies, 1):
            outcome = call(pool[body.index % len(pool)], body, deadline)
            report.calls += 1
            if body.rpc != "SettleStream" and body.size > core_receive_limit(limit):
                report.refused_by_core += 1
            report.bytes_sent += body.size
            codes = report.codes.setdefault(body.rpc, {})
            codes[outcome.code] = codes.get(outcome.code, 0) + 1
            kind = body.kind.split(":")[0]
            report.kinds[kind] = report.kinds.get(kind, 0) + 1
            if outcome.seconds > slowest:
                slowest = outcome.seconds
                report.slowest = {"index": body.index, "rpc": body.rpc, "kind": body.kind, "seconds": outcome.seconds}
            problems = list(outcome.problems)
            if problems or done % WATCH_EVERY == 0:
                problems += watch.deaths()
            for problem in problems:
                report.findings.append(
                    Finding(
                        body.index,
                        body.rpc,
                        body.kind,
                        problem,
                        outcome.code,
                        outcome.details,
                        round(outcome.seconds, 3),
                        body.size,
                    )
                )
            if problems and watch.server_gone():
                report.findings.append(Finding(body.index, body.rpc, body.kind, "the server stopped; run cut short"))
                break
            if progress and done % 1000 == 0:
                progress(done, report)
        report.seconds = time.monotonic() - began
        for problem in watch.deaths():
            report.findings.append(Finding(-1, "", "", problem))
        report.workers_after, report.fds_after = watch.memory()
        for pid, rss in report.workers_before.items():
            grown = report.workers_after.get(pid, 0) - rss
            if pid in report.workers_after and grown > RSS_GROWTH_LIMIT:
                report.findings.append(Finding(-1, "", "", f"worker {pid} RSS grew {grown / 2**20:.0f} MB"))
    finally:
        for channel in pool:
            channel.close()
    return report

"""Prometheus metrics, in go-grpc-prometheus's names and code spellings so existing
gRPC dashboards work, plus the domain's own (settlements, legality, patterns, batches).

Workers run in several processes: prometheus_client's multiprocess mode (the
``PROMETHEUS_MULTIPROC_DIR`` set by the supervisor) lets one endpoint add them up.
"""

from __future__ import annotations

import platform
import struct
from bisect import bisect_left
from collections import Counter as Tally
from enum import Enum
from typing import Any

import grpc
from prometheus_client import Counter, Gauge, Histogram

from server import __version__

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
# 1-2-5 steps: a quantile read off them is off by less than a step, not by a power of ten.
BATCH_BUCKETS = tuple(m * 10**e for e in range(5) for m in (1, 2, 5)) + (100_000,)  # 1 .. 50,000, 100,000
# Values and payments are in the profile's unit (花 or 底); multipliers double them, so powers of two.
ECONOMY_BUCKETS = tuple(2**n for n in range(13))  # 1 .. 4096
_RPC = ("grpc_type", "grpc_service", "grpc_method")

STARTED = Counter("grpc_server_started_total", "RPCs started on the server.", _RPC)
HANDLED = Counter(
    "grpc_server_handled_total",
    "RPCs completed on the server, regardless of success or failure.",
    _RPC + ("grpc_code",),
)
HANDLING_SECONDS = Histogram(
    "grpc_server_handling_seconds", "Response latency of RPCs handled by the server.", _RPC, buckets=LATENCY_BUCKETS
)
MSG_RECEIVED = Counter("grpc_server_msg_received_total", "Stream messages received on the server.", _RPC)
MSG_SENT = Counter("grpc_server_msg_sent_total", "Stream messages sent by the server.", _RPC)
IN_FLIGHT = Gauge(
    "grpc_server_in_flight_requests",
    "RPCs being handled now.",
    ("grpc_service", "grpc_method"),
    multiprocess_mode="livesum",
)

SETTLEMENTS = Counter("shmj_settlements_total", "Hands settled, by profile and outcome.", ("profile", "outcome"))
WINS = Counter(
    "shmj_wins_total",
    "Claimed wins judged, by profile, legality and illegal reason (`none` when legal).",
    ("profile", "legal", "reason"),
)
CLAIMED_WINS = Counter(
    "shmj_claimed_wins_total",
    "Claimed wins judged, once each, by profile and legality (shmj_wins_total counts each illegal reason).",
    ("profile", "legal"),
)
PATTERNS = Counter("shmj_patterns_total", "Patterns scored on legal wins, by profile.", ("profile", "pattern"))
RECORDS = Counter(
    "shmj_records_total",
    "Hand records replayed (SettleRecord), by profile and how their recorded deltas compare"
    " (`none` not given, `match`, `mismatch`: a game server's payout that differs from the settlement).",
    ("profile", "recorded"),
)
PASSES = Counter("shmj_record_passes_total", "漏胡 passes found in replayed hand records, by profile.", ("profile",))
REJECTED = Counter("shmj_rejected_requests_total", "Requests rejected as malformed, by rpc.", ("grpc_method",))
WAITING_REFUSED = Counter(
    "shmj_waiting_calls_refused_total",
    "gRPC calls refused TOO_MANY_WAITING_CALLS: their client address had its share waiting for their request.",
)
ANSWERS_NOT_SENT = Counter(
    "shmj_answers_not_sent_total",
    "Answers gRPC could not send: their call had ended (its deadline passed or its client cancelled)"
    " as they were written; each is an info line `answer not sent`.",
)
BATCH_SIZE = Histogram(
    "shmj_batch_size", "Requests per SettleBatch call or SettleStream.", ("grpc_method",), buckets=BATCH_BUCKETS
)
VALUE_PER_SHARE = Histogram(
    "shmj_value_per_share",
    "Settled value per share V of each legal win, in the profile's unit, by profile.",
    ("profile",),
    buckets=ECONOMY_BUCKETS,
)
PAID_PER_HAND = Histogram(
    "shmj_paid_per_hand",
    "Amount paid in one settled hand (the sum of the positive seat deltas), in the profile's unit, by profile.",
    ("profile",),
    buckets=ECONOMY_BUCKETS,
)
BUILD_INFO = Gauge(
    "shmj_build_info",
    "Build information; the value is always 1.",
    ("version", "python_version", "grpc_version"),
    multiprocess_mode="max",
)


def record_build_info() -> None:
    BUILD_INFO.labels(__version__, platform.python_version(), grpc.__version__).set(1)


def code_name(code: grpc.StatusCode) -> str:
    """go-grpc-prometheus spells codes as Go's codes.Code.String(): OK, InvalidArgument, ..."""
    if code == grpc.StatusCode.OK:
        return "OK"
    return "".join(part.capitalize() for part in code.name.split("_"))


MAX_CACHED_CHILDREN = 4096  # per metric; label values are bounded (methods, codes, profiles, patterns)


# A value where prometheus_client's mmap file holds it (its timestamp, after it, stays 0.0).
_WRITE_VALUE = struct.Struct("d").pack_into


class _Slot:
    """One value of a child in this process's multiprocess mmap file, written in place.

    prometheus_client's own write takes a lock and asks the kernel for the pid (to notice a
    fork) on every increment, which is most of what a metric costs a call. A worker
    updates its metrics from its event loop alone and never forks, so neither is needed:
    this keeps the value and writes it where the pinned prometheus_client keeps it (its
    layout, like `observe_many`'s; a test reads the values back through its collector)."""

    __slots__ = ("value", "file", "position")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.file: Any = value._file
        self.file.read_value(value._key)  # gives the value its place in the file if it has none
        self.position: int = self.file._positions[value._key]

    def add(self, amount: float) -> None:
        value = self.value
        value._value = total = value._value + amount
        _WRITE_VALUE(self.file._m, self.position, total)  # _m: the file's current mapping


class Fast:
    """A metric child (counter, gauge or histogram) that writes its values in place in
    multiprocess mode (see `_Slot`), and through the child itself otherwise."""

    __slots__ = ("child", "slot", "sum", "buckets", "bounds")

    def __init__(self, child) -> None:
        self.child = child
        self.slot: _Slot | None = None
        self.sum: _Slot | None = None
        self.buckets: list[_Slot] = []
        self.bounds: tuple[float, ...] = ()
        if hasattr(child, "_upper_bounds"):  # a histogram: its sum and one value per bucket
            if getattr(child._sum, "_multiprocess", False):
                self.sum = _Slot(child._sum)
                self.buckets = [_Slot(bucket) for bucket in child._buckets]
                self.bounds = tuple(child._upper_bounds)
        elif getattr(getattr(child, "_value", None), "_multiprocess", False):
            self.slot = _Slot(child._value)

    # The writes of `_Slot.add`, inline: a call makes a dozen of them.
    def inc(self, amount: float = 1) -> None:
        slot = self.slot
        if slot is None:
            self.child.inc(amount)
        else:
            value = slot.value
            value._value = total = value._value + amount
            _WRITE_VALUE(slot.file._m, slot.position, total)

    def dec(self, amount: float = 1) -> None:
        self.inc(-amount)

    def observe(self, amount: float) -> None:
        slot = self.sum
        if slot is None:
            self.child.observe(amount)
        else:
            value = slot.value
            value._value = total = value._value + amount
            _WRITE_VALUE(slot.file._m, slot.position, total)
            slot = self.buckets[bisect_left(self.bounds, amount)]
            value = slot.value
            value._value = total = value._value + 1
            _WRITE_VALUE(slot.file._m, slot.position, total)

    def observe_many(self, amount: float, count: int) -> None:
        """``count`` observations of one value in two writes."""
        if self.sum is None:
            observe_many(self.child, amount, count)
        else:
            self.sum.add(amount * count)
            self.buckets[bisect_left(self.bounds, amount)].add(count)


class Children:
    """A metric's children by label values, looked up in a plain dict: ``labels()`` takes a
    lock and checks and converts every value each time, about a microsecond a call. A value
    may be given as an enum member, which is keyed as it is and labelled by its name (reading
    ``.name`` is a Python-level property call each time). Past `MAX_CACHED_CHILDREN` label sets
    the cache starts over (it only ever holds what ``labels()`` would return anyway)."""

    __slots__ = ("metric", "cache")

    def __init__(self, metric) -> None:
        self.metric = metric
        self.cache: dict = {}

    def __call__(self, *values):
        child = self.cache.get(values)
        if child is None:
            if len(self.cache) >= MAX_CACHED_CHILDREN:
                self.cache.clear()
            names = [value.name if isinstance(value, Enum) else value for value in values]
            child = self.cache[values] = Fast(self.metric.labels(*names))
        return child


settlements = Children(SETTLEMENTS)
wins = Children(WINS)
claimed_wins = Children(CLAIMED_WINS)
patterns_scored = Children(PATTERNS)
value_per_share = Children(VALUE_PER_SHARE)
paid_per_hand = Children(PAID_PER_HAND)
rejected = Children(REJECTED)
records = Children(RECORDS)
record_passes = Children(PASSES)

_LEGAL = {True: "true", False: "false"}


def record_settlement(outcome, result) -> None:
    """One settled hand's domain counts, recorded at once (a unary call: no tally to build)."""
    profile = result.profile
    settlements(profile, outcome).inc()
    for w in result.winners:
        record_winner(profile, w)
        if w.legal:
            value_per_share(profile).observe(w.value)
    paid = paid_in(result.seat_deltas)
    if paid:
        paid_per_hand(profile).observe(paid)


def paid_in(seat_deltas) -> float:
    """The amount paid in a hand: the sum of its positive seat deltas (without a generator's
    frame, which cost a batch's tally more than the rest of a hand's count)."""
    paid = 0.0
    for delta in seat_deltas:
        if delta > 0:
            paid += delta
    return paid


def record_replayed(result) -> None:
    """One replayed hand record: its settlement's counts, and how its recorded deltas compare."""
    settlement = result.settlement
    record_settlement(result.derived.outcome, settlement)
    recorded = "match" if result.recorded_match else "mismatch" if result.mismatched_seats else "none"
    records(settlement.profile, recorded).inc()
    if result.passes:
        record_passes(settlement.profile).inc(len(result.passes))


# The counters a judged winner increments, by (profile, legal, patterns, illegal reasons): a
# few hundred sets recur, and one look-up replaces one per counter.
_WINNER_COUNTERS: dict[tuple, tuple[Fast, ...]] = {}


def _winner_counters(key: tuple) -> tuple[Fast, ...]:
    profile, legal, patterns, reasons = key
    if legal:
        counters = [claimed_wins(profile, "true"), wins(profile, "true", "none")]
        counters += [patterns_scored(profile, pattern) for pattern in patterns]
    else:
        counters = [claimed_wins(profile, "false")]
    counters += [wins(profile, "false", reason) for reason in reasons]
    if len(_WINNER_COUNTERS) >= MAX_CACHED_CHILDREN:
        _WINNER_COUNTERS.clear()
    found = _WINNER_COUNTERS[key] = tuple(counters)
    return found


def record_winner(profile: str, winner) -> None:
    """A judged winner's counts (enum members as label values: see `Children`)."""
    key = (profile, bool(winner.legal), winner.patterns, winner.illegal_reasons)
    counters = _WINNER_COUNTERS.get(key)
    if counters is None:
        counters = _winner_counters(key)
    for counter in counters:
        counter.inc()


class SettlementTally:
    """Domain counts gathered over one call and recorded once, so batches stay cheap."""

    __slots__ = ("settlements", "winners", "rejected", "values", "paid")

    def __init__(self) -> None:
        self.settlements: Tally = Tally()  # (profile, outcome)
        self.winners: Tally = Tally()  # (profile, legal, illegal reasons, patterns)
        self.rejected = 0
        self.values: Tally = Tally()  # (profile, value per share of a legal win)
        self.paid: Tally = Tally()  # (profile, amount paid in the hand)

    def add(self, outcome, result) -> None:
        """Count one settlement (enum members are kept as keys: names are looked up at flush)."""
        profile = result.profile
        self.settlements[profile, outcome] += 1
        winners = self.winners
        for w in result.winners:  # add_winner's count, inline: this runs for every hand of a batch
            winners[profile, w.legal, w.illegal_reasons, w.patterns] += 1
            if w.legal:
                self.values[profile, w.value] += 1
        paid = paid_in(result.seat_deltas)
        if paid:
            self.paid[profile, paid] += 1

    def add_winner(self, profile: str, winner) -> None:
        self.winners[profile, winner.legal, winner.illegal_reasons, winner.patterns] += 1

    def flush(self, method: str) -> None:
        """Record the counts: one increment per label set (a batch has a few dozen, not thousands)."""
        for (profile, outcome), count in self.settlements.items():
            settlements(profile, outcome.name).inc(count)
        won: Tally = Tally()
        scored_patterns: Tally = Tally()
        claimed: Tally = Tally()
        for (profile, legal, reasons, scored), count in self.winners.items():
            claimed[profile, _LEGAL[bool(legal)]] += count
            if legal:
                won[profile, "true", "none"] += count
                for pattern in scored:
                    scored_patterns[profile, pattern.name] += count
            for reason in reasons:
                won[profile, "false", reason.name] += count
        for labels, count in won.items():
            wins(*labels).inc(count)
        for labels, count in claimed.items():
            claimed_wins(*labels).inc(count)
        for labels, count in scored_patterns.items():
            patterns_scored(*labels).inc(count)
        for (profile, value), count in self.values.items():
            value_per_share(profile).observe_many(value, count)
        for (profile, paid), count in self.paid.items():
            paid_per_hand(profile).observe_many(paid, count)
        if self.rejected:
            rejected(method).inc(self.rejected)


def observe_many(histogram, value: float, count: int) -> None:
    """``count`` observations of one value in two writes, not ``count`` (a batch repeats values).
    Uses the pinned prometheus_client's layout: per-bucket (non-cumulative) values and a sum."""
    histogram._sum.inc(value * count)
    histogram._buckets[bisect_left(histogram._upper_bounds, value)].inc(count)

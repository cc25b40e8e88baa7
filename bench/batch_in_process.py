"""SettleBatch without gRPC: the servicer's own handler called in this process, and its steps.

What a worker's SettleBatch costs over what the same handler costs in one process is gRPC's
part of a batch (the call, the body's copy into Python, the answer's way out, the event loop);
what the handler costs over the engine alone (`bench.engine_rate`) is the Python work of
reading each entry, writing its answer and counting it. `bench.service_bench --batch-only`
prints both beside the worker's rate (docs/PERFORMANCE.md, issue 23).

Measured as a worker runs: the collector's thresholds of `server.garbage`, what the bench
built frozen, the hands per CPU-second of this process, best of the passes.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
import rules_core as rc
from convert.profile_digest import BUILTIN_REGISTRY
from server import garbage, metrics
from server.config import ServerConfig
from server.parsed_body import ParsedBody
from server.service import ScoringService, read_batch


class _NoDeadline:
    """What the handler asks of gRPC's context on a batch that is answered: its time left."""

    @staticmethod
    def time_remaining() -> None:
        return None


@contextmanager
def as_in_a_worker() -> Iterator[None]:
    """A worker's collector thresholds, with what the caller built frozen (`server.garbage`)."""
    previous = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(garbage.GEN0_THRESHOLD, garbage.GEN1_THRESHOLD, garbage.GEN2_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*previous)
        gc.unfreeze()


def _best_rate(hands: int, run: Callable[[], object], passes: int) -> float:
    best = 0.0
    for _ in range(passes):
        start = time.process_time()
        run()
        best = max(best, hands / (time.process_time() - start))
    return best


def handler_rate(payloads: list[bytes], passes: int = 2) -> float:
    """Hands per CPU-second of `ScoringService.SettleBatch` on ``payloads`` (serialised
    SettleBatchRequests), each parsed and handed over as gRPC hands it to a worker."""
    servicer = ScoringService(ServerConfig())
    context = _NoDeadline()
    hands = sum(len(svc.SettleBatchRequest.FromString(p).requests) for p in payloads)

    async def every_batch() -> None:
        for body in payloads:
            await servicer.SettleBatch(ParsedBody(svc.SettleBatchRequest.FromString(body), body), context)

    with as_in_a_worker():
        return _best_rate(hands, lambda: asyncio.run(every_batch()), passes)


def step_costs(payloads: list[bytes], passes: int = 3) -> dict[str, float]:
    """CPU microseconds per hand of each step of the handler, each over every hand on its own,
    best of ``passes`` with the steps interleaved in each: the body's entries read (the
    handler's reader, `convert.proto_bytes`, compiled where the hot path is), settled, written
    (`convert.batch_entry`) and counted (`metrics.SettlementTally`)."""
    batches = [read_batch(body) or [] for body in payloads]
    cores = [core for batch in batches for core in batch if core is not None]
    outcomes: list = []
    for core in cores:
        try:
            outcomes.append((core, rc.settle(core, BUILTIN_REGISTRY)))
        except rc.InvalidRequest:
            pass
    tally = metrics.SettlementTally()
    steps: dict[str, Callable[[], object]] = {
        "read": lambda: [read_batch(body) for body in payloads],
        "settle": lambda: [_settled(core) for core in cores],
        "entry": lambda: [convert.batch_entry(core.request_id, result) for core, result in outcomes],
        "tally": lambda: [tally.add(core.outcome, result) for core, result in outcomes],
    }
    counts = {"settle": len(cores), "entry": len(outcomes), "tally": len(outcomes)}
    best = dict.fromkeys(steps, 0.0)
    with as_in_a_worker(), garbage.BatchPause().during_batch(len(cores)):  # as the handler runs each step now
        for _ in range(passes):
            for name, run in steps.items():
                best[name] = max(best[name], _best_rate(counts.get(name, len(cores)), run, 1))
    return {name: 1e6 / rate for name, rate in best.items()}


def _settled(core: rc.SettleRequest) -> rc.SettleResult | None:
    try:
        return rc.settle(core, BUILTIN_REGISTRY)
    except rc.InvalidRequest:
        return None

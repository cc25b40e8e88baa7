"""The worker's cyclic garbage collector: short pauses, and each one measured.

Every grpc.aio call leaves a reference cycle behind: the handler look-up of gRPC's own
server code (``_find_method_handler``) builds a closure whose scope holds it, with the
call's method name and metadata, six objects a call that only the cyclic collector frees.
The collector runs when the objects allocated and not yet freed since its last run pass a
threshold, and a run costs about a microsecond for each object it frees. So the threshold
sets the length of a pause: at the 100,000 this worker once had, every 15,000 calls or so
one call waited 25-100 ms while the collector freed 90,000 objects, which put h2load's
p99 at 1,000 calls/s at 45-80 ms instead of 6 (docs/PERFORMANCE.md). At `GEN0_THRESHOLD`
a pause is about a millisecond, and the total the collector spends is the same: it frees
the same objects either way. A batch is no slower for it (measured, docs/PERFORMANCE.md).

What the process imported and built before serving is frozen (``gc.freeze``): the
collector never looks at it again, so an older-generation run only walks what serving
made since.

Pauses are counted in ``shmj_gc_pause_seconds{generation}`` and the objects freed in
``shmj_gc_collected_objects_total{generation}``. The collector's callback only appends to
a list, as it may run in the middle of any allocation, a metric's own locked write
included; `publish` moves what it noted into the metrics, from the event loop.
"""

from __future__ import annotations

import asyncio
import gc
import time

from prometheus_client import Counter, Histogram

GEN0_THRESHOLD = 5_000
GEN1_THRESHOLD = 50  # young collections between two of the middle generation (Python's default: 10)
GEN2_THRESHOLD = 100  # middle-generation collections between two whole ones (default: 10)
PUBLISH_EVERY_S = 1.0
MAX_PENDING = 10_000  # collections noted between two publications; beyond it they are not timed

PAUSE_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25)
GC_PAUSE = Histogram(
    "shmj_gc_pause_seconds",
    "Pauses of the cyclic garbage collector in a worker, by generation collected.",
    ("generation",),
    buckets=PAUSE_BUCKETS,
)
GC_COLLECTED = Counter(
    "shmj_gc_collected_objects_total",
    "Objects freed by the cyclic garbage collector in a worker, by generation collected.",
    ("generation",),
)


class PauseLog:
    """A ``gc.callbacks`` entry noting each collection's generation, length and objects freed."""

    def __init__(self) -> None:
        self.started = 0.0
        self.pending: list[tuple[int, float, int]] = []

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        elif len(self.pending) < MAX_PENDING:
            self.pending.append((info["generation"], time.perf_counter() - self.started, info["collected"]))

    def publish(self) -> None:
        noted, self.pending = self.pending, []
        for generation, seconds, collected in noted:
            label = str(generation)
            GC_PAUSE.labels(label).observe(seconds)
            GC_COLLECTED.labels(label).inc(collected)


PAUSES = PauseLog()


def configure() -> None:
    """Freeze what start-up built, set the thresholds and start noting pauses. Called once the
    worker serves: what it allocated until then lives as long as the process."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GEN0_THRESHOLD, GEN1_THRESHOLD, GEN2_THRESHOLD)
    for generation in ("0", "1", "2"):  # every series exported from the start, at zero
        GC_PAUSE.labels(generation)
        GC_COLLECTED.labels(generation)
    if PAUSES not in gc.callbacks:
        gc.callbacks.append(PAUSES)


async def publish_forever(every_s: float = PUBLISH_EVERY_S) -> None:
    while True:
        await asyncio.sleep(every_s)
        PAUSES.publish()

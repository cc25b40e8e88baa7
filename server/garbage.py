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
from collections.abc import Iterator
from contextlib import contextmanager

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


MAX_PAUSED_HANDS = 20_000  # settled in one pause: then the next batch to end resumes it for a young run


class BatchPause:
    """No automatic collection while batches are settled. A batch builds tens of thousands of
    tuples that live until its answer is written and are in no reference cycle; the collector's
    young runs walked them over and over, and those of every other batch in flight, before
    reference counting freed them all (docs/PERFORMANCE.md, issue 23).

    Paused by a batch that starts with the collector on, resumed when no batch is under way,
    or, while batches keep overlapping, by the first to end once the batches ended in the pause
    hold ``max_paused_hands``: then a young collection runs at once (it walks the batches still
    in flight) and the next batch pauses it again. So a pause is bounded by work, not by the
    clock, which a worker short of CPU would stretch: at most ``max_paused_hands`` settled and
    the batches in flight (each at most ``--max-batch-size`` hands). A collector that something
    else switched off stays off. Other calls go on meanwhile (a batch yields between chunks);
    the cycles they leave wait for the pause's end. Used from the event loop's thread only, as
    the servicer is."""

    def __init__(self, max_paused_hands: int = MAX_PAUSED_HANDS) -> None:
        self.max_paused_hands = max_paused_hands
        self.under_way = 0
        self.paused = False  # this paused the collector, and has not resumed it
        self.paused_hands = 0  # in the batches that ended during this pause

    @contextmanager
    def during_batch(self, hands: int) -> Iterator[None]:
        """The collector paused for this block, a batch of ``hands``, however it ends
        (answered, refused, failed or cancelled)."""
        self.under_way += 1
        if not self.paused and gc.isenabled():
            gc.disable()
            self.paused = True
        try:
            yield
        finally:
            self.under_way -= 1
            if self.paused:
                self.paused_hands += hands
                if self.under_way == 0 or self.paused_hands >= self.max_paused_hands:
                    self.paused = False
                    self.paused_hands = 0
                    gc.enable()
                    if self.under_way:  # the batches in flight would pause it again before it ran
                        gc.collect(0)


BATCHES = BatchPause()


async def publish_forever(every_s: float = PUBLISH_EVERY_S) -> None:
    while True:
        await asyncio.sleep(every_s)
        PAUSES.publish()

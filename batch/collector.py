"""The cycle collector paused while a batch is settled.

A batch holds every request, result and result column it builds until it is written: a
hundred thousand tuples for 2,000 rows, none of them in a reference cycle. CPython's cycle
collector runs every few hundred new container objects, and each run walks the young objects
and, ever more often as they pile up, all the older ones: half of what reading a nested Arrow
batch costs, and a third of the Arrow core's time (docs/PERFORMANCE.md, issue 23). Reference
counting frees all of it as before; the collector runs again when the batch is done.

Paused by the first batch under way, resumed by the last to end, whatever the threads (a Dask
worker settles partitions in several); a collector that was off stays off.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_under_way = 0
_resume = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic cycle collection inside this block (and any block under way at once)."""
    global _under_way, _resume
    with _lock:
        if _under_way == 0:
            _resume = gc.isenabled()
            gc.disable()
        _under_way += 1
    try:
        yield
    finally:
        with _lock:
            _under_way -= 1
            if _under_way == 0 and _resume:
                gc.enable()

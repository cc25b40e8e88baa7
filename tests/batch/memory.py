"""How the native modules' leak tests measure this process: its resident memory, and its least
growth over a few windows of the same work."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable

UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")  # ASan's quarantine keeps what is freed


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def least_growth(work: Callable[[], object], bound: int, windows: int = 3) -> int:
    """The least growth of this process's resident memory over up to ``windows`` runs of
    ``work``, stopping at the first under ``bound``. A leak grows it in every window; another
    thread's allocation (one an earlier test left running in this pytest process) or the
    allocator settling, in one."""
    least = None
    for _ in range(windows):
        before = resident_bytes()
        work()
        growth = resident_bytes() - before
        least = growth if least is None else min(least, growth)
        if least < bound:
            break
    return least


def least_block_change(work: Callable[[], object], bound: int, windows: int = 3) -> int:
    """The least change of CPython's allocated blocks over up to ``windows`` runs of ``work``
    (each after a collection), stopping at the first within ``bound``: a leak changes them in
    every window; another thread of this pytest process (a Dask client's, an earlier test left
    running) in one."""
    least = None
    for _ in range(windows):
        gc.collect()
        before = sys.getallocatedblocks()
        work()
        gc.collect()
        change = abs(sys.getallocatedblocks() - before)
        least = change if least is None else min(least, change)
        if least <= bound:
            break
    return least

"""Giving the memory of freed request bodies back to the system.

gRPC's core receives a body in many small slices, from its own threads, and glibc's malloc
keeps what they free in its arenas (one per thread that allocated): after clients that held
hundreds of megabytes of incomplete bodies went away, a worker's RSS stayed 100-800 MB above
idle. ``malloc_trim(0)`` returns every arena's free pages; it runs every few seconds, and
costs a few milliseconds (ctypes releases the GIL meanwhile). Where the C library is not
glibc, nothing is done.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util

TRIM_EVERY_S = 5.0


def _malloc_trim():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


MALLOC_TRIM = _malloc_trim()


async def return_forever(every_s: float = TRIM_EVERY_S) -> None:
    if MALLOC_TRIM is None:
        return
    while True:
        await asyncio.sleep(every_s)
        MALLOC_TRIM(0)

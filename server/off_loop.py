"""Work a body can stretch, run in the worker's threads for it rather than on the event loop.

A large JSON body read or answer written (`server.http.calls`), and a large SettleBatch body's
entries counted (`server.call_book.Decoder`): on the loop, each held gRPC's health checks and
every other call of the worker for as long as the body made it last (docs/HTTP.md). Smaller
work costs less than the hand-off. Python code in the thread lets the loop run between its
steps; one C call (protobuf's parse, ``json.loads``) holds the interpreter throughout, which
is why such work is bounded or done in steps before it gets here.
"""

from __future__ import annotations

import asyncio
import concurrent.futures

OFF_LOOP_BYTES = 64 * 1024
# Several threads, so that one client's large body never makes another's wait for it to be read:
# they share the interpreter in turns (`server.http.endpoint.SWITCH_INTERVAL_S`).
JSON_THREADS = 2
_THREADS = concurrent.futures.ThreadPoolExecutor(max_workers=JSON_THREADS, thread_name_prefix="shmj-json")


async def off_loop(size: int, work, *args):
    """``work(*args)``, in one of the worker's threads when ``size`` (bytes) is at least `OFF_LOOP_BYTES`."""
    if size < OFF_LOOP_BYTES:
        return work(*args)
    return await in_json_thread(work, *args)


async def in_json_thread(work, *args):
    """``work(*args)`` in one of the worker's threads for large bodies, whatever its size."""
    return await asyncio.get_running_loop().run_in_executor(_THREADS, work, *args)


# A hand record's review (ReviewRecord) costs up to a second of rules, from a body of a kilobyte or
# two: in its own threads, so that the loop answers every other call meanwhile, and a large JSON
# body never waits for a review's thread.
RULES_THREADS = 2
_RULES = concurrent.futures.ThreadPoolExecutor(max_workers=RULES_THREADS, thread_name_prefix="shmj-rules")


async def in_rules_thread(work, *args):
    """``work(*args)`` in one of the worker's threads for long rules work."""
    return await asyncio.get_running_loop().run_in_executor(_RULES, work, *args)

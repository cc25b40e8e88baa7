"""The deadline of a gRPC call's request: a call whose request (or a stream's next message)
is not whole within ``--grpc-body-timeout-s`` of the server asking for it is ended.

A call takes one of the worker's calls at once from its headers on (gRPC's
``maximum_concurrent_rpcs``), so clients that send headers and part of a body, and never the
rest, would hold them all for as long as they liked. The call wrapper (`server.call_book`)
enters each wait for a message in `REQUESTS` or `NEXT_MESSAGES`, its task and the time it ends, and takes it out
when the message is in; one sweeper per worker (`sweep_forever`) cancels the tasks whose time
has passed, and the wrapper, seeing its task in `EXPIRED`, answers the call CANCELLED,
BODY_TIMEOUT. A dict entry costs a call about 0.1 us, where a timer of its own
(``asyncio.timeout``, a handle on the loop's heap) costs a hundred times that
(docs/PERFORMANCE.md); a call is ended between the timeout and the timeout plus a sweep's
period (a tenth of the timeout, at most a second).
"""

from __future__ import annotations

import asyncio
import time

# The waits, each a task and its deadline (perf_counter): unary calls' for their request, and
# streams' for their next message. A drain does not wait for the first (`server.drain`).
REQUESTS: dict[asyncio.Task, float] = {}
NEXT_MESSAGES: dict[asyncio.Task, float] = {}
EXPIRED: set[asyncio.Task] = set()  # tasks cancelled by the sweeper, until their call has answered
MAX_SWEEP_PERIOD_S = 1.0


def sweep_period(timeout_s: float) -> float:
    return min(timeout_s / 10, MAX_SWEEP_PERIOD_S)


def sweep(now: float) -> int:
    """Cancel every waiting task whose deadline is before ``now``; how many."""
    late = 0
    for waits in (REQUESTS, NEXT_MESSAGES):
        for task in [task for task, deadline in waits.items() if deadline <= now]:
            del waits[task]
            late += 1
            if task.cancel():
                EXPIRED.add(task)
    return late


def expired(task: asyncio.Task | None) -> bool:
    """Whether the sweeper cancelled ``task`` (then it is no longer cancelling: it answers)."""
    if task not in EXPIRED:
        return False
    EXPIRED.discard(task)
    task.uncancel()
    return True


async def sweep_forever(timeout_s: float) -> None:
    period = sweep_period(timeout_s)
    while True:
        await asyncio.sleep(period)
        sweep(time.perf_counter())

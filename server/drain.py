"""Draining a worker without cancelling anyone's call.

gRPC's stop (C-core's shutdown) cancels, CANCELLED (which no retry policy retries): at once,
the calls its core has taken in but not yet handed to the worker, and those that reach it
after the stop began, before the client read the GOAWAY the stop sends; at the end of its
grace, the calls still running. The first are not seen from Python (no handler has run), so
no wait for a quiet moment can make sure there are none: with long batches in flight, calls
from before the SIGTERM were still waiting in the core when it stopped (bench.drain_under_load,
docs/RELIABILITY.md). A connection that simply closes, on the other hand, ends every call on
it UNAVAILABLE, which clients retry. So a draining worker never calls gRPC's stop:

1. from the drain on, every call that starts (health checks aside) is held, never answered
   by its handler: its client sends no other call meanwhile (health says NOT_SERVING since
   SIGTERM, so balancers send new clients elsewhere); long batches yield to the event loop
   between every two requests (`batch_chunk`);
2. the calls in flight run until they finish (their answers sent) or the grace period is
   nearly over; then each is answered UNAVAILABLE;
3. the worker exits without stopping gRPC (`server.worker`): the kernel closes its
   connections and its listener, and every call still on them, held or waiting in the core,
   ends UNAVAILABLE on the client.
"""

from __future__ import annotations

import asyncio
import time

import grpc

from server import errors
from server.body_deadline import REQUESTS
from server.errors import SHUTTING_DOWN

FLUSH_S = 0.05  # from the last answer sent to the exit: gRPC's core writes it out
POLL_S = 0.005
DRAINING_BATCH_CHUNK = 2  # requests of a batch settled between two turns of the loop while draining


class _Drain:
    def __init__(self):
        self.calls: dict[asyncio.Task, object] = {}  # the calls in flight: their tasks and contexts
        self.held: set[asyncio.Task] = set()  # those of them held till the worker exits
        self.answering: set[asyncio.Task] = set()  # calls ended while draining: done once answered
        self.refusing = False
        self.never = asyncio.Event()  # what a held call waits for

    def started(self, task: asyncio.Task | None, context) -> None:
        self.calls[task] = context

    def ended(self, task: asyncio.Task | None) -> None:
        self.calls.pop(task, None)
        if self.refusing:
            self.answering.add(task)

    def working(self) -> int:
        """Calls in flight that are not held, nor waiting for their request: a unary call
        whose request comes while draining is held then, so the drain need not wait for it
        (a client holding bodies that never come would keep it waiting its grace period)."""
        return len(self.calls) - len(self.held) - len(REQUESTS)


DRAIN = _Drain()


HEALTH_SERVICE = "grpc.health.v1.Health"  # never refused: probes must read NOT_SERVING, not an error


def batch_chunk(usual: int) -> int:
    """How many requests of a batch to settle before letting the event loop turn."""
    return DRAINING_BATCH_CHUNK if DRAIN.refusing else usual


async def refuse_if_draining(context, service: str) -> None:
    """Hold a call that starts while draining until the worker exits (its connection then
    closes: UNAVAILABLE on the client). Answered now, its client would send the next call at
    once, maybe into gRPC's core just as the worker exits."""
    if DRAIN.refusing and service != HEALTH_SERVICE:
        task = asyncio.current_task()
        DRAIN.held.add(task)
        try:
            await DRAIN.never.wait()
        finally:
            DRAIN.held.discard(task)


async def _cut_calls_in_flight() -> int:
    """Answer every call in flight (not held) UNAVAILABLE, then stop its work (the answer is
    sent first: a task may be cancelled anywhere, inside gRPC's own sending too)."""
    calls = [(task, context) for task, context in DRAIN.calls.items() if task not in DRAIN.held]
    for task, context in calls:
        try:
            await errors.abort(context, errors.shutting_down())
        except grpc.aio.AbortError:
            pass  # raised by every abort, once the status is sent
        except Exception:  # noqa: S110 (the call had just ended: nothing to answer)
            pass
        task.cancel(SHUTTING_DOWN)
    return len(calls)


async def drain_calls(grace_period_s: float, log) -> None:
    """Steps 1 and 2 above, within the grace period; the caller then exits the process (step 3)
    without stopping gRPC."""
    start = time.monotonic()
    margin = min(1.0, grace_period_s / 2)  # time left after the cut for the last answers
    DRAIN.refusing = True
    while DRAIN.working() and time.monotonic() - start < grace_period_s - margin:
        await asyncio.sleep(POLL_S)
    if DRAIN.working():
        log.warning("grace period ending; calls in flight end UNAVAILABLE", calls=await _cut_calls_in_flight())
    while any(not task.done() for task in DRAIN.answering) and time.monotonic() - start < grace_period_s:
        await asyncio.sleep(POLL_S)  # gRPC sends the answers of the calls that ended
    await asyncio.sleep(FLUSH_S)

"""Draining a worker without cancelling anyone's call.

gRPC's stop (C-core's shutdown) cancels, CANCELLED (which no retry policy retries): the
calls its core has taken in but the worker has not taken up yet, and those that reach it
after the stop began, before the client read the GOAWAY the stop sends. Under load the
first are many: the worker takes up one call per turn of its event loop, and calls that
arrive meanwhile wait in the core, overtaken by later ones, for seconds. And it cancels
the calls still running when its grace period ends. So the worker drains itself around
gRPC's stop:

1. from the drain on, every call that starts (health checks aside) is held, to be answered
   UNAVAILABLE (clients retry it; health says NOT_SERVING since SIGTERM), and every unary
   call whose work ends keeps its answer until then (`answer_once_released`): a client
   waiting for an answer sends no other call, so the calls waiting in the core are taken
   up, and long batches yield to the event loop between every two requests (`batch_chunk`)
   so the loop turns fast;
2. once no call has started or ended for `QUIET_S`, nothing waits in the core and no client
   is about to send: gRPC's stop begins (GOAWAY, the listener closes); once the other
   workers on the port have closed theirs too (a retry would otherwise reach one of them in
   the instant its stop begins), the held calls are answered (UNAVAILABLE, or the answers
   kept), and their clients' next calls go elsewhere;
3. calls in flight run until they finish or the grace period is nearly over; then each is
   ended UNAVAILABLE at its next await, before gRPC's grace runs out.
"""

from __future__ import annotations

import asyncio
import time

import grpc

SHUTTING_DOWN = "the server is shutting down; retry the call"
QUIET_S = 0.05  # no call taken up for this long, the loop turning: nothing waits in gRPC's core
GOAWAY_S = 0.05  # from gRPC's stop to the answers of the held calls: the GOAWAY reaches the clients
POLL_S = 0.005
DRAINING_BATCH_CHUNK = 2  # requests of a batch settled between two turns of the loop while draining


class _Drain:
    def __init__(self):
        self.calls: dict[asyncio.Task, object] = {}  # the calls in flight: their tasks and contexts
        self.held: set[asyncio.Task] = set()  # those of them held, to be answered UNAVAILABLE
        self.refusing = False
        self.released = asyncio.Event()
        self.last_activity = 0.0

    def started(self, task: asyncio.Task, context) -> None:
        self.calls[task] = context
        self.last_activity = time.monotonic()

    def ended(self, task: asyncio.Task) -> None:
        self.calls.pop(task, None)
        if self.refusing:  # its client may send its next call at once: that call must find us
            self.last_activity = time.monotonic()

    def quiet(self) -> bool:
        return time.monotonic() - self.last_activity >= QUIET_S

    def working(self) -> int:
        """Calls in flight that are not held."""
        return len(self.calls) - len(self.held)


DRAIN = _Drain()


HEALTH_SERVICE = "grpc.health.v1.Health"  # never refused: probes must read NOT_SERVING, not an error


def batch_chunk(usual: int) -> int:
    """How many requests of a batch to settle before letting the event loop turn."""
    return DRAINING_BATCH_CHUNK if DRAIN.refusing else usual


async def refuse_if_draining(context, service: str) -> None:
    if DRAIN.refusing and service != HEALTH_SERVICE:
        task = asyncio.current_task()
        DRAIN.held.add(task)
        try:
            await DRAIN.released.wait()
        finally:
            DRAIN.held.discard(task)
        await context.abort(grpc.StatusCode.UNAVAILABLE, SHUTTING_DOWN)


async def answer_once_released(service: str) -> None:
    """A call whose work ends while the worker drains answers once the held calls are released
    (health checks aside): answered earlier, its client's next call could reach this worker (or
    another) in the instant gRPC's stop begins there, and be cancelled."""
    if DRAIN.refusing and service != HEALTH_SERVICE and not DRAIN.released.is_set():
        await DRAIN.released.wait()


async def _cut_calls_in_flight() -> int:
    """Answer every call in flight UNAVAILABLE, then stop its work (the answer is sent first:
    a task may be cancelled anywhere, inside gRPC's own sending too)."""
    calls = list(DRAIN.calls.items())
    for task, context in calls:
        try:
            await context.abort(grpc.StatusCode.UNAVAILABLE, SHUTTING_DOWN)
        except grpc.aio.AbortError:
            pass  # raised by every abort, once the status is sent
        except Exception:  # noqa: S110 (the call had just ended: nothing to answer)
            pass
        task.cancel(SHUTTING_DOWN)
    return len(calls)


async def drain_calls(grace_period_s: float, stop_grpc, log, stopped_listening=None, others_listening=None) -> None:
    """Steps 1 to 3 above, within the grace period; ``stop_grpc(grace_s)`` is gRPC's stop,
    ``stopped_listening()`` tells the other workers this one's listener is closed, and
    ``others_listening()`` whether any other's is still open."""
    start = time.monotonic()
    margin = min(1.0, grace_period_s / 2)  # time left after the cut for the last answers
    DRAIN.refusing = True
    DRAIN.last_activity = start  # the loop may not have turned for a while: the quiet counts from now
    while not DRAIN.quiet() and time.monotonic() - start < grace_period_s / 2:
        await asyncio.sleep(POLL_S)
    stopping = asyncio.ensure_future(stop_grpc(max(grace_period_s - (time.monotonic() - start), 0.1)))
    await asyncio.sleep(GOAWAY_S)
    if stopped_listening is not None:
        stopped_listening()
    release_by = start + grace_period_s - margin
    while others_listening is not None and others_listening() and time.monotonic() < release_by:
        await asyncio.sleep(POLL_S)
    DRAIN.released.set()
    while DRAIN.calls and time.monotonic() - start < grace_period_s - margin:
        await asyncio.sleep(POLL_S)
    if DRAIN.calls:
        log.warning("grace period ending; calls in flight end UNAVAILABLE", calls=await _cut_calls_in_flight())
    await stopping

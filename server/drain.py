"""Draining a worker without cancelling anyone's call.

gRPC's own stop cancels (CANCELLED, which no retry policy retries) both the calls
still running when the grace period ends and the calls that reached the worker
but were not yet taken up by the event loop when the stop began; under load with
long batches, hundreds. So before gRPC is asked to stop, the worker drains itself:

1. from then on, every call that starts (health checks aside) is answered
   UNAVAILABLE at once (clients retry it; health has said NOT_SERVING since
   SIGTERM), which also empties the backlog of calls not yet taken up;
2. calls in flight run until they finish or the grace period is nearly over;
   then each is ended UNAVAILABLE at its next await;
3. once none is in flight and no call has started for a moment, gRPC stops, with
   nothing left for it to cancel.
"""

from __future__ import annotations

import asyncio
import time

import grpc

SHUTTING_DOWN = "the server is shutting down; retry the call"
QUIET_S = 0.05  # no call started for this long: the backlog is empty
POLL_S = 0.01


class _Drain:
    def __init__(self):
        self.calls: dict[asyncio.Task, object] = {}  # the calls in flight: their tasks and contexts
        self.refusing = False
        self.last_start = 0.0

    def started(self, task: asyncio.Task, context) -> None:
        self.calls[task] = context
        self.last_start = time.monotonic()

    def ended(self, task: asyncio.Task) -> None:
        self.calls.pop(task, None)

    def quiet(self) -> bool:
        return not self.calls and time.monotonic() - self.last_start >= QUIET_S


DRAIN = _Drain()


HEALTH_SERVICE = "grpc.health.v1.Health"  # never refused: probes must read NOT_SERVING, not an error


async def refuse_if_draining(context, service: str) -> None:
    if DRAIN.refusing and service != HEALTH_SERVICE:
        await context.abort(grpc.StatusCode.UNAVAILABLE, SHUTTING_DOWN)


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


async def drain_calls(grace_period_s: float, log) -> None:
    """Steps 1 and 2 above, within the grace period; returns when gRPC may stop."""
    start = time.monotonic()
    margin = min(1.0, grace_period_s / 2)  # time left after the cut for the last answers
    DRAIN.refusing = True
    while not DRAIN.quiet() and time.monotonic() - start < grace_period_s - margin:
        await asyncio.sleep(POLL_S)
    if DRAIN.calls:
        log.warning("grace period ending; calls in flight end UNAVAILABLE", calls=await _cut_calls_in_flight())
    while not DRAIN.quiet() and time.monotonic() - start < grace_period_s:
        await asyncio.sleep(POLL_S)

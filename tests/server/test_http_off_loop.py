"""Issue 21, finding 5: four 10k-hand JSON SettleBatch calls over HTTP took the worker's event
loop for seconds at a time (gRPC health checks in the same worker waited 1.0 s), while the same
batches over gRPC let them through in 28 ms: protobuf's JSON parser and writer ran on the loop.
Now a JSON body or answer of 64 KiB or more is read and written in one of the worker's JSON threads;
`make bench-json-batches` measures the health checks' latency meanwhile (docs/HTTP.md)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from server.off_loop import OFF_LOOP_BYTES, RULES_THREADS, in_rules_thread, off_loop


def _thread_name() -> str:
    return threading.current_thread().name


def test_large_json_is_read_and_written_off_the_event_loop_and_small_json_on_it():
    async def where_each_runs():
        return (
            _thread_name(),
            await off_loop(OFF_LOOP_BYTES - 1, _thread_name),
            await off_loop(OFF_LOOP_BYTES, _thread_name),
        )

    loop, small, large = asyncio.run(where_each_runs())
    assert OFF_LOOP_BYTES == 65536
    assert small == loop
    assert large in ("shmj-json_0", "shmj-json_1")  # one of the two JSON threads


def test_what_the_thread_raises_reaches_the_call():
    async def failing():
        return await off_loop(OFF_LOOP_BYTES, int, "not a number")

    with pytest.raises(ValueError, match=r"^invalid literal for int\(\) with base 10: 'not a number'$"):
        asyncio.run(failing())


def test_a_review_whose_call_ended_before_its_turn_is_never_computed():
    """A call that ends (cancelled, past its deadline) while its review waits for a rules thread
    takes the review with it: a client cannot queue work that nobody waits for."""
    release = threading.Event()
    ran: list[str] = []

    def busy():
        release.wait(10)
        ran.append(_thread_name())

    async def calls():
        holding = [asyncio.ensure_future(in_rules_thread(busy)) for _ in range(RULES_THREADS)]
        waiting = asyncio.ensure_future(in_rules_thread(ran.append, "abandoned"))
        await asyncio.sleep(0.05)
        waiting.cancel()
        await asyncio.sleep(0.05)  # the call has ended: its review is dropped from the queue
        release.set()
        await asyncio.gather(*holding)
        await asyncio.sleep(0.05)
        return waiting.cancelled()

    assert asyncio.run(calls())
    assert sorted(ran) == ["shmj-rules_0", "shmj-rules_1"]

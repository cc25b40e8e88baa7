"""The worker's garbage collector: gRPC's per-call reference cycles freed in short runs, each run
counted (docs/PERFORMANCE.md: at a threshold of 100,000 one call in 15,000 waited 25-100 ms)."""

from __future__ import annotations

import asyncio
import gc
import time

import grpc
import pytest
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from prometheus_client import REGISTRY

import convert
from generators.random_hands import generate_requests
from server.garbage import MAX_PENDING, BatchPause, PauseLog
from tests.server.test_lifecycle import sample
from tests.worked_examples import WORKED_EXAMPLES

CALLS = 3_000
CYCLE_OBJECTS = 6  # what each grpc.aio call leaves for the collector (its handler look-up's closure)
LONGEST_RUN = 5_000  # objects freed in one collection: about a millisecond a thousand


def _young_runs_over_unary_calls(server, stub) -> tuple[float, float]:
    """The worker's young collections, and the objects they freed, over `CALLS` unary Settles."""
    before = server.metrics()
    request = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    for _ in range(CALLS // 100):
        for call in [stub.Settle.future(request, timeout=30) for _ in range(100)]:
            call.result()
    deadline = time.monotonic() + 10  # the worker publishes what its collector did once a second
    while True:
        after = server.metrics()
        runs = sample(after, "shmj_gc_pause_seconds_count", generation="0") - sample(
            before, "shmj_gc_pause_seconds_count", generation="0"
        )
        if runs >= LEAST_RUNS or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    freed = sample(after, "shmj_gc_collected_objects_total", generation="0") - sample(
        before, "shmj_gc_collected_objects_total", generation="0"
    )
    return runs, freed


LEAST_RUNS = CALLS * CYCLE_OBJECTS // LONGEST_RUN  # 18,000 objects to free, at most 5,000 a run


def test_grpcs_per_call_cycles_are_freed_in_runs_no_longer_than_the_threshold(server, stub):
    runs, freed = _young_runs_over_unary_calls(server, stub)
    assert runs >= LEAST_RUNS
    assert freed / runs <= LONGEST_RUN


def _batch(hands: int, seed: int) -> svc.SettleBatchRequest:
    return svc.SettleBatchRequest(requests=[convert.settle_request_message(r) for r in generate_requests(hands, seed)])


def test_the_collector_a_batch_paused_runs_again_after_batches_answered_failed_and_cancelled(server, stub):
    batch = _batch(2000, 41)  # the session server's largest
    assert len(stub.SettleBatch(batch, timeout=60).results) == 2000
    with pytest.raises(grpc.RpcError) as error:  # its deadline passes mid-batch: aborted between chunks
        stub.SettleBatch(batch, timeout=0.005)
    assert error.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    cancelled = stub.SettleBatch.future(batch, timeout=60)
    time.sleep(0.02)  # under way: 2,000 hands take the worker some 60 ms of CPU
    assert cancelled.cancel()
    runs, freed = _young_runs_over_unary_calls(server, stub)  # none if the collector stayed off
    assert runs >= LEAST_RUNS
    assert freed / runs <= LONGEST_RUN


def test_health_and_unary_calls_are_answered_while_batches_pause_the_collector(server, stub):
    batch = _batch(2000, 43)
    request = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    expected = stub.Settle(request, timeout=10)
    health = server.channel().unary_unary("/grpc.health.v1.Health/Check")
    batches = [stub.SettleBatch.future(batch, timeout=60) for _ in range(3)]
    answers = [stub.Settle(request, timeout=10) for _ in range(20)]
    status = health(b"", timeout=10)  # an empty HealthCheckRequest; SERVING is field 1 = 1
    assert [len(b.result().results) for b in batches] == [2000, 2000, 2000]
    assert answers == [expected] * 20
    assert status == b"\x08\x01"


def test_a_pause_is_resumed_when_its_batch_ends_however_it_ends():
    pause = BatchPause()
    assert gc.isenabled()
    with pause.during_batch(1_000):
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), pause.during_batch(1_000):
        raise ValueError("a batch that fails")
    assert gc.isenabled()

    async def cancelled_batch(started: asyncio.Event) -> None:
        with pause.during_batch(1_000):
            started.set()
            await asyncio.Event().wait()

    async def cancel_one() -> bool:
        started = asyncio.Event()
        task = asyncio.create_task(cancelled_batch(started))
        await started.wait()
        paused = not gc.isenabled()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return paused

    assert asyncio.run(cancel_one())
    assert gc.isenabled()
    assert pause.under_way == 0


def test_overlapping_batches_keep_one_pause_until_the_last_ends():
    pause = BatchPause()
    first, second = pause.during_batch(1_000), pause.during_batch(1_000)
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert not gc.isenabled()  # the second is still under way
    second.__exit__(None, None, None)
    assert gc.isenabled()


def test_a_pause_past_its_bound_ends_with_the_next_batch_to_end_and_a_young_run():
    pause = BatchPause(max_paused_hands=1_500)
    first, second, third, fourth = (pause.during_batch(1_000) for _ in range(4))
    first.__enter__()
    second.__enter__()
    fourth.__enter__()
    young_runs = gc.get_stats()[0]["collections"]
    fourth.__exit__(None, None, None)  # 1,000 hands ended in the pause: within the bound
    assert not gc.isenabled()
    first.__exit__(None, None, None)  # 2,000: past it, with the second still under way
    assert gc.isenabled()
    assert gc.get_stats()[0]["collections"] == young_runs + 1
    third.__enter__()  # the next batch pauses it again
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    third.__exit__(None, None, None)
    assert gc.isenabled()
    assert pause.under_way == 0


def test_a_collector_turned_off_by_its_program_stays_off_after_a_batch():
    pause = BatchPause()
    gc.disable()
    try:
        with pause.during_batch(1_000):
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def _value(name: str, generation: str) -> float:
    return REGISTRY.get_sample_value(name, {"generation": generation}) or 0.0


def test_each_collection_noted_is_published_once():
    log = PauseLog()
    before = {
        (name, generation): _value(name, generation)
        for name in ("shmj_gc_pause_seconds_count", "shmj_gc_pause_seconds_sum", "shmj_gc_collected_objects_total")
        for generation in ("0", "2")
    }
    log("start", {"generation": 0, "collected": 0, "uncollectable": 0})
    log("stop", {"generation": 0, "collected": 4_000, "uncollectable": 0})
    log("start", {"generation": 2, "collected": 0, "uncollectable": 0})
    log("stop", {"generation": 2, "collected": 12, "uncollectable": 0})
    log.publish()
    log.publish()  # nothing new: nothing added
    assert _value("shmj_gc_pause_seconds_count", "0") - before["shmj_gc_pause_seconds_count", "0"] == 1
    assert _value("shmj_gc_pause_seconds_count", "2") - before["shmj_gc_pause_seconds_count", "2"] == 1
    assert _value("shmj_gc_collected_objects_total", "0") - before["shmj_gc_collected_objects_total", "0"] == 4_000
    assert _value("shmj_gc_collected_objects_total", "2") - before["shmj_gc_collected_objects_total", "2"] == 12
    paused = _value("shmj_gc_pause_seconds_sum", "0") - before["shmj_gc_pause_seconds_sum", "0"]
    assert 0 <= paused < 1


def test_collections_noted_between_publications_are_bounded():
    log = PauseLog()
    for _ in range(MAX_PENDING + 5):
        log("start", {"generation": 0, "collected": 0, "uncollectable": 0})
        log("stop", {"generation": 0, "collected": 1, "uncollectable": 0})
    assert len(log.pending) == MAX_PENDING

"""The worker's garbage collector: gRPC's per-call reference cycles freed in short runs, each run
counted (docs/PERFORMANCE.md: at a threshold of 100,000 one call in 15,000 waited 25-100 ms)."""

from __future__ import annotations

import time

from prometheus_client import REGISTRY

import convert
from server.garbage import MAX_PENDING, PauseLog
from tests.server.test_lifecycle import sample
from tests.worked_examples import WORKED_EXAMPLES

CALLS = 3_000
CYCLE_OBJECTS = 6  # what each grpc.aio call leaves for the collector (its handler look-up's closure)
LONGEST_RUN = 5_000  # objects freed in one collection: about a millisecond a thousand


def test_grpcs_per_call_cycles_are_freed_in_runs_no_longer_than_the_threshold(server, stub):
    before = server.metrics()
    request = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    for _ in range(CALLS // 100):
        for call in [stub.Settle.future(request, timeout=30) for _ in range(100)]:
            call.result()
    least_runs = CALLS * CYCLE_OBJECTS // LONGEST_RUN  # 18,000 objects to free, at most 5,000 a run
    deadline = time.monotonic() + 10  # the worker publishes what its collector did once a second
    while True:
        after = server.metrics()
        runs = sample(after, "shmj_gc_pause_seconds_count", generation="0") - sample(
            before, "shmj_gc_pause_seconds_count", generation="0"
        )
        if runs >= least_runs or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    freed = sample(after, "shmj_gc_collected_objects_total", generation="0") - sample(
        before, "shmj_gc_collected_objects_total", generation="0"
    )
    assert runs >= least_runs
    assert freed / runs <= LONGEST_RUN


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

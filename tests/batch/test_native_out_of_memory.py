"""Out of memory at any allocation, each native reader and writer raises MemoryError (or, where
the allocation that failed was not needed, gives its usual answer): never a SystemError (NULL
with no exception set, or a result with one set), never a decline that swallows the error or a
wrong answer, never a reference left behind. Each call is made once for every allocation it
makes, that allocation failed (``_testcapi.set_nomemory``), until a run of calls no failure
reaches."""

from __future__ import annotations

import gc
import json
import sys
import threading
import time

import pytest
from google.protobuf.json_format import MessageToDict

import convert
from batch import native
from batch.local import settle_answer
from batch.records import new_counts
from generators.random_hands import generate_requests
from rules_core.results import SettleResult
from tests.batch.memory import least_block_change

testcapi = pytest.importorskip("_testcapi")
pytestmark = pytest.mark.native
MODULES = {name: native.load(name) for name in ("json_request", "json_answer", "arrow_results")}
needs_build = pytest.mark.skipif(None in MODULES.values(), reason="the native modules are not built (make install)")
UNREACHED = 300  # calls in a row that no failure reaches: the call makes no more allocations

REQUESTS = generate_requests(60, seed=5)
LINES = [json.dumps(MessageToDict(convert.settle_request_message(r)), separators=(",", ":")).encode() for r in REQUESTS]
LINES = [line for line in LINES if b'"melds"' in line][:2] + LINES[:1]


def _results() -> list:
    """Two settled results with items, the first with a non-ASCII request id and odd floats."""
    answers = map(settle_answer, REQUESTS)
    results = [r for r in answers if isinstance(r, SettleResult) and r.winners and r.winners[0].items][:2]
    results[0] = results[0]._replace(request_id="清一色 é x" * 3, seat_deltas=(1 / 3, 1e-7, 2.5e300, -0.0))
    return results


RESULTS = _results()

ERROR = {"requestId": "e-1", "error": {"code": "INVALID_ARGUMENT", "message": "m", "fieldViolations": []}}


def comparable(value):
    """A value to compare: result_buffers' bytearrays as bytes."""
    if isinstance(value, tuple) and value and isinstance(value[0], bytearray | type(None)):
        return tuple(None if buffer is None else bytes(buffer) for buffer in value)
    return value


def call_under(failing: int, call):
    """call() with its allocation number ``failing`` (from 0) failed: its answer, or the name of
    what it raised."""
    gc.disable()
    testcapi.set_nomemory(failing, failing + 1)
    try:
        answer = call()
    except MemoryError:
        answer = "MemoryError"
    except SystemError as error:  # the C code broke CPython's rule on results and exceptions
        answer = f"SystemError: {error}"
    finally:
        testcapi.remove_mem_hooks()
        gc.enable()
    return comparable(answer)


def outcomes(call) -> list:
    """What call() gave with each of its allocations failed in turn: the usual answer, or
    MemoryError, else what it gave instead. The failing allocator is the process's: no other
    thread may take the interpreter meanwhile (pytest-xdist's worker reads its commands in one),
    so the switch interval is made longer than the whole run, after a pause in which a thread
    already waiting for its turn under the usual interval takes it."""
    usual = comparable(call())
    wrong, reached, failing = [], 0, 0
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    time.sleep(0.005)
    try:
        while reached < UNREACHED:
            got = call_under(failing, call)
            reached = reached + 1 if got == usual else 0
            if got not in ("MemoryError", usual):
                wrong.append((failing, got))
            failing += 1
    finally:
        sys.setswitchinterval(interval)
    return wrong


def cases():
    json_request, json_answer = MODULES["json_request"], MODULES["json_answer"]
    arrow_results = MODULES["arrow_results"]
    yield "json_request.read", lambda: [json_request.read(line) for line in LINES]
    yield "json_request.read under a profile", lambda: [json_request.read(line, "classic") for line in LINES]
    yield "json_answer.settle_line", lambda: [json_answer.settle_line(result) for result in RESULTS]
    yield (
        "json_answer.counted_line",
        lambda: [(json_answer.counted_line(r, counts := new_counts()), counts) for r in RESULTS],
    )
    yield "arrow_results.result_buffers", lambda: arrow_results.result_buffers([*RESULTS, ERROR])


@needs_build
@pytest.mark.parametrize("name, call", list(cases()) if None not in MODULES.values() else [])
def test_out_of_memory_at_any_allocation_is_a_memory_error_or_the_usual_answer(name, call):
    assert outcomes(call) == []


@needs_build
@pytest.mark.parametrize("name, call", list(cases()) if None not in MODULES.values() else [])
def test_out_of_memory_at_any_allocation_leaves_no_block_behind(name, call):
    """Three passes of every failure after two of warm-up (what CPython caches the first times:
    a UTF-8 form, free lists): a block kept by any failure path would be one a pass at least."""
    for _ in range(2):
        outcomes(call)

    def passes() -> None:
        for _ in range(3):
            outcomes(call)

    assert least_block_change(passes, 1) <= 1  # the int counting them is a block itself


@needs_build
def test_the_failed_allocations_are_the_calls_alone_not_another_threads():
    """The failing allocator is the whole process's: a thread that allocates while a call runs
    under it (pytest-xdist's worker receives its commands in one) would be handed the failure,
    and it was (a MemoryError in xdist's own lock killed a worker of `make test` and hung the
    run). While one is set, no other thread runs."""
    stop, failed = threading.Event(), []

    def allocate() -> None:  # as xdist's thread does: let go of the interpreter, then allocate
        while not stop.is_set():
            time.sleep(0)
            try:
                [str(n) for n in range(2000)]
            except MemoryError:
                failed.append(1)

    other = threading.Thread(target=allocate)
    other.start()
    try:
        for _ in range(20):  # about a second, some two hundred switch intervals
            for _name, call in cases():
                outcomes(call)
    finally:
        stop.set()
        other.join()
    assert failed == []

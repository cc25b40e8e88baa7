"""The cycle collector is paused while a batch is settled, and only then."""

from __future__ import annotations

import gc
import threading

import pyarrow.parquet as pq

from batch.arrow import settle_arrow_batch
from batch.collector import collector_paused
from tests.server.conftest import ROOT


def test_paused_inside_a_batch_and_running_again_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer batch is still under way
    assert gc.isenabled()
    settle_arrow_batch(pq.read_table(ROOT / "examples" / "hands.parquet"))
    assert gc.isenabled()


def test_it_runs_again_when_the_last_of_two_threads_ends_its_batch():
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def first():
        with collector_paused():
            first_in.set()
            second_in.wait(10)
        seen["after first"] = gc.isenabled()
        first_out.set()

    def second():
        first_in.wait(10)
        with collector_paused():
            second_in.set()
            first_out.wait(10)
            seen["second still in"] = gc.isenabled()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert seen == {"after first": False, "second still in": False}
    assert gc.isenabled()


def test_a_collector_turned_off_by_its_program_stays_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_dask_task_frees_each_batch_before_the_collector_runs_again(tmp_path, monkeypatch):
    """Resumed while a batch's answers and their dicts were still held (30,905 new objects), the
    collector's first allocation walked them all, once a batch of 2,000, as a rescore chunk's
    did: a batch now leaves it less than one collection's worth."""
    from contextlib import contextmanager

    from batch import dask_job
    from batch.parts import count_lines, expand_inputs, numbered, plan_partitions
    from generators.random_hands import generate_requests
    from tests.clients.test_rescore import request_line

    left = []
    real = dask_job.collector_paused

    @contextmanager
    def watched():
        with real():
            yield
            left.append(gc.get_count()[0])  # what the batch leaves, as the pause ends

    monkeypatch.setattr(dask_job, "collector_paused", watched)
    source = tmp_path / "in.jsonl"
    source.write_text("".join(request_line(r) + "\n" for r in generate_requests(2500, seed=8)))
    partitions = plan_partitions(expand_inputs([str(source)]), source.stat().st_size + 1)
    lines = {p.index: count_lines(p.url, p.start, p.stop) for p in partitions}

    def task(run: int) -> dict:
        out = tmp_path / f"out-{run}"
        (out / "_stats").mkdir(parents=True)
        job = {"output": str(out), "format": "jsonl", "profile": None, "overrides": {}, "topic": "test"}
        return dask_job.settle_part(next(iter(numbered(partitions, lines))), job, None)

    task(1)  # the free lists of tuples, lists and dicts filled, as a worker has them
    left.clear()
    gc.collect(1)
    assert task(2)["records"] == 2500
    assert len(left) == 2 and max(left) < gc.get_threshold()[0], left

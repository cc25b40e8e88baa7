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

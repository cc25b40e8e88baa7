"""Ctrl-C and SIGTERM in a batch job (`batch.interrupts`), with real signals sent to this
process: where the first one stops the work, and that a second one changes nothing."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from batch.interrupts import EXIT_CODES, STOPPING_SIGNALS, Interrupts


def send(signum: signal.Signals = signal.SIGINT) -> None:
    os.kill(os.getpid(), signum)  # handled on this, the main, thread before kill returns to Python code


def test_the_first_signal_raises_where_the_work_stands_and_names_the_stop():
    with Interrupts() as interrupts:
        with pytest.raises(KeyboardInterrupt):
            send(signal.SIGTERM)
        assert (interrupts.came, interrupts.reason) == (True, "terminated")
        send(signal.SIGINT)  # the job is already stopping
        assert interrupts.reason == "terminated"
    assert EXIT_CODES[interrupts.reason] == 143 and STOPPING_SIGNALS[signal.SIGINT] == "interrupted"


def test_a_signal_inside_held_waits_for_the_end_of_the_block():
    with Interrupts() as interrupts:
        steps = []
        with pytest.raises(KeyboardInterrupt):
            with interrupts.held():
                send()
                steps.append("the chunk written whole")
        assert steps == ["the chunk written whole"] and interrupts.reason == "interrupted"


def test_a_held_block_after_the_stop_raises_nothing_more():
    with Interrupts() as interrupts:
        with pytest.raises(KeyboardInterrupt):
            send()
        with interrupts.held():
            send()  # a second signal, while the job writes what it leaves behind


def test_noted_only_signals_stop_the_work_at_its_checks_and_in_its_waits():
    with Interrupts() as interrupts:
        interrupts.noted_only()
        send(signal.SIGTERM)  # noted, not raised: inside a library's call it would be raised there
        assert (interrupts.came, interrupts.reason) == (True, "terminated")
        with pytest.raises(KeyboardInterrupt):
            interrupts.check()
        with pytest.raises(KeyboardInterrupt):
            interrupts.interruptible(lambda: pytest.fail("a wait begun after the signal"))


def test_a_signal_during_an_interruptible_wait_ends_it():
    with Interrupts() as interrupts:
        interrupts.noted_only()
        interrupts.check()  # nothing came yet
        never = threading.Event()
        timer = threading.Timer(0.2, send)  # os.kill from another thread: handled on the main one
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            interrupts.interruptible(lambda: never.wait(30))
        timer.join()
        assert interrupts.reason == "interrupted"


def test_a_wait_with_no_signal_gives_its_value():
    with Interrupts() as interrupts:
        interrupts.noted_only()
        assert interrupts.interruptible(lambda: "part-00003.jsonl") == "part-00003.jsonl"
        send()  # once the wait is over, a signal is noted again, not raised
        assert interrupts.came


def test_the_handlers_are_put_back_and_an_ignored_signal_stays_ignored():
    before = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a background job's Ctrl-C
    try:
        with Interrupts() as interrupts:
            send(signal.SIGINT)
            assert not interrupts.came
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    assert signal.getsignal(signal.SIGTERM) is before

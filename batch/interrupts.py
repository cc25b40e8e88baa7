"""Ctrl-C and SIGTERM for a batch job: the job stops where it stands, says so, and
``--resume`` goes on from there. Shared by ``shmj rescore``'s local job and its Dask job."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

STOPPING_SIGNALS = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}  # and how a summary says it
EXIT_CODES = {"interrupted": 130, "terminated": 143}  # 128 + the signal's number, as shells report it


class StoppedBeforeWriting(Exception):
    """A signal stopped the job before it wrote anything: there is nothing to resume."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason  # "interrupted" or "terminated"


class Interrupts:
    """Ctrl-C (SIGINT) and SIGTERM stop a job. The first one raises KeyboardInterrupt where the
    job stands, except inside `held()`, where it waits for the block's end (a chunk is in the
    output and in the counts whole, or not at all), and after `noted_only()`, where it is only
    noted, for `check()` and `interruptible()` to act on. ``reason`` says which signal came
    first, ``came`` whether any did; a second one changes nothing, as the job is already
    stopping. A signal that is ignored (SIGINT in a background job), or any signal off the main
    thread, changes nothing."""

    def __enter__(self) -> Interrupts:
        self.came = False
        self.reason = "interrupted"
        self._raising = True
        self.previous: dict = {}
        if threading.current_thread() is threading.main_thread():
            for signum in STOPPING_SIGNALS:
                if signal.getsignal(signum) is not signal.SIG_IGN:
                    self.previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        for signum, previous in self.previous.items():
            signal.signal(signum, previous)

    def _handle(self, signum, frame) -> None:
        first = not self.came
        if first:
            self.reason = STOPPING_SIGNALS[signal.Signals(signum)]
        self.came = True
        if first and self._raising:
            raise KeyboardInterrupt

    @contextmanager
    def held(self):
        raising, self._raising = self._raising, False
        came = self.came
        try:
            yield
        finally:
            self._raising = raising
            if raising and self.came and not came:
                raise KeyboardInterrupt

    def noted_only(self) -> None:
        """From now on a signal is only noted: for work inside a library that a KeyboardInterrupt
        may leave in a state of its own (Dask's client), which `check()` stops between its steps
        and `interruptible()` stops in its waits."""
        self._raising = False

    def check(self) -> None:
        """KeyboardInterrupt if a signal has come."""
        if self.came:
            raise KeyboardInterrupt

    def interruptible(self, wait):
        """``wait()``'s value; KeyboardInterrupt instead if a signal came before it or comes while
        it waits. For waits a KeyboardInterrupt leaves as they were (a lock's, a condition's)."""
        raising, self._raising = self._raising, True
        try:
            self.check()
            return wait()
        finally:
            self._raising = raising

    @contextmanager
    def deaf_children(self):
        """Worker processes started in here inherit SIGINT and SIGTERM blocked. Ctrl-C reaches the
        whole foreground process group (and a service manager's SIGTERM often the whole group
        too): a worker finishes its chunk instead of dying in a traceback, and the coordinating
        process alone decides what is written."""
        if not self.previous:
            yield
            return
        old = signal.pthread_sigmask(signal.SIG_BLOCK, set(self.previous))
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)

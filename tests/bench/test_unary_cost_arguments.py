"""`bench.unary_cost --seconds 1` (or `bench.without_versioned_answers`, which passes it on):
every call of a one-second open-loop run falls in the second that is left out, and the bench
ended in an IndexError's traceback after all its full-speed rounds. It is refused at once."""

from __future__ import annotations

import subprocess
import sys

from tests.bench import ROOT


def refusal(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bench.unary_cost", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_an_open_loop_run_of_one_second_is_refused_before_anything_runs():
    done = refusal("--seconds", "1")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].endswith(
        "error: argument --seconds: at least 2 (the first second of an open-loop run is left out), got 1"
    )
    assert "Traceback" not in done.stderr


def test_seconds_that_are_not_a_number_are_named():
    done = refusal("--seconds", "ten")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].endswith("error: argument --seconds: a whole number of seconds, got 'ten'")

"""`bench.unary_instructions`: the A/B that counts instructions (docs/PERFORMANCE.md, tracing
off) runs the handler the server registers, under valgrind, and says so in one line; without
valgrind it says what to install, without a traceback."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bench.unary_instructions", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_counts_the_instructions_of_a_settle_call():
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        done = run("--calls", "20")
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr.endswith("not found: apt-get install valgrind\n")
        return
    done = run("--calls", "20")
    assert (done.returncode, done.stderr) == (0, "")
    found = re.fullmatch(
        r"  service \(\w+(\+changes)?, rules_core (compiled|pure)\): ([\d,]+) instructions per unary Settle\n",
        done.stdout,
    )
    assert found is not None, done.stdout
    # a Settle call through the wrapper, the servicer and the rules is a few hundred thousand
    assert 100_000 < int(found.group(3).replace(",", "")) < 5_000_000

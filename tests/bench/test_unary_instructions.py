"""`bench.unary_instructions`: the A/B that counts instructions (docs/PERFORMANCE.md, tracing
off) runs the handler the server registers, under valgrind, and says so in one line; without
valgrind it says what to install, without a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.debian_tools import debian_tool

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bench.unary_instructions", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )


def test_counts_the_instructions_of_a_settle_call():
    debian_tool("valgrind"), debian_tool("callgrind_control")  # `make test` installs them
    done = run("--calls", "20")
    assert (done.returncode, done.stderr) == (0, "")
    found = re.fullmatch(
        r"  service \(\w+(\+changes)?, rules_core (compiled|pure)\): ([\d,]+) instructions per unary Settle\n",
        done.stdout,
    )
    assert found is not None, done.stdout
    # a Settle call through the wrapper, the servicer and the rules is a few hundred thousand
    assert 100_000 < int(found.group(3).replace(",", "")) < 5_000_000


def test_without_valgrind_it_says_what_to_install_in_one_line(tmp_path):
    done = run("--calls", "20", env={**os.environ, "PATH": str(tmp_path)})
    assert (done.returncode, done.stdout) == (1, "")
    assert (
        done.stderr == "bench.unary_instructions: valgrind and callgrind_control not found: apt-get install valgrind\n"
    )

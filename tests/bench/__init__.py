"""Tests of the benchmarks the documents show: each run as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bench_lines(module: str, *args: str, env: dict[str, str] | None = None) -> list[str]:
    """The lines ``python -m bench.MODULE ARGS`` prints, run from the repository (in ``env``,
    the environment, when given); it must end well, with nothing on its standard error."""
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{module}", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout.splitlines()

"""Instruction counts under valgrind's callgrind, for the benches that compare them: a count
moves by well under 1% from run to run, where CPU time on a shared host moves by tens of percent.

The process counted calls `counting(True)` once warm and `counting(False)` after the work;
`instructions` runs it under callgrind with counting off at start and returns what it counted."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

TOOLS = ("valgrind", "callgrind_control")


def missing_tools() -> list[str]:
    """The valgrind tools this machine lacks (none: an empty list)."""
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def counting(on: bool) -> None:
    """In the process callgrind runs: switch counting on or off."""
    switch = ["callgrind_control", f"--instr={'on' if on else 'off'}", str(os.getpid())]
    subprocess.run(switch, stdout=subprocess.DEVNULL, check=True)


def instructions(command: list[str], cwd: Path, env: dict[str, str], what: str) -> int:
    """The instructions ``command`` counted between its `counting` switches, run under callgrind
    in ``cwd`` with ``env``; ``what`` names the run in the error when it fails."""
    with tempfile.TemporaryDirectory(prefix="shmj-instructions-") as work:
        valgrind = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={work}/callgrind.out"]
        done = subprocess.run([*valgrind, *command], cwd=cwd, env=env, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or not found:
        raise RuntimeError(f"valgrind {what} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return int(found.group(1))

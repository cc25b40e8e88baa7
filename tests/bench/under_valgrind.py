"""Running a bench that counts instructions under valgrind, as its tests do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.debian_tools import debian_tool

ROOT = Path(__file__).resolve().parents[2]


def report_lines(module: str, *args: str) -> list[str]:
    """The lines ``python -m module args`` prints, once it has exited 0 with nothing on stderr."""
    debian_tool("valgrind"), debian_tool("callgrind_control")  # `make test` installs them
    done = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout.splitlines()

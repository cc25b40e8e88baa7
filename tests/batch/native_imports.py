"""A native module loaded in a fresh interpreter after a change to what it relies on: what its
import check says (tests that the check is there)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

_SCRIPT = """
{change}
from batch import native
try:
    native.load({name!r})
except ImportError as error:
    print(error)
"""


def import_error(name: str, change: str) -> str:
    """The ImportError's message of loading ``batch.native.<name>`` after ``change`` (Python
    run first), or "" when it loads."""
    script = _SCRIPT.format(change=textwrap.dedent(change), name=name)
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=os.environ, timeout=120
    )
    return out.stdout.strip()

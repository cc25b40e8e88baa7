"""The end of a pass/fail bench: its report printed (and written to ``--report``), its exit code."""

from __future__ import annotations

import json
from pathlib import Path


def verdict(report: dict, path: str, hidden: tuple[str, ...] = ()) -> int:
    """Print ``report`` but its ``hidden`` keys, write all of it to ``path`` (when given), and
    return 0 when it ``passed``, else 1."""
    print(json.dumps({k: v for k, v in report.items() if k not in hidden}, indent=1))
    if path:
        Path(path).write_text(json.dumps(report, indent=1) + "\n")
    return 0 if report["passed"] else 1

"""rules_core holds the rules and nothing else: it imports nothing else of the project, nor gRPC,
protobuf or the generated code, and its modules form no import circle; convert, the wire layer,
imports only rules_core and the generated code of the project; the server imports no batch code
and a client never the server (the contracts of pyproject.toml's [tool.importlinter], run here by
import-linter as `make lint-imports` runs them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def test_the_layering_contracts_are_kept():
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 5 kept, 0 broken." in result.stdout


def test_importing_rules_core_loads_no_wire_code():
    code = "import sys, rules_core; print(sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[1:])))"
    wire = ["convert", "mahjong", "grpc", "google", "batch", "server", "clients", "generators", "profile_files"]
    result = subprocess.run(
        [sys.executable, "-c", code, *wire], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


def test_the_json_entry_points_are_still_rules_cores_names():
    import rules_core
    from convert import json_api

    assert (rules_core.settle_json, rules_core.settle_record_json, rules_core.list_waits_json) == (
        json_api.settle_json,
        json_api.settle_record_json,
        json_api.list_waits_json,
    )

"""The batch package's layers (issue 23): it depends on rules_core, the generated protobuf code,
convert/, profile_files/ and tracing_setup/ only, never on clients/; no import circle among the CLI, the
rescore modules and the batch modules; no private name crosses a module; and the Arrow core,
what every Spark and Ray executor imports, loads no gRPC."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys

import pytest

from tests.server.conftest import ROOT

ALLOWED = {"rules_core", "convert", "profile_files", "tracing_setup", "mahjong", "batch"}
PROJECT = {"rules_core", "generators", "convert", "profile_files", "tracing_setup", "server", "clients", "batch"}


def module_name(path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path) -> list[tuple[str, list[str]]]:
    """(module, names) of every import in the file, at any depth (inside functions too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


def project_files():
    for package in ("batch", "clients"):
        yield from sorted((ROOT / package).glob("*.py"))


def test_the_batch_package_imports_nothing_of_the_clients():
    for path in sorted((ROOT / "batch").glob("*.py")):
        for module, _ in imports(path):
            top = module.split(".")[0]
            assert top not in PROJECT or top in ALLOWED, f"{path.name} imports {module}"


def test_no_import_circle_among_the_cli_rescore_and_batch_modules():
    graph: dict[str, set[str]] = {}
    for path in project_files():
        name = module_name(path)
        targets = set()
        for module, names in imports(path):
            targets.add(module)
            targets.update(f"{module}.{n}" for n in names)  # `from clients import rescore`
        graph[name] = {t for t in targets if t in {module_name(p) for p in project_files()} and t != name}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for step in graph.get(start, ()):
            if step == goal or (step not in seen and (seen.add(step) or reaches(step, goal, seen))):
                return True
        return False

    circles = sorted(name for name in graph if reaches(name, name, set()))
    assert circles == []


def test_no_private_name_crosses_a_module():
    crossings = [
        f"{module_name(path)}: from {module} import {name}"
        for path in project_files()
        for module, names in imports(path)
        if module.split(".")[0] in PROJECT
        for name in names
        if name.startswith("_")
    ]
    assert crossings == []


def test_the_arrow_core_loads_no_grpc():
    code = "import batch.arrow, batch.local, sys; assert 'grpc' not in sys.modules, sorted(sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]


def test_the_old_entry_points_are_the_new_ones():
    from batch import arrow

    assert arrow.settle_record_batch is arrow.settle_arrow_batch
    assert arrow.settle_record_batches is arrow.settle_arrow_batches


def test_the_module_paths_of_earlier_releases_still_import_the_arrow_core_with_a_warning():
    """A Spark or Ray job written for an earlier release runs unchanged, told where the names went."""
    from batch import arrow, arrow_schema

    for name in ("clients.batch.arrow_settle", "clients.batch.arrow_schema"):
        sys.modules.pop(name, None)
        with pytest.warns(DeprecationWarning, match=f"{name} is batch"):
            importlib.import_module(name)
    from clients.batch.arrow_schema import RESULT_SCHEMA
    from clients.batch.arrow_settle import settle_record_batch, settle_record_batches

    assert (settle_record_batch, settle_record_batches) == (arrow.settle_arrow_batch, arrow.settle_arrow_batches)
    assert RESULT_SCHEMA is arrow_schema.RESULT_SCHEMA
    code = (
        "import warnings, sys; warnings.simplefilter('ignore'); import clients.batch.arrow_settle, "
        "clients.batch.arrow_schema; assert 'grpc' not in sys.modules, sorted(sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]

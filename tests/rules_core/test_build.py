"""Which build of the hot path runs: mypyc's compiled modules or the source (rules_core.compiled)."""

import glob
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rules_core
from compile_core import HOT_PATH
from rules_core.compiled import HOT_PATH as RULES_CORE_HOT_PATH
from rules_core.compiled import PURE_ENV, STAMP, compiled_is_current, source_digests, source_file

ROOT = Path(__file__).resolve().parents[2]
NOT_COMPILED = "no compiled build, or sources edited since (make install compiles where gcc is)"
REPORT = """
import importlib, json, sys, rules_core
print(json.dumps([rules_core.BUILD] + [importlib.import_module(m).__spec__.origin for m in sys.argv[1:]]))
"""
SOURCES = [Path(source_file(module)).name for module in HOT_PATH]  # settle.py, ..., fast_requests.py
PACKAGES = sorted({module.split(".")[0] for module in HOT_PATH})  # rules_core, batch and convert


def copy_packages(into: Path) -> None:
    """The hot path's packages and their compiled group library, copied with their times."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, into / package, copy_function=shutil.copy2)
    for library in glob.glob(str(ROOT / "rules_core__mypyc*.so")):
        shutil.copy2(library, into)


def build_of(env_changes: dict, path: Path = ROOT) -> tuple[str, list[str]]:
    """(BUILD, where each hot-path module came from) in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    env.update(env_changes, PYTHONPATH=str(path))
    process = subprocess.run(
        [sys.executable, "-c", REPORT, *HOT_PATH], env=env, cwd=path, capture_output=True, text=True, check=True
    )
    build, *origins = json.loads(process.stdout)
    return build, origins


def test_the_build_list_is_rules_cores_own_and_then_the_packages_above_it():
    """rules_core names none of the modules above it: the build's list (compile_core) adds them."""
    assert HOT_PATH[: len(RULES_CORE_HOT_PATH)] == RULES_CORE_HOT_PATH
    assert all(m.startswith("rules_core.") for m in RULES_CORE_HOT_PATH)
    assert [m.split(".")[0] for m in HOT_PATH[len(RULES_CORE_HOT_PATH) :]] == ["convert", "convert", "batch", "batch"]


def test_this_process_runs_every_hot_module_from_one_build():
    import batch.arrow_columns  # noqa: F401  # the nested Arrow reader is on the hot path
    import batch.fast_requests  # noqa: F401  # and the batch reader of rows and lines
    import convert.json_write  # noqa: F401  # and the JSON writer
    import convert.proto_bytes  # noqa: F401  # and SettleBatch's
    from rules_core import unmelded_suits_build  # noqa: F401  # and the writer of advice's suit table

    origins = [sys.modules[m].__spec__.origin for m in HOT_PATH]
    if rules_core.BUILD == "compiled":
        assert all(o.endswith(".so") for o in origins), origins
    else:
        assert rules_core.BUILD == "pure"
        assert [Path(o).name for o in origins] == SOURCES


@pytest.mark.skipif(
    os.environ.get("SHMJ_REQUIRE_COMPILED") != "1", reason="only where the compiled build is required (CI)"
)
def test_the_compiled_build_is_made_where_it_is_required():
    """CI installs gcc, so a hot-path edit that mypyc cannot compile fails there, instead of
    leaving every later run silently on the slower source."""
    log = ROOT / "build-core.log"
    assert compiled_is_current(), log.read_text()[-3000:] if log.exists() else NOT_COMPILED


def test_the_environment_forces_the_source():
    build, origins = build_of({PURE_ENV: "1"})
    assert build == "pure"
    assert [Path(o).name for o in origins] == SOURCES


@pytest.mark.skipif(not compiled_is_current(), reason=NOT_COMPILED)
def test_the_compiled_build_runs_when_current():
    build, origins = build_of({})
    assert build == "compiled"
    assert all(o.endswith(".so") for o in origins), origins


@pytest.mark.skipif(not compiled_is_current(), reason=NOT_COMPILED)
@pytest.mark.parametrize("module", ["rules_core/shape.py", "batch/fast_requests.py"])
def test_a_module_edited_since_compiling_sends_every_module_to_the_source(tmp_path, module):
    copy_packages(tmp_path)
    assert build_of({}, tmp_path)[0] == "compiled"
    with open(tmp_path / module, "a") as edited:
        edited.write("# edited after the build\n")
    build, origins = build_of({}, tmp_path)
    assert build == "pure"
    assert [Path(o).name for o in origins] == SOURCES


@pytest.mark.skipif(not compiled_is_current(), reason=NOT_COMPILED)
def test_the_build_is_judged_by_the_digests_of_the_sources_it_compiled(tmp_path):
    """pip gives a wheel's files the times of the install: a source may come out newer than its
    compiled module. The build's record (compile_core.record, also in the wheel) holds what was
    compiled; a changed source still sends the hot path back to the source."""
    copy_packages(tmp_path)
    folder = tmp_path / "rules_core"
    assert json.loads((folder / STAMP).read_text()) == source_digests(str(tmp_path), HOT_PATH)
    later = time.time() + 60
    for module in HOT_PATH:
        os.utime(tmp_path / source_file(module), (later, later))
    assert build_of({}, tmp_path)[0] == "compiled"
    with open(folder / "shape.py", "a") as edited:
        edited.write("# edited after the build\n")
    build, origins = build_of({}, tmp_path)
    assert build == "pure"
    assert [Path(o).name for o in origins] == SOURCES
    (folder / STAMP).write_text("{not json")  # an unreadable record: the source, not a crash
    assert build_of({}, tmp_path)[0] == "pure"
    (folder / STAMP).unlink()  # none at all: the source of every module built, whichever package
    build, origins = build_of({}, tmp_path)
    assert build == "pure"
    assert [Path(o).name for o in origins][: len(RULES_CORE_HOT_PATH)] == SOURCES[: len(RULES_CORE_HOT_PATH)]


# Import names of the server's pins where they differ from the distribution's name.
IMPORT_NAMES = {"protobuf": "google", "grpcio": "grpc", "PyYAML": "yaml", "googleapis-common-protos": "google"}


def test_the_hot_path_compiles_with_the_servers_packages_only():
    """`make install-server` (what `make run` installs) compiles the hot path before the batch
    and test packages (pyarrow, numpy) are installed: whatever else a hot module imports must be
    a server pin, or imported under an ignore that lets mypy take it as Any; otherwise a fresh
    clone's server runs the slower source. Type-checked as mypyc does, without site-packages."""
    pins = (ROOT / "requirements.txt").read_text().splitlines()
    names = {line.split("==")[0].strip() for line in pins if line.strip() and not line.startswith("#")}
    allowed = {IMPORT_NAMES.get(name, name.replace("-", "_").lower()) for name in names}
    files = [os.path.relpath(source_file(module), ROOT) for module in HOT_PATH]
    command = [sys.executable, "-m", "mypy", "--no-site-packages", "--follow-imports=silent", "--no-incremental"]
    process = subprocess.run([*command, *files], cwd=ROOT, capture_output=True, text=True)
    missing = {
        line.split('module named "')[1].split('"')[0] for line in process.stdout.splitlines() if "module named" in line
    }
    errors = [line for line in process.stdout.splitlines() if ": error:" in line and "module named" not in line]
    assert errors == []
    assert {name for name in missing if name.split(".")[0] not in allowed} == set()

"""The native modules (batch/native/*.c): built by make install, loaded only while current,
never under SHMJ_PURE_PYTHON=1, and from SHMJ_NATIVE_DIR when it names a folder."""

import os
import shutil
import subprocess
import sysconfig
import time
from pathlib import Path

import pytest

from batch import native

PROBE = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
static PyObject *twice(PyObject *self, PyObject *arg) {
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    return PyLong_FromLong(2 * v);
}
static PyMethodDef methods[] = {{"twice", twice, METH_O, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "probe", "", -1, methods};
PyMODINIT_FUNC PyInit_probe(void) { return PyModule_Create(&module); }
"""


@pytest.mark.skipif(
    os.environ.get("SHMJ_REQUIRE_COMPILED") != "1", reason="only where the compiled build is required (CI)"
)
@pytest.mark.parametrize("name", native.sources())
def test_every_native_module_is_built_and_loads(name):
    assert native.load(name) is not None, f"batch/native/{name}.c has no current build: make install compiles it"


@pytest.fixture
def probe(tmp_path) -> Path:
    """A folder with a probe module's C file and its build, made after it."""
    if shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    source = tmp_path / "probe.c"
    source.write_text(PROBE)
    earlier = time.time() - 60
    os.utime(source, (earlier, earlier))
    built = tmp_path / ("probe" + sysconfig.get_config_var("EXT_SUFFIX"))
    include = sysconfig.get_paths()["include"]
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", f"-I{include}", str(source), "-o", str(built)], check=True)
    return tmp_path


def test_a_current_build_loads(probe):
    assert native.load_from("probe", str(probe), str(probe)).twice(21) == 42


def test_a_source_edited_since_its_build_loads_none(probe):
    later = time.time() + 60
    os.utime(probe / "probe.c", (later, later))
    assert native.load_from("probe", str(probe), str(probe)) is None


def test_a_header_edited_since_the_build_loads_none(probe):
    """A header beside the C files (core_values.h) is compiled into every module that includes
    it, and make install rebuilds them all when it changes: until then the build is stale."""
    header = probe / "shared.h"
    header.write_text("#define SHARED 1\n")
    later = time.time() + 60
    os.utime(header, (later, later))
    assert native.load_from("probe", str(probe), str(probe)) is None


def test_a_header_older_than_the_build_leaves_it_current(probe):
    header = probe / "shared.h"
    header.write_text("#define SHARED 1\n")
    earlier = time.time() - 120
    os.utime(header, (earlier, earlier))
    assert native.load_from("probe", str(probe), str(probe)).twice(3) == 6


def test_a_build_elsewhere_is_taken_as_it_is(probe, tmp_path_factory):
    sources = tmp_path_factory.mktemp("sources")
    (sources / "probe.c").write_text(PROBE)  # newer than the build: it does not count
    assert native.load_from("probe", str(probe), str(sources)).twice(4) == 8


def test_a_module_not_built_loads_none(tmp_path):
    assert native.load_from("absent", str(tmp_path), str(tmp_path)) is None


def test_the_native_dir_is_where_it_loads_from_and_pure_loads_nothing(probe, monkeypatch):
    monkeypatch.delenv("SHMJ_PURE_PYTHON", raising=False)
    monkeypatch.setenv(native.DIR_ENV, str(probe))
    assert native.load("probe").__file__ == str(next(probe.glob("probe.*.so")))
    monkeypatch.setenv("SHMJ_PURE_PYTHON", "1")
    assert native.load("probe") is None


@pytest.mark.native
@pytest.mark.skipif(not os.environ.get(native.DIR_ENV), reason="only in make test-native-sanitized's run")
@pytest.mark.parametrize("name", native.sources())
def test_the_sanitized_run_takes_each_module_from_the_sanitized_build(name):
    """A module missing from that build would leave its tests to the Python twin, unsanitized."""
    module = native.load(name)
    assert module is not None, f"batch/native/{name}.c is not in {os.environ[native.DIR_ENV]}"
    assert Path(module.__file__).parent == Path(os.environ[native.DIR_ENV])

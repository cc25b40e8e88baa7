"""The native readers and writers of the batch wire forms: C modules over CPython's API.

Each module is one C file here, ``batch/native/<name>.c``, that `make install` compiles beside
it where gcc is (``compile_core.native_extensions``; the image's wheel carries them too). They
exist for speed alone: each has a Python twin that reads or writes the same thing, and tests
hold the two to the same answers. `load` gives the compiled module, or None where it is not
built, is older than its source (its C file or a header here: an edit takes effect before the
next `make install`), or ``SHMJ_PURE_PYTHON=1``; the callers then take the Python path.

``SHMJ_NATIVE_DIR`` loads them from another folder instead: `make fuzz-native`'s build with
AddressSanitizer and UndefinedBehaviorSanitizer.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from types import ModuleType

from rules_core.compiled import PURE_ENV

DIR_ENV = "SHMJ_NATIVE_DIR"
HERE = os.path.dirname(os.path.abspath(__file__))
_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def sources() -> list[str]:
    """The native modules' names, one per C file here (none in an installed wheel, which
    carries only their builds)."""
    return sorted(name[:-2] for name in os.listdir(HERE) if name.endswith(".c"))


def _newest_source(sources: str, name: str) -> float:
    """The latest modification time of the module's C file and the headers beside it (0 where
    there are none: an installed wheel carries neither)."""
    names = [name + ".c", *(entry for entry in os.listdir(sources) if entry.endswith(".h"))]
    paths = [os.path.join(sources, entry) for entry in names]
    return max((os.stat(path).st_mtime for path in paths if os.path.exists(path)), default=0.0)


def load(name: str) -> ModuleType | None:
    """The compiled module ``batch.native.<name>``, or None where it cannot be used."""
    if os.environ.get(PURE_ENV) == "1":
        return None
    return load_from(name, os.environ.get(DIR_ENV) or HERE, HERE)


def load_from(name: str, folder: str, sources: str) -> ModuleType | None:
    """The module ``name`` built in ``folder``; None when it is not there, or when its C file in
    ``sources``, or a header there (``*.h``, which make install counts as every module's
    source), is newer than the build found beside it (a build elsewhere is taken as it is)."""
    built = os.path.join(folder, name + _SUFFIX)
    try:
        if not os.path.exists(built):
            return None
        if folder == sources and _newest_source(sources, name) > os.stat(built).st_mtime:
            return None  # edited since it was built
    except OSError:
        return None
    spec = importlib.util.spec_from_file_location(f"{__name__}.{name}", built)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[module.__name__] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module

"""Which build of the hot path runs: compiled with mypyc, or the pure-Python source.

The modules of `HOT_PATH` are plain Python, the one source. `make install` also compiles them
with mypyc (`compile_core.py`) where a C compiler is present, leaving an extension module
beside each source file, which Python imports in its place. The source is used instead:

- when the environment sets ``SHMJ_PURE_PYTHON=1`` (the tests run the rules both ways);
- when any compiled module is missing or older than its source, so that an edit takes
  effect at once, before the next `make install` compiles it again. It is all or nothing:
  compiled modules call one another directly, so a compiled caller would otherwise keep
  running the old code of a module edited since.

`BUILD` says which: ``"compiled"`` or ``"pure"``.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys

HOT_PATH = (
    "flowers",
    "legality",
    "memo_key",
    "multipliers",
    "next_hand",
    "payments",
    "settle",
    "shape",
    "validation",
    "valuation",
)
PURE_ENV = "SHMJ_PURE_PYTHON"
_HERE = os.path.dirname(os.path.abspath(__file__))
_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # e.g. .cpython-311-x86_64-linux-gnu.so


def compiled_is_current() -> bool:
    for name in HOT_PATH:
        source = os.path.join(_HERE, name + ".py")
        try:
            if os.stat(source).st_mtime > os.stat(os.path.join(_HERE, name + _SUFFIX)).st_mtime:
                return False
        except OSError:  # no compiled module
            return False
    return True


class _SourceFinder:
    """Finds the hot-path modules as source files, ahead of their extension modules."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package != __package__ or name not in HOT_PATH:
            return None
        return importlib.util.spec_from_file_location(fullname, os.path.join(_HERE, name + ".py"))


def _choose() -> str:
    if os.environ.get(PURE_ENV) != "1" and compiled_is_current():
        return "compiled"
    if not any(isinstance(finder, _SourceFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())
    return "pure"


BUILD = _choose()

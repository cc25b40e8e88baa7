"""Which build of the hot path runs: compiled with mypyc, or the pure-Python source.

The modules of `HOT_PATH` are plain Python, the one source. `make install` also compiles them
with mypyc (`compile_core.py`) where a C compiler is present, leaving an extension module
beside each source file, which Python imports in its place. The source is used instead:

- when the environment sets ``SHMJ_PURE_PYTHON=1`` (the tests run the rules both ways);
- when any compiled module is missing or older than its source, so that an edit takes
  effect at once, before the next `make install` compiles it again. It is all or nothing:
  compiled modules call one another directly, so a compiled caller would otherwise keep
  running the old code of a module edited since.
- in an installed wheel (the image's: setup.py), where pip gives the sources and the
  compiled modules the times of the install, not of the build: there the wheel's `STAMP`
  holds the digest of every source the build compiled, and a source that differs from it
  sends the hot path back to the source.

`BUILD` says which: ``"compiled"`` or ``"pure"``.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys

HOT_PATH = (
    "flowers",
    "json_write",
    "legality",
    "memo_key",
    "multipliers",
    "next_hand",
    "overrides",
    "payments",
    "record_checks",
    "record_waits",
    "replay",
    "settle",
    "shape",
    "validation",
    "valuation",
)
PURE_ENV = "SHMJ_PURE_PYTHON"
_HERE = os.path.dirname(os.path.abspath(__file__))
_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # e.g. .cpython-311-x86_64-linux-gnu.so
STAMP = "compiled-sources.json"  # in a wheel's rules_core only: {"settle.py": sha256, ...}


def source_digests(folder: str) -> dict[str, str]:
    """The SHA-256 of every hot-path source in `folder`, by file name."""
    digests = {}
    for name in HOT_PATH:
        with open(os.path.join(folder, name + ".py"), "rb") as source:
            digests[name + ".py"] = hashlib.sha256(source.read()).hexdigest()
    return digests


def compiled_is_current() -> bool:
    stamp = os.path.join(_HERE, STAMP)
    try:
        built = [os.stat(os.path.join(_HERE, name + _SUFFIX)).st_mtime for name in HOT_PATH]
        if os.path.exists(stamp):  # an installed wheel: by the sources the build compiled
            with open(stamp, encoding="utf-8") as recorded:
                return json.load(recorded) == source_digests(_HERE)
        sources = [os.stat(os.path.join(_HERE, name + ".py")).st_mtime for name in HOT_PATH]
        return all(source <= compiled for source, compiled in zip(sources, built, strict=True))
    except (OSError, ValueError):  # a compiled module missing, or an unreadable stamp
        return False


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

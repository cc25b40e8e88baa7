"""Which build of the hot path runs: compiled with mypyc, or the pure-Python source.

The modules of `HOT_PATH` (rules_core's, and the readers that feed it) are plain Python,
the one source. `make install` also compiles them with mypyc (`compile_core.py`) where a C
compiler is present, leaving an extension module beside each source file, which Python imports
in its place. The source is used instead:

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

HOT_PATH = (  # module names; a package with one of them imports this module first
    "rules_core.advice",
    "rules_core.distance",
    "rules_core.flowers",
    "rules_core.json_write",
    "rules_core.legality",
    "rules_core.memo_key",
    "rules_core.multipliers",
    "rules_core.next_hand",
    "rules_core.overrides",
    "rules_core.payments",
    "rules_core.record_checks",
    "rules_core.record_waits",
    "rules_core.replay",
    "rules_core.settle",
    "rules_core.shape",
    "rules_core.target_parts",
    "rules_core.validation",
    "rules_core.valuation",
    "rules_core.value_items",
    "batch.fast_requests",
    "convert.proto_bytes",
)
PURE_ENV = "SHMJ_PURE_PYTHON"
_HERE = os.path.dirname(os.path.abspath(__file__))
# The folder of the packages (the project, or site-packages): as many folders above this one as
# the package is deep (rules_core, or shmj_client.rules_core in the client library's wheel).
_ROOT = _HERE
for _ in range(__name__.count(".")):
    _ROOT = os.path.dirname(_ROOT)
_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # e.g. .cpython-311-x86_64-linux-gnu.so
STAMP = "compiled-sources.json"  # in a wheel's rules_core only: {"rules_core/settle.py": sha256, ...}


def source_file(module: str) -> str:
    """A hot-path module's source, relative to the folder of the packages: rules_core/settle.py."""
    return module.replace(".", "/") + ".py"


def compiled_file(module: str) -> str:
    """Its extension module, beside the source: rules_core/settle.cpython-311-x86_64-linux-gnu.so."""
    return module.replace(".", "/") + _SUFFIX


def source_digests(root: str) -> dict[str, str]:
    """The SHA-256 of every hot-path source under `root` (the folder of the packages), by path."""
    digests = {}
    for module in HOT_PATH:
        with open(os.path.join(root, source_file(module)), "rb") as source:
            digests[source_file(module)] = hashlib.sha256(source.read()).hexdigest()
    return digests


def compiled_is_current() -> bool:
    stamp = os.path.join(_HERE, STAMP)
    try:
        built = [os.stat(os.path.join(_ROOT, compiled_file(module))).st_mtime for module in HOT_PATH]
        if os.path.exists(stamp):  # an installed wheel: by the sources the build compiled
            with open(stamp, encoding="utf-8") as recorded:
                return json.load(recorded) == source_digests(_ROOT)
        sources = [os.stat(os.path.join(_ROOT, source_file(module))).st_mtime for module in HOT_PATH]
        return all(source <= compiled for source, compiled in zip(sources, built, strict=True))
    except (OSError, ValueError):  # a compiled module missing, or an unreadable stamp
        return False


class _SourceFinder:
    """Finds the hot-path modules as source files, ahead of their extension modules."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if fullname not in HOT_PATH:
            return None
        return importlib.util.spec_from_file_location(fullname, os.path.join(_ROOT, source_file(fullname)))


def _choose() -> str:
    if os.environ.get(PURE_ENV) != "1" and compiled_is_current():
        return "compiled"
    if not any(isinstance(finder, _SourceFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())
    return "pure"


BUILD = _choose()

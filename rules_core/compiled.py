"""Which build of the hot path runs: compiled with mypyc, or the pure-Python source.

`HOT_PATH` lists rules_core's modules on the hot path; the packages above it list their own
(the build's list is `compile_core.HOT_PATH`, outside rules_core). They are plain Python, the one
source. `make install` also compiles them with mypyc (`compile_core.py`) where a C compiler is
present, into one group: an extension module beside each source file, which Python imports in
its place, and beside this module a record of the group, ``compiled-sources.json``: the SHA-256
of every source compiled, by path (the image's wheel carries the same record, setup.py). The
source is used instead:

- when the environment sets ``SHMJ_PURE_PYTHON=1`` (the tests run the rules both ways);
- when the record is missing or unreadable, a compiled module of it is missing, or any source
  of it differs from what was compiled, so that an edit takes effect at once, before the next
  `make install` compiles it again. It is all or nothing: compiled modules call one another
  directly, so a compiled caller would otherwise keep running the old code of a module edited
  since. Digests, not times: pip gives an installed wheel's files the times of the install.

`BUILD` says which: ``"compiled"`` or ``"pure"``.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys

HOT_PATH = (  # rules_core's module names; a package with one of them imports this module first
    "rules_core.advice",
    "rules_core.distance",
    "rules_core.distance_families",
    "rules_core.flowers",
    "rules_core.legality",
    "rules_core.melded_suits",
    "rules_core.memo_key",
    "rules_core.multipliers",
    "rules_core.next_hand",
    "rules_core.overrides",
    "rules_core.payments",
    "rules_core.pung_parts",
    "rules_core.record_checks",
    "rules_core.record_waits",
    "rules_core.replay",
    "rules_core.settle",
    "rules_core.shape",
    "rules_core.target_parts",
    "rules_core.unmelded_suits",
    "rules_core.unmelded_suits_build",
    "rules_core.validation",
    "rules_core.valuation",
    "rules_core.value_items",
)
PURE_ENV = "SHMJ_PURE_PYTHON"
_HERE = os.path.dirname(os.path.abspath(__file__))
# The folder of the packages (the project, or site-packages): as many folders above this one as
# the package is deep (rules_core, or shmj_client.rules_core in the client library's wheel).
_ROOT = _HERE
for _ in range(__name__.count(".")):
    _ROOT = os.path.dirname(_ROOT)
_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # e.g. .cpython-311-x86_64-linux-gnu.so
STAMP = "compiled-sources.json"  # the build's record: {"rules_core/settle.py": sha256, ...}


def source_file(module: str) -> str:
    """A hot-path module's source, relative to the folder of the packages: rules_core/settle.py."""
    return module.replace(".", "/") + ".py"


def compiled_file(module: str) -> str:
    """Its extension module, beside the source: rules_core/settle.cpython-311-x86_64-linux-gnu.so."""
    return module.replace(".", "/") + _SUFFIX


def module_of(source: str) -> str:
    """The module of a source path: rules_core/settle.py gives rules_core.settle."""
    return source.removesuffix(".py").replace("/", ".")


def source_digests(root: str, modules: tuple[str, ...] | list[str] = HOT_PATH) -> dict[str, str]:
    """The SHA-256 of each module's source under `root` (the folder of the packages), by path."""
    digests = {}
    for module in modules:
        with open(os.path.join(root, source_file(module)), "rb") as source:
            digests[source_file(module)] = hashlib.sha256(source.read()).hexdigest()
    return digests


def recorded() -> dict[str, str]:
    """The build's record of what it compiled, or {} where there is none or it is unreadable."""
    try:
        with open(os.path.join(_HERE, STAMP), encoding="utf-8") as record:
            found = json.load(record)
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def group() -> tuple[str, ...]:
    """Every module of the compiled group, whichever package it is in: the record's, and
    rules_core's own."""
    return tuple(dict.fromkeys([*HOT_PATH, *map(module_of, recorded())]))


def compiled_is_current() -> bool:
    record = recorded()
    modules = [module_of(source) for source in record]
    if not set(HOT_PATH) <= set(modules):  # no record, or not of this build list
        return False
    try:
        if not all(os.path.exists(os.path.join(_ROOT, compiled_file(module))) for module in modules):
            return False
        return record == source_digests(_ROOT, modules)
    except OSError:  # a source missing
        return False


class _SourceFinder:
    """Finds the compiled group's modules as source files, ahead of their extension modules."""

    def __init__(self, modules: tuple[str, ...]):
        self.modules = frozenset(modules)

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, os.path.join(_ROOT, source_file(fullname)))


def _choose() -> str:
    if os.environ.get(PURE_ENV) != "1" and compiled_is_current():
        return "compiled"
    if not any(isinstance(finder, _SourceFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder(group()))
    return "pure"


BUILD = _choose()

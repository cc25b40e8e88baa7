"""Compile the hot path with mypyc, in place: `make install` runs it where gcc is.

The hot path is `rules_core.compiled.HOT_PATH`: rules_core's modules, and the batch readers
that feed it (``batch.fast_requests``), one group. One source: the modules stay plain Python,
and `rules_core.compiled` imports the source instead whenever a compiled module is missing or
older than it, or SHMJ_PURE_PYTHON=1.
The shared library of the group lands at the project root as rules_core__mypyc*.so.
The image's wheel compiles the same extensions (`extensions()`) through setup.py.
"""

from __future__ import annotations

import os
import sys

from mypyc.build import mypycify
from setuptools import setup

from rules_core.compiled import HOT_PATH, compiled_file, source_file


def extensions() -> list:
    """The hot path's extension modules and their group library, built from the source files.

    The modules they import are read for their types only, not checked: in a tree without the
    editable install's path entry (the image's build) mypy would otherwise fail on their errors.
    """
    sources = [source_file(module) for module in HOT_PATH]
    return mypycify([*sources, "--follow-imports=silent"], group_name="rules_core", opt_level="3")


if __name__ == "__main__":
    sys.argv[1:] = ["build_ext", "--inplace", "--build-temp", "build/mypyc"]
    setup(name="rules_core_compiled", ext_modules=extensions(), script_args=sys.argv[1:])
    # setuptools keeps the times of a build it reuses: mark the modules as made now, so that
    # rules_core.compiled finds them current against their sources.
    for module in HOT_PATH:
        os.utime(compiled_file(module))

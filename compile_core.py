"""Compile rules_core's hot path with mypyc, in place: `make install` runs it where gcc is.

One source: the modules stay plain Python, and `rules_core.compiled` imports the source
instead whenever a compiled module is missing or older than it, or SHMJ_PURE_PYTHON=1.
The shared library of the group lands at the project root as rules_core__mypyc*.so.
The image's wheel compiles the same extensions (`extensions()`) through setup.py.
"""

from __future__ import annotations

import glob
import os
import sys

from mypyc.build import mypycify
from setuptools import setup

from rules_core.compiled import HOT_PATH


def extensions() -> list:
    """The hot path's extension modules and their group library, built from the source files.

    The modules they import are read for their types only, not checked: in a tree without the
    editable install's path entry (the image's build) mypy would otherwise fail on their errors.
    """
    sources = [f"rules_core/{name}.py" for name in HOT_PATH]
    return mypycify([*sources, "--follow-imports=silent"], group_name="rules_core", opt_level="3")


if __name__ == "__main__":
    sys.argv[1:] = ["build_ext", "--inplace", "--build-temp", "build/mypyc"]
    setup(name="rules_core_compiled", ext_modules=extensions(), script_args=sys.argv[1:])
    # setuptools keeps the times of a build it reuses: mark the modules as made now, so that
    # rules_core.compiled finds them current against their sources.
    for path in glob.glob("rules_core/*.so"):
        os.utime(path)

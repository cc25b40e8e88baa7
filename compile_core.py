"""Compile the hot path with mypyc, in place: `make install` runs it where gcc is.

The hot path is `HOT_PATH`, the build's one list: rules_core's modules (`rules_core.compiled.HOT_PATH`)
and the wire layer's on the hot path (the JSON writer, the readers that feed the rules), one group.
One source: the modules stay plain Python; the build records the digest of each source it
compiled beside `rules_core.compiled` (`record`), which imports the source instead whenever a
compiled module is missing, its source differs from the record, or SHMJ_PURE_PYTHON=1.
The shared library of the group lands at the project root as rules_core__mypyc*.so.
The image's wheel compiles the same extensions (`extensions()`) through setup.py, and with them
the native modules of `batch.native` (`native_extensions()`: one extension per C file there).

`python compile_core.py --sanitized DIR` builds only the native modules, with AddressSanitizer and
UndefinedBehaviorSanitizer, into DIR/batch/native (`make fuzz-native` loads them from there).
"""

from __future__ import annotations

import json
import os
import sys

from mypyc.build import mypycify
from setuptools import Extension, setup

from rules_core import compiled
from rules_core.compiled import STAMP, compiled_file, source_digests, source_file

HOT_PATH = (
    *compiled.HOT_PATH,
    "convert.json_write",  # every answer's JSON (the batch lines, the HTTP API)
    "convert.proto_bytes",  # SettleBatch's entries from their bytes
    "batch.fast_requests",  # JSON Lines and Arrow rows in their usual form
    "batch.arrow_columns",  # nested Arrow batches column by column
)


def record(root: str) -> None:
    """The digests of the sources compiled, beside `rules_core.compiled` under `root` (the folder
    of the packages): the record by which it judges the compiled group current."""
    with open(os.path.join(root, "rules_core", STAMP), "w", encoding="utf-8") as written:
        json.dump(source_digests(root, HOT_PATH), written, indent=1, sort_keys=True)


def extensions() -> list:
    """The hot path's extension modules and their group library, built from the source files.

    The modules they import are read for their types only, not checked: in a tree without the
    editable install's path entry (the image's build) mypy would otherwise fail on their errors.
    """
    sources = [source_file(module) for module in HOT_PATH]
    compiled = mypycify([*sources, "--follow-imports=silent"], group_name="rules_core", opt_level="3")
    return [*compiled, *native_extensions()]


NATIVE_DIR = "batch/native"
_WARNINGS = ["-Wall", "-Wextra", "-Wno-unused-parameter", "-Wno-missing-field-initializers"]
_SANITIZERS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]


def native_extensions(sanitized: bool = False) -> list[Extension]:
    """An extension module ``batch.native.<name>`` for each ``batch/native/<name>.c``, rebuilt
    when it or a header of the folder changes."""
    headers = sorted(f"{NATIVE_DIR}/{name}" for name in os.listdir(NATIVE_DIR) if name.endswith(".h"))
    flags = [*_WARNINGS, "-O1", "-g", *_SANITIZERS] if sanitized else [*_WARNINGS, "-O2"]
    return [
        Extension(
            f"batch.native.{name[:-2]}",
            [f"{NATIVE_DIR}/{name}"],
            depends=headers,
            extra_compile_args=flags,
            extra_link_args=_SANITIZERS if sanitized else [],
        )
        for name in sorted(os.listdir(NATIVE_DIR))
        if name.endswith(".c")
    ]


if __name__ == "__main__" and sys.argv[1:2] == ["--sanitized"]:
    out = sys.argv[2]
    sys.argv[1:] = ["build_ext", "--build-lib", out, "--build-temp", os.path.join(out, "temp"), "--force"]
    setup(name="shmj_native_sanitized", ext_modules=native_extensions(sanitized=True), script_args=sys.argv[1:])
elif __name__ == "__main__":
    sys.argv[1:] = ["build_ext", "--inplace", "--build-temp", "build/mypyc"]
    setup(name="rules_core_compiled", ext_modules=extensions(), script_args=sys.argv[1:])
    # setuptools keeps the times of a build it reuses: mark the modules as made now, so that
    # rules_core.compiled finds them current against their sources.
    for extension in native_extensions():
        os.utime(compiled_file(extension.name))
    record(".")

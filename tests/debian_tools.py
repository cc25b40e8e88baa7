"""The programs the suite takes from Debian packages (.ci/debian-packages, installed by `make
test`): a test that needs one that is missing fails with one line naming the package."""

from __future__ import annotations

import shutil

import pytest

# Each program the tests run, and the Debian package of .ci/debian-packages that has it.
PACKAGE_OF = {
    "chromium": "chromium",
    "curl": "curl",
    "grpc_cpp_plugin": "protobuf-compiler-grpc",
    "grpc_java_plugin": "protobuf-compiler-grpc-java-plugin",
    "node": "nodejs",
    "pdftoppm": "poppler-utils",
    "pdftotext": "poppler-utils",
    "prometheus": "prometheus",
    "promtool": "prometheus",
    "valgrind": "valgrind",
    "callgrind_control": "valgrind",
}


def missing_message(program: str) -> str:
    return (
        f"{program} is missing: install Debian package {PACKAGE_OF[program]} "
        "(listed in .ci/debian-packages; `make test` installs it)"
    )


def debian_tool(program: str) -> str:
    """The path of a program of PACKAGE_OF, or the test fails saying which package to install."""
    path = shutil.which(program)
    if path is None:
        pytest.fail(missing_message(program), pytrace=False)
    return path

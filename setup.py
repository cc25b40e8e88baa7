"""The wheel's build (`pip wheel .`, as the image's deploy/image/steps.sh app-wheel runs it).

With SHMJ_COMPILE_CORE=1 the wheel carries rules_core's hot path compiled with mypyc from the
same source files (compile_core.extensions: an extension module per hot-path module, in
rules_core/, batch/ and convert/, and their group library rules_core__mypyc at the top level), and a stamp of the
digests of the sources it compiled, by which rules_core.compiled judges the installed build
current: pip gives every installed file the time of the install, so times cannot tell.
Otherwise, as for `make install`'s editable install, the wheel is pure Python.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

COMPILE_ENV = "SHMJ_COMPILE_CORE"
# PEP 517's setuptools.build_meta runs this file with the build front-end's import path, which
# holds neither the source tree nor the working folder: compile_core and rules_core.compiled,
# imported below, come from beside this file.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class BuildWithStamp(build_py):
    """build_py, then the digests of the hot-path sources beside them in the wheel."""

    def run(self) -> None:
        super().run()
        from compile_core import record

        record(self.build_lib)


if os.environ.get(COMPILE_ENV) == "1":
    from compile_core import extensions

    setup(ext_modules=extensions(), cmdclass={"build_py": BuildWithStamp})
else:
    setup()

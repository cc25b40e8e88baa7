"""The server's layer: it reads every wire form through `convert` and imports no batch code."""

from __future__ import annotations

import subprocess
import sys

IMPORT_EVERY_SERVER_MODULE = """
import importlib, pkgutil, sys
import server
for module in pkgutil.walk_packages(server.__path__, "server."):
    if not module.name.endswith("__main__"):
        importlib.import_module(module.name)
print(sorted(name for name in sys.modules if name == "batch" or name.startswith("batch.")))
"""


def test_no_module_of_the_server_imports_batch_code():
    out = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERY_SERVER_MODULE], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"

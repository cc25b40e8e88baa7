"""The files the server reads besides its code: package data that the wheel must carry
(pyproject.toml's ``[tool.setuptools.package-data]``). The supervisor looks for them once,
before any worker starts, and stops naming what is missing: a worker would only die reading
them, and its replacements too."""

from __future__ import annotations

from pathlib import Path

from server.explorer.static_files import STATIC
from server.explorer.vocabulary import DESCRIPTORS

# what each file is for -> where the installed packages read it
DATA_FILES: dict[str, Path] = {
    "the .proto files' descriptor set, the explorer's vocabulary": DESCRIPTORS,
    "the explorer's page": STATIC / "index.html",
    "the explorer's script": STATIC / "explorer.js",
    "the explorer's style sheet": STATIC / "explorer.css",
}


def missing_data_files() -> list[str]:
    """``"<path> (<what it is>)"`` for each data file that is not there."""
    return [f"{path} ({what})" for what, path in DATA_FILES.items() if not path.is_file()]

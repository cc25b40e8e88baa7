"""The suite's collection: tests/image/ runs only under `make test-image`, which builds the
container image and names it in SHMJ_IMAGE; `make test` leaves the folder out."""

from __future__ import annotations

import os
from pathlib import Path

IMAGE_TESTS = Path(__file__).parent / "image"


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    if collection_path == IMAGE_TESTS and not os.environ.get("SHMJ_IMAGE"):
        return True
    return None

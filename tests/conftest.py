"""The suite's collection: tests/image/ runs only under `make test-image`, which builds the
container image and names it in SHMJ_IMAGE; `make test` leaves the folder out.

Ctrl-C as a foreground job has it: a shell starts a background job (`make test &`, `nohup ...
&`) with SIGINT ignored, and every process inherits that, so the tests of what a job does on
Ctrl-C (`batch.interrupts` leaves an ignored signal ignored, as a background job must) would
see nothing come. The suite's processes, and the jobs they start, take SIGINT again."""

from __future__ import annotations

import os
import signal
from pathlib import Path

IMAGE_TESTS = Path(__file__).parent / "image"

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    if collection_path == IMAGE_TESTS and not os.environ.get("SHMJ_IMAGE"):
        return True
    return None

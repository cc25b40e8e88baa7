"""The server's processes as the kernel sees them: which are workers, their RSS and open files."""

from __future__ import annotations

import os
from pathlib import Path


def _ppid(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("PPid:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def worker_pids(supervisor: int) -> list[int]:
    """The supervisor's worker processes (multiprocessing spawn children, not its resource tracker)."""
    workers = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or _ppid(int(entry)) != supervisor:
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            workers.append(int(entry))
    return sorted(workers)


def rss_bytes(pid: int) -> int:
    """Resident set size (VmRSS) in bytes; 0 when the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return 0
    return 0


def open_fds(pid: int) -> int:
    """Open file descriptors; 0 when the process is gone."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"

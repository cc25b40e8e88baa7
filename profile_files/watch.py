"""Noticing that a profiles directory changed, cheaply enough to ask every second.

A Kubernetes ConfigMap volume is updated by writing a new timestamped directory and swapping
the ``..data`` symbolic link to it; each key is a link through ``..data``. Following the links,
every file then shows another inode. A directory edited by hand shows a new modification time
or size on the file, or a new listing.
"""

from __future__ import annotations

import os
from collections.abc import Hashable
from pathlib import Path

from profile_files.load import HOUSE_SUFFIXES


def fingerprint(directory: Path | str) -> Hashable:
    """A value that changes whenever a profile file of the directory is added, removed, replaced
    or written: per file, the inode, size and modification time (links followed)."""
    directory = os.fspath(directory)
    try:
        entries = os.scandir(directory)
    except OSError as error:
        return ("unreadable", error.errno)
    found = []
    with entries:
        for entry in entries:
            name = entry.name
            if name.startswith(".") or not name.lower().endswith(HOUSE_SUFFIXES):
                continue
            try:
                info = entry.stat()  # follows the link, through ..data
            except OSError:
                found.append((name, None))
                continue
            found.append((name, info.st_ino, info.st_dev, info.st_size, info.st_mtime_ns))
    return tuple(sorted(found, key=lambda item: item[0]))

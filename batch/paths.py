"""Where a batch job may write: never where it reads, whatever the spelling or link."""

from __future__ import annotations

import os
from pathlib import Path


class InputError(Exception):
    """An input or output location the job cannot use; the message says which and why."""


def same_file(first: Path, second: Path) -> bool:
    """Whether two paths name one file: one spelling, a symbolic link or a hard link (same device
    and inode)."""
    if first.resolve() == second.resolve():
        return True
    try:
        a, b = os.stat(first), os.stat(second)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies under it, links resolved."""
    path, folder = path.resolve(), folder.resolve()
    return path == folder or folder in path.parents


def refuse_same_file(input_path: Path, output_path: Path, what: str = "the output") -> None:
    """Refuse to write where the input is read from (a directory input: anywhere inside it, and
    a directory output: around it), since writing would destroy the data before reading it."""
    if same_file(input_path, output_path):
        kind = "directory" if input_path.is_dir() else "file"
        raise InputError(f"{what} {output_path} is the input {kind} {input_path}; choose another -o")
    if inside(output_path, input_path):
        raise InputError(f"{what} {output_path} is inside the input {input_path}; choose another -o")
    if inside(input_path, output_path):
        raise InputError(f"{what} {output_path} holds the input {input_path}; choose another -o")

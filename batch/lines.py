"""JSON Lines input as bytes: lines split on ``\\n`` alone, bounded, numbered, watched.

A line is the bytes up to a ``\\n`` (or the end of the file): a CR is JSON whitespace like any
other, never a line break, so one output record answers each input line whatever the bytes.
Decoding (and refusing invalid UTF-8, naming the line) is the record reader's job.

A file is read as it was when the job looked at it: up to the size it had then, and it is
looked at again at the end (``InputState``). A file that grew or was rewritten meanwhile is
reported as changed, never as read whole; a last line without a newline is read only while
the file is still as it was, since a writer may be in the middle of it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

MAX_LINE_BYTES = 1 << 20  # a real request is a few thousand bytes
BLOCK = 1 << 20
CHANGED = "the input changed while it was read (its size or modification time)"


class InputChanged(Exception):
    """The input is no longer what the job started reading."""

    def __init__(self) -> None:
        super().__init__(CHANGED)


@dataclass(frozen=True)
class InputState:
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, path: Path) -> InputState:
        status = os.stat(path)
        return cls(status.st_size, status.st_mtime_ns)

    def check(self, path: Path) -> None:
        if InputState.of(path) != self:
            raise InputChanged


PARQUET_MAGIC = b"PAR1"  # a Parquet file's first four bytes


def is_parquet(path: Path) -> bool:
    """Whether the file is Parquet, by its first bytes whatever its name: never read as lines."""
    with open(path, "rb") as file:
        return file.read(len(PARQUET_MAGIC)) == PARQUET_MAGIC


def count_lines(path: Path, size: int) -> int:
    """Lines in the first ``size`` bytes: the newlines, and a last line without one."""
    count, remaining, last = 0, size, b"\n"
    with open(path, "rb") as file:
        while remaining and (block := file.read(min(BLOCK, remaining))):
            count += block.count(b"\n")
            remaining -= len(block)
            last = block[-1:]
    return count + (last != b"\n")


def _lines(file, size: int) -> Iterator[tuple[bytes | None, bool]]:
    """(line without its newline, whether a newline ended it) for the first ``size`` bytes; a
    line longer than MAX_LINE_BYTES comes as None, read past in pieces, never held whole."""
    remaining = size
    while remaining > 0:
        line = file.readline(min(MAX_LINE_BYTES + 1, remaining))
        if not line:
            return
        remaining -= len(line)
        ended = line.endswith(b"\n")
        if len(line) > MAX_LINE_BYTES and not ended:
            while remaining > 0 and (rest := file.readline(min(BLOCK, remaining))):
                remaining -= len(rest)
                if rest.endswith(b"\n"):
                    ended = True
                    break
            yield None, ended
        else:
            yield (line[:-1] if ended else line), ended


def numbered_chunks(path: Path, state: InputState, skip: int, size: int) -> Iterator[tuple[int, list[bytes | None]]]:
    """Chunks of at most ``size`` lines after the first ``skip`` lines, of the file as ``state``
    saw it: (the first line's number, the lines). A last line without a newline is read only if
    the file is still as it was (else InputChanged): a writer may be in the middle of it."""
    with open(path, "rb") as file:
        lines = _lines(file, state.size)
        for _ in islice(lines, skip):
            pass
        first, chunk = skip + 1, []
        for line, ended in lines:
            if not ended:
                state.check(path)
            chunk.append(line)
            if len(chunk) == size:
                yield first, chunk
                first, chunk = first + size, []
        if chunk:
            yield first, chunk

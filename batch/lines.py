"""JSON Lines input as bytes: lines split on ``\\n`` alone, bounded, numbered, watched.

A line is the bytes up to a ``\\n`` (or the end of the file): a CR is JSON whitespace like any
other, never a line break, so one output record answers each input line whatever the bytes.
Decoding (and refusing invalid UTF-8, naming the line) is the record reader's job.

A file is read as it was when the job looked at it: up to the size it had then, and it is
looked at again at the end (``InputState``). A file that grew or was rewritten meanwhile is
reported as changed, never as read whole; a last line without a newline is read only while
the file is still as it was, since a writer may be in the middle of it.

``shmj rescore`` sends its workers chunks of lines as runs of whole lines (``numbered_chunks``),
one bytes object for the usual 500 lines, which the worker splits (``chunk_lines``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
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
    return count_lines_and_line(path, size, 0)[0]


def count_lines_and_line(path: Path, size: int, number: int) -> tuple[int, bytes | None]:
    """``count_lines``, and line ``number``'s bytes without its newline, found in the same pass:
    None when there is no such line (0 asks for none) or it is longer than any request. A resumed
    job checks the output's last line against the input's line at its place without reading the
    input again."""
    count, remaining, last = 0, size, b"\n"
    offset, start = 0, 0 if number == 1 else None  # where line ``number`` starts
    with open(path, "rb") as file:
        while remaining and (block := file.read(min(BLOCK, remaining))):
            newlines = block.count(b"\n")
            if start is None and number > 1 and count + newlines >= number - 1:
                start = offset + _after_newline(block, number - 1 - count)
            count += newlines
            remaining -= len(block)
            offset += len(block)
            last = block[-1:]
        count += last != b"\n"
        if start is None or not 1 <= number <= count:
            return count, None
        file.seek(start)
        line = file.read(min(MAX_LINE_BYTES + 1, size - start))
    end = line.find(b"\n")
    line = line if end < 0 else line[:end]
    return count, line if len(line) <= MAX_LINE_BYTES else None


def _after_newline(block: bytes, nth: int) -> int:
    """Where the byte after the ``nth`` newline of the block is (``nth`` >= 1)."""
    position = -1
    for _ in range(nth):
        position = block.index(b"\n", position + 1)
    return position + 1


class _Cutter:
    """The first ``size`` bytes of a file cut into lines a chunk at a time, read in blocks: a
    line is found by ``bytes.find`` and its bytes stay in the run of lines around it, so that no
    object is made per line (a line read by ``readline`` and pickled to the worker was 1.2 µs of
    the parent's 4.0 a record, its run 0.35; docs/PERFORMANCE.md). At most a block and a line
    are buffered: a line longer than MAX_LINE_BYTES is read past, never held whole."""

    def __init__(self, file, size: int, unterminated: Callable[[], None]) -> None:
        self.file = file
        self.remaining = size  # bytes not read yet
        self.buffer = b""
        self.pos = 0  # where the next line starts in the buffer
        self.unterminated = unterminated  # called before a last line without a newline is taken

    def _more(self) -> bool:
        """The buffer from ``pos`` on, and the next block after it; False at the end."""
        block = self.file.read(min(BLOCK, self.remaining)) if self.remaining > 0 else b""
        if not block:
            self.remaining = 0
            return False
        self.remaining -= len(block)
        self.buffer = self.buffer[self.pos :] + block
        self.pos = 0
        return True

    def _past_long_line(self) -> None:
        """Read past the line at ``pos``, too long to read and not ended in the buffer."""
        self.buffer, self.pos = b"", 0
        while self._more():
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                self.pos = newline + 1
                return
            self.buffer = b""
        self.unterminated()

    def take(self, count: int) -> tuple[list[bytes | None], int]:
        """Up to ``count`` more lines as pieces (`chunk_lines`), and how many lines they are."""
        pieces: list[bytes | None] = []
        taken = 0
        buffer, pos = self.buffer, self.pos
        start = pos  # where the run of whole lines being gathered starts
        while taken < count:
            newline = buffer.find(b"\n", pos)
            if newline >= 0 and newline - pos <= MAX_LINE_BYTES:
                pos = newline + 1
                taken += 1
                continue
            if pos > start:  # the run before this line, without its last newline
                pieces.append(buffer[start : pos - 1])
            if newline < 0 and len(buffer) - pos <= MAX_LINE_BYTES:  # the line's end is not read yet
                self.buffer, self.pos = buffer, pos
                if self._more():
                    buffer, pos = self.buffer, self.pos
                    start = pos
                    continue
                if pos < len(buffer):  # a last line without a newline
                    self.unterminated()
                    pieces.append(buffer[pos:])
                    taken += 1
                    pos = len(buffer)
                start = pos
                break
            if newline >= 0:  # too long, its end in the buffer
                pos = newline + 1
            else:  # too long, its end still to read
                self.buffer, self.pos = buffer, pos
                self._past_long_line()
                buffer, pos = self.buffer, self.pos
            pieces.append(None)
            taken += 1
            start = pos
        if pos > start:
            pieces.append(buffer[start : pos - 1])
        self.buffer, self.pos = buffer, pos
        return pieces, taken


def numbered_chunks(path: Path, state: InputState, skip: int, size: int) -> Iterator[tuple[int, list[bytes | None]]]:
    """Chunks of at most ``size`` lines after the first ``skip`` lines, of the file as ``state``
    saw it: (the first line's number, the lines as pieces, `chunk_lines`). A last line without a
    newline is read only if the file is still as it was (else InputChanged): a writer may be in
    the middle of it."""
    with open(path, "rb") as file:
        cutter = _Cutter(file, state.size, lambda: state.check(path))
        first = 1
        while first <= skip:
            _, taken = cutter.take(min(size, skip - first + 1))
            if not taken:
                return
            first += taken
        while True:
            pieces, taken = cutter.take(size)
            if not taken:
                return
            yield first, pieces
            first += taken


def chunk_lines(pieces: list[bytes | None]) -> list[bytes | None]:
    """A chunk's lines from its pieces: a piece is the bytes of one or more whole lines joined
    by their newlines, or None for a line too long to read. A list of lines is its own pieces."""
    lines: list[bytes | None] = []
    for piece in pieces:
        if piece is None:
            lines.append(None)
        else:
            lines += piece.split(b"\n")
    return lines

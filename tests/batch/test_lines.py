"""`shmj rescore` cuts its input into chunks of lines without an object per line (issue 23):
a chunk goes to its worker as runs of lines, and the lines they split into are those of the
file split on newlines, an over-long line read past as None, whatever the blocks the file is
read in."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from batch import lines as lines_module
from batch.lines import InputChanged, InputState, chunk_lines, numbered_chunks

LIMIT = 8  # MAX_LINE_BYTES in these tests, and blocks of 5 bytes: every boundary is crossed


def expected_lines(data: bytes) -> list[bytes | None]:
    """The file's lines: split on newlines alone, a last one only if it has bytes; over-long as None."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return [None if len(line) > LIMIT else line for line in lines]


def read_chunks(path, skip: int, size: int) -> list[tuple[int, list[bytes | None]]]:
    return [(first, chunk_lines(pieces)) for first, pieces in numbered_chunks(path, InputState.of(path), skip, size)]


@contextmanager
def small_bounds():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lines_module, "MAX_LINE_BYTES", LIMIT)
        patch.setattr(lines_module, "BLOCK", 5)
        yield


line_bytes = st.lists(st.sampled_from([b"a", b"{", b"\r", b" ", b"\xff"]), max_size=14).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(line_bytes, max_size=25),
    ended=st.booleans(),
    skip=st.integers(0, 30),
    size=st.integers(1, 7),
)
def test_the_chunks_are_the_lines_of_the_file_in_order(tmp_path_factory, lines, ended, skip, size):
    data = b"\n".join(lines) + (b"\n" if ended and lines else b"")
    path = tmp_path_factory.mktemp("lines") / "in.jsonl"
    path.write_bytes(data)
    with small_bounds():
        chunks = read_chunks(path, skip, size)
    wanted = expected_lines(data)[skip:]
    assert [line for _, chunk in chunks for line in chunk] == wanted
    assert [len(chunk) for _, chunk in chunks] == [min(size, len(wanted) - i) for i in range(0, len(wanted), size)]
    assert [first for first, _ in chunks] == list(range(skip + 1, skip + 1 + len(wanted), size))


def test_a_chunk_of_usual_lines_is_one_piece(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"".join(b'{"requestId": "%d"}\n' % n for n in range(1200)))
    chunks = list(numbered_chunks(path, InputState.of(path), 0, 500))
    assert [(first, len(pieces)) for first, pieces in chunks] == [(1, 1), (501, 1), (1001, 1)]
    assert chunk_lines(chunks[2][1]) == [b'{"requestId": "%d"}' % n for n in range(1000, 1200)]


def test_an_over_long_line_is_read_past_in_blocks_never_held_whole(tmp_path, monkeypatch):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"ok\n" + b"x" * 100 + b"\n\nlast")
    reads = []
    real_open = open

    class Watched:
        def __init__(self, file):
            self.file = file

        def read(self, size):
            block = self.file.read(size)
            reads.append(len(block))
            return block

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.file.close()

    monkeypatch.setattr(lines_module, "open", lambda p, mode: Watched(real_open(p, mode)), raising=False)
    with small_bounds():
        assert read_chunks(path, 0, 10) == [(1, [b"ok", None, b"", b"last"])]
    assert max(reads) == 5 and sum(reads) == path.stat().st_size


def test_a_last_line_without_a_newline_is_read_only_while_the_file_is_as_it_was(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"one\ntwo\nthr")
    state = InputState.of(path)
    with open(path, "ab") as file:
        file.write(b"ee\n")  # the writer finishes the line after the job looked at the file
    chunks = numbered_chunks(path, state, 0, 1)
    assert [chunk_lines(next(chunks)[1]) for _ in range(2)] == [[b"one"], [b"two"]]
    with pytest.raises(InputChanged):
        next(chunks)

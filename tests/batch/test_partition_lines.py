"""A JSON Lines partition's lines (``batch.parts._lines``): the lines whose first byte is in its
byte range, each without its "\\n", read a block at a time: each line of the file falls in
exactly one range, whatever the cut points and the block size (a line longer than a block, an
empty line, a last line with no "\\n", a "\\r" kept as the line's own); a line longer than
MAX_LINE_BYTES is None, as --local reads it (`batch.lines`)."""

from __future__ import annotations

import io
from unittest.mock import patch

from hypothesis import given
from hypothesis import strategies as st

import batch.parts
from batch.parts import _lines, count_lines


def line_starts(data: bytes) -> list[tuple[int, bytes]]:
    """(first byte, line) of each line of ``data``, from the definition."""
    out, start = [], 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        out.append((start, data[start:end]))
        start = end + 1
    return out


def in_range(data: bytes, start: int, stop: int, block: int) -> list[bytes]:
    return list(_lines(io.BytesIO(data), start, stop, block))


def test_the_lines_of_each_range_by_their_first_byte():
    data = b'{"a":1}\n\n{"b":22}\r\nlast'
    assert in_range(data, 0, len(data), 1 << 20) == [b'{"a":1}', b"", b'{"b":22}\r', b"last"]
    for block in (1, 3, 8, 1 << 20):
        assert in_range(data, 0, 1, block) == [b'{"a":1}']
        assert in_range(data, 1, 8, block) == []  # the first line began before; the second at byte 8
        assert in_range(data, 8, 9, block) == [b""]
        assert in_range(data, 9, 10, block) == [b'{"b":22}\r']
        assert in_range(data, 10, 19, block) == []
        assert in_range(data, 19, 1000, block) == [b"last"]


def test_a_line_longer_than_a_block_is_whole():
    long = b"x" * 10_000
    data = b"a\n" + long + b"\nb\n"
    assert in_range(data, 0, len(data), 64) == [b"a", long, b"b"]
    assert in_range(data, 1, 3, 64) == [long]


@given(
    st.lists(st.sampled_from([b"a", b"bc", b"\n", b"\r", b"{}", b"xyz" * 5]), max_size=40).map(b"".join),
    st.lists(st.integers(0, 200), max_size=4),
    st.integers(1, 9),
)
def test_every_line_falls_in_exactly_one_range(data, cuts, block):
    points = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    ranges = list(zip(points, points[1:], strict=False))
    starts = line_starts(data)
    for start, stop in ranges:
        assert in_range(data, start, stop, block) == [line for first, line in starts if start <= first < stop]
    assert [line for a, b in ranges for line in in_range(data, a, b, block)] == [line for _, line in starts]


def test_a_line_longer_than_any_request_is_none_whatever_the_blocks():
    """Found from outside: --dask settled a padded 2 MB line that --local refuses ("longer than
    1,048,576 bytes"), and held a line of any length whole in a worker."""
    too_long = b"x" * (batch.parts.MAX_LINE_BYTES + 1)
    longest = b"y" * batch.parts.MAX_LINE_BYTES
    data = b"a\n" + too_long + b"\n" + longest + b"\nb\n" + too_long
    for block in (1 << 20, 1 << 16, 1000):
        assert in_range(data, 0, len(data), block) == [b"a", None, longest, b"b", None]
        assert in_range(data, 1, 3, block) == [None]


@given(
    st.lists(st.sampled_from([b"a", b"bc", b"\n", b"\r", b"{}", b"xyz" * 5]), max_size=40).map(b"".join),
    st.lists(st.integers(0, 200), max_size=4),
    st.integers(1, 9),
)
def test_a_line_over_the_bound_is_none_and_each_line_still_falls_in_one_range(data, cuts, block):
    limit = 7
    points = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    ranges = list(zip(points, points[1:], strict=False))
    expected = [None if len(line) > limit else line for _, line in line_starts(data)]
    with patch.object(batch.parts, "MAX_LINE_BYTES", limit):
        assert [line for a, b in ranges for line in in_range(data, a, b, block)] == expected


def test_count_lines_counts_a_range_s_lines(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"1\n22\n\n333")
    assert [count_lines(str(path), a, b) for a, b in [(0, 2), (2, 5), (5, 6), (6, 9), (0, 9)]] == [1, 1, 1, 1, 4]

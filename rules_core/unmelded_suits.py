"""Every suit's target-parts table with no meld in it, computed once by `make` (RULES.md 15.3).

`rules_core.target_parts` searches a suit's table the first time it sees the suit. A concealed
hand's suits (no meld holding their tiles) are few enough to search all at build time: every
count of 0-4 of each of the nine tiles, at most 14 tiles in all, is `SUITS` suits. `make`
writes their tables to `TABLE_FILE` beside this module (`rules_core.unmelded_suits_build`),
each suit at its rank (`rank`: its place among them in order of its counts, first tile first)
as one record of `RECORD_SIZE` bytes:

- the ten best overlaps with chows, then the ten pungs only, one byte each (`NONE_BYTE`: no
  target part of that slot);
- the ten useful masks with chows, then the ten pungs only, two bytes each, little-endian;
- for the slots of up to three sets (`SHOWN_SLOTS`), with chows, one best target part's
  counts (its witness), three bits a tile, first tile lowest, four bytes each: of the best
  target parts, one that holds fewest copies beyond the suit's counts.

The witnesses answer for a suit some meld holds tiles of (`melded_values`). The melds leave a
target fewer copies of their tiles (its caps), so its best overlap in a slot is at most the
unmelded one; where that slot's witness fits within the caps, it reaches that overlap, which is
then the answer. A witness that does not fit proves nothing: `rules_core.melded_suits` looks
for another part that reaches it. Pungs only, each tile counts alone (`rules_core.pung_parts`):
no witness is needed.

The file begins with `MAGIC` and the SHA-256 of the search (target_parts.py) and of the writer
(`BUILD_FILE`, which picks the witnesses): a table written by another is not read, and neither
is a file of the wrong size. Without a file (a tree not built with `make`), `table` and
`melded_values` answer None and the search runs as before.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import struct
from typing import Final

NO_TARGET: Final = -1000  # target_parts.NO_TARGET (imported by it, so repeated here)
SLOTS: Final = 10
TILES: Final = 9
MOST_TILES: Final = 14
NONE_BYTE: Final = 255
SHOWN_SLOTS: Final = 8  # the slots of up to three sets: what a suit a meld shows may still hold
WITNESS_BITS: Final = 3
WITNESSES_AT: Final = 2 * SLOTS + 4 * SLOTS
RECORD_SIZE: Final = WITNESSES_AT + 4 * SHOWN_SLOTS
MAGIC: Final = b"SHMJ unmelded suits 3\n"
HEAD_SIZE: Final = len(MAGIC) + 32  # then the SHA-256 of the search
_HERE = os.path.dirname(os.path.abspath(__file__))
# Not Final: the tests point them elsewhere.
TABLE_FILE = os.path.join(_HERE, "unmelded_suits.bin")
SEARCH_FILE = os.path.join(_HERE, "target_parts.py")
BUILD_FILE = os.path.join(_HERE, "unmelded_suits_build.py")
_MASKS = struct.Struct("<20H")
_RECORD = struct.Struct("<20B20H")
_WITNESSES = struct.Struct("<8I")


def _count_suits(tiles: int, most: int) -> int:
    """How many counts of ``tiles`` tiles, 0-4 each, hold at most ``most`` in all."""
    if most < 0:
        return 0
    if tiles == 0:
        return 1
    return sum(_count_suits(tiles - 1, most - held) for held in range(5))


SUITS: Final = _count_suits(TILES, MOST_TILES)
# _BEFORE[i * 15 * 5 + left * 5 + held]: the suits of the same first i tiles, ``left`` tiles
# still allowed from tile i on, that hold fewer than ``held`` of tile i: what tile i adds to a rank.
_BEFORE: Final = [
    sum(_count_suits(TILES - 1 - i, left - fewer) for fewer in range(held))
    for i in range(TILES)
    for left in range(MOST_TILES + 1)
    for held in range(5)
]


def rank(counts: list[int], start: int) -> int:
    """The place of the suit at ``counts[start:start + 9]`` among `SUITS` (-1: more than 14 tiles)."""
    place = 0
    left = MOST_TILES
    for i in range(TILES):
        held = counts[start + i]
        if held > left:
            return -1
        place += _BEFORE[(i * (MOST_TILES + 1) + left) * 5 + held]
        left -= held
    return place


def search_digest() -> bytes:
    """The SHA-256 of the search and of the table's writer (empty: either missing)."""
    digest = hashlib.sha256()
    for path in (SEARCH_FILE, BUILD_FILE):
        try:
            with open(path, "rb") as source:
                digest.update(source.read())
        except OSError:  # no source beside the module: no table can be judged current
            return b""
    return digest.digest()


def _read() -> mmap.mmap | None:
    """The table file mapped read-only (its pages shared by every process that reads it, and
    resident only once read), or None where there is no current table file."""
    digest = search_digest()
    if not digest:
        return None
    head = MAGIC + digest
    try:
        with open(TABLE_FILE, "rb") as stored:
            if os.fstat(stored.fileno()).st_size != len(head) + SUITS * RECORD_SIZE or stored.read(len(head)) != head:
                return None
            return mmap.mmap(stored.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError:
        return None


_RECORDS: mmap.mmap | bytes | None = None
_LOADED = False


def records() -> mmap.mmap | bytes | None:
    """The table file, mapped on first use (None: no current file)."""
    global _RECORDS, _LOADED
    if not _LOADED:
        _RECORDS = _read()
        _LOADED = True
    return _RECORDS


def unmap() -> None:
    """Forget the table file's mapping, as a fresh process starts without one: the next read maps
    it again (its pages are then first touched again)."""
    global _RECORDS, _LOADED
    _RECORDS = None
    _LOADED = False


def table(counts: list[int], start: int) -> tuple[list[int], list[int], list[int], list[int]] | None:
    """The suit's table (target_parts.PartTable) from the file, or None without one or for a
    suit of more than 14 tiles."""
    data = records()
    offset = _record_at(counts, start)
    if data is None or offset < 0:
        return None
    return decode(data, offset)


def _record_at(counts: list[int], start: int) -> int:
    """Where the record of the suit at ``counts[start:start + 9]`` begins in the file (-1: a suit
    of more than 14 tiles, which has none)."""
    place = rank(counts, start)
    return -1 if place < 0 else HEAD_SIZE + place * RECORD_SIZE


def values(counts: list[int], start: int) -> tuple[list[int], list[int]] | None:
    """The suit's best overlaps alone, with chows and pungs only (`table` without the masks)."""
    data = records()
    offset = _record_at(counts, start)
    if data is None or offset < 0:
        return None
    record = data[offset : offset + 2 * SLOTS]  # bytes: read by index without a call
    mixed = [NO_TARGET] * SLOTS
    pungs = [NO_TARGET] * SLOTS
    for index in range(SLOTS):
        value = record[index]
        if value != NONE_BYTE:
            mixed[index] = value
        value = record[SLOTS + index]
        if value != NONE_BYTE:
            pungs[index] = value
    return mixed, pungs


def melded_values(counts: list[int], start: int, caps: list[int], most_sets: int) -> tuple[list[int], int] | None:
    """The best overlaps with chows of the suit at ``counts[start:start + 9]`` without melds, up
    to ``most_sets`` (0-3) sets (`NO_TARGET` past them), and the slots (bit `slot`) whose witness
    does not fit ``caps``, the copies of each tile the melds leave (indexed from ``start``):
    where it fits, the overlap is the suit's within the caps too. None without a table file or
    for a suit of more than 14 tiles."""
    data = records()
    offset = _record_at(counts, start)
    if data is None or offset < 0:
        return None
    # A witness holds at most 4 of a tile: adding 3 - cap to its field sets the field's bit 2
    # exactly where it holds more than the cap, and carries into no other field.
    raised = 0
    over = 0
    for tile in range(TILES):
        cap = caps[tile]
        if cap < 4:
            raised |= (3 - cap) << tile * WITNESS_BITS
            over |= 4 << tile * WITNESS_BITS
    record = data[offset : offset + RECORD_SIZE]  # bytes: read by index without a call
    mixed = [NO_TARGET] * SLOTS
    unproven = 0
    for index in range(2 * most_sets + 2):
        value = record[index]
        if value == NONE_BYTE:
            continue  # no target part even without the caps
        mixed[index] = value
        at = WITNESSES_AT + 4 * index  # little-endian
        witness = record[at] | record[at + 1] << 8 | record[at + 2] << 16 | record[at + 3] << 24
        if (witness + raised) & over:
            unproven |= 1 << index
    return mixed, unproven


def encode(
    mixed: list[int],
    pungs: list[int],
    mixed_useful: list[int],
    pungs_useful: list[int],
    witnesses: list[int],
) -> bytes:
    """A suit's record: its table as the search answers it, and its witnesses (`SHOWN_SLOTS`,
    with chows)."""
    values = bytes(NONE_BYTE if value == NO_TARGET else value for value in mixed + pungs)
    return values + _MASKS.pack(*mixed_useful, *pungs_useful) + _WITNESSES.pack(*witnesses)


def decode(data: mmap.mmap | bytes, offset: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """The table of the record at ``offset``."""
    fields = _RECORD.unpack_from(data, offset)
    values = [NO_TARGET if byte == NONE_BYTE else byte for byte in fields[: 2 * SLOTS]]
    return values[:SLOTS], values[SLOTS:], list(fields[2 * SLOTS : 3 * SLOTS]), list(fields[3 * SLOTS :])


def every_suit():
    """Every suit's counts, the first tile changing fastest (suits ending alike share the search's work)."""

    def counts_from(i: int, left: int):
        if i == TILES:
            yield []
            return
        for rest in counts_from(i + 1, left):
            for held in range(min(4, left - sum(rest)) + 1):
                yield [held, *rest]

    yield from counts_from(0, MOST_TILES)

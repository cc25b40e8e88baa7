"""Writes the table of `rules_core.unmelded_suits` from the search it stands for
(`rules_core.target_parts`), as `make install` does:

    .venv/bin/python -c 'import rules_core.unmelded_suits_build as b; b.build()'

Apart from the table's reader, which the search imports, so that neither imports the other.
Beside each suit's answer it writes the witnesses (`witnesses`): per slot of up to three sets,
with chows, one best target part, the one that holds fewest copies beyond the suit's counts, as
the melds of a hand may leave fewer copies of a tile than a target part needs only there.
"""

from __future__ import annotations

import os
from typing import Final

from rules_core.target_parts import NO_TARGET, _search  # the search this table stands for
from rules_core.unmelded_suits import (
    MAGIC,
    RECORD_SIZE,
    SEARCH_FILE,
    SHOWN_SLOTS,
    SUITS,
    TABLE_FILE,
    TILES,
    WITNESS_BITS,
    encode,
    every_suit,
    rank,
    search_digest,
)

# A target part's score: its overlap times `_WEIGHT`, less the copies it holds of the tiles it
# holds more of than the suit (at most 4 * 9 < `_WEIGHT`): the best score is a best overlap.
_WEIGHT: Final = 64
_NONE: Final = -1_000_000
# What a target part holds of a tile besides its chows: nothing more, a pung, the pair (its
# copies, and the slots it adds: a set two, the pair one).
_CHOICES: Final = ((0, 0), (3, 2), (2, 1))
MAX_MEMO: Final = 131_072  # as the search's `target_parts.MAX_SUFFIXES`


def build(path: str = TABLE_FILE) -> int:
    """Search every suit and write the table file (atomically); the number of suits written."""
    digest = search_digest()
    if not digest:
        raise RuntimeError(f"no search to build the table from: {SEARCH_FILE} is missing")

    caps = [4] * TILES
    data = bytearray(SUITS * RECORD_SIZE)
    written = 0
    memo: dict[int, list[int]] = {}
    for counts in every_suit():
        mixed, mixed_useful = _search(counts, caps, True)
        pungs, pungs_useful = _search(counts, caps, False)
        found = witnesses(counts, memo)
        for index in range(SHOWN_SLOTS):
            value = mixed[index]
            if value != NO_TARGET and overlap(counts, found[index]) != value:
                raise RuntimeError(f"the witness of slot {index} of {counts} keeps less than the search")
        offset = rank(counts, 0) * RECORD_SIZE
        data[offset : offset + RECORD_SIZE] = encode(mixed, pungs, mixed_useful, pungs_useful, found)
        written += 1
    if written != SUITS:
        raise RuntimeError(f"wrote {written} suits of {SUITS}")
    partial = path + ".partial"
    with open(partial, "wb") as out:
        out.write(MAGIC + digest + bytes(data))
    os.replace(partial, path)
    return written


def overlap(counts: list[int], witness: int) -> int:
    """How many of ``counts`` the target part ``witness`` (three bits a tile) keeps."""
    kept = 0
    for tile in range(TILES):
        held = witness >> tile * WITNESS_BITS & 7
        kept += held if held < counts[tile] else counts[tile]
    return kept


def witnesses(counts: list[int], memo: dict[int, list[int]] | None = None) -> list[int]:
    """Per slot of up to three sets (`SHOWN_SLOTS`), one best target part with chows of the suit ``counts``
    (0 where there is none): of those, one holding fewest copies of the tiles it holds more of
    than ``counts``. ``memo`` keeps the answers of the suit's last tiles, shared with the next suits."""
    code = [0] * (TILES + 1)
    for i in range(TILES - 1, -1, -1):
        code[i] = code[i + 1] * 5 + counts[i]
    found = _suffix(counts, code, 0, 0, 0, {} if memo is None else memo)
    return found[SHOWN_SLOTS:]


def _suffix(
    counts: list[int], code: list[int], i: int, two_back: int, one_back: int, memo: dict[int, list[int]]
) -> list[int]:
    """The best scores of the tiles from ``i`` on, per slot, then the part reaching each (the
    search's programme, `target_parts._suffix`, with every cap four and a score for an overlap)."""
    key = (((code[i] << 4 | i) << 3 | two_back) << 3) | one_back
    known = memo.get(key)
    if known is not None:
        return known
    found = [_NONE] * SHOWN_SLOTS + [0] * SHOWN_SLOTS
    left = TILES - i
    if left == 0:
        found[0] = 0
    else:
        carried = two_back + one_back
        held = counts[i]
        if carried <= 4:
            most_chows = 0
            if left > 2:
                most_chows = min(4 - carried, 4 - one_back)
            for c in range(most_chows + 1):
                after = _suffix(counts, code, i + 1, one_back, c, memo)
                for extra, extra_slots in _CHOICES:
                    tiles = carried + c + extra
                    added = 2 * c + extra_slots
                    if tiles > 4:
                        continue
                    gain = _WEIGHT * held - tiles if tiles > held else _WEIGHT * tiles
                    for index in range(SHOWN_SLOTS - added):
                        score = after[index]
                        if score == _NONE or (extra_slots == 1 and index & 1):
                            continue
                        score += gain
                        target = index + added
                        if score > found[target]:
                            found[target] = score
                            found[SHOWN_SLOTS + target] = after[SHOWN_SLOTS + index] | tiles << i * WITNESS_BITS
    if len(memo) >= MAX_MEMO:
        memo.clear()
    memo[key] = found
    return found

"""Writes the table of `rules_core.unmelded_suits` from the search it stands for
(`rules_core.target_parts`), as `make install` does:

    .venv/bin/python -c 'import rules_core.unmelded_suits_build as b; b.build()'

Apart from the table's reader, which the search imports, so that neither imports the other.
"""

from __future__ import annotations

import os

from rules_core.target_parts import _search  # the search this table stands for
from rules_core.unmelded_suits import (
    MAGIC,
    RECORD_SIZE,
    SEARCH_FILE,
    SUITS,
    TABLE_FILE,
    TILES,
    encode,
    every_suit,
    rank,
    search_digest,
)


def build(path: str = TABLE_FILE) -> int:
    """Search every suit and write the table file (atomically); the number of suits written."""
    digest = search_digest()
    if not digest:
        raise RuntimeError(f"no search to build the table from: {SEARCH_FILE} is missing")

    caps = [4] * TILES
    data = bytearray(SUITS * RECORD_SIZE)
    written = 0
    for counts in every_suit():
        mixed, mixed_useful = _search(counts, caps, True)
        pungs, pungs_useful = _search(counts, caps, False)
        offset = rank(counts, 0) * RECORD_SIZE
        data[offset : offset + RECORD_SIZE] = encode(mixed, pungs, mixed_useful, pungs_useful)
        written += 1
    if written != SUITS:
        raise RuntimeError(f"wrote {written} suits of {SUITS}")
    partial = path + ".partial"
    with open(partial, "wb") as out:
        out.write(MAGIC + digest + bytes(data))
    os.replace(partial, path)
    return written

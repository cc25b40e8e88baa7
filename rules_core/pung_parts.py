"""What a part keeps with pungs only, tile by tile, without a search (RULES.md 15.3).

A target part of pungs only holds j pungs and p pairs (p 0-1), each on a tile of its own: a
pung and the pair on one tile would be five copies. So each tile counts alone: a pung keeps up
to 3 of the holding's copies of a tile where the melds leave room for a pung (they hold at most
one), the pair up to 2 of a tile where they leave room for a pair (at most two). The best j
pungs take the tiles that keep most; the pair goes on a tile with room for a pair only, or on
one the pungs then do without. Tiles whose pungs keep alike are alike for the pair too (it
keeps what the pung keeps, at most 2): they are counted by kind, not searched.

`target_parts` reads the overlaps of the honours (always pungs only) and of a suit some meld
holds tiles of, pungs only, from here; `rules_core.distance` the pungs of every part together.
"""

from __future__ import annotations

from typing import Final

NO_TARGET: Final = -1000  # target_parts.NO_TARGET (it imports this module)
SLOTS: Final = 10


# The overlaps by the key of the part's kinds and the sets asked (`pung_overlaps`): few occur,
# and at most 715 counts of tiles by kind (9 tiles at most), times 4 pairs, times 5 sets.
_BY_KINDS: dict[int, list[int]] = {}


def pung_overlaps(counts: list[int], held: list[int], start: int, size: int, most_sets: int) -> list[int]:
    """The best overlap of each slot (j sets, p pairs; `target_parts.slot`) of the part at
    ``counts[start:start + size]`` pungs only, `NO_TARGET` where none fits or past ``most_sets``
    sets; ``held`` counts the melds' tiles. One list per kind of part: never to be changed."""
    key = 0  # four bits a kind of tile with room for a pung (`_overlaps`), then the pair's, then the sets
    pair_only = -1
    for tile in range(start, start + size):
        in_melds = held[tile]
        if in_melds <= 1:
            count = counts[tile]
            key += 1 << 4 * (3 if count > 3 else count)
        elif in_melds == 2:
            count = counts[tile]  # at most the two copies the melds leave
            if count > pair_only:
                pair_only = count
    key |= (pair_only + 1) << 16 | most_sets << 19
    found = _BY_KINDS.get(key)
    if found is None:
        kinds = [key & 15, key >> 4 & 15, key >> 8 & 15, key >> 12 & 15, pair_only]
        found = _BY_KINDS[key] = _overlaps(kinds, most_sets)
    return found


def clear_pung_overlaps() -> None:
    """Forget every kind of part seen (`target_parts.clear_tables`)."""
    _BY_KINDS.clear()


def _overlaps(kinds: list[int], most_sets: int) -> list[int]:
    """`pung_overlaps` of a part's tiles by kind: at 0-3 how many have room for a pung that
    keeps that many copies, at 4 the most a pair keeps of a tile with room for a pair but not a
    pung (-1: no such tile)."""
    values = [NO_TARGET] * SLOTS
    for sets in range(most_sets + 1):
        pungs = best_pungs(kinds, sets)
        if pungs < 0:
            break  # too few tiles with room for a pung: for more sets too
        values[2 * sets] = pungs
        values[2 * sets + 1] = with_pair(kinds, sets)
    return values


def best_pungs(kinds: list[int], sets: int) -> int:
    """The most ``sets`` pungs keep on tiles of ``kinds`` (`NO_TARGET`: too few tiles)."""
    kept = 0
    for keeps in range(3, -1, -1):
        number = kinds[keeps]
        if number >= sets:
            return kept + keeps * sets
        kept += keeps * number
        sets -= number
    return NO_TARGET


def with_pair(kinds: list[int], sets: int) -> int:
    """The most ``sets`` pungs and the pair keep on tiles of ``kinds`` (`NO_TARGET`: none fit)."""
    pungs = best_pungs(kinds, sets)
    if pungs < 0:
        return NO_TARGET
    best = NO_TARGET if kinds[4] < 0 else pungs + kinds[4]
    for keeps in range(4):
        if kinds[keeps]:
            kinds[keeps] -= 1  # the pair's tile: the pungs do without it
            rest = best_pungs(kinds, sets)
            kinds[keeps] += 1
            if rest >= 0 and rest + (2 if keeps > 2 else keeps) > best:
                best = rest + (2 if keeps > 2 else keeps)
    return best

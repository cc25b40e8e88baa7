"""What a part keeps with pungs only, tile by tile, without a search (RULES.md 15.3).

A target part of pungs only holds j pungs and p pairs (p 0-1), each on a tile of its own: a
pung and the pair on one tile would be five copies. So each tile counts alone: a pung keeps up
to 3 of the holding's copies of a tile where the melds leave room for a pung (they hold at most
one), the pair up to 2 of a tile where they leave room for a pair (at most two). The best j
pungs take the tiles that keep most; the pair goes on a tile with room for a pair only, or on
one the pungs then do without. Tiles whose pungs keep alike are alike for the pair too (it
keeps what the pung keeps, at most 2): they are counted by kind, not searched.

`target_parts` reads the overlaps of the honours (always pungs only) and of a suit some meld
holds tiles of, pungs only, from here; `rules_core.distance` the pungs of every part together
(the 34 tiles as one part).
"""

from __future__ import annotations

from typing import Final

NO_TARGET: Final = -1000  # target_parts.NO_TARGET (it imports this module)
SLOTS: Final = 10


# What each tile adds to a part's key (`pung_key`), by the copies the melds hold of it times 5
# plus the part's: a tile with room for a pung counts at six bits by what the pung keeps (0-3
# copies), a tile with room for the pair only at six bits from bit 24 by what the pair keeps.
_KEY_STEP: Final = [
    (1 << 6 * (3 if count > 3 else count)) if in_melds <= 1 else (1 << 24 + 6 * count) if in_melds == 2 else 0
    for in_melds in range(5)
    for count in range(5)
]
_SETS_AT: Final = 42  # the sets asked, above the kinds
# The overlaps by part key (`overlaps_of`): few occur. Emptied when it holds `MAX_KINDS` keys.
_BY_KINDS: dict[int, list[int]] = {}
MAX_KINDS: Final = 65_536


def pung_key(counts: list[int], held: list[int], start: int, size: int, most_sets: int) -> int:
    """The key of the part at ``counts[start:start + size]`` pungs only, up to ``most_sets``
    sets (``held``: the melds' tiles): its tiles counted by kind, which is all its overlaps
    depend on."""
    key = most_sets << _SETS_AT
    step = _KEY_STEP
    for tile in range(start, start + size):
        key += step[held[tile] * 5 + counts[tile]]
    return key


def overlaps_of(key: int) -> list[int]:
    """The best overlap of each slot (j sets, p pairs; `target_parts.slot`) of a part by its
    `pung_key`, `NO_TARGET` where none fits or past the sets asked. One list per key: never to
    be changed."""
    found = _BY_KINDS.get(key)
    if found is None:
        if len(_BY_KINDS) >= MAX_KINDS:
            _BY_KINDS.clear()
        pair_only = -1
        for keeps in range(3):
            if key >> 24 + 6 * keeps & 63:
                pair_only = keeps
        kinds = [key & 63, key >> 6 & 63, key >> 12 & 63, key >> 18 & 63, pair_only]
        found = _BY_KINDS[key] = _overlaps(kinds, key >> _SETS_AT)
    return found


def pung_overlaps(counts: list[int], held: list[int], start: int, size: int, most_sets: int) -> list[int]:
    """`overlaps_of` the part at ``counts[start:start + size]`` up to ``most_sets`` sets."""
    return overlaps_of(pung_key(counts, held, start, size, most_sets))


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
            kinds[keeps] = kinds[keeps] - 1  # the pair's tile: the pungs do without it (not -=:
            rest = best_pungs(kinds, sets)  # mypyc adds to a list's item generically)
            kinds[keeps] = kinds[keeps] + 1
            if rest >= 0 and rest + (2 if keeps > 2 else keeps) > best:
                best = rest + (2 if keeps > 2 else keeps)
    return best

"""How much of a holding's tiles in one suit (or among the honours) a target can keep (RULES.md 15.3).

A target's concealed tiles split into parts that never interact: the three suits and the
honours. For one part, given the holding's counts there and how many of each tile the melds
already hold (a target may hold at most four of a tile, melds counted), this module answers,
for every number of sets j (0-4) and pairs p (0-1) the target puts in the part:

- the most of the holding's tiles a target part of j sets and p pairs keeps (the overlap,
  `NO_TARGET` when no such part exists within the four copies);
- which tiles some target part keeping that most holds more of than the holding does: the
  tiles that, drawn, would be kept too (the useful tiles, 15.4, as a bit mask of the part's
  tiles, lowest tile in bit 0);

once with chows allowed and once with pungs only (碰碰胡 and its kin). Honours never chow.

The answers are exact: a dynamic programme over the part's tiles in order, carrying the chows
begun on the two tiles before, over every target part (not over blocks of the holding, which
miss the four-copies limit: `EEEE` is not a pung and a pair). Each part's answer is kept in a
table keyed by its counts and meld counts, emptied when it reaches `MAX_PART_PATTERNS` entries.
"""

from __future__ import annotations

from typing import Final

NO_TARGET: Final = -1000  # an overlap no target reaches: far below any sum of real ones
MAX_PART_PATTERNS: Final = 65_536
# Index of (j sets, p pairs) in a table's lists.
SLOTS: Final = 10


def slot(sets: int, pairs: int) -> int:
    return sets * 2 + pairs


# A part's answer: (overlaps with chows, overlaps pungs only, useful masks with chows, pungs only),
# each a list of SLOTS entries indexed by `slot`.
PartTable = tuple[list[int], list[int], list[int], list[int]]

_SUIT_TABLES: dict[int, PartTable] = {}
_HONOUR_TABLES: dict[int, PartTable] = {}


def part_key(counts: list[int], held: list[int], start: int, size: int, melded: bool) -> int:
    """The key of a part: its counts, three bits a tile, then (``melded``: the melds hold some of
    its tiles) the meld counts above them."""
    key = 0
    for tile in range(start, start + size):
        key = (key << 3) | counts[tile]
    if melded:
        in_melds = 0
        for tile in range(start, start + size):
            in_melds = (in_melds << 3) | held[tile]
        key |= in_melds << 27
    return key


def suit_table(counts: list[int], held: list[int], start: int, melded: bool = True) -> PartTable:
    """The table of the suit whose tiles start at ``start`` (0, 9 or 18); ``held`` counts the
    tiles of the melds (``melded`` false: none of this suit)."""
    key = part_key(counts, held, start, 9, melded)
    table = _SUIT_TABLES.get(key)
    if table is None:
        if len(_SUIT_TABLES) >= MAX_PART_PATTERNS:
            _SUIT_TABLES.clear()
        part = counts[start : start + 9]
        caps = [4 - held[t] for t in range(start, start + 9)]
        mixed, mixed_useful = _search(part, caps, True)
        pungs, pungs_useful = _search(part, caps, False)
        table = _SUIT_TABLES[key] = (mixed, pungs, mixed_useful, pungs_useful)
    return table


def honour_table(counts: list[int], held: list[int], melded: bool = True) -> PartTable:
    """The table of the honours (tiles 27-33): pungs only, whatever is asked."""
    key = part_key(counts, held, 27, 7, melded)
    table = _HONOUR_TABLES.get(key)
    if table is None:
        if len(_HONOUR_TABLES) >= MAX_PART_PATTERNS:
            _HONOUR_TABLES.clear()
        caps = [4 - held[t] for t in range(27, 34)]
        pungs, useful = _search(counts[27:34], caps, False)
        table = _HONOUR_TABLES[key] = (pungs, pungs, useful, useful)
    return table


_STATES: Final = 250  # (chows begun two tiles back, one tile back, sets, pairs): 5 x 5 x 5 x 2


def _search(part: list[int], caps: list[int], chows: bool) -> tuple[list[int], list[int]]:
    """Over every target part: the best overlap and the union of useful tiles of the best, per
    slot. A state is (chows begun two tiles back, chows begun one tile back, sets, pairs),
    coded a + 5b + 25 sets + 125 pairs; ``best`` holds -1 for a state no target part reaches."""
    size = len(part)
    best = [-1] * _STATES
    useful = [0] * _STATES
    next_best = [-1] * _STATES  # the states after this tile; both lists are emptied as they are left
    next_useful = [0] * _STATES
    best[0] = 0
    active = [0]
    for i in range(size):
        held = part[i]
        cap = caps[i]
        bit = 1 << i
        may_chow = chows and i + 2 < size
        next_active: list[int] = []
        for state in active:
            value = best[state]
            mask = useful[state]
            a = state % 5
            b = state // 5 % 5
            sets = state // 25 % 5
            pairs = state // 125
            carried = a + b
            if carried > cap:
                continue
            most_chows = 0
            if may_chow:  # within the sets left and the copies of the chow's three tiles
                most_chows = min(4 - sets, cap - carried, caps[i + 1] - b, caps[i + 2])
            for c in range(most_chows + 1):
                base = carried + c
                after = b + 5 * c
                for choice in range(3):  # nothing more, a pung, the pair
                    if choice == 0:
                        tiles = base
                        code = after + 25 * (sets + c) + 125 * pairs
                    elif choice == 1:
                        tiles = base + 3
                        if sets + c == 4 or tiles > cap:
                            continue
                        code = after + 25 * (sets + c + 1) + 125 * pairs
                    else:
                        tiles = base + 2
                        if pairs or tiles > cap:
                            continue
                        code = after + 25 * (sets + c) + 125
                    new_value = value + (tiles if tiles < held else held)
                    new_mask = mask | bit if tiles > held else mask
                    old = next_best[code]
                    if new_value > old:
                        if old < 0:
                            next_active.append(code)
                        next_best[code] = new_value
                        next_useful[code] = new_mask
                    elif new_value == old:
                        next_useful[code] |= new_mask
        for state in active:
            best[state] = -1
            useful[state] = 0
        best, next_best = next_best, best
        useful, next_useful = next_useful, useful
        active = next_active
    values = [NO_TARGET] * SLOTS
    masks = [0] * SLOTS
    for state in active:
        if state % 25:
            continue  # chows still open past the last tile: never made (may_chow stops them)
        index = slot(state // 25 % 5, state // 125)
        values[index] = best[state]
        masks[index] = useful[state]
    return values, masks

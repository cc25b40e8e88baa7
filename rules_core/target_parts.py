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
The programme runs from the last tile back and keeps what the tiles from each tile on can add
(keyed by their counts, copies left and the chows carried in; at most `MAX_SUFFIXES`), so a part
first seen shares most of its work with the parts seen before that end the same way: the same
suit before a discard or a draw, which is what advice asks next. A suit no meld holds a tile of
is first looked up in the table `make` built of every such suit (`rules_core.unmelded_suits`),
where there is one: the same answers without the search.

A target holds four sets in all, its melds counted: a suit its melds hold h tiles of (at least
h / 4 melds, rounded up) holds at most 4 - ceil(h / 4) sets more, and its table says `NO_TARGET`
past them. Where only the overlaps are asked (`suit_table`'s ``useful`` false), such a suit is
first looked up in the same table: with chows its witnesses prove most of them
(`unmelded_suits.melded_values`) and a walk for one target part most of the rest
(`rules_core.melded_suits`); pungs only, and for the honours, each tile counts alone
(`rules_core.pung_parts`). Their useful tiles are searched when first asked for.
"""

from __future__ import annotations

from typing import Final

from rules_core import melded_suits, unmelded_suits
from rules_core.pung_parts import clear_pung_overlaps, overlaps_of, pung_key, pung_overlaps

NO_TARGET: Final = -1000  # an overlap no target reaches: far below any sum of real ones
MAX_PART_PATTERNS: Final = 65_536
# Index of (j sets, p pairs) in a table's lists.
SLOTS: Final = 10


def slot(sets: int, pairs: int) -> int:
    return sets * 2 + pairs


# A part's answer: (overlaps with chows, overlaps pungs only, useful masks with chows, pungs only),
# each a list of SLOTS entries indexed by `slot`. Four entries, typed as a tuple of any length:
# compiled, a tuple of four is a C struct, made into a new object whenever it is stored or indexed
# by a variable.
PartTable = tuple[list[int], ...]

_SUIT_TABLES: dict[int, PartTable] = {}
_HONOUR_TABLES: dict[int, PartTable] = {}
_HONOUR_KINDS: dict[int, PartTable] = {}  # the honours' overlaps alone, by `pung_parts.pung_key`


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


# The useful masks of a table whose overlaps alone were asked for (never read: `suit_table`
# finds them when they are).
UNASKED: Final[list[int]] = []


def suit_table(counts: list[int], held: list[int], start: int, melded: bool = True, useful: bool = True) -> PartTable:
    """The table of the suit whose tiles start at ``start`` (0, 9 or 18); ``held`` counts the
    tiles of the melds (``melded`` false: none of this suit). Without ``useful``, its masks may
    be `UNASKED`."""
    key = part_key(counts, held, start, 9, melded)
    table = _SUIT_TABLES.get(key)
    if table is None or (useful and table[2] is UNASKED):
        if len(_SUIT_TABLES) >= MAX_PART_PATTERNS:
            _SUIT_TABLES.clear()
        built = None
        values = None
        if not melded:
            if useful:
                built = unmelded_suits.table(counts, start)
            else:
                values = unmelded_suits.values(counts, start)
        if built is None and values is None:
            caps = [4 - held[t] for t in range(start, start + 9)]
            in_melds = 0  # a loop: mypyc calls the builtin sum through Python
            for tile in range(start, start + 9):
                in_melds += held[tile]
            most_sets = 4 - (in_melds + 3) // 4
            if not useful and in_melds:
                values = _melded_values(counts, held, start, caps, most_sets)
            if values is None:
                part = counts[start : start + 9]
                mixed, mixed_useful = _search(part, caps, True)
                pungs, pungs_useful = _search(part, caps, False)
                if in_melds:
                    for index in range(2 * most_sets + 2, SLOTS):  # past the four sets, melds counted
                        mixed[index] = pungs[index] = NO_TARGET
                        mixed_useful[index] = pungs_useful[index] = 0
                built = (mixed, pungs, mixed_useful, pungs_useful)
        if built is None:
            assert values is not None
            built = (values[0], values[1], UNASKED, UNASKED)
        table = _SUIT_TABLES[key] = built
    return table


def _melded_values(
    counts: list[int], held: list[int], start: int, caps: list[int], most_sets: int
) -> tuple[list[int], list[int]] | None:
    """The overlaps of a suit the melds hold tiles of, with chows and pungs only, without its
    search: with chows the table's where each slot's witness fits the caps or another target
    part reaches it (`melded_suits.all_reached`), pungs only tile by tile. None where a slot keeps
    less than without melds, or without a table file (search it)."""
    found = unmelded_suits.melded_values(counts, start, caps, most_sets)
    if found is None:
        return None
    mixed, unproven = found
    if unproven and not melded_suits.all_reached(counts, start, caps, mixed, unproven):
        return None
    return mixed, pung_overlaps(counts, held, start, 9, most_sets)


def honour_table(counts: list[int], held: list[int], melded: bool = True, useful: bool = True) -> PartTable:
    """The table of the honours (tiles 27-33): pungs only, whatever is asked. Without
    ``useful``, its overlaps alone, counted tile by tile (`pung_parts`): its masks `UNASKED`."""
    if not useful:
        kinds = pung_key(counts, held, 27, 7, 4)
        table = _HONOUR_KINDS.get(kinds)
        if table is None:
            if len(_HONOUR_KINDS) >= MAX_PART_PATTERNS:
                _HONOUR_KINDS.clear()
            values = overlaps_of(kinds)
            table = _HONOUR_KINDS[kinds] = (values, values, UNASKED, UNASKED)
        return table
    key = part_key(counts, held, 27, 7, melded)
    table = _HONOUR_TABLES.get(key)
    if table is None:
        if len(_HONOUR_TABLES) >= MAX_PART_PATTERNS:
            _HONOUR_TABLES.clear()
        caps = [4 - held[t] for t in range(27, 34)]
        pungs, useful_masks = _search(counts[27:34], caps, False)
        table = _HONOUR_TABLES[key] = (pungs, pungs, useful_masks, useful_masks)
    return table


MAX_SUFFIXES: Final = 131_072  # about 40 MB when full
# A suffix's answer, per slot of the sets and pairs begun on its tiles: the best overlap (-1 where
# none) at the slot's index, then its useful mask at SLOTS + the slot's (bit 0: the first tile).
_SUFFIXES: dict[int, list[int]] = {}


def clear_tables() -> None:
    """Forget every part seen (what a fresh process starts with)."""
    _SUIT_TABLES.clear()
    _HONOUR_TABLES.clear()
    _HONOUR_KINDS.clear()
    _SUFFIXES.clear()
    clear_pung_overlaps()


def _search(part: list[int], caps: list[int], chows: bool) -> tuple[list[int], list[int]]:
    """Over every target part: the best overlap and the union of useful tiles of the best, per
    slot. The tiles are taken from the first; what the tiles from i on can add is kept by their
    counts, their copies left and the chows begun on the two tiles before, so that parts sharing
    their last tiles (the same suit less one tile, a draw on its first tiles) share that work."""
    size = len(part)
    counts_code = [0] * (size + 1)
    caps_code = [0] * (size + 1)
    for i in range(size - 1, -1, -1):
        counts_code[i] = counts_code[i + 1] * 5 + part[i]  # 5**9 < 2**21: a key stays a small int
        caps_code[i] = caps_code[i + 1] * 5 + caps[i]
    found = _suffix(part, caps, counts_code, caps_code, size, 0, 0, 0, chows)
    values = [NO_TARGET] * SLOTS
    for index in range(SLOTS):
        if found[index] >= 0:
            values[index] = found[index]
    return values, found[SLOTS:]


def _suffix(
    part: list[int],
    caps: list[int],
    counts_code: list[int],
    caps_code: list[int],
    size: int,
    i: int,
    two_back: int,
    one_back: int,
    chows: bool,
) -> list[int]:
    """The answer of the tiles from ``i`` on, ``two_back`` chows begun on tile i - 2 and
    ``one_back`` on tile i - 1 (counted in the sets before)."""
    left = size - i
    key = (((((counts_code[i] << 21) | caps_code[i]) << 4 | left) << 3 | two_back) << 3 | one_back) << 1 | chows
    known = _SUFFIXES.get(key)
    if known is not None:
        return known
    found = [-1] * SLOTS + [0] * SLOTS
    if left == 0:
        found[0] = 0  # no chow is begun on the last two tiles: nothing is carried past them
    else:
        carried = two_back + one_back
        cap = caps[i]
        held = part[i]
        if carried <= cap:
            most_chows = 0
            if chows and left > 2:  # within the copies of the chow's three tiles
                most_chows = melded_suits.chows_within(4, cap - carried, caps, i, one_back)
            for c in range(most_chows + 1):
                after = _suffix(part, caps, counts_code, caps_code, size, i + 1, one_back, c, chows)
                for choice in range(3):  # nothing more, a pung, the pair
                    tiles = carried + c
                    added = 2 * c  # slot = 2 sets + pairs
                    if choice == 1:
                        tiles += 3
                        added += 2
                    elif choice == 2:
                        tiles += 2
                        added += 1
                    if tiles > cap:
                        continue
                    gain = tiles if tiles < held else held
                    bit = 1 if tiles > held else 0
                    for index in range(SLOTS - added):
                        value = after[index]
                        if value < 0:
                            continue
                        target = index + added
                        if choice == 2 and index & 1:
                            continue
                        value += gain
                        mask = after[SLOTS + index] << 1 | bit
                        old = found[target]
                        if value > old:
                            found[target] = value
                            found[SLOTS + target] = mask
                        elif value == old:
                            found[SLOTS + target] |= mask
    if len(_SUFFIXES) >= MAX_SUFFIXES:
        _SUFFIXES.clear()
    _SUFFIXES[key] = found
    return found

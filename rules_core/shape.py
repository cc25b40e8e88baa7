"""Hand shape (牌形): can the concealed tiles form sets and one pair (三三三三二)?

Melds are sets already, so only the concealed tiles are searched. Suits are
independent, so each suit's nine counts are looked up in a table filled on
first sight of that count pattern; honours never chow and need no search.

Two things about a decomposition can change the value of a hand: whether all
sets are pungs (碰碰胡), and how many concealed suited pungs it holds (worth 花
only when a profile gives `SUITED_PUNG` a value). Honour pungs are shared by
every decomposition (honours never chow) and the flushes depend on the tiles
alone. A hand that splits into pungs only splits so one way (every count is 2
or 3), and that way holds the most suited pungs; `shape_of` answers for it.
`most_pungs_with_a_chow` answers for the best of the other ways, which
`rules_core.legality` weighs against it when the profile does not make the
all-pungs reading the better one outright; `fewest_suited_pungs` for the way
with the fewest, which may be the one without 花 (无花) when suited pungs carry 花.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from rules_core.tiles import FIRST_HONOUR, TILE_KINDS


class Shape(IntEnum):
    INCOMPLETE = 0
    COMPLETE = 1  # four sets and a pair, melds included
    ALL_PUNGS = 2  # complete, and every set can be a pung or kong


# Members the hot path returns, as constants (see rules_core.requests).
_SHAPE_ALL_PUNGS: Final = Shape.ALL_PUNGS
_SHAPE_COMPLETE: Final = Shape.COMPLETE

# A suit's nine counts read as one int, four bits a count (a hand holds at most 14 concealed
# tiles, so no count reaches 16): a dict keyed by an int hashes it for nothing, where a 9-tuple
# is built and hashed on every look-up. `_suit_counts` turns a code back into counts.
_SUIT_BITS: Final = 4
_COUNT_MASK: Final = 15

# suit code -> the most pungs in a split into sets (plus one pair when the total is 2 modulo
# 3), or -1 when the tiles do not split so. Of the 273,005 count patterns a suit can show,
# random hands meet about 11,000 in 100,000 requests and 33,000 in 3 million. The tables
# below are emptied when they reach MAX_SUIT_PATTERNS entries, so a worker's memory stays
# flat whatever it is sent.
MAX_SUIT_PATTERNS = 65_536
_SUIT_TABLE: dict[int, int] = {}
_NO_SPLIT = -1


def _most_pungs(counts: list[int], chow_wanted: bool = False) -> int:
    """The most pungs among the ways to split ``counts`` into sets only, or -1; with
    ``chow_wanted``, among the ways that hold at least one chow."""
    for i in range(9):
        if counts[i]:
            break
    else:
        return _NO_SPLIT if chow_wanted else 0
    best = _NO_SPLIT
    if counts[i] >= 3:
        counts[i] -= 3
        rest = _most_pungs(counts, chow_wanted)
        counts[i] += 3
        if rest >= 0:
            best = rest + 1
    if i < 7 and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        rest = _most_pungs(counts)
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1
        best = max(best, rest)
    return best


def _suit_code(counts: list[int], start: int) -> int:
    code = 0
    for tile in range(start, start + 9):
        code = (code << _SUIT_BITS) | counts[tile]
    return code


def _suit_counts(code: int) -> list[int]:
    """The nine counts of a suit code, lowest tile first."""
    return [(code >> (_SUIT_BITS * (8 - i))) & _COUNT_MASK for i in range(9)]


def _suit_split(code: int, chow_wanted: bool = False) -> int:
    counts = _suit_counts(code)
    if sum(counts) % 3 == 0:
        return _most_pungs(counts, chow_wanted)
    best = _NO_SPLIT
    for i in range(9):
        if counts[i] >= 2:
            counts[i] -= 2
            best = max(best, _most_pungs(counts, chow_wanted))
            counts[i] += 2
    return best


# counts of one suit -> (the most pungs in a split as above, the most in one that holds at least
# one chow); -1 where there is no such split.
_SPLITS_TABLE: dict[int, tuple[int, int]] = {}


def most_pungs_with_a_chow(counts: list[int]) -> int:
    """The most concealed suited pungs among the decompositions of a complete hand's
    concealed tiles that hold at least one chow, or -1 when every decomposition is pungs."""
    total = 0
    best_change = None  # pungs lost by taking the chow in the suit that loses the fewest
    for start in (0, 9, 18):
        key = _suit_code(counts, start)
        splits = _SPLITS_TABLE.get(key)
        if splits is None:
            if len(_SPLITS_TABLE) >= MAX_SUIT_PATTERNS:
                _SPLITS_TABLE.clear()
            splits = _SPLITS_TABLE[key] = (_suit_split(key), _suit_split(key, chow_wanted=True))
        pungs, chowed = splits
        total += pungs
        if chowed >= 0 and (best_change is None or chowed - pungs > best_change):
            best_change = chowed - pungs
    return _NO_SPLIT if best_change is None else total + best_change


def _fewest_pungs(counts: list[int]) -> int:
    """The fewest pungs among the ways to split ``counts`` into sets only, or -1."""
    for i in range(9):
        if counts[i]:
            break
    else:
        return 0
    best = _NO_SPLIT
    if i < 7 and counts[i + 1] and counts[i + 2]:
        counts[i] = counts[i] - 1
        counts[i + 1] = counts[i + 1] - 1
        counts[i + 2] = counts[i + 2] - 1
        best = _fewest_pungs(counts)
        counts[i] = counts[i] + 1
        counts[i + 1] = counts[i + 1] + 1
        counts[i + 2] = counts[i + 2] + 1
    if counts[i] >= 3:
        counts[i] = counts[i] - 3
        rest = _fewest_pungs(counts)
        counts[i] = counts[i] + 3
        if rest >= 0 and (best < 0 or rest + 1 < best):
            best = rest + 1
    return best


def _suit_fewest(code: int) -> int:
    counts = _suit_counts(code)
    if sum(counts) % 3 == 0:
        return _fewest_pungs(counts)
    best = _NO_SPLIT
    for i in range(9):
        if counts[i] >= 2:
            counts[i] = counts[i] - 2
            rest = _fewest_pungs(counts)
            counts[i] = counts[i] + 2
            if rest >= 0 and (best < 0 or rest < best):
                best = rest
    return best


# counts of one suit -> the fewest pungs in a split as `_SUIT_TABLE`'s, -1 where there is none.
_FEWEST_TABLE: dict[int, int] = {}


def fewest_suited_pungs(counts: list[int]) -> int:
    """The fewest concealed suited pungs among the decompositions of a complete hand's concealed
    tiles into sets and one pair. Under a profile that gives suited pungs 花, a reading with
    fewer may be the one without 花 (无花)."""
    total = 0
    for start in (0, 9, 18):
        key = _suit_code(counts, start)
        if not key:
            continue
        fewest = _FEWEST_TABLE.get(key)
        if fewest is None:
            if len(_FEWEST_TABLE) >= MAX_SUIT_PATTERNS:
                _FEWEST_TABLE.clear()
            fewest = _FEWEST_TABLE[key] = _suit_fewest(key)
        total += fewest
    return total


def suit_splits(code: int) -> bool:
    """Whether a suit's tiles (its code, as `shape_of` reads it; a total of 0 or 2 modulo 3)
    split into sets, with one pair when the total is 2 modulo 3."""
    pungs = _SUIT_TABLE.get(code)
    if pungs is None:
        if len(_SUIT_TABLE) >= MAX_SUIT_PATTERNS:
            _SUIT_TABLE.clear()
        pungs = _SUIT_TABLE[code] = _suit_split(code)
    return pungs >= 0


def suit_code(counts: list[int], start: int) -> int:
    """The code of the suit whose tiles start at ``start`` (0, 9 or 18): four bits a count, the
    lowest tile in the highest bits."""
    return _suit_code(counts, start)


def shape_of(counts: list[int]) -> tuple[Shape, int]:
    """The best shape of 34 concealed tile counts (total 2 modulo 3), and the most
    concealed suited pungs a decomposition of that shape holds."""
    pairs = 0  # counts of 2 among the honours, then sets of a suit with one pair among them
    twos = 0  # counts of 2 in all
    suited_pungs = 0
    only_pung_counts = True  # no count of 1 or 4 among the suits
    for tile in range(FIRST_HONOUR, TILE_KINDS):
        c = counts[tile]
        if c == 2:
            pairs += 1
        elif c == 1 or c == 4:
            return INCOMPLETE
    twos = pairs
    for start in (0, 9, 18):
        # One pass over the suit: its code, its total and the counts that rule out pungs only.
        code = 0
        total = 0
        for tile in range(start, start + 9):
            c = counts[tile]
            code = (code << _SUIT_BITS) | c
            total += c
            if c == 2:
                twos += 1
            elif c == 1 or c == 4:
                only_pung_counts = False
        if not total:
            continue
        remainder = total % 3
        if remainder == 1:
            return INCOMPLETE
        if remainder == 2:
            pairs += 1
        pungs = _SUIT_TABLE.get(code)
        if pungs is None:
            if len(_SUIT_TABLE) >= MAX_SUIT_PATTERNS:
                _SUIT_TABLE.clear()
            pungs = _SUIT_TABLE[code] = _suit_split(code)
        if pungs < 0:
            return INCOMPLETE
        suited_pungs += pungs
    if pairs != 1:
        return INCOMPLETE
    # With one pair in all, counts of only 2 and 3 mean pungs and that pair.
    if only_pung_counts and twos == 1:
        return _SHAPE_ALL_PUNGS, suited_pungs
    return _SHAPE_COMPLETE, suited_pungs


INCOMPLETE = (Shape.INCOMPLETE, 0)

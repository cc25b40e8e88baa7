"""The shapeless all-honour targets whose legality their 花 decide (RULES.md 15.2-15.3).

Where `all_honours_need_shape` is off, any 14 - 3m honours win as 乱风向 (section 4), but a
profile's `min_fan` or a qualifying `NO_FLOWERS` may make such a hand legal only with 0 花, or
only with some: a concealed honour held three or more times is a pung of 花 (section 5). Such
a hand's legality then depends on which honours it holds thrice, and the best target is found
over every honour target of the size: a target read as four sets and a pair, or as seven pairs
where the profile reads them, is judged on that reading (by `rules_core.distance_families`'
classes) and is left out here.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Final

from rules_core.shape import shape_of
from rules_core.tiles import FIRST_HONOUR, TILE_KINDS

NO_TARGET: Final = -1000
_HONOURS: Final = TILE_KINDS - FIRST_HONOUR
MAX_ANSWERS: Final = 4096
_ANSWERS: dict[tuple, tuple[int, int]] = {}


@lru_cache(maxsize=8)
def honour_targets(size: int, seven_pairs: bool) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every count of the seven honours summing to ``size`` that the engine reads as shapeless
    (not four sets and a pair; not seven pairs where ``seven_pairs``), with its honours held
    three or more times as bits."""
    found = []
    counts = [0] * TILE_KINDS
    for target in product(range(5), repeat=_HONOURS):
        if sum(target) != size:
            continue
        if seven_pairs and size == 14 and all(n % 2 == 0 for n in target):
            continue
        counts[FIRST_HONOUR:] = target
        if shape_of(counts)[0]:
            continue
        thrice = 0
        for index, n in enumerate(target):
            if n >= 3:
                thrice |= 1 << index
        found.append((target, thrice))
    return tuple(found)


def shapeless_overlap(legal: int, seven_pairs: bool, counts: list[int], held: list[int], size: int) -> tuple[int, int]:
    """The most of ``counts`` a legal shapeless target of ``size`` honours keeps within the four
    copies (``legal``: `FamilyRules.shapeless_legal`), and the tiles some such best target holds
    more of than the holding, as a mask (bit t for tile t)."""
    have = tuple(counts[FIRST_HONOUR:])
    caps = tuple(4 - n for n in held[FIRST_HONOUR:])
    key = (legal, seven_pairs, have, caps, size)
    known = _ANSWERS.get(key)
    if known is not None:
        return known
    best = NO_TARGET
    mask = 0
    for target, thrice in honour_targets(size, seven_pairs):
        if not legal >> thrice & 1:
            continue
        kept = 0
        over = 0
        for index in range(_HONOURS):
            n = target[index]
            if n > caps[index]:
                break
            c = have[index]
            if n > c:
                kept += c
                over |= 1 << (FIRST_HONOUR + index)
            else:
                kept += n
        else:
            if kept > best:
                best = kept
                mask = over
            elif kept == best:
                mask |= over
    if len(_ANSWERS) >= MAX_ANSWERS:
        _ANSWERS.clear()
    answer = _ANSWERS[key] = (best, mask)
    return answer

"""Whether the melds leave a suit's best overlap with chows as it is without them (RULES.md 15.3).

The melds leave a target fewer copies of their tiles (its caps): a suit's best overlap in a
slot is then at most the overlap without melds, which the table of unmelded suits holds. Where
the slot's witness there does not fit the caps, `all_reached` looks for any target part of the slot
within them that keeps as many: a search for one part, not over all, that gives up on a part
as soon as it holds more copies beyond the suit's counts than the best ones do (a part's
overlap is its tiles less those copies). It follows the search's programme
(`target_parts._suffix`: the tiles in order, the chows begun on the two before carried), and
stops at the first part found. Where none is found the slot keeps less, and the suit is searched.
"""

from __future__ import annotations

from typing import Final

TILES: Final = 9
# The walks of a suit's slots give up after this many steps in all (the suit is then searched):
# a slot no part reaches is walked to the end, and no suit's walks may cost more than a search.
MAX_STEPS: Final = 2_000


def chows_within(most: int, room: int, caps: list[int], i: int, one_back: int) -> int:
    """How many chows may begin on tile ``i`` (of a suit with two tiles after it): at most
    ``most``, within the ``room`` left on it and the caps of the next two tiles, the first of
    which holds the ``one_back`` chows begun on tile i - 1 already. (Comparisons: mypyc calls
    the builtin ``min`` of several ints through Python.)"""
    if room < most:
        most = room
    if caps[i + 1] - one_back < most:
        most = caps[i + 1] - one_back
    if caps[i + 2] < most:
        most = caps[i + 2]
    return most


class _Walk:
    """One slot's walk: the suit's counts from ``start``, the caps, how many of the suit's tiles
    lie from each tile on, and the steps taken."""

    def __init__(self, counts: list[int], start: int, caps: list[int]):
        self.counts = counts
        self.start = start
        self.caps = caps
        left = [0] * (TILES + 1)
        for tile in range(TILES - 1, -1, -1):
            left[tile] = left[tile + 1] + counts[start + tile]
        self.left = left
        self.steps = 0

    def fits(self, i: int, two_back: int, one_back: int, sets: int, pairs: int, spare: int) -> bool:
        """Whether the tiles from ``i`` on hold ``sets`` sets (the chows ``two_back`` and
        ``one_back`` begun on the two tiles before counted already) and ``pairs`` pairs within the
        caps with at most ``spare`` copies beyond the suit's counts."""
        if i == TILES:
            return sets == 0 and pairs == 0
        self.steps += 1
        if self.steps > MAX_STEPS:
            return False
        caps = self.caps
        cap = caps[i]
        carried = two_back + one_back
        if carried > cap:
            return False
        held = self.counts[self.start + i]
        most_chows = chows_within(sets, cap - carried, caps, i, one_back) if i < TILES - 2 else 0
        after = self.left[i + 1]
        for chows in range(most_chows, -1, -1):
            for choice in range(3):  # a pung, the pair, nothing more
                tiles = carried + chows
                sets_after = sets - chows
                pairs_after = pairs
                if choice == 0:
                    if sets_after == 0:
                        continue
                    tiles += 3
                    sets_after -= 1
                elif choice == 1:
                    if pairs == 0:
                        continue
                    tiles += 2
                    pairs_after = 0
                if tiles > cap:
                    continue
                spare_after = spare - (tiles - held if tiles > held else 0)
                # the tiles still to hold from i + 1 on, against the suit's tiles there
                still = 3 * sets_after + 2 * pairs_after + one_back + 2 * chows
                if spare_after < 0 or still - after > spare_after:
                    continue
                if self.fits(i + 1, one_back, chows, sets_after, pairs_after, spare_after):
                    return True
        return False


def all_reached(counts: list[int], start: int, caps: list[int], overlaps: list[int], slots: int) -> bool:
    """Whether for each slot of ``slots`` (bit `target_parts.slot`: j sets, p pairs) some target
    part of the slot, chows allowed, keeps its overlap in ``overlaps`` of the suit at
    ``counts[start:start + 9]`` within ``caps`` (indexed from ``start``), none keeping more (the
    best without melds). False also where a walk gives up."""
    walk = _Walk(counts, start, caps)
    index = 0
    while slots:
        if slots & 1:
            sets = index >> 1
            pairs = index & 1
            if not walk.fits(0, 0, 0, sets, pairs, 3 * sets + 2 * pairs - overlaps[index]):
                return False
        slots >>= 1
        index += 1
    return True

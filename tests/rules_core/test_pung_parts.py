"""RULES.md 15.3: what a part keeps with pungs only counts tile by tile, as the search finds.

A target part of pungs only holds its pungs and its pair on tiles of their own, each within the
copies the melds leave: the honours' overlaps and a melded suit's pungs only are counted so,
without a search, and answer exactly as the search over every target part does.
"""

from __future__ import annotations

import random

from rules_core import target_parts
from rules_core.pung_parts import pung_overlaps
from rules_core.target_parts import NO_TARGET, SLOTS, slot

EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE = range(27, 34)


def honours(tiles: dict[int, int]) -> list[int]:
    counts = [0] * 34
    for tile, count in tiles.items():
        counts[tile] = count
    return counts


def test_the_honours_keep_the_best_pungs_and_the_pair_on_another_tile():
    counts = honours({EAST: 3, SOUTH: 2, WEST: 1, RED: 4})
    values = pung_overlaps(counts, [0] * 34, 27, 7, 4)
    assert values[slot(0, 1)] == 2  # a pair of any that has two
    assert values[slot(1, 0)] == 3 and values[slot(1, 1)] == 5  # EEE or RRR, and a pair beside
    assert values[slot(2, 1)] == 8  # EEE RRR SS
    assert values[slot(3, 1)] == 9  # EEE RRR SSS WW (or SS WWW): the third pung keeps 2, the pair 1
    assert values[slot(4, 1)] == 9  # a fourth pung on a tile not held
    assert values[slot(4, 0)] == 9


def test_a_meld_leaves_room_for_a_pair_only_or_for_nothing():
    counts = honours({EAST: 2, SOUTH: 1, WEST: 1})
    held = honours({EAST: 2, SOUTH: 3, GREEN: 4})  # two Easts claimed: room for a pair only
    values = pung_overlaps(counts, held, 27, 7, 4)
    assert values[slot(0, 1)] == 2  # the pair of Easts
    assert values[slot(1, 0)] == 1  # a pung of Wests; no pung of Easts, none of Souths
    assert values[slot(1, 1)] == 3  # WWW EE
    # four tiles with room for a pung (W N R Wh): four pungs, a pair on E beside them
    assert values[slot(4, 1)] == 3 and values[slot(4, 0)] == 1


def test_no_more_sets_than_tiles_with_room_for_them_nor_past_the_sets_asked():
    counts = honours({EAST: 1})
    held = honours({SOUTH: 3, WEST: 3, NORTH: 3, RED: 3, GREEN: 3})
    values = pung_overlaps(counts, held, 27, 7, 4)
    assert values[slot(2, 0)] == 1 and values[slot(2, 1)] == NO_TARGET and values[slot(3, 0)] == NO_TARGET
    assert pung_overlaps(counts, [0] * 34, 27, 7, 1)[slot(2, 0) :] == [NO_TARGET] * 6


def test_every_part_pungs_only_counts_as_the_search_finds():
    rng = random.Random(21)
    for number in range(6000):
        size = 34 if number % 20 == 0 else rng.choice((7, 9))  # 34: every part together
        held = [rng.choice((0, 0, 0, 0, 1, 2, 3, 4)) for _ in range(size)]
        part = [rng.randint(0, 4 - n) if rng.random() < min(0.5, 7 / size) else 0 for n in held]
        most_sets = rng.randint(0, 4)
        expected, _ = target_parts._search(part, [4 - n for n in held], False)
        expected[2 * most_sets + 2 :] = [NO_TARGET] * (SLOTS - 2 * most_sets - 2)
        assert pung_overlaps(part, held, 0, size, most_sets) == expected, (part, held, most_sets)

"""RULES.md 15.3: what a target keeps of one part, against every target part listed one by one.

For a part (a suit's nine tiles or the seven honours), its counts and the copies the melds leave,
and each number of sets (0-4) and pairs (0-1): the most of the part's tiles some target part keeps,
and the tiles some such best target holds more of than the part does. The answers must not depend
on which parts were asked before (the search shares work between parts ending alike).
"""

from __future__ import annotations

import itertools
import random

import pytest

from rules_core import target_parts
from rules_core.target_parts import NO_TARGET, SLOTS, slot


def listed_targets(size: int, caps: list[int], chows: bool):
    """Every target part: (sets, pairs, tiles held of each) within the copies left."""
    shapes = [[3 if t == start else 0 for t in range(size)] for start in range(size)]
    if chows:
        shapes += [[1 if start <= t < start + 3 else 0 for t in range(size)] for start in range(size - 2)]
    for sets in range(5):
        for chosen in itertools.combinations_with_replacement(range(len(shapes)), sets):
            tiles = [sum(shapes[shape][t] for shape in chosen) for t in range(size)]
            for pair in (None, *range(size)):
                held = tiles[:]
                if pair is not None:
                    held[pair] += 2
                if all(held[t] <= caps[t] for t in range(size)):
                    yield sets, int(pair is not None), held


def listed_answer(part: list[int], caps: list[int], chows: bool) -> tuple[list[int], list[int]]:
    values = [NO_TARGET] * SLOTS
    masks = [0] * SLOTS
    for sets, pairs, held in listed_targets(len(part), caps, chows):
        kept = sum(min(held[t], part[t]) for t in range(len(part)))
        useful = sum(1 << t for t in range(len(part)) if held[t] > part[t])
        index = slot(sets, pairs)
        if kept > values[index]:
            values[index], masks[index] = kept, useful
        elif kept == values[index]:
            masks[index] |= useful
    return values, masks


def random_part(rng: random.Random, size: int, melded: bool) -> tuple[list[int], list[int]]:
    caps = [rng.choice((1, 2, 3, 4)) if melded and rng.random() < 0.3 else 4 for _ in range(size)]
    part = [0] * size
    for _ in range(rng.randint(0, 10)):
        tile = rng.randrange(size)
        if part[tile] < caps[tile]:
            part[tile] += 1
    return part, caps


@pytest.mark.parametrize("seed", [1, 2])
def test_each_part_keeps_what_the_best_listed_target_keeps_whatever_was_asked_before(seed):
    rng = random.Random(seed)
    target_parts.clear_tables()
    asked = []
    for _ in range(12):
        part, caps = random_part(rng, rng.choice((9, 9, 7)), melded=rng.random() < 0.5)
        asked.append((part, caps))
        shorter = part[:]  # the same part less one tile: it shares the last tiles' work
        held = [t for t in range(len(part)) if part[t]]
        if held:
            shorter[rng.choice(held)] -= 1
            asked.append((shorter, caps))
    for part, caps in asked:
        for chows in (True, False) if len(part) == 9 else (False,):
            assert target_parts._search(part, caps, chows) == listed_answer(part, caps, chows), (part, caps, chows)


def test_a_pair_of_the_only_two_copies_left_is_kept_but_no_pung_of_them():
    target_parts.clear_tables()
    part = [2, 0, 0, 0, 0, 0, 0, 0, 0]
    caps = [2, 4, 4, 4, 4, 4, 4, 4, 4]
    values, masks = target_parts._search(part, caps, True)
    assert values[slot(0, 1)] == 2 and masks[slot(0, 1)] == 0
    assert values[slot(1, 0)] == 1  # a chow 1-2-3 keeps one of them
    assert masks[slot(1, 0)] == 0b110

"""The shape waits a replay keeps per seat equal a brute force over every tile with `shape_of`."""

import random

import pytest

from generators.random_hands import HandGenerator
from rules_core.record_waits import shape_waits
from rules_core.shape import Shape, shape_of
from rules_core.tiles import FIRST_HONOUR, TILE_KINDS


def brute_force(counts: list[int], melds_all_honours: bool) -> set[int]:
    found = set()
    all_honours = melds_all_honours and not any(counts[:FIRST_HONOUR])
    for tile in range(TILE_KINDS):
        if counts[tile] >= 4:
            continue
        counts[tile] += 1
        if shape_of(counts)[0] != Shape.INCOMPLETE or (all_honours and tile >= FIRST_HONOUR):
            found.add(tile)
        counts[tile] -= 1
    return found


def hands_one_short(seed: int, count: int):
    """Complete hands of every style less one tile (and less a set or two, as if melded), and
    random tiles."""
    rng = random.Random(seed)
    generator = HandGenerator(seed)
    for _ in range(count):
        style = rng.choice(("mixed", "pungs", "flush", "half_flush", "honours"))
        sets, pair = generator.special_sets(style)
        kept = sets[rng.randrange(5) :] if rng.random() < 0.5 else sets
        tiles = [t for s in kept for t in s] + pair
        tiles.pop(rng.randrange(len(tiles)))
        if rng.random() < 0.3:
            tiles = [rng.randrange(TILE_KINDS) for _ in tiles]
        counts = [0] * TILE_KINDS
        for tile in tiles:
            counts[tile] += 1
        if max(counts) <= 4:
            yield counts, rng.random() < 0.5


@pytest.mark.parametrize("seed", range(4))
def test_shape_waits_equal_a_brute_force(seed):
    checked = 0
    for counts, melds_all_honours in hands_one_short(seed, 5000):
        assert set(shape_waits(counts, melds_all_honours)) == brute_force(counts, melds_all_honours), counts
        checked += 1
    assert checked > 4000

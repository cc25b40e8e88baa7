"""Seeded random holdings for the advice tests: four sets and a pair of a style (mixed, pungs,
flush, half flush, honours) from the shared hand generator, some of the sets laid down as melds,
a few concealed tiles exchanged for others, and for a waiting holding one concealed tile taken
away."""

from __future__ import annotations

import random

try:  # the generators' home once they leave rules_core
    from generators.random_hands import HandGenerator
except ImportError:
    from generators.random_hands import HandGenerator

from rules_core.requests import Hand, Meld, MeldKind
from rules_core.tiles import ALL_TILES, TILE_KINDS

STYLES = ("mixed", "pungs", "flush", "half_flush", "honours")
SEAT = 1  # the holding's seat: chows come from seat 0, pungs and kongs from seat 2


def _meld(rng: random.Random, tiles: list[int]) -> Meld:
    if tiles[0] != tiles[1]:
        return Meld(MeldKind.CHOW, tuple(ALL_TILES[t] for t in tiles), 0)
    kind = rng.choice((MeldKind.PUNG, MeldKind.PUNG, MeldKind.EXPOSED_KONG, MeldKind.CONCEALED_KONG))
    size = 3 if kind == MeldKind.PUNG else 4
    return Meld(kind, (ALL_TILES[tiles[0]],) * size, 2)


def random_holding(rng: random.Random, waiting: bool, exchanges: int, melds: int | None = None) -> Hand:
    """A holding of 13 (``waiting``) or 14 concealed tiles less three per meld."""
    sets_of = HandGenerator(rng.randrange(1 << 30)).special_sets
    while True:
        sets, pair = sets_of(rng.choice(STYLES))
        used = [0] * TILE_KINDS
        for tile in [t for tiles in sets for t in tiles] + pair:
            used[tile] += 1
        if any(n > 4 for n in used):
            continue  # now and then the generator's pair is a fifth copy
        count = rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) if melds is None else melds
        laid = [_meld(rng, tiles) for tiles in sets[:count]]
        for meld in laid:
            if len(meld.tiles) == 4:
                used[meld.tiles[0]] += 1
        if any(n > 4 for n in used):
            continue
        concealed = [t for tiles in sets[count:] for t in tiles] + pair
        for _ in range(exchanges):
            out = rng.randrange(len(concealed))
            choices = [t for t in range(TILE_KINDS) if used[t] < 4]
            new = rng.choice(choices)
            used[concealed[out]] -= 1
            used[new] += 1
            concealed[out] = new
        if waiting:
            concealed.pop(rng.randrange(len(concealed)))
        return Hand(tuple(ALL_TILES[t] for t in sorted(concealed)), None, tuple(laid), ())

"""RULES.md 15.2-15.5 under the profiles of section 14, against brute force: every exchange of
tiles is tried and each result judged by the settlement's own legality (a plain self-draw by a
seat that does not deal and has knocked), on seeded random holdings with season and dragon
flowers: four sets and a pair of every style and, where seven pairs may win, seven pairs; no
dragon among the tiles where dragons are flowers.

- A 14-tile holding has shanten -1 exactly when it is a legal win, and at most 0 exactly when
  one exchange makes one.
- A 13-tile holding is ready exactly when some tile completes a legal win, and its useful tiles
  and waits are exactly those tiles, with ListWaits' self-draw values.
"""

from __future__ import annotations

import random

import pytest

from rules_core.advice import advise
from rules_core.advice_values import AdviseRequest
from rules_core.multipliers import multipliers
from rules_core.overrides import resolve_profile
from rules_core.requests import Hand, Outcome, Winner
from rules_core.settle import evaluate_winner
from rules_core.tiles import ALL_TILES, FIRST_DRAGON, TILE_KINDS, Flower
from tests.rules_core import test_advice_brute_force as brute_force
from tests.rules_core.advice_holdings import SEAT, random_holding
from tests.rules_core.test_advice_brute_force import counts_of

SEVEN_PAIRS = {"seven_pairs": True}
TABLES = (
    ("qiaoma", None),
    ("qiaoma_lezi", None),
    ("qinghunpeng", None),
    ("qinghunpeng", SEVEN_PAIRS),
    ("qiaoma_lezi", SEVEN_PAIRS),
)
DRAGONS = tuple(ALL_TILES[t] for t in range(FIRST_DRAGON, TILE_KINDS))


def profile_of(name, overrides):
    return resolve_profile(name, overrides)[0]


def legal(profile, hand: Hand, counts: list[int]) -> bool:
    """A plain self-draw by a seat that has knocked; no hand holds a dragon where they are flowers."""
    if profile.dragons_are_flowers and any(counts[FIRST_DRAGON:]):
        return False
    concealed = tuple(ALL_TILES[t] for t in range(TILE_KINDS) for _ in range(counts[t]))
    winner = Winner(SEAT, hand._replace(concealed=concealed, winning_tile=concealed[0]))
    return evaluate_winner(profile, Outcome.SELF_DRAW, 0, multipliers(profile, 0, None), winner, counts, True).legal


def completing(profile, hand: Hand, counts: list[int]) -> list[int]:
    return brute_force.completing(profile, hand, counts, legal)


def one_exchange_wins(profile, hand: Hand, counts: list[int]) -> bool:
    return brute_force.one_exchange_wins(profile, hand, counts, legal)


def pairs_holding(rng: random.Random, waiting: bool, exchanges: int, dragons: bool) -> Hand:
    """Seven pairs (now and then four of a kind as two), some tiles exchanged."""
    kinds = [t for t in range(TILE_KINDS) if dragons or t < FIRST_DRAGON]
    tiles = []
    for tile in rng.sample(kinds, 7):
        tiles += [tile] * 2
    if rng.random() < 0.3:
        tiles[2:4] = tiles[0:2]
    for _ in range(exchanges):
        tiles[rng.randrange(14)] = rng.choice([t for t in kinds if tiles.count(t) < 4])
    if waiting:
        tiles.pop(rng.randrange(14))
    return Hand(tuple(ALL_TILES[t] for t in sorted(tiles)), None, (), ())


def family_holding(rng: random.Random, profile, waiting: bool) -> Hand:
    dragons = profile.dragons_are_flowers
    exchanges = rng.choice((0, 1, 1, 2))
    while True:
        if profile.seven_pairs and rng.random() < 0.4:
            hand = pairs_holding(rng, waiting, exchanges, not dragons)
        else:
            hand = random_holding(rng, waiting, exchanges)
        tiles = list(hand.concealed) + [t for meld in hand.melds for t in meld.tiles]
        if not dragons or all(t < FIRST_DRAGON for t in tiles):
            break
    flowers = tuple(rng.sample(list(Flower), rng.choice((0, 0, 1, 1, 2, 3))))
    dragon_flowers = tuple(rng.choice(DRAGONS) for _ in range(rng.choice((0, 0, 1)))) if dragons else ()
    return hand._replace(flowers=flowers, dragon_flowers=dragon_flowers)


def holdings(seed: int, count: int, waiting: bool, tables=TABLES):
    rng = random.Random(seed)
    for number in range(count):
        name, overrides = tables[number % len(tables)]
        profile = profile_of(name, overrides)
        yield name, overrides, profile, family_holding(rng, profile, waiting)


def advice_of(name, overrides, hand: Hand):
    return advise(AdviseRequest(name, SEAT, hand, overrides=overrides))


def check_acting(generated) -> None:
    """Each acting holding has shanten -1 exactly when it wins, at most 0 exactly when one exchange wins."""
    for name, overrides, profile, hand in generated:
        counts = counts_of(hand)
        result = advice_of(name, overrides, hand)
        if not result.reachable:
            assert not one_exchange_wins(profile, hand, counts), (name, overrides, hand)
            continue
        assert (result.shanten == -1) == legal(profile, hand, counts), (name, overrides, hand)
        assert (result.shanten <= 0) == one_exchange_wins(profile, hand, counts), (name, overrides, hand)


def check_waiting(generated) -> None:
    """Each waiting holding is ready exactly on its winning tiles, and waits on them."""
    for name, overrides, profile, hand in generated:
        counts = counts_of(hand)
        result = advice_of(name, overrides, hand)
        winning = completing(profile, hand, counts)
        if not result.reachable:
            assert not winning, (name, overrides, hand)
            continue
        assert (result.shanten == 0) == bool(winning), (name, overrides, hand)
        if result.shanten == 0:
            assert [u.tile for u in result.useful] == winning, (name, overrides, hand)
            assert [w.tile for w in result.waits] == winning, (name, overrides, hand)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_an_acting_holding_wins_or_is_one_exchange_away_exactly_as_its_shanten_says(seed):
    check_acting(holdings(seed, 30, waiting=False))


@pytest.mark.parametrize("seed", [14, 15, 16])
def test_a_waiting_holding_is_ready_exactly_on_its_winning_tiles(seed):
    check_waiting(holdings(seed, 50, waiting=True))


@pytest.mark.parametrize("seed", [17])
def test_each_ready_option_waits_on_the_tiles_that_complete_it(seed):
    for name, overrides, profile, hand in holdings(seed, 15, waiting=False):
        counts = counts_of(hand)
        for option in advice_of(name, overrides, hand).options:
            counts[option.tile] -= 1
            winning = completing(profile, hand, counts)
            counts[option.tile] += 1
            assert (option.shanten == 0) == bool(winning), (name, hand, option.tile)
            if winning:
                assert [u.tile for u in option.useful] == winning


def test_the_holdings_reach_every_new_path():
    """The generated holdings are near the paths section 14 adds, and far from them."""
    seen = set()
    for seed in (11, 14, 15, 16):
        for name, overrides, _, hand in holdings(seed, 30 if seed == 11 else 50, waiting=seed > 13):
            for path in advice_of(name, overrides, hand).paths:
                pattern = path.pattern.name if path.pattern else "ORDINARY"
                seen.add((name, pattern, min(path.shanten, 1)))
    for name in ("qiaoma", "qiaoma_lezi"):
        assert {(name, "ORDINARY", 0), (name, "ORDINARY", 1)} <= seen
    assert {("qinghunpeng", "SEVEN_PAIRS", 0), ("qiaoma_lezi", "SEVEN_PAIRS", 0)} <= seen
    assert ("qiaoma", "CONCEALED", 0) in seen

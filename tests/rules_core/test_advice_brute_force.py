"""RULES.md 15.3-15.5 against brute force: for small distances, every exchange of tiles is tried and
each result judged by the engine's own legality (a plain self-draw by a seat that does not deal),
on seeded random holdings of every profile, with and without melds.

- A 14-tile holding has shanten -1 exactly when it is a legal win, and at most 0 exactly when
  one exchange (a tile out, a tile in) makes one.
- A 13-tile holding is ready exactly when some tile completes a legal win, and its useful tiles
  are exactly those tiles; at shanten 1 its useful tiles are exactly those after which one
  exchange makes a legal win.
- Each discard option of a 14-tile holding is ready exactly when a tile completes it, and then
  its waits are ListWaits' self-draw waits, with their values.
"""

from __future__ import annotations

import random

import pytest

from rules_core.advice import advise
from rules_core.advice_values import AdviseRequest
from rules_core.builtin_profiles import BUILTIN_PROFILES
from rules_core.legality import judge
from rules_core.overrides import resolve_profile
from rules_core.patterns import Pattern
from rules_core.requests import Hand, ListWaitsRequest, Outcome, Winner
from rules_core.tiles import ALL_TILES, TILE_KINDS
from rules_core.waits import list_waits
from tests.rules_core.advice_holdings import SEAT, random_holding

CONCEALED_QUALIFIES = {"qualifying_patterns": [*BUILTIN_PROFILES["classic"].qualifying_patterns, Pattern.CONCEALED]}
TABLES = (("classic", None), ("sankou", None), ("lezi", None), ("classic", CONCEALED_QUALIFIES))


def profile_of(name, overrides):
    return resolve_profile(name, overrides)[0] if overrides else BUILTIN_PROFILES[name]


def counts_of(hand: Hand) -> list[int]:
    counts = [0] * TILE_KINDS
    for tile in hand.concealed:
        counts[tile] += 1
    return counts


def copies(hand: Hand, counts: list[int]) -> list[int]:
    held = counts[:]
    for meld in hand.melds:
        for tile in meld.tiles:
            held[tile] += 1
    return held


def legal(profile, hand: Hand, counts: list[int]) -> bool:
    concealed = tuple(ALL_TILES[t] for t in range(TILE_KINDS) for _ in range(counts[t]))
    winner = Winner(SEAT, Hand(concealed, concealed[0], hand.melds, hand.flowers))
    return not judge(profile, Outcome.SELF_DRAW, 0, winner, counts)[1]


def drawn_where(hand: Hand, counts: list[int], holds) -> list[int]:
    """The tiles that a waiting holding can still draw after which ``holds(counts)`` is true."""
    held = copies(hand, counts)
    found = []
    for tile in range(TILE_KINDS):
        if held[tile] < 4:
            counts[tile] += 1
            if holds(counts):
                found.append(tile)
            counts[tile] -= 1
    return found


def completing(profile, hand: Hand, counts: list[int], legal_win=legal) -> list[int]:
    """The tiles whose draw makes a legal win of a waiting holding (judged by ``legal_win``)."""
    return drawn_where(hand, counts, lambda drawn: legal_win(profile, hand, drawn))


def one_exchange_wins(profile, hand: Hand, counts: list[int], legal_win=legal) -> bool:
    """Whether an acting holding wins as it is or after one tile out and one in."""
    if legal_win(profile, hand, counts):
        return True
    for out in range(TILE_KINDS):
        if counts[out]:
            counts[out] -= 1
            found = completing(profile, hand, counts, legal_win)
            counts[out] += 1
            if found:
                return True
    return False


def advice_of(name, overrides, hand: Hand):
    return advise(AdviseRequest(name, SEAT, hand, overrides=overrides))


def holdings(seed: int, count: int, waiting: bool):
    rng = random.Random(seed)
    for number in range(count):
        name, overrides = TABLES[number % len(TABLES)]
        yield name, overrides, random_holding(rng, waiting, exchanges=rng.choice((0, 1, 1, 2)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_acting_holding_wins_or_is_one_exchange_away_exactly_as_its_shanten_says(seed):
    for name, overrides, hand in holdings(seed, 40, waiting=False):
        profile = profile_of(name, overrides)
        counts = counts_of(hand)
        result = advice_of(name, overrides, hand)
        if not result.reachable:
            assert not one_exchange_wins(profile, hand, counts), hand
            continue
        assert (result.shanten == -1) == legal(profile, hand, counts), hand
        assert (result.shanten <= 0) == one_exchange_wins(profile, hand, counts), hand


@pytest.mark.parametrize("seed", [4, 5])
def test_each_option_is_ready_exactly_on_the_tiles_that_complete_it_with_list_waits_values(seed):
    for name, overrides, hand in holdings(seed, 25, waiting=False):
        profile = profile_of(name, overrides)
        counts = counts_of(hand)
        result = advice_of(name, overrides, hand)
        for option in result.options:
            counts[option.tile] -= 1
            winning = completing(profile, hand, counts)
            rest = tuple(ALL_TILES[t] for t in range(TILE_KINDS) for _ in range(counts[t]))
            counts[option.tile] += 1
            assert (option.shanten == 0) == bool(winning), (hand, option.tile)
            if option.shanten == 0:
                assert [u.tile for u in option.useful] == winning
                waiting = Hand(rest, None, hand.melds, hand.flowers)
                listed = list_waits(ListWaitsRequest(name, SEAT, waiting, overrides=overrides))
                assert [(w.tile, w.live, w.value) for w in option.waits] == [
                    (w.tile, u.live, w.result.value) for w, u in zip(listed.self_draw, option.useful, strict=True)
                ]


@pytest.mark.parametrize("seed", [6, 7])
def test_a_waiting_holding_is_ready_exactly_on_its_winning_tiles(seed):
    for name, overrides, hand in holdings(seed, 60, waiting=True):
        profile = profile_of(name, overrides)
        counts = counts_of(hand)
        result = advice_of(name, overrides, hand)
        winning = completing(profile, hand, counts)
        if not result.reachable:
            assert not winning
            continue
        assert (result.shanten == 0) == bool(winning), hand
        if result.shanten == 0:
            assert [u.tile for u in result.useful] == winning
            assert [w.tile for w in result.waits] == winning


def test_at_shanten_one_the_useful_tiles_are_those_after_which_one_exchange_wins():
    rng = random.Random(8)
    checked = 0
    number = 0
    while checked < 4:
        name, overrides = TABLES[number % len(TABLES)]
        number += 1
        hand = random_holding(rng, waiting=True, exchanges=1, melds=rng.choice((1, 2, 3)))
        result = advice_of(name, overrides, hand)
        if result.shanten != 1:
            continue
        checked += 1
        profile = profile_of(name, overrides)
        useful = drawn_where(hand, counts_of(hand), lambda drawn, p=profile, h=hand: one_exchange_wins(p, h, drawn))
        assert [u.tile for u in result.useful] == useful, hand

"""RULES.md 15.4 under the profiles of section 14 and their overrides: the useful tiles that advice
reads off its searches' best targets are exactly those found by re-judging each draw. A tile t is
useful to a waiting holding of shanten n when the holding with t drawn has shanten n - 1, for the
holding itself and for each discard option of an acting holding; the shanten of each draw comes
from the paths alone (`holding_paths`), never from useful tiles."""

from __future__ import annotations

import pytest

from rules_core.advice import holding_paths
from rules_core.build import hand as parse_hand
from rules_core.tiles import TILE_KINDS
from tests.rules_core.test_advice_brute_force import copies, counts_of
from tests.rules_core.test_advice_families_brute_force import TABLES, advice_of, holdings, profile_of
from tests.rules_core.test_advice_family_overrides import OVERRIDE_TABLES

EVERY_TABLE = TABLES + OVERRIDE_TABLES


def rejudged(profile, hand, counts: list[int], shanten: int) -> list[int]:
    """The tiles whose draw takes a waiting holding from ``shanten`` to ``shanten`` - 1."""
    held = copies(hand, counts)
    found = []
    for tile in range(TILE_KINDS):
        if held[tile] >= 4:
            continue
        counts[tile] += 1
        paths = holding_paths(profile, hand, counts)
        counts[tile] -= 1
        if paths and paths[0].shanten == shanten - 1:
            found.append(tile)
    return found


@pytest.mark.parametrize("seed", [31, 32, 33])
def test_a_waiting_holdings_useful_tiles_are_the_draws_that_lower_its_shanten(seed):
    for name, overrides, profile, hand in holdings(seed, 39, waiting=True, tables=EVERY_TABLE):
        counts = counts_of(hand)
        result = advice_of(name, overrides, hand)
        if result.reachable:
            expected = rejudged(profile, hand, counts, result.shanten)
            assert [u.tile for u in result.useful] == expected, (name, overrides, hand)


@pytest.mark.parametrize("seed", [34, 35])
def test_each_options_useful_tiles_are_the_draws_that_lower_its_shanten(seed):
    for name, overrides, profile, hand in holdings(seed, 26, waiting=False, tables=EVERY_TABLE):
        counts = counts_of(hand)
        for option in advice_of(name, overrides, hand).options:
            counts[option.tile] -= 1
            expected = rejudged(profile, hand, counts, option.shanten)
            counts[option.tile] += 1
            assert [u.tile for u in option.useful] == expected, (name, overrides, hand, option.tile)


@pytest.mark.parametrize(
    "text, name, overrides",
    [
        # Seven pairs whose every free completion reads as four sets and a pair (14.3): the
        # useful tiles are those of the seven pairs that do not.
        ("112233m 445566p 7s", "qinghunpeng", {"seven_pairs": True}),
        ("112233m 445566p 7s", "qiaoma_lezi", {"seven_pairs": True}),
        ("11223344m 5566p 7s", "qinghunpeng", {"seven_pairs": True}),
        # Honour fours whose 花 decide a 番 minimum.
        ("EE SS WW NN 1122m 3s", "qiaoma_lezi", {"seven_pairs": True, "min_fan": 4}),
    ],
)
def test_useful_tiles_where_the_free_seven_pairs_are_no_targets(text, name, overrides):
    holding = parse_hand(text)
    counts = counts_of(holding)
    result = advice_of(name, overrides, holding)
    expected = rejudged(profile_of(name, overrides), holding, counts, result.shanten)
    assert [u.tile for u in result.useful] == expected

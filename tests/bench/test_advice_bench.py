"""bench.advice_bench: its holdings are what it says (even over shanten 0-3, with melds and without;
the 14-tile ones the same holdings with a tile drawn), and each timing runs its rules_core side."""

from __future__ import annotations

import random

from bench.advice_bench import make_holdings, time_advice, time_paths, time_reviews, with_a_draw
from generators.record_simulator import simulate_records
from rules_core.advice import holding_paths
from rules_core.builtin_profiles import BUILTIN_PROFILES


def test_holdings_are_spread_evenly_over_shanten_and_melds():
    holdings = make_holdings(32, seed=3)
    bins = {}
    for holding in holdings:
        shanten = holding_paths(BUILTIN_PROFILES[holding.profile], holding.hand, holding.counts)[0].shanten
        assert shanten == holding.shanten
        key = (shanten, bool(holding.hand.melds))
        bins[key] = bins.get(key, 0) + 1
    assert bins == {(s, m): 4 for s in range(4) for m in (False, True)}
    assert all(len(h.hand.concealed) == 13 - 3 * len(h.hand.melds) for h in holdings)


def test_a_drawn_tile_keeps_the_holding_and_the_four_copies():
    rng = random.Random(1)
    for holding in make_holdings(16, seed=4):
        acting = with_a_draw(holding, rng)
        assert len(acting.hand.concealed) == len(holding.hand.concealed) + 1
        assert acting.hand.melds == holding.hand.melds
        held = acting.counts[:]
        for meld in acting.hand.melds:
            for tile in meld.tiles:
                held[tile] += 1
        assert max(held) <= 4
        assert sum(acting.riichi) == sum(acting.counts)


def test_each_timing_reports_medians_of_both_sides():
    holdings = make_holdings(8, seed=5)
    calls = []

    def stand_in(counts):  # `mahjong`'s shanten, called with the 34 counts
        calls.append(sum(counts))
        return 0

    paths = time_paths(holdings, stand_in)
    advice = time_advice([with_a_draw(h, random.Random(2)) for h in holdings], stand_in)
    assert paths["rules_core_us"] > 0 and advice["rules_core_us"] > 0
    for group in ("without_melds", "with_melds"):
        assert paths[f"rules_core_us_{group}"] > 0 and paths[f"mahjong_us_{group}"] >= 0
    assert calls == [sum(h.counts) for h in holdings] + [sum(h.counts) + 1 for h in holdings]
    reviews = time_reviews(simulate_records(3, seed=6))
    assert reviews["records"] >= 1 and reviews["discards"] >= reviews["records"] and reviews["ms_per_discard"] > 0

"""RULES.md 15.3-15.5, rule by rule: which melds rule out which paths, the four-copies limit, live
counts that never go below 0, and the order of the options."""

from __future__ import annotations

import random

import pytest

from rules_core.advice import advise
from rules_core.advice_values import AdviseRequest
from rules_core.builtin_profiles import BUILTIN_PROFILES
from rules_core.distance import (
    _all_parts,
    _half_flush_overlap,
    _pungs_overlap,
    _suit_and_honours,
    meld_summary,
    part_tables,
)
from rules_core.patterns import Pattern
from rules_core.target_parts import NO_TARGET
from rules_core.tiles import ALL_TILES, TILE_KINDS
from tests.rules_core.advice_helpers import advice, paths, useful
from tests.rules_core.advice_holdings import SEAT, random_holding

CONCEALED_QUALIFIES = {"qualifying_patterns": [*BUILTIN_PROFILES["classic"].qualifying_patterns, Pattern.CONCEALED]}


def patterns(result) -> set[str]:
    return {path.rsplit(" ", 1)[0] for path in paths(result)}


def test_a_chow_rules_out_every_pung_form():
    result = advice("11p 456p 789p EE S [123p@0]", seat=1)
    assert not {p for p in patterns(result) if "PUNGS" in p}
    assert {"HALF_FLUSH 筒", "FULL_FLUSH 筒"} <= patterns(result)


def test_a_suited_meld_rules_out_other_suits_flushes_and_all_honours():
    result = advice("11p 456p 789p EE S [555p@2]", seat=1)
    assert patterns(result) == {
        "ALL_PUNGS",
        "HALF_FLUSH 筒",
        "FULL_FLUSH 筒",
        "HALF_FLUSH_PUNGS 筒",
        "FULL_FLUSH_PUNGS 筒",
    }


def test_an_honour_meld_keeps_half_flushes_and_all_honours_and_rules_out_full_flushes():
    result = advice("11p 456p 789p EE S [CCC@2]", seat=1)
    assert patterns(result) == {
        "ALL_PUNGS",
        "HALF_FLUSH 万",
        "HALF_FLUSH 筒",
        "HALF_FLUSH 条",
        "HALF_FLUSH_PUNGS 万",
        "HALF_FLUSH_PUNGS 筒",
        "HALF_FLUSH_PUNGS 条",
        "ALL_HONOURS",
        "ALL_HONOURS_PUNGS",
    }


def test_big_hanging_only_with_four_melds():
    three = advice("1p 45s EE [123m@0] [456p@0] [789s@0]", seat=1)
    assert not three.reachable  # a chow, three suits, suited melds: and three melds are not four
    four = advice("4s [123m@0] [456p@0] [789s@0] [EEE@2]", seat=1)
    assert paths(four) == ["BIG_HANGING 0"]
    assert useful(four.useful) == "4s:3"


def test_concealed_only_where_it_qualifies_and_every_meld_is_a_concealed_kong():
    mixed = "123m 456p 789s 11s 45m"  # ready on 3m and 6m for 门清 only
    assert "CONCEALED" not in patterns(advice(mixed))
    concealed = advice(mixed, overrides=CONCEALED_QUALIFIES)
    assert paths(concealed)[0] == "CONCEALED 0"
    assert useful(concealed.useful) == "3m:3 6m:4"
    with_kong = advice("123m 456p 11s 45m [9999s]", overrides=CONCEALED_QUALIFIES)
    assert paths(with_kong)[0] == "CONCEALED 0"
    with_pung = advice("123m 456p 11s 45m [999s@2]", overrides=CONCEALED_QUALIFIES)
    assert "CONCEALED" not in patterns(with_pung)
    assert "CONCEALED" not in patterns(advice(mixed, "lezi"))


def test_lezi_never_takes_big_hanging():
    assert not advice("4s [123m@3] [456p@3] [789s@3] [EEE@1]", "lezi").reachable
    assert paths(advice("5m [111m@3] [444m@3] [789m@3] [EEE@1]", "lezi"))[0] == "HALF_FLUSH 万 0"


def test_the_holding_s_shanten_is_its_least_path_s_and_paths_go_by_shanten_pattern_suit():
    rng = random.Random(11)
    for _ in range(60):
        hand = random_holding(rng, waiting=rng.random() < 0.5, exchanges=rng.choice((0, 1, 2, 3)))
        result = advise(AdviseRequest("classic", SEAT, hand))
        if not result.reachable:
            assert (result.shanten, result.paths, result.options, result.useful) == (None, (), (), ())
            continue
        keys = [(p.shanten, p.pattern, p.suit or 0) for p in result.paths]
        assert keys == sorted(keys)
        assert result.shanten == keys[0][0]


def test_a_fifth_copy_never_completes_a_target():
    # EEE + three chows + E looks ready, but its pair would be a fifth E.
    result = advice("EEEE 123p 456p 789p")
    assert "E" not in [u.tile.notation for u in result.useful]
    # four 7s held with the meld: no pair of 7s, no 7s useful
    assert "7s" not in [u.tile.notation for u in advice("7s [123m@3] [456p@3] [777s@1] [EEE@2]").useful]


def holdings_with_seen(seed: int, count: int):
    """Random holdings with a random, possible `seen`: at most four of a tile, held counted."""
    rng = random.Random(seed)
    for _ in range(count):
        hand = random_holding(rng, waiting=rng.random() < 0.5, exchanges=rng.choice((0, 1, 2)))
        held = [0] * TILE_KINDS
        for tile in hand.concealed:
            held[tile] += 1
        for meld in hand.melds:
            for tile in meld.tiles:
                held[tile] += 1
        seen = []
        for tile in range(TILE_KINDS):
            seen += [ALL_TILES[tile]] * rng.randint(0, 4 - held[tile])
        yield hand, held, tuple(rng.sample(seen, min(len(seen), rng.randint(0, 40))))


@pytest.mark.parametrize("seed", [21, 22])
def test_live_counts_are_four_less_held_and_seen_never_below_zero(seed):
    for hand, held, seen in holdings_with_seen(seed, 40):
        result = advise(AdviseRequest("classic", SEAT, hand, seen))
        seen_counts = [0] * TILE_KINDS
        for tile in seen:
            seen_counts[tile] += 1
        expected = [max(0, 4 - held[t] - seen_counts[t]) for t in range(TILE_KINDS)]
        listed = [*result.useful, *result.waits]
        for option in result.options:
            listed += [*option.useful, *option.waits]
            assert option.live_total == sum(u.live for u in option.useful) >= 0
            assert option.live_value == sum(w.live * w.value for w in option.waits) >= 0
        for entry in listed:
            assert entry.live == expected[entry.tile] >= 0
        assert result.live_total == sum(u.live for u in result.useful)


@pytest.mark.parametrize("seed", [31, 32])
def test_options_one_per_tile_in_order_and_the_best_are_the_first_s_equals(seed):
    rng = random.Random(seed)
    for _ in range(40):
        hand = random_holding(rng, waiting=False, exchanges=rng.choice((0, 1, 2)))
        result = advise(AdviseRequest(rng.choice(("classic", "sankou", "lezi")), SEAT, hand))
        if not result.reachable:
            assert result.options == ()
            continue
        options = result.options
        assert sorted(o.tile for o in options) == sorted(set(hand.concealed))
        keys = [(o.shanten, -o.live_value, -o.live_total, o.tile) for o in options]
        assert keys == sorted(keys)
        first = keys[0][:3]
        assert [o.best for o in options] == [key[:3] == first for key in keys]
        assert min(o.shanten for o in options) in (result.shanten, result.shanten + 1, 0)
        for option in options:
            if option.shanten == 0:
                assert [w.tile for w in option.waits] == [u.tile for u in option.useful]
                assert all(w.value > 0 for w in option.waits)
            else:
                assert option.waits == () and option.live_value == 0


def test_overlaps_counted_alone_agree_with_the_folds_that_find_the_useful_tiles():
    # When no useful tile is asked, the pung paths are counted tile by tile and a half flush by
    # its splits alone; when one is, both are folded over the part tables: the same overlaps.
    rng = random.Random(41)
    for _ in range(3000):
        hand = random_holding(rng, waiting=rng.random() < 0.5, exchanges=rng.choice((0, 1, 2, 3, 5)))
        counts = [0] * TILE_KINDS
        for tile in hand.concealed:
            counts[tile] += 1
        melds = meld_summary(hand.melds)
        sets = 4 - melds.meld_count
        tables = part_tables(counts, melds)
        assert _pungs_overlap(counts, melds.held, sets) == _all_parts(tables, 1, sets, True)[0], hand
        suit_shown = [bool(melds.suits >> suit & 1) for suit in range(3)]
        honour_shown = bool(melds.suits & 8)
        for suit in range(3):
            for pungs in (0, 1):
                alone = _half_flush_overlap(tables[suit][pungs], tables[3][1], sets, suit_shown[suit], honour_shown)
                folded = _suit_and_honours(tables, suit, pungs, sets, melds.suits, True)[0]
                assert alone == max(folded, NO_TARGET), hand

"""RULES.md 15.3: a suit some meld holds tiles of answers alike from the table `make` builds and
from the search.

The melds leave a target fewer copies of their tiles (its caps), and a suit holding a meld's
tiles at most 4 - ceil(h / 4) sets more (h: the tiles they hold there). Asked for overlaps only,
such a suit is looked up in the table of unmelded suits: with chows, each slot's witness, a best
target part holding fewest copies beyond the suit's counts, proves the unmelded overlap where it
fits the caps (no target keeps more with fewer copies); where it does not, a walk looks for
another part within the caps that keeps as many, and the suit is searched where none does.
Pungs only, each tile counts alone (tests/rules_core/test_pung_parts.py). Its useful tiles are
always searched. Every answer is held to the search: every single meld
and pairs of melds over sampled suits, and the paths of generated holdings with melds.
"""

from __future__ import annotations

import random

import pytest

from rules_core import melded_suits, target_parts, unmelded_suits
from rules_core.advice import _paths, holding_paths
from rules_core.builtin_profiles import BUILTIN_PROFILES
from rules_core.distance import meld_summary, part_tables, path_overlaps, path_rules
from rules_core.distance_families import family_rules
from rules_core.target_parts import NO_TARGET, SLOTS, UNASKED, slot
from rules_core.unmelded_suits_build import overlap, witnesses
from tests.rules_core.advice_holdings import random_holding
from tests.rules_core.test_target_parts import listed_targets
from tests.rules_core.test_unmelded_suits import some_suits

needs_table = pytest.mark.skipif(
    unmelded_suits.records() is None, reason="no table file: the tree was not built with make"
)

# Every meld of one suit as the copies of each tile it holds: the chows, pungs and kongs.
CHOWS = [[1 if start <= t < start + 3 else 0 for t in range(9)] for start in range(7)]
PUNGS = [[3 if t == tile else 0 for t in range(9)] for tile in range(9)]
KONGS = [[4 if t == tile else 0 for t in range(9)] for tile in range(9)]
ONE_MELD = CHOWS + PUNGS + KONGS


def searched(part: list[int], held: list[int]) -> tuple[list[int], list[int], list[int], list[int]]:
    """The search's answer for a suit whose melds hold ``held``, none past the sets left."""
    caps = [4 - n for n in held]
    mixed, mixed_useful = target_parts._search(part, caps, True)
    pungs, pungs_useful = target_parts._search(part, caps, False)
    most_sets = 4 - (sum(held) + 3) // 4
    for index in range(2 * most_sets + 2, SLOTS):
        mixed[index] = pungs[index] = NO_TARGET
        mixed_useful[index] = pungs_useful[index] = 0
    return mixed, pungs, mixed_useful, pungs_useful


def concealed_beside(rng: random.Random, held: list[int], most: int) -> list[int]:
    """Up to ``most`` concealed tiles of the suit within the copies the melds leave."""
    part = [0] * 9
    for _ in range(rng.randint(0, most)):
        tile = rng.randrange(9)
        if part[tile] + held[tile] < 4:
            part[tile] += 1
    return part


def both_ways(part: list[int], held: list[int]) -> tuple[tuple, tuple, bool]:
    """The suit's table asked for overlaps only, then with its useful tiles (each a first sight),
    and whether the first came from the table."""
    counts = [0] * 9 + part + [0] * 16  # the suit in 筒, as a hand holds it
    melds = [0] * 9 + held + [0] * 16
    target_parts.clear_tables()
    overlaps_only = target_parts.suit_table(counts, melds, 9, True, False)
    target_parts.clear_tables()
    whole = target_parts.suit_table(counts, melds, 9, True, True)
    return overlaps_only, whole, overlaps_only[2] is UNASKED


def test_each_witness_is_a_best_target_part_with_chows_holding_fewest_copies_beyond_the_suit():
    for part in some_suits(25, seed=31):
        found = witnesses(part)
        best: dict[int, int] = {}  # per slot: the best overlap, then the fewest copies beyond
        beyond: dict[int, int] = {}
        parts_by_slot: dict[int, set[tuple[int, ...]]] = {}
        for sets, pairs, held in listed_targets(9, [4] * 9, True):
            index = slot(sets, pairs)
            if index >= unmelded_suits.SHOWN_SLOTS:
                continue
            kept = sum(min(held[t], part[t]) for t in range(9))
            extra = sum(held[t] for t in range(9) if held[t] > part[t])
            if kept > best.get(index, -1) or (kept == best[index] and extra < beyond[index]):
                best[index], beyond[index] = kept, extra
            parts_by_slot.setdefault(index, set()).add(tuple(held))
        for index in range(unmelded_suits.SHOWN_SLOTS):
            held = tuple(found[index] >> 3 * t & 7 for t in range(9))
            assert held in parts_by_slot[index], (part, index)
            assert overlap(part, found[index]) == best[index], (part, index)
            assert sum(n for n, c in zip(held, part, strict=True) if n > c) == beyond[index], part


@needs_table
def test_every_single_meld_beside_sampled_suits_answers_as_the_search():
    rng = random.Random(7)
    looked_up = 0
    cases = 0
    for held in ONE_MELD:
        for _ in range(120):
            part = concealed_beside(rng, held, 11)
            overlaps_only, whole, from_table = both_ways(part, held)
            expected = searched(part, held)
            assert overlaps_only[:2] == expected[:2], (part, held)
            assert whole == expected, (part, held)
            looked_up += from_table
            cases += 1
    assert looked_up > cases // 2  # most are proved by their witnesses, not searched


@needs_table
def test_two_and_more_melds_of_one_suit_answer_as_the_search():
    rng = random.Random(8)
    for _ in range(2000):
        count = rng.choice((2, 2, 3, 4))
        held = [0] * 9
        for meld in rng.sample(ONE_MELD, count):
            held = [a + b for a, b in zip(held, meld, strict=True)]
        if max(held) > 4:
            continue
        part = concealed_beside(rng, held, 14 - 3 * count)
        overlaps_only, whole, _ = both_ways(part, held)
        expected = searched(part, held)
        assert overlaps_only[:2] == expected[:2], (part, held)
        assert whole == expected, (part, held)


@needs_table
@pytest.mark.parametrize(
    ("part", "held", "index", "unmelded", "within"),
    [
        # 2 and 3 of a suit: its best set (a chow, keeping both) is witnessed by 234; a kong of
        # 4s leaves no 4, and 123 keeps both too: read from the table.
        ([0, 1, 1, 0, 0, 0, 0, 0, 0], KONGS[3], slot(1, 0), 2, 2),
        # A lone 1 beside a pung of 1s: unmelded, its best pair is of 1s and keeps it; the pung
        # leaves one copy, so no pair of 1s: the best pair keeps nothing, and the suit is searched.
        ([1, 0, 0, 0, 0, 0, 0, 0, 0], PUNGS[0], slot(0, 1), 1, 0),
    ],
)
def test_a_witness_that_does_not_fit_gives_way_to_a_part_that_keeps_as_many_or_to_the_search(
    part, held, index, unmelded, within
):
    counts = [0] * 9 + part + [0] * 16
    caps = [4 - n for n in held]
    mixed, unproven = unmelded_suits.melded_values(counts, 9, caps, 3)
    assert mixed[index] == unmelded and unproven >> index & 1
    assert melded_suits.all_reached(counts, 9, caps, mixed, 1 << index) == (within == unmelded)
    mixed[index] = within
    assert melded_suits.all_reached(counts, 9, caps, mixed, 1 << index)
    overlaps_only, _, from_table = both_ways(part, held)
    assert from_table == (within == unmelded)
    assert overlaps_only[0][index] == within
    assert overlaps_only[:2] == searched(part, held)[:2]


@needs_table
def test_walks_that_would_cost_more_than_the_search_give_up_to_it():
    # A lone 9 beside a kong of 8s and a pung of 9s: no set or pair holds the 9 within the
    # caps, and three sets and a pair have many ways to keep nothing else: the walk gives up.
    part = [0, 0, 0, 0, 0, 0, 0, 0, 1]
    held = [a + b for a, b in zip(KONGS[7], PUNGS[8], strict=True)]
    caps = [4 - n for n in held]
    index = slot(3, 1)
    assert target_parts._search(part, [4] * 9, True)[0][index] == 1
    walk = melded_suits._Walk(part, 0, caps)
    assert not walk.fits(0, 0, 0, 3, 1, 3 * 3 + 2 - 1)
    assert walk.steps > melded_suits.MAX_STEPS
    overlaps_only, _, from_table = both_ways(part, held)
    assert not from_table
    assert overlaps_only[:2] == searched(part, held)[:2]
    assert overlaps_only[0][slot(2, 1)] == 0 and overlaps_only[0][index] == NO_TARGET  # 7 tiles in melds: 2 sets more


def test_a_part_that_keeps_as_many_within_the_caps_is_found_exactly_where_the_search_finds_one():
    rng = random.Random(9)
    walks = 0
    for _ in range(1500):
        held = [0] * 9
        for meld in rng.sample(ONE_MELD, rng.choice((1, 1, 2, 3))):
            held = [a + b for a, b in zip(held, meld, strict=True)]
        if max(held) > 4:
            continue
        part = concealed_beside(rng, held, 11)
        caps = [4 - n for n in held]
        within, _ = target_parts._search(part, caps, True)
        unmelded, _ = target_parts._search(part, [4] * 9, True)
        for index in range(unmelded_suits.SHOWN_SLOTS):
            if unmelded[index] != NO_TARGET:
                found = melded_suits.all_reached(part, 0, caps, unmelded, 1 << index)
                assert found == (within[index] == unmelded[index]), (part, held, index)
                walks += 1
            if within[index] != NO_TARGET:
                assert melded_suits.all_reached(part, 0, caps, within, 1 << index), (part, held, index)
        proven = sum(1 << index for index in range(unmelded_suits.SHOWN_SLOTS) if unmelded[index] == within[index] >= 0)
        assert melded_suits.all_reached(part, 0, caps, unmelded, proven), (part, held)
    assert walks > 5000


def test_a_suit_with_a_meld_holds_no_four_sets_more():
    part = [1, 1, 1, 0, 0, 0, 0, 0, 0]
    _, whole, _ = both_ways(part, CHOWS[6])
    assert whole[0][slot(3, 1)] == 3 and whole[0][slot(4, 0)] == NO_TARGET and whole[1][slot(4, 1)] == NO_TARGET
    _, whole, _ = both_ways(part, [a + b for a, b in zip(CHOWS[6], PUNGS[4], strict=True)])
    assert whole[0][slot(2, 1)] == 3 and whole[0][slot(3, 0)] == NO_TARGET


def paths_of(holdings) -> list:
    found = []
    for profile, hand, counts in holdings:
        target_parts.clear_tables()  # each a first sight
        found.append(holding_paths(BUILTIN_PROFILES[profile], hand, counts))
    return found


def searched_paths(holdings) -> list:
    """The paths from every part's whole table (as advice reads them), searched."""
    found = []
    for profile_name, hand, counts in holdings:
        profile = BUILTIN_PROFILES[profile_name]
        melds = meld_summary(hand.melds, family_rules(profile, hand))
        rules = path_rules(profile.qualifying_mask, melds)
        overlaps = path_overlaps(rules, part_tables(counts, melds), counts, melds)
        found.append(_paths(rules, overlaps, 14 - 3 * melds.meld_count))
    return found


def test_the_paths_of_holdings_with_melds_are_those_the_search_gives(monkeypatch):
    rng = random.Random(12)
    holdings = []
    for number in range(1500):
        melds = rng.randint(1, 4)
        hand = random_holding(rng, waiting=rng.random() < 0.7, exchanges=rng.choice((0, 1, 2, 3)), melds=melds)
        counts = [0] * 34
        for tile in hand.concealed:
            counts[tile] += 1
        holdings.append((sorted(BUILTIN_PROFILES)[number % len(BUILTIN_PROFILES)], hand, counts))
    with_table = paths_of(holdings)
    monkeypatch.setattr(unmelded_suits, "_RECORDS", None)
    monkeypatch.setattr(unmelded_suits, "_LOADED", True)
    target_parts.clear_tables()
    assert searched_paths(holdings) == with_table
    assert paths_of(holdings) == with_table
    target_parts.clear_tables()

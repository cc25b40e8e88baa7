"""The shape search against a brute force that tries every way to split the tiles."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.notation import parse_tiles
from rules_core.shape import Shape, fewest_suited_pungs, most_pungs_with_a_chow, shape_of
from rules_core.tiles import FIRST_HONOUR


def counts_of(tiles) -> list[int]:
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
    return counts


@cache
def brute_force(key: tuple[int, ...], pair_left: bool) -> frozenset[tuple[int, bool]]:
    """Every (suited pungs, all sets are pungs) reachable by splitting ``key`` into sets and a pair."""
    counts = list(key)
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return frozenset() if pair_left else frozenset({(0, True)})
    found = set()

    def take(tiles, pung: bool, pair: bool):
        rest = counts[:]
        for t in tiles:
            rest[t] -= 1
        for pungs, only in brute_force(tuple(rest), pair_left and not pair):
            found.add((pungs + (pung and first < FIRST_HONOUR), only and not (not pung and not pair)))

    if counts[first] >= 3:
        take([first] * 3, True, False)
    if pair_left and counts[first] >= 2:
        take([first] * 2, False, True)
    if first < FIRST_HONOUR and first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        take([first, first + 1, first + 2], False, False)
    return frozenset(found)


def expected(counts: list[int]) -> tuple[Shape, int]:
    ways = brute_force(tuple(counts), True)
    if not ways:
        return Shape.INCOMPLETE, 0
    shape = Shape.ALL_PUNGS if any(only for _, only in ways) else Shape.COMPLETE
    return shape, max(pungs for pungs, _ in ways)


tiles = st.lists(st.integers(min_value=0, max_value=33), min_size=2, max_size=14)


@settings(max_examples=600, deadline=None)
@given(tiles)
def test_shape_agrees_with_brute_force(drawn):
    counts = counts_of(drawn)
    if max(counts) > 4 or len(drawn) % 3 != 2:
        return
    assert shape_of(counts) == expected(counts)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=8), min_size=14, max_size=14))
def test_one_suit_hands_agree_with_brute_force(drawn):
    """Full-flush hands are where splits are most ambiguous."""
    counts = counts_of(drawn)
    if max(counts) > 4:
        return
    assert shape_of(counts) == expected(counts)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=8), min_size=14, max_size=14), st.integers(0, 2))
def test_the_best_split_with_a_chow_and_the_fewest_pungs_agree_with_brute_force(drawn, suit):
    counts = counts_of(t + 9 * suit for t in drawn)
    if max(counts) > 4 or not brute_force(tuple(counts), True):
        return
    with_a_chow = [pungs for pungs, only_pungs in brute_force(tuple(counts), True) if not only_pungs]
    assert most_pungs_with_a_chow(counts) == max(with_a_chow, default=-1)
    assert fewest_suited_pungs(counts) == min(pungs for pungs, _ in brute_force(tuple(counts), True))


@settings(max_examples=300, deadline=None)
@given(tiles)
def test_the_fewest_pungs_of_any_complete_hand_agree_with_brute_force(drawn):
    counts = counts_of(drawn)
    if max(counts) > 4 or len(drawn) % 3 != 2 or not brute_force(tuple(counts), True):
        return
    assert fewest_suited_pungs(counts) == min(pungs for pungs, _ in brute_force(tuple(counts), True))


def test_known_splits_with_the_fewest_pungs():
    assert fewest_suited_pungs(counts_of(parse_tiles("111222333m 456p 77s"))) == 0  # 123m x3
    assert fewest_suited_pungs(counts_of(parse_tiles("111m 555m 999p EEE 77s"))) == 3  # the honours' pung aside
    assert fewest_suited_pungs(counts_of(parse_tiles("11122233344455m"))) == 1  # 123 x3, 444, or 234 x3, 111


def test_known_splits_with_a_chow():
    assert most_pungs_with_a_chow(counts_of(parse_tiles("111222333m 99p 555s"))) == 1  # 123m x3, 555s
    assert most_pungs_with_a_chow(counts_of(parse_tiles("111m 555m 999p EEE 77s"))) == -1
    assert most_pungs_with_a_chow(counts_of(parse_tiles("11122233344455m"))) == 1  # 123 123 123 444, or 234 x3 and 111


def test_known_shapes():
    assert shape_of(counts_of(parse_tiles("111222333m 99p"))) == (Shape.ALL_PUNGS, 3)
    assert shape_of(counts_of(parse_tiles("111m 123m 999p EEE 77s"))) == (Shape.COMPLETE, 2)
    assert shape_of(counts_of(parse_tiles("1112345678999m 5m"))) == (Shape.COMPLETE, 2)
    assert shape_of(counts_of(parse_tiles("EE SS WW NN CC FF PP"))) == (Shape.INCOMPLETE, 0)
    assert shape_of(counts_of(parse_tiles("EEE SSS WWW NNN CC"))) == (Shape.ALL_PUNGS, 0)


def test_the_suit_tables_stay_within_their_bound_and_give_the_same_answers(monkeypatch):
    from generators.random_hands import generate_requests
    from rules_core import InvalidRequest, settle, shape

    def answers(requests):
        found = []
        for request in requests:
            try:
                found.append(settle(request))
            except InvalidRequest as error:
                found.append(error.violations)
        return found

    requests = generate_requests(400, seed=12)
    unbounded = answers(requests)
    assert len(shape._SUIT_TABLE) > 8
    monkeypatch.setattr(shape, "MAX_SUIT_PATTERNS", 8)
    shape._SUIT_TABLE.clear()
    sizes = []
    for request in requests:
        answers([request])
        sizes.append(len(shape._SUIT_TABLE))
    assert max(sizes) == 8 and min(sizes) >= 1
    assert answers(requests) == unbounded

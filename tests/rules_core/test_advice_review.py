"""RULES.md 15.6: a hand record reviewed discard by discard, and each seat summed up (example 11
and its two illustrations exactly, what a seat sees, malformed records as section 13 finds them)."""

from __future__ import annotations

import pytest

from rules_core.build import chow, concealed_kong, deal, discard, draw, exhaustive_draw, pung
from rules_core.errors import InvalidRequest
from rules_core.records import SettleRecordRequest
from rules_core.replay import replay, settle_record
from rules_core.review import _Table, review_record
from rules_core.tiles import TILE_NOTATION
from tests.rules_core.advice_helpers import useful, waits

EXAMPLE_11 = (
    deal(0, "111p 222p 333p 7789p C"),
    deal(1, "77p 111s 555s 99m EE 4m"),
    deal(2, "123m 456m 78m SS W F 9s"),
    deal(3, "EE SS WW NN CC FF P"),
    discard(0, "7p"),
    pung(1),
    discard(1, "4m"),
    draw(2, "9m"),
    discard(2, "W"),
    exhaustive_draw(),
)


def summary(seat_review) -> tuple:
    s = seat_review
    return (s.discards, s.agreements, s.backward, s.dead_discards, s.forced_discards)


def test_example_11_each_discard():
    review = review_record(SettleRecordRequest("classic", EXAMPLE_11, request_id="r11"))
    assert review.request_id == "r11"
    first, second, third = review.discards
    # events[4]: example 9's holding; the chosen 7p is ready but second.
    assert (first.event_index, first.seat, first.shanten, first.discarded.notation) == (4, 0, 0, "7p")
    assert [t.notation for t in first.best_tiles] == ["C"]
    assert waits(first.chosen.waits) == "C:3=6"
    assert (first.agrees, first.backward, first.forced) == (False, False, False)
    # events[6]: seat 1 after punging that 7p; the claimed 7p is in its own meld, not seen.
    assert (second.seat, second.shanten, second.discarded.notation) == (1, 0, "4m")
    assert waits(second.chosen.waits) == "9m:2=3 E:2=4"
    assert (second.chosen.live_value, second.chosen.live_total) == (14, 4)
    assert [t.notation for t in second.best_tiles] == ["4m"]
    assert (second.agrees, second.backward) == (True, False)
    # events[8]: seat 2 after drawing 9m, half flush of 万 one away.
    assert (third.seat, third.shanten, third.discarded.notation) == (2, 1, "W")
    assert useful(third.chosen.useful) == "S:2 F:3"
    assert third.chosen.live_total == 5
    assert [t.notation for t in third.best_tiles] == ["9s"]
    assert (third.agrees, third.backward) == (False, False)


def test_example_11_seats_and_the_pass():
    review = review_record(SettleRecordRequest("classic", EXAMPLE_11))
    assert [summary(s) for s in review.seats] == [(1, 0, 0, 0, 0), (1, 1, 0, 0, 0), (1, 0, 0, 0, 0), (0, 0, 0, 0, 0)]
    assert [(p.seat, TILE_NOTATION[p.tile], p.event_index) for p in review.seats[3].passes] == [(3, "W", 8)]
    assert all(not s.passes for s in review.seats[:3])
    assert review.profile_digest == settle_record(SettleRecordRequest("classic", EXAMPLE_11)).settlement.profile_digest


OTHER_DEALS = (
    deal(1, "2m 3m 4m 6m 7m 8m 2p 3p 4p 6p 7p 8p 2s"),
    deal(2, "4m 5m 6m 1p 1p 5p 6p 3s 3s 5s 6s 8s S"),
    deal(3, "7m 8m 9m 2p 3p 4p 3s 4s 5s 6s 7s 8s N"),
)


def test_a_discard_that_raises_the_shanten_is_backward():
    events = (deal(0, "111m 555m 999p CC 77s E"), *OTHER_DEALS, discard(0, "1m"), exhaustive_draw())
    (only,) = review_record(SettleRecordRequest("classic", events)).discards
    assert (only.shanten, only.chosen.shanten) == (0, 1)
    assert [t.notation for t in only.best_tiles] == ["E"]
    assert (only.agrees, only.backward) == (False, True)


LEZI_CHOW_THEN_PUNG = (
    deal(0, "1m 9m 9p 9s EE SS WW NN C F"),
    deal(1, "23m 55p 1s 3s 5s 7s 9s 2p 4p 6p 8p"),
    deal(2, "4m 5m 6m 7m 8m 1p 3p 7p 2s 4s 6s 8s P"),
    deal(3, "1m 2m 3m 4m 5m 6m 7m 8m 5p 1p 3p 7p P"),
    discard(0, "1m"),
    chow(1, "2m 3m"),
    discard(1, "1s"),
    draw(2, "9p"),
    discard(2, "9p"),
    draw(3, "2s"),
    discard(3, "5p"),
    pung(1),
    discard(1, "3s"),
    exhaustive_draw(),
)


def test_a_lezi_seat_with_a_chow_and_a_pung_of_two_suits_discards_dead():
    review = review_record(SettleRecordRequest("lezi", LEZI_CHOW_THEN_PUNG))
    seat_1 = [d for d in review.discards if d.seat == 1]
    assert [d.reachable for d in seat_1] == [True, False]  # after the chow a flush of 万 still wins
    dead = seat_1[1]
    assert (dead.event_index, dead.shanten, dead.chosen, dead.best_tiles, dead.agrees, dead.backward) == (
        12,
        None,
        None,
        (),
        False,
        False,
    )
    assert summary(review.seats[1]) == (2, 0 + seat_1[0].agrees, int(seat_1[0].backward), 1, 0)


SEEN_RECORD = (
    deal(0, "111m 555m 999p CC 77s E"),
    deal(1, "C 7s 2p 3p 4p 6p 7p 8p 2s 3s 4s 6s 8s"),
    deal(2, "2m 3m 4m 6m 7m 8m 1p 1p 5s 5s 5s 9s S"),
    deal(3, "4m 4m 4m 6s 6s 9s 9s 2p 2p N N W W"),
    discard(0, "E"),
    draw(1, "7s"),
    discard(1, "C"),  # seat 0 could win on it: a pass
    draw(2, "5s"),
    concealed_kong(2, "5s"),
    draw(2, "N"),
    discard(2, "N"),
    pung(3),
    discard(3, "W"),
    draw(0, "9s"),
    discard(0, "9s"),
    exhaustive_draw(),
)


def test_what_a_seat_sees_discards_unclaimed_and_exposed_melds_not_concealed_kongs():
    table = _Table(SEEN_RECORD)
    replay(SettleRecordRequest("classic", SEEN_RECORD), observe=table.observe)
    last = table.holdings[-1]
    assert last.event_index == 14 and last.seat == 0
    seen = {TILE_NOTATION[t]: n for t, n in enumerate(last.seen) if n}
    # E (its own discard), C (seat 1's), NNN (seat 3's pung: the claimed N once), W; no 5s.
    assert seen == {"E": 1, "C": 1, "N": 3, "W": 1}


def test_live_counts_of_a_review_count_what_was_seen():
    review = review_record(SettleRecordRequest("classic", SEEN_RECORD))
    last = review.discards[-1]
    assert last.discarded.notation == "9s" and last.agrees
    assert waits(last.chosen.waits) == "7s:2=6 C:1=10"  # seat 1's two 7s are not seen
    assert [(p.seat, TILE_NOTATION[p.tile], p.event_index) for p in review.seats[0].passes] == [(0, "C", 6)]


def test_a_malformed_record_is_malformed_here_with_the_same_field():
    events = list(EXAMPLE_11)
    events[6] = discard(1, "5m")  # seat 1 holds no 5m
    request = SettleRecordRequest("classic", tuple(events))
    with pytest.raises(InvalidRequest) as settled:
        settle_record(request)
    with pytest.raises(InvalidRequest) as reviewed:
        review_record(request)
    assert reviewed.value.violations == settled.value.violations
    assert reviewed.value.violations[0].field == "events[6].tile"


def test_a_discard_by_no_seat_is_refused_not_crashed_on():
    events = list(EXAMPLE_11)
    events[4] = events[4]._replace(seat=7)
    with pytest.raises(InvalidRequest) as reviewed:
        review_record(SettleRecordRequest("classic", tuple(events)))
    assert reviewed.value.violations[0].field.startswith("events[4]")

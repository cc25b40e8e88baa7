"""RULES.md 15.6 under `win_requires_declaration`: a knocked seat's discards after its knocking
discard are forced (the table lets it discard only what it drew), reviewed with `forced` true and
never counted in agreements or backward; the knocking discard itself is an ordinary choice."""

from __future__ import annotations

from rules_core.build import discard, draw, exhaustive_draw
from rules_core.records import SettleRecordRequest
from rules_core.review import review_record
from tests.rules_core.test_families_records import DEALS, PLAY, declare

# Seat 0 knocks with 9p (events[5]), then draws 2m and must let it go (events[13]).
KNOCKED = (*DEALS, declare(0), *PLAY[:7], draw(0, "2m"), discard(0, "2m"), exhaustive_draw())


def summary(seat_review) -> tuple:
    s = seat_review
    return (s.discards, s.agreements, s.backward, s.dead_discards, s.forced_discards)


def knocking_and_forced(review) -> tuple:
    knocking, forced = [d for d in review.discards if d.seat == 0]
    return (
        (knocking.event_index, knocking.discarded.notation, knocking.agrees, knocking.forced),
        (forced.event_index, forced.discarded.notation, forced.agrees, forced.backward, forced.forced),
    )


def test_a_discard_after_the_knocking_discard_is_forced_in_qiaoma():
    review = review_record(SettleRecordRequest("qiaoma", KNOCKED))
    # The knocking 9p leaves 123m 123p 123s 789m N waiting on N: the best, and counted.
    # The drawn 2m goes at once: forced. It is among the best, but never counted as agreeing.
    assert knocking_and_forced(review) == ((5, "9p", True, False), (13, "2m", True, False, True))
    assert summary(review.seats[0]) == (2, 1, 0, 0, 1)
    assert [summary(s) for s in review.seats[1:]] == [(1, 1, 0, 0, 0), (1, 0, 0, 0, 0), (1, 0, 0, 0, 0)]


def test_the_knock_by_override_in_classic():
    classic = tuple(e._replace(dragon_flowers=()) for e in KNOCKED)  # 红中 is no flower here
    request = SettleRecordRequest("classic", classic, overrides={"win_requires_declaration": True})
    review = review_record(request)
    # A mixed hand far from any classic win: the forced 2m is a step back, and not counted as one.
    assert knocking_and_forced(review) == ((5, "9p", True, False), (13, "2m", False, True, True))
    assert summary(review.seats[0]) == (2, 1, 0, 0, 1)
    assert [d.forced for d in review.discards] == [False, False, False, False, True]


def test_without_a_knock_no_discard_is_forced():
    unknocked = (*DEALS, *PLAY[:7], draw(0, "2m"), discard(0, "2m"), exhaustive_draw())
    review = review_record(SettleRecordRequest("qiaoma", unknocked))
    assert [d.forced for d in review.discards] == [False] * 5
    assert review.seats[0].forced_discards == 0

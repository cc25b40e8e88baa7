"""RULES.md section 13, "what is not possible": each impossible record is refused, never settled,
naming the deepest path of the first impossible event."""

import math
import random

import pytest

from rules_core import EventKind, Flower, HandEvent, InvalidRequest, SettleRecordRequest, Tile, settle_record
from rules_core.build import (
    abandon,
    added_kong,
    chow,
    concealed_kong,
    deal,
    discard,
    draw,
    exhaustive_draw,
    exposed_kong,
    pung,
    win,
)
from rules_core.record_checks import MAX_EVENTS, event_fits, event_violations

from .record_hands import DEALS, record


def refused(request) -> list[tuple[str, str]]:
    with pytest.raises(InvalidRequest) as error:
        settle_record(request)
    return [(v.field, v.description) for v in error.value.violations]


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        # fields
        ((HandEvent(None, 0),), ("events[4].kind", "must be specified")),
        ((HandEvent(EventKind.DISCARD, 4, tile=Tile.M5),), ("events[4].seat", "must be a seat 0-3")),
        ((HandEvent(EventKind.PUNG, 1, tile=Tile.M5),), ("events[4].tile", "a PUNG event has no tile: leave it unset")),
        ((HandEvent(EventKind.DISCARD, 0),), ("events[4].tile", "a DISCARD event needs its tile")),
        (
            (HandEvent(EventKind.DRAW, 1, tile=Tile.M5, flower=1),),
            ("events[4]", "a DRAW has exactly one of tile and flower"),
        ),
        ((HandEvent(EventKind.DEAL, 1, tiles=(Tile.M1, None)),), ("events[4].tiles[1]", "must be a specified tile")),
        # order
        ((discard(1, "1m"),), ("events[4]", "seat 0 is to play, not seat 1")),
        ((draw(0, "1s"),), ("events[4]", "the dealer opens: seat 0 discards, lays down a kong or wins, not a DRAW")),
        (
            (discard(0, "9p"), draw(1, "1s"), draw(1, "2s")),
            ("events[6]", "after a draw seat 1 discards, lays down a kong or wins, not a DRAW"),
        ),
        ((discard(0, "9p"), draw(2, "1s")), ("events[5].seat", "after seat 0's discard seat 1 draws, not seat 2")),
        ((deal(0, "1s"),), ("events[4]", "the four deals are done: a DEAL comes only at the start")),
        ((exhaustive_draw(),), ("events[4]", "an EXHAUSTIVE_DRAW follows a discard that no one claims")),
        (
            (discard(0, "9p"), chow(2, "78p")),
            ("events[5].seat", "only seat 1, the 下家 of seat 0, may chow its discard"),
        ),
        ((discard(0, "9p"), pung(0)), ("events[5].seat", "seat 0 cannot claim its own discard")),
        (
            (discard(0, "5m"), chow(1, "46m"), draw(1, "1s")),
            ("events[6]", "after a chow or a pung seat 1 discards, not a DRAW"),
        ),
        (
            (concealed_kong(0, "9p"),),
            ("events[4].tile", "seat 0 holds 2 9p: a concealed kong is four"),
        ),
        ((added_kong(0, "9p"),), ("events[4].tile", "seat 0 holds no pung of 9p to add to")),
        ((discard(0, "1m"),), ("events[4].tile", "seat 0 holds no 1m")),
        ((discard(0, "5m"), chow(1, "47m")), ("events[5].tiles", "4m 7m do not form a chow with the discarded 5m")),
        ((discard(0, "8p"), chow(1, "79p")), ("events[5].tiles[0]", "seat 1 holds no 7p")),
        ((discard(0, "9p"), pung(3)), ("events[5]", "seat 3 holds 0 9p: a PUNG needs 2")),
        ((discard(0, "9p"), exposed_kong(2)), ("events[5]", "seat 2 holds 0 9p: a EXPOSED_KONG needs 3")),
        # copies
        (
            (discard(0, "9p"), draw(1, "E"), discard(1, "E"), draw(2, "E")),
            ("events[7].tile", "a fifth E: a tile has only four copies"),
        ),
        ((discard(0, "9p"), draw(1, "3f"), draw(1, "3f")), ("events[6].flower", "flower 3f appears twice")),
        # wins
        ((win(1),), ("events[4]", "seat 1 cannot claim a win here (seat 0 is to play)")),
        (
            (discard(0, "5m"), win(0)),
            ("events[5]", "seat 0 cannot claim a win here (seat 0 discarded, and no seat wins on its own discard)"),
        ),
        ((discard(0, "5m"), win(1), win(1)), ("events[6].seat", "seat 1 cannot win again on this tile")),
        ((discard(0, "5m"), win(1), discard(1, "1m")), ("events[6]", "the hand ended at events[5]: nothing follows")),
        ((discard(0, "9p"), abandon(2)), ("events[5]", "profile 'classic' has no abandon rule")),
        (
            (discard(0, "9p"),),
            ("events", "the record does not end: it stops before a WIN, an EXHAUSTIVE_DRAW or an ABANDON"),
        ),
    ],
)
def test_an_impossible_event_is_named(events, expected):
    assert refused(record(*events)) == [expected]


def test_a_record_starts_with_four_deals():
    assert refused(SettleRecordRequest("classic", (DEALS[0], discard(0, "9p")))) == [
        ("events[1]", "a record starts with four DEAL events, one per seat")
    ]


def test_a_seat_is_dealt_once():
    assert refused(record(deals=(*DEALS[:3], DEALS[1]))) == [("events[3].seat", "seat 1 is dealt twice")]


def test_a_deal_of_the_wrong_size():
    assert refused(record(deals=(deal(0, "1m 2m"), *DEALS[1:]))) == [
        ("events[0].tiles", "the dealer is dealt 14 tiles, got 2")
    ]
    assert refused(record(deals=(*DEALS[:3], deal(3, "1m 2m")), dealer_seat=3)) == [
        ("events[0].tiles", "a non-dealer is dealt 13 tiles, got 14")
    ]


def test_a_fifth_copy_is_named_at_the_event_that_shows_it():
    # the dealer holds 5m and seat 1 one more: seat 2 cannot be dealt three
    deals = (*DEALS[:2], deal(2, "555m EEE SSS 234p 5p"), DEALS[3])
    assert refused(record(deals=deals)) == [("events[2].tiles[2]", "a fifth 5m: a tile has only four copies")]


def test_a_flower_dealt_twice():
    deals = (
        deal(0, "5m 8p 99p 2468s WW N C F P", flowers="2f"),
        deal(1, "1112345678999m", flowers="1f 2f"),
        *DEALS[2:],
    )
    assert refused(record(deals=deals)) == [("events[1].flowers[1]", "flower 2f appears twice")]


def test_the_longest_legal_hand_bounds_a_record():
    events = (discard(0, "9p"),) * (MAX_EVENTS - 3)
    assert refused(record(*events)) == [("events", f"at most {MAX_EVENTS} entries (the longest legal hand), got 239")]


def test_recorded_deltas_are_none_or_four():
    assert refused(record(discard(0, "5m"), win(1), recorded_deltas=(1.0, -1.0))) == [
        ("recorded_deltas", "none, or the four seat deltas: got 2")
    ]


def test_the_table_is_checked_as_a_settle_request_is():
    assert refused(record(discard(0, "5m"), win(1), profile="Classic", dealer_seat=4)) == [
        (
            "profile",
            "unknown profile 'Classic' (did you mean classic?); known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou",
        ),
        ("dealer_seat", "must be a seat 0-3"),
    ]


def test_the_quick_check_of_an_event_agrees_with_the_full_one():
    """`event_fits` answers the usual case without building paths; it must agree with
    `event_violations` on every shape of event."""
    rng = random.Random(5)
    tiles = (Tile.M1, Tile.EAST, None)
    for _ in range(20_000):
        event = HandEvent(
            rng.choice((None, *EventKind)),
            rng.choice((0, 3, 4, -1)),
            rng.choice((None, None, *tiles)),
            tuple(rng.choice(tiles) for _ in range(rng.choice((0, 0, 1, 2, 3, 13, 14, 15)))),
            rng.choice((None, None, Flower.PLUM)),
            tuple(rng.choice((Flower.SPRING, None)) for _ in range(rng.choice((0, 0, 1, 9)))),
        )
        assert event_fits(event) == (not event_violations(event, "e")), event


def test_the_first_impossible_event_is_named_though_a_later_one_has_a_bad_field():
    """Found trying records as a hostile client: every event's own fields were checked before
    any was replayed, so a bad seat at events[6] was named though the hand had already gone
    wrong at events[5] (seat 2 drawing out of turn), which the first impossible event is."""
    later = HandEvent(EventKind.DISCARD, 7, tile=Tile.M5)
    assert refused(record(discard(0, "9p"), draw(2, "1s"), later, win(1))) == [
        ("events[5].seat", "after seat 0's discard seat 1 draws, not seat 2")
    ]


def test_a_fault_of_the_table_is_listed_with_the_first_impossible_event():
    assert refused(record(discard(0, "9p"), draw(2, "1s"), HandEvent(None, 0), profile="Classic")) == [
        (
            "profile",
            "unknown profile 'Classic' (did you mean classic?); known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou",
        ),
        ("events[5].seat", "after seat 0's discard seat 1 draws, not seat 2"),
    ]


def test_recorded_deltas_that_are_no_numbers_are_named_as_json_spells_them():
    """Found trying records as a hostile client: a NaN delta was quoted as Python prints it, nan."""
    assert refused(record(discard(0, "5m"), win(1), recorded_deltas=(math.nan, math.inf, -math.inf, 0.0))) == [
        ("recorded_deltas[0]", "expected a finite number, got NaN"),
        ("recorded_deltas[1]", "expected a finite number, got Infinity"),
        ("recorded_deltas[2]", "expected a finite number, got -Infinity"),
    ]

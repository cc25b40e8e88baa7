"""Hand records (RULES.md section 13) under the fields of section 14 (14.6, 14.10.8): dragons drawn
and dealt as flowers, the knock (DECLARE), claims counted as the profile says, pattern_kept
derived, last_tile taken as stated."""

from __future__ import annotations

import pytest

from rules_core import InvalidRequest, settle_record
from rules_core import Pattern as P
from rules_core.build import deal, discard, draw, pung, win
from rules_core.notation import parse_tiles
from rules_core.records import EventKind, HandEvent, SettleRecordRequest
from rules_core.requests import LiabilityRelation


def dealt(seat: int, tiles: str, dragons: str = "") -> HandEvent:
    return deal(seat, tiles)._replace(dragon_flowers=parse_tiles(dragons) if dragons else ())


def declare(seat: int) -> HandEvent:
    return HandEvent(EventKind.DECLARE, seat)


def draw_dragon(seat: int, tile: str) -> HandEvent:
    return HandEvent(EventKind.DRAW, seat, tile=parse_tiles(tile)[0])


# Seat 0 deals, holds a dealt 红中 flower and knocks with 9p, waiting on N; it draws 发财 (a
# flower, under dragons_are_flowers) and then N, on the flower's replacement: 杠开 in qiaoma.
DEALS = (
    dealt(0, "123m 123p 123s 789m N 9p", "C"),
    deal(1, "456m 456p 456s 9p 9p S W"),
    deal(2, "789p 789s 55m 66p E S W"),
    deal(3, "234s 567s 22p 33p E S W"),
)
PLAY = (
    discard(0, "9p"),
    draw(1, "E"),
    discard(1, "E"),
    draw(2, "9s"),
    discard(2, "9s"),
    draw(3, "1m"),
    discard(3, "1m"),
    draw_dragon(0, "F"),
    draw(0, "N"),
    win(0),
)


def record(profile: str, events, **table) -> SettleRecordRequest:
    return SettleRecordRequest(profile=profile, events=tuple(events), **table)


def settled(profile: str, events, **table):
    return settle_record(record(profile, events, **table))


def fault(profile: str, events, **table) -> list[tuple[str, str]]:
    with pytest.raises(InvalidRequest) as caught:
        settle_record(record(profile, events, **table))
    return [(v.field, v.description) for v in caught.value.violations]


def test_a_knocked_seat_wins_on_a_flower_replacement_with_its_dragon_flowers():
    result = settled("qiaoma", (*DEALS, declare(0), *PLAY))
    derived = result.derived
    (w,) = derived.winners
    assert w.hand.dragon_flowers == parse_tiles("C F")
    assert w.replacement_draw and not w.last_tile
    assert derived.declared_seats == (0,)
    (r,) = result.settlement.winners
    assert r.patterns == (P.KONG_BLOOM, P.CONCEALED) and r.flowers == 2
    assert r.value == 12  # (1 + 2) x 2^2
    assert result.settlement.seat_deltas == (36, -12, -12, -12)
    assert result.passes == ()


def test_without_the_knock_the_win_is_not_legal():
    result = settled("qiaoma", (*DEALS, *PLAY))
    assert result.derived.declared_seats == ()
    assert [r.name for r in result.settlement.winners[0].illegal_reasons] == ["NOT_DECLARED"]
    assert result.settlement.next_hand is None


def test_a_flower_replacement_is_no_kong_bloom_in_qiaoma_lezi():
    result = settled("qiaoma_lezi", (*DEALS, *PLAY))
    (w,) = result.derived.winners
    assert not w.replacement_draw
    assert P.KONG_BLOOM not in result.settlement.winners[0].patterns


def test_last_tile_is_taken_as_stated_after_the_seats_own_draw():
    events = (*DEALS, declare(0), *PLAY[:-1], win(0)._replace(last_tile=True))
    result = settled("qiaoma", events)
    assert result.derived.winners[0].last_tile
    assert P.LAST_TILE in result.settlement.winners[0].patterns
    on_discard = (*DEALS, discard(0, "9p"), win(1)._replace(last_tile=True))
    assert fault("qiaoma_lezi", on_discard) == [
        ("events[5].last_tile", "only a win right after the seat's own draw is on the wall's last tile")
    ]


def test_a_claim_of_a_knocked_seats_discard_does_not_count():
    claimed = (*DEALS, declare(0), discard(0, "9p"), pung(1), discard(1, "W"), *PLAY[3:])
    result = settled("qiaoma", claimed)
    assert result.derived.liabilities == ()
    unknocked = (*DEALS, discard(0, "9p"), pung(1), discard(1, "W"), *PLAY[3:])
    open_table = settled("qiaoma", unknocked, overrides={"win_requires_declaration": False})
    assert open_table.derived.liabilities == (LiabilityRelation(1, 0, 1, True),)  # one pung keeps 碰碰和


def test_a_declare_is_malformed_at_its_event():
    assert fault("qiaoma_lezi", (*DEALS, declare(0), *PLAY)) == [
        ("events[4]", "profile 'qiaoma_lezi' has no knock (win_requires_declaration is off)")
    ]
    assert fault("qiaoma", (*DEALS, declare(0), draw(1, "E"))) == [
        ("events[4]", "a DECLARE is followed by its seat's knocking DISCARD")
    ]
    not_waiting = (*DEALS, declare(0), discard(0, "1m"), *PLAY[1:])
    assert fault("qiaoma", not_waiting)[0][0] == "events[4]"
    assert fault("qiaoma", (*DEALS, declare(1), *PLAY))[0][0] == "events[4]"


def test_dragons_under_dragons_are_flowers_and_without():
    in_tiles = (dealt(0, "123m 123p 123s 789m N C"), *DEALS[1:], *PLAY)
    assert fault("qiaoma", in_tiles)[0][0] == "events[0].tiles[13]"
    assert fault("classic", (*DEALS, *PLAY))[0] == (
        "events[0].dragon_flowers",
        "profile 'classic' has no dragon flowers",
    )
    fifth = (dealt(0, "123m 123p 123s 789m N 9p", "C C C C"), *DEALS[1:], declare(0), *PLAY[:7], draw_dragon(0, "C"))
    assert fault("qiaoma", fifth)[0] == ("events[12].tile", "a fifth C: a tile has only four copies")


def test_only_a_knocked_seat_passes_a_win():
    passing = (*DEALS, declare(0), discard(0, "9p"), draw(1, "N"), discard(1, "N"), *PLAY[3:])
    (passed,) = settled("qiaoma", passing).passes
    assert (passed.seat, passed.tile, passed.event_index, passed.lifted_at) == (0, parse_tiles("N")[0], 7, 12)
    assert passed.patterns == (P.CONCEALED,)  # its dealt 红中 is 1 花: no 无花
    unknocked = (*DEALS, discard(0, "9p"), draw(1, "N"), discard(1, "N"), *PLAY[3:])
    assert settled("qiaoma", unknocked).passes == ()

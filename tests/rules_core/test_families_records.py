"""Hand records (RULES.md section 13) under the fields of section 14 (14.6, 14.10.8): dragons drawn
and dealt as flowers, the knock (DECLARE), claims counted as the profile says, pattern_kept
derived, last_tile taken as stated; and every record those rules make impossible, named by field."""

from __future__ import annotations

import pytest

from rules_core import InvalidRequest, settle_record
from rules_core import Pattern as P
from rules_core.build import (
    added_kong,
    chow,
    concealed_kong,
    deal,
    declare,
    discard,
    draw,
    exhaustive_draw,
    exposed_kong,
    pung,
    win,
)
from rules_core.notation import parse_tiles
from rules_core.patterns import IllegalReason
from rules_core.records import EventKind, HandEvent, Pass, SettleRecordRequest
from rules_core.registry import BUILTIN_REGISTRY
from rules_core.replay import Replay, dragons_shown_as_flowers
from rules_core.requests import LiabilityRelation
from rules_core.tiles import Tile

from .record_hands import KNOCK_DEALS as DEALS
from .record_hands import KNOCK_PLAY as PLAY

NEVER_TILES = "中发白 are flowers under this profile (dragons_are_flowers), never tiles held"
LAST_TILE = "only a self-drawn win right after the seat's own draw of a tile is on the wall's last tile"


def record(profile: str, events, **table) -> SettleRecordRequest:
    return SettleRecordRequest(profile=profile, events=tuple(events), **table)


def settled(profile: str, events, **table):
    return settle_record(record(profile, events, **table), BUILTIN_REGISTRY)


def fault(profile: str, events, **table) -> list[tuple[str, str]]:
    with pytest.raises(InvalidRequest) as caught:
        settle_record(record(profile, events, **table), BUILTIN_REGISTRY)
    return [(v.field, v.description) for v in caught.value.violations]


# --- 中发白 as flowers (14.6) ------------------------------------------------------------------


def test_a_knocked_seat_wins_on_a_flower_replacement_with_its_dragon_flowers():
    result = settled("qiaoma", (*DEALS, declare(0), *PLAY))
    derived = result.derived
    (w,) = derived.winners
    assert w.hand.dragon_flowers == parse_tiles("C F")
    assert w.hand.flowers == ()
    assert w.replacement_draw and not w.last_tile
    assert derived.declared_seats == (0,)
    (r,) = result.settlement.winners
    assert r.patterns == (P.KONG_BLOOM, P.CONCEALED) and r.flowers == 2
    assert r.value == 12  # (1 + 2) x 2^2
    assert result.settlement.seat_deltas == (36, -12, -12, -12)
    assert result.passes == ()


def test_a_dealt_dragon_goes_in_dragon_flowers_never_in_tiles():
    in_tiles = (deal(0, "123m 123p 123s 789m N C"), *DEALS[1:], *PLAY)
    assert fault("qiaoma", in_tiles) == [
        (
            "events[0].tiles[13]",
            "中发白 are flowers under this profile (dragons_are_flowers): dealt dragons go in dragon_flowers",
        )
    ]
    not_a_dragon = (deal(0, "123m 123p 123s 789m N 9p", dragon_flowers="E"), *DEALS[1:], *PLAY)
    assert fault("qiaoma", not_a_dragon) == [
        ("events[0].dragon_flowers[0]", "must be a dragon 中发白 (C, F, P), got E")
    ]


def test_dragon_flowers_are_malformed_where_dragons_are_tiles():
    assert fault("classic", (*DEALS, *PLAY)) == [
        ("events[0].dragon_flowers", "profile 'classic' has no dragon flowers")
    ]


def test_a_fifth_dragon_is_named_at_the_draw_that_shows_it():
    four = (deal(0, "123m 123p 123s 789m N 9p", dragon_flowers="C C C C"), *DEALS[1:], declare(0), *PLAY[:7])
    assert fault("qiaoma", (*four, draw(0, "C"))) == [("events[12].tile", "a fifth C: a tile has only four copies")]


def test_a_drawn_dragon_is_a_flower_and_the_seat_draws_again():
    drew = (*DEALS, declare(0), *PLAY[:8])  # events[12]: seat 0 draws 发财
    again = "seat 0 draws again: its F was a flower, 中发白 being flowers under this profile (dragons_are_flowers)"
    assert fault("qiaoma", (*drew, discard(0, "F"))) == [("events[13]", f"{again}; not a DISCARD by seat 0")]
    assert fault("qiaoma", (*drew, win(0))) == [("events[13]", f"seat 0 cannot claim a win here ({again})")]


def test_a_dragon_is_never_a_tile_to_discard_chow_or_kong():
    opened = (*DEALS, declare(0), *PLAY[:7], draw(0, "N"))
    assert fault("qiaoma", (*opened, discard(0, "C"))) == [("events[13].tile", f"seat 0 holds no C ({NEVER_TILES})")]
    assert fault("qiaoma", (*opened, concealed_kong(0, "C"))) == [
        ("events[13].tile", f"seat 0 holds no C ({NEVER_TILES}): a concealed kong is four")
    ]
    assert fault("qiaoma", (*opened, added_kong(0, "C"))) == [("events[13].tile", f"seat 0 holds no C ({NEVER_TILES})")]


def test_where_dragons_are_tiles_a_drawn_dragon_is_held():
    deals = (deal(0, "123m 123p 123s 789m N 9p"), *DEALS[1:])
    events = (*deals, *PLAY[:7], draw(0, "F"), discard(0, "F"), exhaustive_draw())
    result = settled("classic", events)
    assert result.derived.outcome.name == "EXHAUSTIVE_DRAW"


def test_dragons_never_count_towards_the_eighth_flower():
    seven = (deal(0, "123m 123p 123s 789m N 9p", "1f 2f 3f 4f 5f 6f 7f", "C"), *DEALS[1:], *PLAY[:7])
    assert fault("qiaoma_lezi", (*seven, draw(0, "P"), win(0))) == [
        (
            "events[12]",
            "seat 0 cannot claim a win here (seat 0 draws again: its P was a flower,"
            " 中发白 being flowers under this profile (dragons_are_flowers))",
        )
    ]
    eighth = settled("qiaoma_lezi", (*seven, draw(0, "P"), draw(0, "8f"), win(0)))
    assert eighth.derived.outcome.name == "EIGHT_FLOWERS"
    assert eighth.derived.winners[0].hand.dragon_flowers == parse_tiles("C P")


def test_a_record_shows_whether_its_dragons_are_flowers():
    assert dragons_shown_as_flowers((*DEALS, *PLAY))  # a dealt dragon flower
    plain = (deal(0, "123m 123p 123s 789m N 9p"), *DEALS[1:])
    assert dragons_shown_as_flowers((*plain, *PLAY))  # 发财 drawn, then seat 0 draws again
    assert not dragons_shown_as_flowers((*plain, *PLAY[:8], discard(0, "F")))
    assert not dragons_shown_as_flowers((deal(0, "123m 123p 123s 789m N C"), *DEALS[1:]))
    assert not dragons_shown_as_flowers(plain)


def test_a_record_is_followed_without_its_profile():
    """`shmj replay` and the explorer follow the tiles of a record a server replayed."""
    events = (*DEALS, declare(0), *PLAY)
    state = Replay(None, 0, dragons_are_flowers=dragons_shown_as_flowers(events))
    for index, event in enumerate(events):
        state.apply(index, event)
    hand = state.seats[0]
    assert hand.dragon_flowers == list(parse_tiles("C F"))
    assert state.declared == [0] and state.winners[0].replacement_draw


# --- the replacement draw (14.6) ---------------------------------------------------------------


def test_a_flower_replacement_is_no_kong_bloom_in_qiaoma_lezi():
    result = settled("qiaoma_lezi", (*DEALS, *PLAY))
    (w,) = result.derived.winners
    assert not w.replacement_draw
    assert P.KONG_BLOOM not in result.settlement.winners[0].patterns


# Seat 1 holds three 9p and lays an exposed kong of seat 0's; its replacement is a flower, then a tile.
KONG_DEALS = (DEALS[0], deal(1, "456m 456p 456s 9p 9p 9p W"), deal(2, "123p 789s 55m 66p E S W"), DEALS[3])


def test_a_flower_between_a_kong_and_its_replacement_keeps_the_kong_bloom():
    events = (*KONG_DEALS, discard(0, "9p"), exposed_kong(1), draw(1, "P"), draw(1, "W"), win(1))
    result = settled("qiaoma_lezi", events)
    assert result.derived.winners[0].replacement_draw
    assert result.derived.winners[0].hand.dragon_flowers == (Tile.WHITE,)


# Seat 1 pungs seat 0's 9p, draws the last 9p and adds it to its pung, which seat 3 (waiting on
# 6p or 9p, with a 白板 flower) may rob.
ROB_DEALS = (
    DEALS[0],
    DEALS[1],
    deal(2, "555m 666p 11s 22s E E W"),
    deal(3, "234s 567s 789s 78p 3p E", dragon_flowers="P"),
)
ROB_PLAY = (
    discard(0, "9p"),
    pung(1),
    discard(1, "W"),
    draw(2, "4m"),
    discard(2, "4m"),
    draw(3, "3p"),
    discard(3, "E"),
    draw(0, "9s"),
    discard(0, "9s"),
    draw(1, "9p"),
    added_kong(1, "9p"),
)
NOT_ROBBED = (draw(1, "1p"), discard(1, "1p"), exhaustive_draw())


# --- 海底捞月: last_tile taken as stated (14.6) ------------------------------------------------


def test_last_tile_is_taken_as_stated_after_the_seats_own_draw():
    result = settled("qiaoma", (*DEALS, declare(0), *PLAY[:-1], win(0, last_tile=True)))
    assert result.derived.winners[0].last_tile
    assert P.LAST_TILE in result.settlement.winners[0].patterns


@pytest.mark.parametrize(
    ("events", "at"),
    [
        ((discard(0, "9p"), win(1, last_tile=True)), 5),  # on a discard
        ((win(0, last_tile=True),), 4),  # 天胡: the dealt tiles are not the wall's last
        ((discard(0, "9p"), pung(1), discard(1, "W"), win(3), win(0, last_tile=True)), 8),  # the second winner
    ],
    ids=["discard", "heavenly", "second-winner"],
)
def test_last_tile_anywhere_else_is_malformed(events, at):
    assert fault("qiaoma_lezi", (*DEALS, *events)) == [(f"events[{at}].last_tile", LAST_TILE)]


def test_last_tile_on_an_eight_flowers_win_is_malformed():
    seven = (deal(0, "123m 123p 123s 789m N 9p", "1f 2f 3f 4f 5f 6f 7f"), *DEALS[1:], *PLAY[:7])
    assert fault("qiaoma_lezi", (*seven, draw(0, "8f"), win(0, last_tile=True))) == [
        ("events[12].last_tile", LAST_TILE)
    ]


def test_last_tile_on_a_robbed_kong_is_malformed():
    assert fault("qiaoma_lezi", (*ROB_DEALS, *ROB_PLAY, win(3, last_tile=True))) == [
        (f"events[{4 + len(ROB_PLAY)}].last_tile", LAST_TILE)
    ]


# --- the knock, DECLARE (14.10.8) --------------------------------------------------------------


def test_without_the_knock_the_win_is_not_legal():
    result = settled("qiaoma", (*DEALS, *PLAY))
    assert result.derived.declared_seats == ()
    assert result.settlement.winners[0].illegal_reasons == (IllegalReason.NOT_DECLARED,)
    assert result.settlement.next_hand is None


def test_the_knocked_seats_are_derived_in_the_order_they_knocked():
    knocks = (*ROB_DEALS, *ROB_PLAY[:5], draw(3, "3p"), declare(3), discard(3, "E"), draw(0, "9s"), declare(0))
    result = settled("qiaoma", (*knocks, *ROB_PLAY[8:], *NOT_ROBBED))
    assert result.derived.declared_seats == (3, 0)
    assert result.derived.liabilities == (LiabilityRelation(1, 0, 1, True),)  # 9p thrown before seat 0 knocked
    # seat 3, knocked and concealed (门清 qualifies), could rob seat 1's kong of 9p and did not
    assert result.passes == (Pass(3, Tile.P9, 16, (P.CONCEALED, P.ROBBING_KONG), None),)


def test_a_declare_under_a_profile_without_the_knock_is_malformed():
    assert fault("qiaoma_lezi", (*DEALS, declare(0), *PLAY)) == [
        ("events[4]", "profile 'qiaoma_lezi' has no knock (win_requires_declaration is off)")
    ]


def test_a_declare_is_followed_by_its_knocking_discard():
    assert fault("qiaoma", (*DEALS, declare(0), draw(1, "E"))) == [
        ("events[4]", "a DECLARE is followed by its seat's knocking DISCARD")
    ]
    assert fault("qiaoma", (*DEALS, declare(0))) == [
        ("events", "the record does not end: it stops before a WIN, an EXHAUSTIVE_DRAW or an ABANDON")
    ]


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        ((declare(1),), ("events[4]", "seat 1 may knock only right before its own discard (seat 0 is to play)")),
        (
            (discard(0, "9p"), declare(1)),
            (
                "events[5]",
                "seat 1 may knock only right before its own discard (seat 0 discarded, and no seat wins on its own discard)",
            ),
        ),
        (
            (discard(0, "9p"), exposed_kong(1), declare(1)),
            ("events[6]", "seat 1 may knock only right before its own discard (seat 1 draws next)"),
        ),
        (
            (*PLAY[:7], draw(0, "F"), declare(0)),
            (
                "events[12]",
                "seat 0 may knock only right before its own discard (seat 0 draws again: its F was a flower,"
                " 中发白 being flowers under this profile (dragons_are_flowers))",
            ),
        ),
        (
            (HandEvent(EventKind.DECLARE, 0, tile=Tile.M9),),
            ("events[4].tile", "a DECLARE event has no tile: leave it unset"),
        ),
    ],
    ids=["not-its-turn", "after-a-discard", "before-a-replacement-draw", "after-a-dragon-flower", "a-field-set"],
)
def test_a_declare_comes_only_where_its_seat_discards_next(events, expected):
    assert fault("qiaoma", (*KONG_DEALS, *events)) == [expected]


def test_a_seat_knocks_once():
    twice = (*DEALS, declare(0), *PLAY[:7], draw(0, "5p"), declare(0), discard(0, "5p"))
    assert fault("qiaoma", twice) == [("events[13]", "seat 0 has knocked already")]


def test_nothing_follows_a_win_not_even_a_knock():
    assert fault("qiaoma", (*DEALS, declare(0), *PLAY, declare(1))) == [
        ("events[15]", "the hand ended at events[14]: nothing follows")
    ]
    assert fault("qiaoma", (DEALS[0], declare(0))) == [
        ("events[1]", "a record starts with four DEAL events, one per seat")
    ]


def test_the_knocking_discard_leaves_the_hand_waiting():
    not_waiting = (*DEALS, declare(0), discard(0, "1m"), *PLAY[1:])
    assert fault("qiaoma", not_waiting) == [
        ("events[4]", "after its knocking discard of 1m seat 0's hand waits on no tile (four sets and a pair)")
    ]


def test_a_wait_on_a_fifth_copy_is_no_wait():
    """Seat 1 pungs 9p and keeps the fourth: its hand waits on 9p only, of which it shows all four."""
    events = (*KONG_DEALS, discard(0, "9p"), pung(1), declare(1), discard(1, "W"))
    assert fault("qiaoma", events) == [
        ("events[6]", "after its knocking discard of W seat 1's hand waits on no tile (four sets and a pair)")
    ]


# --- claims and pattern_kept (14.6, 14.10.8) --------------------------------------------------


def test_an_exposed_kong_is_no_claim_where_kongs_are_skipped():
    events = (*KONG_DEALS, discard(0, "9p"), exposed_kong(1), draw(1, "1p"), discard(1, "1p"), exhaustive_draw())
    assert settled("qiaoma_lezi", events).derived.liabilities == ()
    assert settled("qiaoma", events).derived.liabilities == (LiabilityRelation(1, 0, 1, True),)


def test_a_pung_upgraded_to_a_kong_stops_counting_where_kongs_are_skipped():
    assert settled("qiaoma_lezi", (*ROB_DEALS, *ROB_PLAY, *NOT_ROBBED)).derived.liabilities == ()
    assert settled("qiaoma", (*ROB_DEALS, *ROB_PLAY, *NOT_ROBBED)).derived.liabilities == (
        LiabilityRelation(1, 0, 1, True),
    )


def test_a_robbed_kong_stays_the_pung_it_was_and_its_claim_counts():
    result = settled("qiaoma_lezi", (*ROB_DEALS, *ROB_PLAY, win(3)))
    assert result.derived.outcome.name == "ROBBING_KONG" and result.derived.discarder_seat == 1
    assert result.derived.liabilities == (LiabilityRelation(1, 0, 1, False),)
    (w,) = result.settlement.winners
    assert w.legal and w.patterns == (P.CONCEALED, P.ROBBING_KONG)
    assert result.settlement.seat_deltas == (0, -36, 0, 36)  # (3 + 1) x 3, paid 3 shares by seat 1


def test_a_kong_that_is_not_robbed_is_a_pass_for_a_seat_that_could_rob_it():
    (passed,) = settled("qiaoma_lezi", (*ROB_DEALS, *ROB_PLAY, *NOT_ROBBED)).passes
    assert (passed.seat, passed.tile, passed.event_index, passed.lifted_at) == (3, Tile.P9, 14, None)


def test_a_claim_of_a_knocked_seats_discard_does_not_count():
    claimed = (*DEALS, declare(0), discard(0, "9p"), pung(1), discard(1, "W"), *PLAY[3:])
    result = settled("qiaoma", claimed)
    assert result.derived.liabilities == ()
    unknocked = (*DEALS, discard(0, "9p"), pung(1), discard(1, "W"), *PLAY[3:])
    open_table = settled("qiaoma", unknocked, overrides={"win_requires_declaration": False})
    assert open_table.derived.liabilities == (LiabilityRelation(1, 0, 1, True),)  # one pung keeps 碰碰和


def test_a_knocking_discard_claimed_as_a_kong_does_not_count():
    events = (*KONG_DEALS, declare(0), discard(0, "9p"), exposed_kong(1), draw(1, "1p"), discard(1, "1p"))
    assert settled("qiaoma", (*events, exhaustive_draw())).derived.liabilities == ()


# Seat 1 chows seat 0's 9p (with 78p), then its 1s (with 23s): claims of two suits with chows.
CHOW_DEALS = (DEALS[0], deal(1, "78p 23s 456m 456s S W E"), *DEALS[2:])
FIRST_CHOW = (discard(0, "9p"), chow(1, "78p"), discard(1, "E"), draw(2, "1p"), discard(2, "1p"))
SECOND_CHOW = (draw(3, "4p"), discard(3, "4p"), draw(0, "5p"), discard(0, "1s"), chow(1, "23s"), discard(1, "W"))
TO_THE_END = (draw(2, "1m"), discard(2, "1m"), exhaustive_draw())


def test_pattern_kept_is_derived_from_the_claimers_melds_at_the_end():
    one_suit = settled("qiaoma", (*CHOW_DEALS, *FIRST_CHOW, draw(3, "4p"), discard(3, "4p"), exhaustive_draw()))
    assert one_suit.derived.liabilities == (LiabilityRelation(1, 0, 1, True),)
    two_suits = settled("qiaoma", (*CHOW_DEALS, *FIRST_CHOW, *SECOND_CHOW, *TO_THE_END))
    assert two_suits.derived.liabilities == (LiabilityRelation(1, 0, 2, False),)


def test_pattern_kept_is_derived_under_the_contract_mode_only():
    result = settled("qiaoma_lezi", (*CHOW_DEALS, *FIRST_CHOW, draw(3, "4p"), discard(3, "4p"), exhaustive_draw()))
    assert result.derived.liabilities == (LiabilityRelation(1, 0, 1, False),)


# --- 漏胡 under the knock (14.10.8) ------------------------------------------------------------


def test_only_a_knocked_seat_passes_a_win():
    passing = (*DEALS, declare(0), discard(0, "9p"), draw(1, "N"), discard(1, "N"), *PLAY[3:])
    (passed,) = settled("qiaoma", passing).passes
    assert (passed.seat, passed.tile, passed.event_index, passed.lifted_at) == (0, Tile.NORTH, 7, 12)
    assert passed.patterns == (P.CONCEALED,)  # its dealt 红中 is 1 花: no 无花
    unknocked = (*DEALS, discard(0, "9p"), draw(1, "N"), discard(1, "N"), *PLAY[3:])
    assert settled("qiaoma", unknocked).passes == ()


def test_a_seat_may_knock_after_a_chow_before_its_discard():
    """Seat 1 chows seat 0's 9p and knocks with E, waiting on 1s or 4s."""
    deals = (DEALS[0], deal(1, "78p 23s 456m 456s S S E"), *DEALS[2:])
    events = (*deals, discard(0, "9p"), chow(1, "78p"), declare(1), discard(1, "E"), draw(2, "1p"), discard(2, "1p"))
    result = settled("qiaoma", (*events, exhaustive_draw()))
    assert result.derived.declared_seats == (1,)
    assert result.derived.liabilities == (LiabilityRelation(1, 0, 1, True),)  # seat 0 had not knocked

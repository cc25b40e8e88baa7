"""RULES.md section 13: what a hand record implies, derived from its events, and its settlement."""

from rules_core import Dice, Flower, LiabilityRelation, Meld, MeldKind, Outcome, Pattern, settle, settle_record
from rules_core.build import (
    abandon,
    added_kong,
    chow,
    concealed_kong,
    deal,
    discard,
    draw,
    exhaustive_draw,
    pung,
    win,
)
from rules_core.notation import parse_tile, parse_tiles

from .record_hands import DEALS, record

T = parse_tile


def test_a_discard_win_in_the_first_go_around():
    result = settle_record(record(discard(0, "5m"), win(1)))
    derived = result.derived
    assert derived.outcome == Outcome.DISCARD
    assert derived.discarder_seat == 0
    (winner,) = derived.winners
    assert winner.seat == 1
    assert winner.hand.concealed == parse_tiles("11123455678999m")  # in Tile order, with the tile won on
    assert winner.hand.winning_tile == T("5m")
    assert winner.hand.melds == ()
    assert winner.passed_tiles == ()
    assert (winner.replacement_draw, winner.first_go_around) == (False, True)
    assert result.settlement.winners[0].patterns == (Pattern.FULL_FLUSH, Pattern.EARTHLY, Pattern.CONCEALED)
    assert result.settlement.seat_deltas == (-160.0, 160.0, 0.0, 0.0)
    assert result.passes == ()
    assert (result.recorded_match, result.mismatched_seats) == (False, ())


def test_the_settlement_is_settle_of_the_derived_request():
    request = record(discard(0, "5m"), win(1), dice=Dice(3, 3), huangfan_count=1, request_id="hand-7")
    result = settle_record(request)
    assert result.request_id == "hand-7"
    assert (result.derived.dice, result.derived.huangfan_count, result.derived.request_id) == (Dice(3, 3), 1, "hand-7")
    assert result.settlement == settle(result.derived)


def test_a_self_draw_on_the_tile_drawn():
    # wall: 9s for seat 1, then 3m
    events = (discard(0, "9p"), draw(1, "9s"), discard(1, "9s"), draw(2, "1s"), discard(2, "1s"))
    events += (draw(3, "1s"), discard(3, "1s"), draw(0, "7p"), discard(0, "7p"), draw(1, "3m"), win(1))
    derived = settle_record(record(*events)).derived
    assert derived.outcome == Outcome.SELF_DRAW
    (winner,) = derived.winners
    assert winner.hand.winning_tile == T("3m")
    assert winner.hand.concealed == parse_tiles("11123345678999m")
    # seat 1 has discarded: no longer its first go-around
    assert (winner.replacement_draw, winner.first_go_around) == (False, False)


def test_heavenly_hand_wins_on_the_last_tile_dealt():
    deals = (deal(0, "111m 222m 333m 444m 5m 5m"), deal(1, "123p 456p 789p 123s 4s"))
    deals += (deal(2, "234p 567p 8p EEE SSS"), deal(3, "666m 777m 888m 99m 9p 1s"))
    result = settle_record(record(win(0), deals=deals))
    (winner,) = result.derived.winners
    assert result.derived.outcome == Outcome.SELF_DRAW
    assert winner.hand.winning_tile == T("5m")
    assert winner.first_go_around
    assert Pattern.HEAVENLY in result.settlement.winners[0].patterns


def test_kong_bloom_is_a_self_draw_on_the_replacement_tile():
    deals = (deal(0, "2222s 888p 666m 44s 33s"), *DEALS[1:])
    result = settle_record(record(concealed_kong(0, "2s"), draw(0, "4s"), win(0), deals=deals))
    (winner,) = result.derived.winners
    assert winner.hand.melds == (Meld(MeldKind.CONCEALED_KONG, parse_tiles("2222s"), 0),)
    assert winner.hand.concealed == parse_tiles("666m 888p 33s 444s")
    assert winner.hand.winning_tile == T("4s")
    # a kong was laid down: the first go-around is over
    assert (winner.replacement_draw, winner.first_go_around) == (True, False)
    assert result.settlement.winners[0].patterns == (Pattern.ALL_PUNGS, Pattern.KONG_BLOOM, Pattern.CONCEALED)


def test_claims_are_melds_from_their_discarders_and_liabilities_by_claimer_then_source():
    # seat 1 chows the dealer's 5m (a pass: it could have won on it), seat 3 pungs seat 2's 9s
    events = (discard(0, "5m"), chow(1, "46m"), discard(1, "1m"), draw(2, "9s"), discard(2, "9s"), pung(3))
    events += (discard(3, "N"), exhaustive_draw())
    result = settle_record(record(*events))
    derived = result.derived
    assert derived.outcome == Outcome.EXHAUSTIVE_DRAW
    assert derived.winners == ()
    assert derived.liabilities == (LiabilityRelation(1, 0, 1), LiabilityRelation(3, 2, 1))
    assert result.settlement.seat_deltas == (0.0, 0.0, 0.0, 0.0)
    assert (result.settlement.next_hand.dealer_seat, result.settlement.next_hand.huangfan_count) == (0, 1)


ROBBING_DEALS = (
    deal(0, "5m 8p 99p 2468s WW N C F P"),
    deal(1, "111m 999m 234m 46m 88m"),  # waits on 5m alone, and holds none
    deal(2, "55m 123p 456p 789p 12s"),
    deal(3, "111p 33p 99s 77s 55s 3s N"),
)
# Seat 2 pungs the dealer's 5m (seat 1 passes it), and adds the last 5m to that pung later.
ROBBING_EVENTS = (
    discard(0, "5m"),  # 4: seat 1 could have won
    pung(2),
    discard(2, "1s"),
    draw(3, "1s"),
    discard(3, "1s"),
    draw(0, "7p"),
    discard(0, "7p"),
    draw(1, "9s"),  # 11: seat 1 draws, its lock on 5m lifts
    discard(1, "9s"),
    draw(2, "5m"),
    added_kong(2, "5m"),  # 14
)


def test_robbing_a_kong_wins_on_the_added_tile_from_the_kong_player():
    result = settle_record(record(*ROBBING_EVENTS, win(1), deals=ROBBING_DEALS))
    derived = result.derived
    assert (derived.outcome, derived.discarder_seat) == (Outcome.ROBBING_KONG, 2)
    (winner,) = derived.winners
    assert winner.hand.concealed == parse_tiles("111m 234m 456m 88m 999m")
    assert winner.hand.winning_tile == T("5m")
    assert (winner.passed_tiles, winner.first_go_around) == ((), False)
    assert derived.liabilities == (LiabilityRelation(2, 0, 1),)  # the added kong is no new claim
    assert result.settlement.winners[0].patterns == (Pattern.FULL_FLUSH, Pattern.CONCEALED, Pattern.ROBBING_KONG)
    assert result.settlement.seat_deltas == (0.0, 60.0, -60.0, 0.0)  # the kong player pays for all three


def test_an_added_kong_keeps_its_pungs_place_and_source():
    # seat 1 lets the kong be; seat 2 draws its replacement, discards, and the hand ends
    events = (*ROBBING_EVENTS, draw(2, "3s"), discard(2, "3s"), draw(3, "6p"), discard(3, "6p"), exhaustive_draw())
    result = settle_record(record(*events, deals=ROBBING_DEALS))
    assert [(p.seat, p.tile, p.event_index, p.lifted_at) for p in result.passes] == [
        (1, T("5m"), 4, 11),
        (1, T("5m"), 14, None),
    ]


def test_a_seat_dealt_all_eight_flowers_wins_before_the_dealer_plays():
    deals = (*DEALS[:2], deal(2, "EEE SSS 234p 567p 8p", flowers="1f 2f 3f 4f 5f 6f 7f 8f"), DEALS[3])
    result = settle_record(record(win(2), deals=deals))
    derived = result.derived
    assert derived.outcome == Outcome.EIGHT_FLOWERS
    (winner,) = derived.winners
    assert winner.hand.concealed == parse_tiles("234567p 8p EEE SSS")
    assert winner.hand.winning_tile is None
    assert winner.hand.flowers == tuple(Flower)
    assert result.settlement.winners[0].patterns == (Pattern.EIGHT_FLOWERS,)
    assert result.settlement.winners[0].legal


def test_the_eighth_flower_drawn_wins_at_once():
    deals = (DEALS[0], deal(1, "1112345678999m", flowers="1f 2f 3f 4f 5f 6f 7f"), *DEALS[2:])
    result = settle_record(record(discard(0, "9p"), draw(1, "8f"), win(1), deals=deals))
    (winner,) = result.derived.winners
    assert result.derived.outcome == Outcome.EIGHT_FLOWERS
    assert winner.hand.concealed == parse_tiles("1112345678999m")
    assert winner.hand.flowers == tuple(Flower)


def test_a_flower_drawn_makes_the_next_tile_a_replacement():
    events = (discard(0, "9p"), draw(1, "3f"), draw(1, "5m"), win(1))
    (winner,) = settle_record(record(*events)).derived.winners
    assert winner.hand.flowers == (Flower.AUTUMN,)
    assert winner.replacement_draw


def test_an_abandon_settles_as_one():
    result = settle_record(record(discard(0, "9p"), abandon(2), profile="lezi"))
    assert (result.derived.outcome, result.derived.abandoning_seat) == (Outcome.ABANDON, 2)
    assert result.settlement.seat_deltas == (0.0, 0.0, -15.0, 0.0)


def test_recorded_deltas_are_checked_seat_by_seat():
    events = (discard(0, "5m"), win(1))
    assert settle_record(record(*events, recorded_deltas=(-160.0, 160.0, 0.0, 0.0)))[4:] == (True, ())
    assert settle_record(record(*events, recorded_deltas=(-80.0, 160.0, -80.0, 0.0)))[4:] == (False, (0, 2))
    assert settle_record(record(*events))[4:] == (False, ())

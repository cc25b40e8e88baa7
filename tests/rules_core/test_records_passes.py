"""RULES.md section 4 漏胡 as section 13 derives it: passes, locks, and when locks lift."""

from rules_core import IllegalReason, Outcome, Pass, Pattern, settle_record
from rules_core.build import chow, deal, discard, draw, exhaustive_draw, pung, win
from rules_core.notation import parse_tile

from .record_hands import record

T = parse_tile
FLUSH_EARTHLY = (Pattern.FULL_FLUSH, Pattern.EARTHLY, Pattern.CONCEALED)

# Seat 3 discards 2m, which seat 1 (九莲: every 万) could win on; then the dealer draws and
# discards the next 2m while seat 1 is still locked. Wall: 9s, 1s, 2m, 2m for seats 1, 2, 3, 0.
LOCKED = (
    discard(0, "9p"),
    draw(1, "9s"),
    discard(1, "9s"),
    draw(2, "1s"),
    discard(2, "1s"),
    draw(3, "2m"),
    discard(3, "2m"),  # 10: seat 1 passes
    draw(0, "2m"),
    discard(0, "2m"),  # 12: locked for seat 1
)


def test_a_seat_that_could_have_won_and_did_not_passes_the_tile():
    result = settle_record(record(*LOCKED, draw(1, "3p"), discard(1, "3p"), draw(2, "9m"), discard(2, "9m"), win(1)))
    assert result.passes == (Pass(1, T("2m"), 10, (Pattern.FULL_FLUSH, Pattern.CONCEALED), lifted_at=13),)


def test_a_locked_tile_is_no_legal_win_and_the_hand_goes_on():
    result = settle_record(record(*LOCKED, win(1)))
    (winner,) = result.derived.winners
    assert winner.passed_tiles == (T("2m"),)
    (judged,) = result.settlement.winners
    assert (judged.legal, judged.illegal_reasons) == (False, (IllegalReason.MISSED_WIN,))
    assert result.settlement.next_hand is None
    assert result.settlement.seat_deltas == (0.0, 0.0, 0.0, 0.0)
    # no second pass: a win on a locked tile would not be legal, so seat 1 could not have won
    assert [p.event_index for p in result.passes] == [10]


def test_the_lock_covers_that_tile_only():
    # seat 1 is locked on 2m, and wins on the dealer's 5m
    events = (*LOCKED[:-2], draw(0, "3p"), discard(0, "5m"), win(1))
    result = settle_record(record(*events))
    (winner,) = result.derived.winners
    assert (winner.passed_tiles, winner.hand.winning_tile) == ((T("2m"),), T("5m"))
    assert result.settlement.winners[0].legal


def test_drawing_lifts_the_lock_and_a_self_drawn_locked_tile_wins():
    events = (*LOCKED, draw(1, "2m"), win(1))
    result = settle_record(record(*events))
    (winner,) = result.derived.winners
    assert (result.derived.outcome, winner.passed_tiles) == (Outcome.SELF_DRAW, ())
    assert result.settlement.winners[0].legal
    assert result.passes[0].lifted_at == 13


def test_claiming_the_tile_instead_of_winning_on_it_is_a_pass_that_the_claim_lifts():
    result = settle_record(record(discard(0, "5m"), chow(1, "46m"), discard(1, "1m"), exhaustive_draw()))
    assert result.passes == (Pass(1, T("5m"), 4, FLUSH_EARTHLY, lifted_at=5),)


def test_a_pass_on_the_last_discard_is_listed():
    result = settle_record(record(discard(0, "5m"), exhaustive_draw()))
    assert result.passes == (Pass(1, T("5m"), 4, FLUSH_EARTHLY),)


# Seats 1 and 3 both wait on 6m, which seat 2 discards.
TWO_WAITING = (
    deal(0, "5m 8p 99p 2468s WW N C F P"),
    deal(1, "1112345678999m"),
    deal(2, "EEE SSS 234p 567p 8p"),
    deal(3, "222m 333m 444m 66m 78m"),  # waits on 6m and 9m
)
TO_SIX = (discard(0, "9p"), draw(1, "1s"), discard(1, "1s"), draw(2, "6m"), discard(2, "6m"))


def test_several_seats_win_on_one_discard_in_the_order_of_their_wins():
    result = settle_record(record(*TO_SIX, win(3), win(1), deals=TWO_WAITING))
    assert [w.seat for w in result.derived.winners] == [3, 1]
    assert (result.derived.outcome, result.derived.discarder_seat) == (Outcome.DISCARD, 2)
    assert result.settlement.next_hand.dealer_seat == 3  # the first winner in turn order after the discarder
    assert result.passes == ()


def test_a_seat_that_lets_the_others_win_passes():
    result = settle_record(record(*TO_SIX, win(3), deals=TWO_WAITING))
    assert result.passes == (Pass(1, T("6m"), 8, (Pattern.FULL_FLUSH, Pattern.CONCEALED)),)


def test_another_seats_claim_leaves_the_lock_in_force():
    # after seat 1 passes 2m, seat 3 pungs the dealer's 3p; the dealer then discards the last 2m
    events = (*LOCKED[:-2], draw(0, "3p"), discard(0, "3p"), pung(3), discard(3, "N"), draw(0, "2m"))
    result = settle_record(record(*events, discard(0, "2m"), win(1)))
    assert result.derived.winners[0].passed_tiles == (T("2m"),)
    assert result.settlement.winners[0].illegal_reasons == (IllegalReason.MISSED_WIN,)
    assert result.passes[0].lifted_at is None

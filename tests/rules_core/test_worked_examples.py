"""The 20 worked examples of RULES.md section 12, each asserting exact deltas,
legality, patterns and the next hand.

Seat 0 is the dealer, there are no dice and the 荒番 count is 0, unless stated.
The requests, hands written in the notation of RULES.md, are in
`tests/worked_examples.py`, which the service tests also send over the wire.
"""

from __future__ import annotations

from rules_core import IllegalReason, NextHand, settle
from rules_core import Pattern as P
from tests.worked_examples import REQUESTS


def test_01_classic_self_draw_all_pungs_concealed():
    result = settle(REQUESTS["1"])  # 111m 555m 999p EEE 77s, 1f 5f, self-drawn 7s
    (w,) = result.winners
    assert w.legal and w.patterns == (P.ALL_PUNGS, P.CONCEALED)
    assert w.flowers == 3  # 2 flowers + 1 wind pung
    assert w.base_value == 12 and w.value == 12  # (3 + 3) x 2
    assert result.seat_deltas == (36, -12, -12, -12)
    assert result.next_hand == NextHand(0, 0)


def test_02_huangfan_count_doubles_once():
    result = settle(REQUESTS["2"])
    assert result.winners[0].value == 24
    assert result.seat_deltas == (72, -24, -24, -24)
    assert result.next_hand == NextHand(0, 1)


def test_03_dice_double_makes_a_huangfan_hand():
    result = settle(REQUESTS["3"])  # dice 2 and 2
    assert result.huangfan_after_dice == 1
    assert result.seat_deltas == (72, -24, -24, -24)
    assert result.next_hand == NextHand(0, 0)


def test_04_classic_full_flush_on_a_discard():
    result = settle(REQUESTS["4"])  # seat 2: [123p@1] 456p 789p 111p 55p on seat 1's 5p
    assert result.winners[0].patterns == (P.FULL_FLUSH,)
    assert result.winners[0].value == 20
    assert result.seat_deltas == (0, -20, 20, 0)
    assert result.next_hand == NextHand(2, 0)


def test_05_lezi_full_flush_is_one_lezi():
    result = settle(REQUESTS["5"])
    assert result.winners[0].value == 10
    assert result.seat_deltas == (0, -10, 10, 0)


def test_06_mixed_suits_with_chows_may_not_win():
    result = settle(REQUESTS["6"])  # seat 1: [123m@0] 456p 789s 234s EE on seat 3's E
    (r,) = result.winners
    assert not r.legal
    assert r.illegal_reasons == (IllegalReason.NO_QUALIFYING_PATTERN,)
    assert r.patterns == () and r.value == 0
    assert result.payments == ()
    assert result.seat_deltas == (0, 0, 0, 0)
    assert result.next_hand is None


def test_07_big_hanging_qualifies_in_classic():
    result = settle(REQUESTS["7"])  # [123m@3] [456p@3] [789s@3] [EEE@1], pairing 7s
    assert result.winners[0].patterns == (P.BIG_HANGING,)
    assert result.winners[0].value == 20
    assert result.seat_deltas == (20, 0, -20, 0)


def test_07_big_hanging_alone_does_not_qualify_in_lezi():
    result = settle(REQUESTS["7-lezi"])
    (r,) = result.winners
    assert not r.legal
    assert r.illegal_reasons == (IllegalReason.NO_QUALIFYING_PATTERN,)
    assert r.patterns == (P.BIG_HANGING,)
    assert result.seat_deltas == (0, 0, 0, 0)
    assert result.next_hand is None


def test_08_heavenly_hand():
    result = settle(REQUESTS["8"])  # the dealer's initial 123m 456p 789s 234s EE
    assert result.winners[0].patterns == (P.HEAVENLY, P.CONCEALED)
    assert result.winners[0].value == 200
    assert result.seat_deltas == (600, -200, -200, -200)
    assert result.next_hand == NextHand(0, 0)


def test_09_lezi_kaibao_doubles():
    result = settle(REQUESTS["9"])  # seat 3: [EEE@2] 222m 333p 999s 55m, 2f 3f 4f, dice 3 and 3
    (r,) = result.winners
    assert r.patterns == (P.ALL_PUNGS,)
    assert r.flowers == 4  # 3 flowers + 1 wind pung
    assert r.base_value == 6 and r.value == 12  # (2 + 4), 开宝 x2
    assert result.seat_deltas == (-12, -12, -12, 36)
    assert result.next_hand == NextHand(3, 0)


def test_10_kaibao_and_huangfan_quadruple():
    result = settle(REQUESTS["10"])
    assert result.winners[0].value == 24
    assert result.seat_deltas == (-24, -24, -24, 72)
    assert result.next_hand == NextHand(3, 0)


def test_11_kong_bloom_raises_to_one_lezi():
    result = settle(REQUESTS["11"])  # seat 1: [9999m@0] 111p 555s 777s 33m, 6f, on a replacement tile
    (r,) = result.winners
    assert r.patterns == (P.ALL_PUNGS, P.KONG_BLOOM)
    assert r.flowers == 2  # 1 flower + 1 suited exposed kong
    assert r.value == 10  # 2 + 2 = 4, raised to 1 勒
    assert result.seat_deltas == (-10, 30, -10, -10)


def test_12_robbing_a_kong_with_lezi_liability():
    result = settle(REQUESTS["12"])  # seat 0 robs seat 2's 8p; claimed 3 times from seat 1
    (r,) = result.winners
    assert r.patterns == (P.HALF_FLUSH, P.ROBBING_KONG)
    assert r.flowers == 3 and r.value == 5
    assert result.seat_deltas == (30, -15, -15, 0)


def test_13_lezi_liability_adds_on_a_discard():
    result = settle(REQUESTS["13"])  # seat 1: [111s@2] [222s@2] [333s@2] 456s 99s on seat 0's 9s
    assert result.winners[0].patterns == (P.FULL_FLUSH,)
    assert result.winners[0].value == 10
    assert result.seat_deltas == (-10, 20, -10, 0)


def test_13_liability_in_both_directions_counts_twice():
    result = settle(REQUESTS["13-both"])
    assert result.seat_deltas == (-10, 30, -20, 0)


def test_14_lezi_liability_on_a_self_draw_is_three_shares():
    result = settle(REQUESTS["14"])
    assert result.seat_deltas == (-10, 60, -40, -10)


def test_15_sankou_discard_by_an_unrelated_seat():
    result = settle(REQUESTS["15"])
    assert result.winners[0].value == 20
    assert result.seat_deltas == (-20, 40, -20, 0)


def test_15_sankou_discard_by_the_related_seat():
    result = settle(REQUESTS["15-related"])
    assert result.seat_deltas == (0, 40, -40, 0)


def test_16_sankou_eight_or_more_is_one_lazi_and_a_relation_pays_five():
    result = settle(REQUESTS["16"])  # seat 2: 222m 444p 666s WWW 88s, 1f 2f 3f; seat 3 claimed 3 from seat 2
    (r,) = result.winners
    assert r.patterns == (P.ALL_PUNGS, P.CONCEALED)
    assert r.flowers == 4
    assert r.value == 20  # (1 + 4) x 2 = 10 >= 8
    assert result.seat_deltas == (0, 0, 100, -100)


def test_17_one_discard_several_winners():
    result = settle(REQUESTS["17"])  # seats 0 and 2 on seat 3's 5m
    first, second = result.winners
    assert first.patterns == (P.ALL_PUNGS, P.HALF_FLUSH, P.HALF_FLUSH_PUNGS)
    assert first.value == 20
    assert second.patterns == (P.ALL_PUNGS,)
    assert second.value == 5
    assert result.seat_deltas == (20, 0, 5, -25)
    assert result.next_hand == NextHand(0, 0)  # the first winner after seat 3


def test_18_eight_flowers_paid_as_a_self_draw():
    result = settle(REQUESTS["18"])
    (r,) = result.winners
    assert r.patterns == (P.EIGHT_FLOWERS,)
    assert r.value == 20
    assert result.seat_deltas == (-20, -20, 60, -20)


def test_19_missed_win_locks_the_passed_tile():
    result = settle(REQUESTS["19"])  # example 9's hand on seat 1's 5m, with 5m passed
    (r,) = result.winners
    assert not r.legal
    assert r.illegal_reasons == (IllegalReason.MISSED_WIN,)
    assert r.patterns == (P.ALL_PUNGS,)
    assert result.seat_deltas == (0, 0, 0, 0)
    assert result.next_hand is None


def test_19_a_self_drawn_locked_tile_may_win():
    result = settle(REQUESTS["19-self"])
    assert result.winners[0].legal
    assert result.seat_deltas == (-6, -6, -6, 18)


def test_19_the_lock_covers_one_tile_only():
    result = settle(REQUESTS["19-other"])  # only 9s passed
    assert result.winners[0].legal
    assert result.seat_deltas == (0, -6, 0, 6)


def test_20_exhaustive_draw_adds_dice_huangfan_and_one():
    result = settle(REQUESTS["20"])  # 荒番 1, dealer 2, dice 1 and 1
    assert result.huangfan_after_dice == 3
    assert result.next_hand == NextHand(2, 4)
    assert result.seat_deltas == (0, 0, 0, 0)
    assert result.payments == ()

"""The 20 worked examples of RULES.md section 12, each asserting exact deltas,
legality, patterns and the next hand.

Seat 0 is the dealer, there are no dice and the 荒番 count is 0, unless stated.
"""

from __future__ import annotations

from rules_core import IllegalReason, NextHand, Outcome, SettleRequest, settle
from rules_core import Pattern as P
from rules_core.build import claims, dice, winner
from rules_core.requests import replace

SELF, DISCARD, ROB = Outcome.SELF_DRAW, Outcome.DISCARD, Outcome.ROBBING_KONG


def request(profile, outcome, winners, **table) -> SettleRequest:
    return SettleRequest(profile=profile, outcome=outcome, winners=tuple(winners), **table)


EXAMPLE_1 = request("classic", SELF, [winner(0, "111m 555m 999p EEE 77s", win="7s", flowers="1f 5f")])


def test_01_classic_self_draw_all_pungs_concealed():
    result = settle(EXAMPLE_1)
    (w,) = result.winners
    assert w.legal and w.patterns == (P.ALL_PUNGS, P.CONCEALED)
    assert w.flowers == 3  # 2 flowers + 1 wind pung
    assert w.base_value == 12 and w.value == 12  # (3 + 3) x 2
    assert result.seat_deltas == (36, -12, -12, -12)
    assert result.next_hand == NextHand(0, 0)


def test_02_huangfan_count_doubles_once():
    result = settle(replace(EXAMPLE_1, huangfan_count=2))
    assert result.winners[0].value == 24
    assert result.seat_deltas == (72, -24, -24, -24)
    assert result.next_hand == NextHand(0, 1)


def test_03_dice_double_makes_a_huangfan_hand():
    result = settle(replace(EXAMPLE_1, dice=dice(2, 2)))
    assert result.huangfan_after_dice == 1
    assert result.seat_deltas == (72, -24, -24, -24)
    assert result.next_hand == NextHand(0, 0)


EXAMPLE_4_WINNER = winner(2, "456p 789p 111p 55p [123p@1]", win="5p")


def test_04_classic_full_flush_on_a_discard():
    result = settle(request("classic", DISCARD, [EXAMPLE_4_WINNER], discarder_seat=1))
    assert result.winners[0].patterns == (P.FULL_FLUSH,)
    assert result.winners[0].value == 20
    assert result.seat_deltas == (0, -20, 20, 0)
    assert result.next_hand == NextHand(2, 0)


def test_05_lezi_full_flush_is_one_lezi():
    result = settle(request("lezi", DISCARD, [EXAMPLE_4_WINNER], discarder_seat=1))
    assert result.winners[0].value == 10
    assert result.seat_deltas == (0, -10, 10, 0)


def test_06_mixed_suits_with_chows_may_not_win():
    w = winner(1, "456p 789s 234s EE [123m@0]", win="E")
    result = settle(request("classic", DISCARD, [w], discarder_seat=3))
    (r,) = result.winners
    assert not r.legal
    assert r.illegal_reasons == (IllegalReason.NO_QUALIFYING_PATTERN,)
    assert r.patterns == () and r.value == 0
    assert result.payments == ()
    assert result.seat_deltas == (0, 0, 0, 0)
    assert result.next_hand is None


EXAMPLE_7 = request(
    "classic",
    DISCARD,
    [winner(0, "7s 7s [123m@3] [456p@3] [789s@3] [EEE@1]", win="7s")],
    discarder_seat=2,
)


def test_07_big_hanging_qualifies_in_classic():
    result = settle(EXAMPLE_7)
    assert result.winners[0].patterns == (P.BIG_HANGING,)
    assert result.winners[0].value == 20
    assert result.seat_deltas == (20, 0, -20, 0)


def test_07_big_hanging_alone_does_not_qualify_in_lezi():
    result = settle(replace(EXAMPLE_7, profile="lezi"))
    (r,) = result.winners
    assert not r.legal
    assert r.illegal_reasons == (IllegalReason.NO_QUALIFYING_PATTERN,)
    assert r.patterns == (P.BIG_HANGING,)
    assert result.seat_deltas == (0, 0, 0, 0)
    assert result.next_hand is None


def test_08_heavenly_hand():
    w = winner(0, "123m 456p 789s 234s EE", win="E", first_go_around=True)
    result = settle(request("classic", SELF, [w]))
    assert result.winners[0].patterns == (P.HEAVENLY, P.CONCEALED)
    assert result.winners[0].value == 200
    assert result.seat_deltas == (600, -200, -200, -200)
    assert result.next_hand == NextHand(0, 0)


EXAMPLE_9 = request(
    "lezi",
    SELF,
    [winner(3, "222m 333p 999s 55m [EEE@2]", win="5m", flowers="2f 3f 4f")],
    dice=dice(3, 3),
)


def test_09_lezi_kaibao_doubles():
    result = settle(EXAMPLE_9)
    (r,) = result.winners
    assert r.patterns == (P.ALL_PUNGS,)
    assert r.flowers == 4  # 3 flowers + 1 wind pung
    assert r.base_value == 6 and r.value == 12  # (2 + 4), 开宝 x2
    assert result.seat_deltas == (-12, -12, -12, 36)
    assert result.next_hand == NextHand(3, 0)


def test_10_kaibao_and_huangfan_quadruple():
    result = settle(replace(EXAMPLE_9, huangfan_count=1))
    assert result.winners[0].value == 24
    assert result.seat_deltas == (-24, -24, -24, 72)
    assert result.next_hand == NextHand(3, 0)


def test_11_kong_bloom_raises_to_one_lezi():
    w = winner(1, "111p 555s 777s 33m [9999m@0]", win="3m", flowers="6f", replacement_draw=True)
    result = settle(request("lezi", SELF, [w]))
    (r,) = result.winners
    assert r.patterns == (P.ALL_PUNGS, P.KONG_BLOOM)
    assert r.flowers == 2  # 1 flower + 1 suited exposed kong
    assert r.value == 10  # 2 + 2 = 4, raised to 1 勒
    assert result.seat_deltas == (-10, 30, -10, -10)


def test_12_robbing_a_kong_with_lezi_liability():
    w = winner(0, "678p 99p [WWW@1] [NNN@1] [SSS@1]", win="8p")
    result = settle(request("lezi", ROB, [w], discarder_seat=2, liabilities=(claims(0, 1),)))
    (r,) = result.winners
    assert r.patterns == (P.HALF_FLUSH, P.ROBBING_KONG)
    assert r.flowers == 3 and r.value == 5
    assert result.seat_deltas == (30, -15, -15, 0)


EXAMPLE_13 = request(
    "lezi",
    DISCARD,
    [winner(1, "456s 99s [111s@2] [222s@2] [333s@2]", win="9s")],
    discarder_seat=0,
    liabilities=(claims(1, 2),),
)


def test_13_lezi_liability_adds_on_a_discard():
    result = settle(EXAMPLE_13)
    assert result.winners[0].patterns == (P.FULL_FLUSH,)
    assert result.winners[0].value == 10
    assert result.seat_deltas == (-10, 20, -10, 0)


def test_13_liability_in_both_directions_counts_twice():
    result = settle(replace(EXAMPLE_13, liabilities=(claims(1, 2), claims(2, 1))))
    assert result.seat_deltas == (-10, 30, -20, 0)


def test_14_lezi_liability_on_a_self_draw_is_three_shares():
    result = settle(replace(EXAMPLE_13, outcome=SELF))
    assert result.seat_deltas == (-10, 60, -40, -10)


def test_15_sankou_discard_by_an_unrelated_seat():
    result = settle(replace(EXAMPLE_13, profile="sankou"))
    assert result.winners[0].value == 20
    assert result.seat_deltas == (-20, 40, -20, 0)


def test_15_sankou_discard_by_the_related_seat():
    result = settle(replace(EXAMPLE_13, profile="sankou", discarder_seat=2))
    assert result.seat_deltas == (0, 40, -40, 0)


def test_16_sankou_eight_or_more_is_one_lazi_and_a_relation_pays_five():
    w = winner(2, "222m 444p 666s WWW 88s", win="8s", flowers="1f 2f 3f")
    result = settle(request("sankou", SELF, [w], liabilities=(claims(3, 2),)))
    (r,) = result.winners
    assert r.patterns == (P.ALL_PUNGS, P.CONCEALED)
    assert r.flowers == 4
    assert r.value == 20  # (1 + 4) x 2 = 10 >= 8
    assert result.seat_deltas == (0, 0, 100, -100)


def test_17_one_discard_several_winners():
    seat0 = winner(0, "111m 999m 55m [EEE@3] [SSS@1]", win="5m")
    seat2 = winner(2, "888s 55m [222s@0] [444s@3] [666s@1]", win="5m", flowers="1f 2f")
    result = settle(request("classic", DISCARD, [seat0, seat2], discarder_seat=3))
    first, second = result.winners
    assert first.patterns == (P.ALL_PUNGS, P.HALF_FLUSH, P.HALF_FLUSH_PUNGS)
    assert first.value == 20
    assert second.patterns == (P.ALL_PUNGS,)
    assert second.value == 5
    assert result.seat_deltas == (20, 0, 5, -25)
    assert result.next_hand == NextHand(0, 0)  # the first winner after seat 3


def test_18_eight_flowers_paid_as_a_self_draw():
    w = winner(2, "123m 456p 789s 234s E", flowers="1f 2f 3f 4f 5f 6f 7f 8f")
    result = settle(request("lezi", Outcome.EIGHT_FLOWERS, [w]))
    (r,) = result.winners
    assert r.patterns == (P.EIGHT_FLOWERS,)
    assert r.value == 20
    assert result.seat_deltas == (-20, -20, 60, -20)


def _example_19(outcome, passed):
    w = winner(3, "222m 333p 999s 55m [EEE@2]", win="5m", flowers="2f 3f 4f", passed=passed)
    return request("lezi", outcome, [w], discarder_seat=1)


def test_19_missed_win_locks_the_passed_tile():
    result = settle(_example_19(DISCARD, "5m"))
    (r,) = result.winners
    assert not r.legal
    assert r.illegal_reasons == (IllegalReason.MISSED_WIN,)
    assert r.patterns == (P.ALL_PUNGS,)
    assert result.seat_deltas == (0, 0, 0, 0)
    assert result.next_hand is None


def test_19_a_self_drawn_locked_tile_may_win():
    result = settle(_example_19(SELF, "5m"))
    assert result.winners[0].legal
    assert result.seat_deltas == (-6, -6, -6, 18)


def test_19_the_lock_covers_one_tile_only():
    result = settle(_example_19(DISCARD, "9s"))
    assert result.winners[0].legal
    assert result.seat_deltas == (0, -6, 0, 6)


def test_20_exhaustive_draw_adds_dice_huangfan_and_one():
    req = request("classic", Outcome.EXHAUSTIVE_DRAW, [], huangfan_count=1, dealer_seat=2, dice=dice(1, 1))
    result = settle(req)
    assert result.huangfan_after_dice == 3
    assert result.next_hand == NextHand(2, 4)
    assert result.seat_deltas == (0, 0, 0, 0)
    assert result.payments == ()

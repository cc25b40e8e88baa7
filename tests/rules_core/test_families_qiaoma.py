"""The worked examples of RULES.md section 14.10.11: `qiaoma`, the MIL 2024 competition rules.

All are `qiaoma`, seat 0 is the dealer, there are no dice and the 荒番 count is 0. Seat 0 has
knocked (``declared_seats = [0]``) and no other seat has, unless stated. Dragon flowers are
written as the tiles ``C F P`` of `dragon_flowers`.
"""

from __future__ import annotations

from rules_core import IllegalReason, ItemKind, NextHand, settle
from rules_core import Pattern as P
from rules_core.build import claims, winner
from tests.rules_core.conftest import DISCARD, EIGHT, ROB, SELF, request

R = IllegalReason


def qiaoma(outcome, winners, declared=(0,), **table):
    return settle(request("qiaoma", outcome, winners, declared_seats=tuple(declared), **table))


_Q1 = "123m 123p 123s 789m NN"
_Q2 = "123p 123s 789m NN [123m@3]"


def test_q1_no_flowers_counts_ten_and_the_knock_is_needed():
    result = qiaoma(DISCARD, [winner(0, _Q1, win="N")], discarder_seat=2)
    (r,) = result.winners
    assert r.patterns == (P.CONCEALED, P.NO_FLOWERS)
    assert r.flowers == 10 and r.value == 22  # (1 + 10) x 2
    assert r.items[0] == (ItemKind.FLOWERS, "NO_FLOWERS", "无花（10花）", "No flowers: counts 10", 10, 1)
    assert result.seat_deltas == (22, 0, -22, 0)
    assert result.next_hand == NextHand(0, 0)
    unknocked = qiaoma(DISCARD, [winner(0, _Q1, win="N")], declared=(), discarder_seat=2)
    assert unknocked.winners[0].illegal_reasons == (R.NOT_DECLARED,)
    assert unknocked.seat_deltas == (0, 0, 0, 0) and unknocked.next_hand is None


def test_q2_a_rubbish_hand_needs_two_or_three_flowers():
    def on_discard(**flowers):
        return qiaoma(DISCARD, [winner(0, _Q2, win="N", **flowers)], discarder_seat=2)

    def drawn(**flowers):
        return qiaoma(SELF, [winner(0, _Q2, win="N", **flowers)])

    assert on_discard().winners[0].value == 11 and on_discard().seat_deltas == (11, 0, -11, 0)
    for result in (on_discard(flowers="1f"), drawn(flowers="1f"), on_discard(flowers="1f", dragon_flowers="C")):
        assert result.winners[0].illegal_reasons == (R.TOO_FEW_FLOWERS,)
        assert result.seat_deltas == (0, 0, 0, 0)
    two = drawn(flowers="1f", dragon_flowers="C")
    assert two.winners[0].value == 3 and two.seat_deltas == (9, -3, -3, -3)
    three = on_discard(flowers="1f", dragon_flowers="C P")
    assert three.winners[0].value == 4 and three.seat_deltas == (4, 0, -4, 0)


def test_q3_kong_bloom_and_robbing_do_not_lift_the_minimum():
    bloom = qiaoma(SELF, [winner(0, _Q2, win="N", flowers="1f", replacement_draw=True)])
    assert bloom.winners[0].illegal_reasons == (R.TOO_FEW_FLOWERS,)
    robbed = qiaoma(ROB, [winner(0, _Q2, win="9m", flowers="1f 2f")], discarder_seat=2)
    assert robbed.winners[0].illegal_reasons == (R.TOO_FEW_FLOWERS,)
    enough = qiaoma(SELF, [winner(0, _Q2, win="N", flowers="1f 2f", replacement_draw=True)])
    assert enough.winners[0].patterns == (P.KONG_BLOOM,)
    assert enough.winners[0].value == 6 and enough.seat_deltas == (18, -6, -6, -6)  # (1 + 2) x 2


def test_q4_a_concealed_wind_pung_is_one_flower():
    result = qiaoma(DISCARD, [winner(0, "123m 123p 123s EEE NN", win="N")], discarder_seat=2)
    (r,) = result.winners
    assert r.patterns == (P.CONCEALED,) and r.flowers == 1 and r.value == 4  # (1 + 1) x 2
    assert result.seat_deltas == (4, 0, -4, 0)


def test_q5_three_fan_at_most():
    result = qiaoma(SELF, [winner(0, "111m 333m 555m 777m 99m", win="9m", replacement_draw=True)])
    (r,) = result.winners
    assert r.patterns == (
        P.ALL_PUNGS,
        P.FULL_FLUSH,
        P.FULL_FLUSH_PUNGS,
        P.KONG_BLOOM,
        P.CONCEALED,
        P.NO_FLOWERS,
    )
    assert r.value == 88  # (1 + 10) x 2^3
    assert (ItemKind.CAP, "FAN_CAP", -2) in [(i.kind, i.code, i.contribution) for i in r.items]
    assert result.seat_deltas == (264, -88, -88, -88)


_Q6 = winner(0, "EE [123m@3] [456m@3] [789m@3] [111m@1]", win="E", flowers="1f")


def test_q6_an_unknocked_discarder_pays_its_partners_share():
    partners = (claims(0, 3, 3, pattern_kept=True), claims(0, 1, 1, pattern_kept=True))
    result = qiaoma(DISCARD, [_Q6], discarder_seat=2, liabilities=partners)
    (r,) = result.winners
    assert r.patterns == (P.HALF_FLUSH, P.BIG_HANGING) and r.value == 8  # (1 + 1) x 2^2
    assert result.seat_deltas == (16, 0, -16, 0)
    knocked = qiaoma(DISCARD, [_Q6], declared=(0, 2), discarder_seat=2, liabilities=partners)
    assert knocked.seat_deltas == (16, 0, -8, -8)


def test_q7_one_fan_rooms():
    assert qiaoma(SELF, [winner(0, _Q2, win="N")]).seat_deltas == (33, -11, -11, -11)
    eight = qiaoma(DISCARD, [winner(0, _Q2, win="N", flowers="1f 2f 3f 4f 5f 6f 7f 8f")], discarder_seat=2)
    assert eight.winners[0].value == 9 and eight.seat_deltas == (9, 0, -9, 0)  # no 八花: (1 + 8) x 1
    one_fan = {"min_fan": 1}
    too_few = qiaoma(DISCARD, [winner(0, _Q2, win="N", flowers="1f 2f 3f")], discarder_seat=2, overrides=one_fan)
    assert too_few.winners[0].illegal_reasons == (R.TOO_FEW_FAN,)
    robbed = qiaoma(ROB, [winner(0, _Q2, win="9m", flowers="1f 2f 3f")], discarder_seat=2, overrides=one_fan)
    assert robbed.winners[0].value == 8 and robbed.seat_deltas == (8, 0, -8, 0)
    drawn = qiaoma(SELF, [winner(0, _Q1, win="N")], overrides=one_fan)
    assert drawn.seat_deltas == (66, -22, -22, -22)


def test_q8_robbing_a_kong_is_one_share_and_one_fan():
    result = qiaoma(ROB, [winner(0, _Q1, win="3m")], discarder_seat=2)
    (r,) = result.winners
    assert r.patterns == (P.CONCEALED, P.ROBBING_KONG, P.NO_FLOWERS)
    assert r.value == 44  # (1 + 10) x 2^2
    assert result.seat_deltas == (44, 0, -44, 0)


_P = winner(0, "123m 123p 123s 789m NN", win="N", flowers="1f 2f 3f 4f")
_BOTH_PARTNERS = (claims(1, 0, 4), claims(3, 0, 4))


def test_p1_to_p7_the_payment_table():
    assert qiaoma(SELF, [_P]).seat_deltas == (30, -10, -10, -10)
    assert qiaoma(DISCARD, [_P], discarder_seat=2).seat_deltas == (10, 0, -10, 0)
    assert qiaoma(SELF, [_P], liabilities=_BOTH_PARTNERS).seat_deltas == (100, -50, 0, -50)
    table = {"liabilities": _BOTH_PARTNERS}
    assert qiaoma(DISCARD, [_P], declared=(0, 2), discarder_seat=2, **table).seat_deltas == (30, -10, -10, -10)
    assert qiaoma(DISCARD, [_P], discarder_seat=2, **table).seat_deltas == (30, 0, -30, 0)
    assert qiaoma(DISCARD, [_P], declared=(0, 1), discarder_seat=1, **table).seat_deltas == (30, -20, 0, -10)
    p7 = qiaoma(DISCARD, [_P], discarder_seat=1, **table)
    assert p7.seat_deltas == (30, -30, 0, 0)
    assert [(p.from_seat, p.amount, p.reason.name) for p in p7.payments] == [(1, 10, "DISCARD"), (1, 20, "LIABILITY")]


_E1 = winner(0, "111m 234m 567m EEE 99m", win="9m", flowers="1f 2f")


def test_e1_three_claims_need_the_pattern_four_do_not():
    result = qiaoma(SELF, [_E1], liabilities=(claims(1, 0, 3, pattern_kept=True),))
    assert result.winners[0].value == 16  # (1 + 3) x 2^2
    assert result.seat_deltas == (80, -80, 0, 0)
    assert qiaoma(SELF, [_E1], liabilities=(claims(1, 0, 4),)).seat_deltas == (80, -80, 0, 0)
    assert qiaoma(SELF, [_E1], liabilities=(claims(1, 0, 3),)).seat_deltas == (48, -16, -16, -16)


_E2 = winner(0, "567p 11p [WWW@2] [888p@2] [333p@2]", win="1p", dragon_flowers="C")


def test_e2_the_knock_and_claims():
    kept = (claims(0, 2, 3, pattern_kept=True),)
    result = qiaoma(DISCARD, [_E2], declared=(0, 1), discarder_seat=1, liabilities=kept)
    assert result.winners[0].patterns == (P.HALF_FLUSH,)  # 567p is a chow
    assert result.winners[0].value == 6
    assert result.seat_deltas == (12, -6, -6, 0)
    two_counted = (claims(0, 2, 2, pattern_kept=True),)
    assert qiaoma(DISCARD, [_E2], declared=(0, 1, 2), discarder_seat=1, liabilities=two_counted).seat_deltas == (
        6,
        -6,
        0,
        0,
    )
    assert qiaoma(DISCARD, [_E2], declared=(0,), discarder_seat=1, liabilities=kept).seat_deltas == (12, -12, 0, 0)
    not_knocked = qiaoma(DISCARD, [_E2], declared=(1,), discarder_seat=1, liabilities=kept)
    assert not_knocked.winners[0].illegal_reasons == (R.NOT_DECLARED,)
    assert not_knocked.seat_deltas == (0, 0, 0, 0) and not_knocked.next_hand is None


_E3 = winner(3, "789s 55s [111s@2] [999s@2] [NNN@2]", win="7s", flowers="2f", dragon_flowers="F")
_E3_RELATIONS = (claims(3, 2, 3, pattern_kept=True), claims(0, 3, 4))


def test_e3_two_partners_on_a_robbed_kong():
    knocked = qiaoma(ROB, [_E3], declared=(1, 3), discarder_seat=1, liabilities=_E3_RELATIONS)
    (r,) = knocked.winners
    assert r.patterns == (P.HALF_FLUSH, P.ROBBING_KONG) and r.flowers == 3 and r.value == 16
    assert knocked.seat_deltas == (-16, -16, -16, 48)
    assert knocked.next_hand == NextHand(3, 0)
    alone = qiaoma(ROB, [_E3], declared=(3,), discarder_seat=1, liabilities=_E3_RELATIONS)
    assert alone.seat_deltas == (0, -48, 0, 48)
    assert alone.next_hand == NextHand(3, 0)


def test_e4_two_winners_each_paid_the_discarder_deals_next():
    first = winner(0, "123m 345m 678m 999m 55m", win="5m", flowers="1f")
    second = winner(3, "456m 234p 789s NN [EEE@1]", win="5m", flowers="3f 4f")
    result = qiaoma(DISCARD, [first, second], declared=(0, 3), discarder_seat=2)
    assert [w.value for w in result.winners] == [16, 4]  # (1 + 1) x 2^3; (1 + 3) x 1
    assert result.winners[1].patterns == ()
    assert result.seat_deltas == (16, 0, -20, 4)
    assert result.next_hand == NextHand(2, 0)


def test_eight_flowers_claim_is_not_legal():
    result = qiaoma(EIGHT, [winner(0, "123m 123p 123s 789m N", flowers="1f 2f 3f 4f 5f 6f 7f 8f")])
    assert result.winners[0].illegal_reasons == (R.NO_QUALIFYING_PATTERN,)
    assert result.winners[0].patterns == (P.EIGHT_FLOWERS,)  # it holds, but does not qualify


def test_seven_pairs_and_shapeless_honours_are_incomplete():
    pairs = qiaoma(
        SELF, [winner(0, "11m 22m 55p 77p 99s EE SS", win="S", flowers="1f 2f")], overrides={"seven_pairs": True}
    )
    assert pairs.winners[0].illegal_reasons == (R.INCOMPLETE_SHAPE,)
    honours = qiaoma(SELF, [winner(0, "EEEE SSSS WWWW NN", win="N", flowers="1f")])
    assert honours.winners[0].illegal_reasons == (R.INCOMPLETE_SHAPE,)

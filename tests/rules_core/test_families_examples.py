"""The worked examples of RULES.md section 14.8: 敲麻 in 勒子 (`qiaoma_lezi`) and 清混碰
(`qinghunpeng`), each with exact deltas, legality, patterns and the next hand.

Seat 0 is the dealer, there are no dice and the 荒番 count is 0, unless stated. Dragon flowers
(`Cf Ff Pf` in RULES.md) are written as the tiles ``C F P`` of `dragon_flowers`.
"""

from __future__ import annotations

from rules_core import IllegalReason, ItemKind, NextHand, settle
from rules_core import Pattern as P
from rules_core.build import claims, dice, winner
from rules_core.requests import replace
from tests.rules_core.conftest import DISCARD, EIGHT, ROB, SELF, request

R = IllegalReason


def settled(profile, outcome, winners, **table):
    return settle(request(profile, outcome, winners, **table))


def test_01_qiaoma_lezi_rubbish_hand_wins_with_base_fan_and_concealed():
    w = winner(1, "123m 456p 789s 234s EE", win="E", flowers="1f 2f", dragon_flowers="C F")
    result = settled("qiaoma_lezi", SELF, [w])
    (r,) = result.winners
    assert r.legal and r.patterns == (P.CONCEALED,)
    assert r.flowers == 4
    assert r.value == 14  # (3 + 4) x (1 兜底 + 1 门清)
    assert [(i.kind, i.code, i.contribution) for i in r.items] == [
        (ItemKind.FLOWERS, "FLOWER_TILE", 4),
        (ItemKind.BASE, "ORDINARY_BASE", 3),
        (ItemKind.FAN, "BASE_FAN", 1),
        (ItemKind.FAN, "CONCEALED", 1),
    ]
    assert result.seat_deltas == (-14, 42, -14, -14)
    assert result.next_hand == NextHand(1, 0)


_EX2 = winner(2, "123m 456m 789p 234s 55s", win="5s")


def test_02_no_flowers_wins_by_self_draw_only():
    on_discard = settled("qiaoma_lezi", DISCARD, [_EX2], discarder_seat=1)
    (r,) = on_discard.winners
    assert not r.legal and r.illegal_reasons == (R.NO_FLOWERS_SELF_DRAW_ONLY,)
    assert r.patterns == (P.CONCEALED, P.NO_FLOWERS) and r.value == 0
    assert on_discard.seat_deltas == (0, 0, 0, 0) and on_discard.next_hand is None
    self_drawn = settled("qiaoma_lezi", SELF, [_EX2])
    assert self_drawn.winners[0].value == 9  # (3 + 0) x (1 + 1 门清 + 1 无花果)
    assert self_drawn.seat_deltas == (-9, -9, 27, -9)


def test_03_full_flush_is_a_lezi_hand_whatever_its_flowers():
    w = winner(3, "123p 345p 678p 999p 22p", win="9p", flowers="1f 2f 3f", dragon_flowers="C C P")
    result = settled("qiaoma_lezi", DISCARD, [w], discarder_seat=2)
    (r,) = result.winners
    assert r.patterns == (P.FULL_FLUSH, P.CONCEALED)
    assert r.value == 30  # 20 + 1 x 10
    assert result.seat_deltas == (0, 0, -30, 30)


def test_04_qinghunpeng_half_flush_pungs_has_one_shape_fan():
    w = winner(1, "111s 555s 999s EE [CCC@3]", win="E", flowers="5f 6f 7f")
    result = settled("qinghunpeng", DISCARD, [w], discarder_seat=0)
    (r,) = result.winners
    assert r.patterns == (P.ALL_PUNGS, P.HALF_FLUSH, P.HALF_FLUSH_PUNGS)
    assert r.flowers == 3  # the dragon pung counts 0
    assert r.value == 5  # (2 + 3) x 1
    shape_fan = [(i.code, i.name_zh, i.contribution) for i in r.items if i.kind == ItemKind.FAN]
    assert shape_fan == [("HALF_FLUSH_PUNGS", "混碰（牌型番）", 1)]
    assert result.seat_deltas == (-5, 5, 0, 0)
    assert settle(replace(request("lezi", DISCARD, [w], discarder_seat=0))).winners[0].value == 10
    assert settle(replace(request("classic", DISCARD, [w], discarder_seat=0))).winners[0].value == 20


def test_05_full_flush_pungs_kong_bloom_adds_a_lezi_per_fan():
    w = winner(2, "222p 444p 888p 99p [6666p]", win="9p", replacement_draw=True)
    result = settled("qinghunpeng", SELF, [w])
    assert result.winners[0].value == 40  # 20 + (门清 1 + 杠开 1) x 10
    assert result.seat_deltas == (-40, -40, 120, -40)
    assert settled("qiaoma_lezi", SELF, [w]).winners[0].value == 60  # 40 + 20


def test_06_mixed_hand_with_a_flower():
    w = winner(1, "456p 789s 234s EE [123m@0]", win="E", flowers="3f")
    qiaoma = settled("qiaoma_lezi", DISCARD, [w], discarder_seat=3)
    assert qiaoma.winners[0].legal and qiaoma.winners[0].value == 4  # (3 + 1) x 1
    assert qiaoma.seat_deltas == (0, 4, 0, -4)
    qhp = settled("qinghunpeng", DISCARD, [w], discarder_seat=3)
    assert qhp.winners[0].illegal_reasons == (R.NO_QUALIFYING_PATTERN,)
    assert qhp.seat_deltas == (0, 0, 0, 0)


def test_07_all_honours_as_seven_pairs():
    qiaoma = settled("qiaoma_lezi", SELF, [winner(0, "EEEE SSSS WWWW NN", win="N", dragon_flowers="F")], dealer_seat=1)
    (r,) = qiaoma.winners
    assert r.patterns == (P.ALL_HONOURS, P.CONCEALED)
    assert r.flowers == 4  # 1 + one wind pung per four concealed winds
    assert r.value == 50  # 40 + 10
    assert qiaoma.seat_deltas == (150, -50, -50, -50)
    qhp = settled("qinghunpeng", SELF, [winner(0, "EEEE SSSS WWWW NN", win="N", flowers="1f")], dealer_seat=1)
    assert qhp.winners[0].value == 30
    assert qhp.seat_deltas == (90, -30, -30, -30)


def test_08_shapeless_all_honours_is_incomplete_in_qinghunpeng():
    w = winner(2, "EEE SS W NN CC F PPP", win="P")
    result = settled("qinghunpeng", SELF, [w])
    assert result.winners[0].illegal_reasons == (R.INCOMPLETE_SHAPE,)
    assert result.seat_deltas == (0, 0, 0, 0)
    assert settle(request("lezi", SELF, [w])).winners[0].value == 20  # 风一色


def test_09_seven_pairs_with_the_override():
    w = winner(3, "11m 22m 5555p 77s 99s EE", win="E", flowers="2f 4f")
    on = request("qinghunpeng", SELF, [w], overrides={"seven_pairs": True})
    result = settle(on)
    (r,) = result.winners
    assert r.patterns == (P.CONCEALED, P.SEVEN_PAIRS)
    assert r.value == 8  # (2 + 2) x (1 + 1)
    assert result.seat_deltas == (-8, -8, -8, 24)
    assert settled("qinghunpeng", SELF, [w]).winners[0].illegal_reasons == (R.INCOMPLETE_SHAPE,)
    # The example keeps the flowers 2f 4f: with none the hand would add 无花果 (30).
    flush = settle(replace(on, winners=(winner(3, "11223344556677m", win="7m", flowers="2f 4f"),)))
    assert flush.winners[0].patterns == (P.FULL_FLUSH, P.CONCEALED)  # four sets and a pair, not 七对
    assert flush.seat_deltas == (-20, -20, -20, 60)


def test_10_eight_flowers_is_an_ordinary_hand_with_four_shape_fan_capped():
    w = winner(2, "123m 456m 99p EE [7777s]", flowers="1f 2f 3f 4f 5f 6f 7f 8f", dragon_flowers="C P")
    result = settled("qiaoma_lezi", EIGHT, [w])
    (r,) = result.winners
    assert r.patterns == (P.EIGHT_FLOWERS, P.CONCEALED)
    assert r.flowers == 12  # 10 flower tiles + 2 for the concealed kong
    assert r.value == 80  # (3 + 12) x (1 + 4 + 1) = 90, capped at 8 勒
    assert r.items[-1].kind == ItemKind.CAP and r.items[-1].contribution == -10
    assert result.seat_deltas == (-80, -80, 240, -80)


def test_11_heavenly_adds_eight_fan():
    w = winner(0, "111m 234m 567m 999m EE", win="E", flowers="1f 2f", first_go_around=True)
    qhp = settled("qinghunpeng", SELF, [w])
    assert qhp.winners[0].patterns == (P.HALF_FLUSH, P.HEAVENLY, P.CONCEALED)
    assert qhp.seat_deltas == (120, -40, -40, -40)  # (2 + 2) x (1 + 1 + 8)
    assert settled("qiaoma_lezi", SELF, [w]).seat_deltas == (165, -55, -55, -55)  # (3 + 2) x 11


def test_12_earthly_needs_a_self_draw():
    w = winner(1, "123m 456m 789p 11s 345s", win="5s", flowers="3f", first_go_around=True)
    drawn = settled("qiaoma_lezi", SELF, [w])
    assert P.EARTHLY in drawn.winners[0].patterns
    assert drawn.seat_deltas == (-40, 120, -40, -40)  # (3 + 1) x (1 + 1 + 8)
    discarded = settled("qiaoma_lezi", DISCARD, [w], discarder_seat=0)
    assert P.EARTHLY not in discarded.winners[0].patterns
    assert discarded.seat_deltas == (-8, 8, 0, 0)


_EX13 = winner(0, "666m 88p [222s@3] [444p@3] [WWW@3]", win="8p", flowers="8f")


def test_13_baosankou_one_liable_seat():
    related = (claims(0, 3),)
    self_drawn = settled("qinghunpeng", SELF, [_EX13], liabilities=related)
    assert self_drawn.winners[0].value == 4  # (2 + 2) x 1
    assert self_drawn.seat_deltas == (20, 0, 0, -20)
    assert [(p.from_seat, p.amount, p.reason.name) for p in self_drawn.payments] == [(3, 20, "LIABILITY")]
    assert settled("qinghunpeng", DISCARD, [_EX13], liabilities=related, discarder_seat=3).seat_deltas == (
        12,
        0,
        0,
        -12,
    )
    assert settled("qinghunpeng", DISCARD, [_EX13], liabilities=related, discarder_seat=2).seat_deltas == (4, 0, -4, 0)
    kong = winner(0, "666m 88p [222s@3] [4444p@3] [WWW@3]", win="8p", flowers="8f")
    two_claims = settled("qinghunpeng", SELF, [kong], liabilities=(claims(0, 3, 2),))  # the kong is no claim
    assert two_claims.winners[0].value == 5
    assert two_claims.seat_deltas == (15, -5, -5, -5)


def test_14_huangfan_per_level_and_kaibao():
    w = winner(3, "99m [111m@1] [333m@2] [555m@0] [777m@1]", win="9m", flowers="6f")
    result = settled("qiaoma_lezi", DISCARD, [w], discarder_seat=1, huangfan_count=2, dice=dice(1, 4))
    (r,) = result.winners
    assert r.base_value == 50  # 40 + 大吊车 1 x 10
    assert r.value == 400  # x 2^2 x 2
    assert result.seat_deltas == (0, -400, 0, 400)
    assert result.next_hand == NextHand(3, 0)


def test_15_several_winners_the_discarder_deals_next():
    first = winner(0, "111m 999m 55m [EEE@3] [SSS@1]", win="5m")
    second = winner(2, "888s 55m [222s@0] [444s@3] [666s@1]", win="5m", flowers="1f 2f")
    result = settled("qinghunpeng", DISCARD, [first, second], discarder_seat=3)
    assert [w.value for w in result.winners] == [4, 4]
    assert result.seat_deltas == (4, 0, 4, -8)
    assert result.next_hand == NextHand(3, 0)


def test_16_a_concealed_wind_pung_breaks_no_flowers():
    w = winner(2, "EEE 123p 456p 789p 55p", win="5p")
    drawn = settled("qinghunpeng", SELF, [w])
    assert drawn.winners[0].patterns == (P.HALF_FLUSH, P.CONCEALED)
    assert drawn.seat_deltas == (-6, -6, 18, -6)  # (2 + 1) x 2
    assert settled("qinghunpeng", DISCARD, [w], discarder_seat=1).seat_deltas == (0, -6, 6, 0)


def test_17_robbing_a_kong_is_a_bonus_fan_and_three_shares():
    w = winner(2, "123m 456m 789m 456s 99s", win="6s", flowers="2f")
    result = settled("qiaoma_lezi", ROB, [w], discarder_seat=3)
    (r,) = result.winners
    assert r.patterns == (P.CONCEALED, P.ROBBING_KONG) and r.value == 12  # (3 + 1) x 3
    assert result.seat_deltas == (0, 0, 36, -36)


def test_18_a_passed_tile_cannot_rob_a_kong():
    w = winner(1, "123p 456p 789p NNN 99p", win="3p", flowers="1f", passed="3p")
    result = settled("qinghunpeng", ROB, [w], discarder_seat=0)
    assert result.winners[0].illegal_reasons == (R.MISSED_WIN,)
    assert result.seat_deltas == (0, 0, 0, 0)


def test_19_last_tile():
    w = winner(
        0,
        "111p 555s 77s [EEEE] [9999m@1]",
        win="7s",
        flowers="1f 2f 3f 4f 5f",
        dragon_flowers="C C F F P P",
        last_tile=True,
    )
    result = settled("qiaoma_lezi", SELF, [w], dealer_seat=2)
    (r,) = result.winners
    assert r.patterns == (P.ALL_PUNGS, P.LAST_TILE)
    assert r.flowers == 15  # 11 + 3 (concealed wind kong) + 1 (exposed suited kong)
    assert r.value == 54  # (3 + 15) x 3
    assert result.seat_deltas == (162, -54, -54, -54)


def test_20_exhaustive_draw_raises_huangfan_to_three_at_most():
    drawn = request("qiaoma_lezi", _EXHAUSTIVE, dealer_seat=2, huangfan_count=2)
    assert settle(drawn).next_hand == NextHand(2, 3)
    again = settle(replace(drawn, huangfan_count=3))
    assert again.next_hand == NextHand(2, 3) and again.seat_deltas == (0, 0, 0, 0)


from rules_core import Outcome  # noqa: E402

_EXHAUSTIVE = Outcome.EXHAUSTIVE_DRAW

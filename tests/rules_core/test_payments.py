"""RULES.md sections 8-10: payments, liability, the next hand, abandon."""

from rules_core import NextHand, Outcome, settle
from rules_core import PaymentReason as Why
from rules_core.build import claims, winner

from .conftest import DISCARD, ROB, SELF, request

FULL_FLUSH = "456s 99s [111s@2] [222s@2] [333s@2]"  # seat 1; 20 in sankou, 10 in lezi


def deltas(profile, outcome, relations=(), discarder=0, seat=1, text=FULL_FLUSH):
    w = winner(seat, text, win="9s")
    return settle(request(profile, outcome, [w], discarder_seat=discarder, liabilities=tuple(relations))).seat_deltas


def test_robbing_a_kong_is_paid_three_times_by_the_kong_player():
    assert deltas("classic", ROB, discarder=3) == (0, 60, 0, -60)


def test_classic_ignores_relations():
    assert deltas("classic", SELF, [claims(1, 2)]) == (-20, 60, -20, -20)


def test_sankou_self_draw_by_number_of_related_seats():
    assert deltas("sankou", SELF, [claims(1, 2)]) == (0, 100, -100, 0)
    assert deltas("sankou", SELF, [claims(1, 2), claims(0, 1)]) == (-70, 140, -70, 0)
    assert deltas("sankou", SELF, [claims(1, 2), claims(0, 1), claims(1, 3, 4)]) == (-60, 180, -60, -60)


def test_sankou_robbing_a_kong_ignores_relations():
    assert deltas("sankou", ROB, [claims(1, 2)], discarder=3) == (0, 60, 0, -60)


def test_lezi_liability_on_robbing_a_kong_adds_three_shares():
    assert deltas("lezi", ROB, [claims(1, 2)], discarder=3) == (0, 60, -30, -30)


def test_below_the_threshold_there_is_no_relation():
    assert deltas("lezi", DISCARD, [claims(1, 2, 2)]) == (-10, 10, 0, 0)


def test_claims_for_the_same_pair_add_up():
    assert deltas("lezi", DISCARD, [claims(1, 2, 2), claims(1, 2, 1)]) == (-10, 20, -10, 0)


def test_replace_mode_lets_liable_seats_pay_instead():
    from rules_core import LiabilityMode

    w = winner(1, FULL_FLUSH, win="9s")
    req = request("lezi", SELF, [w], liabilities=(claims(1, 2),), overrides={"liability_mode": LiabilityMode.REPLACE})
    result = settle(req)
    assert result.seat_deltas == (0, 30, -30, 0)
    assert [p.reason for p in result.payments] == [Why.LIABILITY]


def test_payments_are_itemised_with_reasons():
    w = winner(1, FULL_FLUSH, win="9s")
    result = settle(request("lezi", DISCARD, [w], discarder_seat=0, liabilities=(claims(1, 2),)))
    assert [(p.from_seat, p.to_seat, p.amount, p.reason) for p in result.payments] == [
        (0, 1, 10, Why.DISCARD),
        (2, 1, 10, Why.LIABILITY),
    ]


def test_sankou_half_shares_are_exact():
    # 111m 555m 999p 333s 77s with one wind pung melded: 1 + 1 花 = 2, no 门清
    w = winner(1, "111m 555m 999p 77s [EEE@0]", win="7s")
    result = settle(request("sankou", SELF, [w], liabilities=(claims(1, 2), claims(1, 0))))
    assert result.winners[0].value == 2
    assert result.seat_deltas == (-7, 14, -7, 0)  # two related seats pay 3.5 V each


def test_an_illegal_winner_beside_a_legal_one():
    legal = winner(0, "111m 999m 55m [EEE@3] [SSS@1]", win="5m")
    illegal = winner(2, "123m 456p 789s 234s 55m", win="5m")
    result = settle(request("classic", DISCARD, [legal, illegal], discarder_seat=3))
    assert [w.legal for w in result.winners] == [True, False]
    assert result.seat_deltas == (20, 0, 0, -20)
    assert result.next_hand == NextHand(0, 0)


def test_next_dealer_after_several_winners_is_the_first_after_the_discarder():
    a = winner(0, "111m 999m 55m [EEE@3] [SSS@2]", win="5m")
    b = winner(3, "111p 999p 55m [WWW@1] [NNN@2]", win="5m")
    result = settle(request("classic", DISCARD, [a, b], discarder_seat=1, huangfan_count=2))
    assert result.next_hand == NextHand(3, 1)


def test_abandon_costs_fifteen_to_no_one_and_resets_huangfan():
    result = settle(request("lezi", Outcome.ABANDON, abandoning_seat=2, huangfan_count=3, dealer_seat=1))
    assert result.seat_deltas == (0, 0, -15, 0)
    assert result.next_hand == NextHand(1, 0)
    assert result.payments == ()
    assert [(p.seat, p.amount) for p in result.penalties] == [(2, 15)]

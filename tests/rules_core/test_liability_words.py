"""Why a liable (承包) or related (三口) seat pays, worded once for the CLI and the explorer
(issue 20): who claimed from whom how many times, and why a seat pays twice."""

from __future__ import annotations

from rules_core.liability_words import needs_threshold, payments_why, why_paid

LIABILITY = {"fromSeat": 2, "toSeat": 1, "amount": 20.0, "reason": "PAYMENT_REASON_LIABILITY"}
BOTH_WAYS = [{"claimerSeat": 1, "sourceSeat": 2, "claims": 3}, {"claimerSeat": 2, "sourceSeat": 1, "claims": 3}]


def test_claims_both_ways_at_the_threshold_pay_twice():
    assert why_paid(LIABILITY, BOTH_WAYS, 3) == [
        "seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口",
        "seat 2 claimed 3 times from seat 1 座位2吃碰座位1 3口",
        "pays twice: the claims run both ways 双向承包，付两份",
    ]


def test_claims_back_under_the_threshold_are_named_but_pay_once():
    under = [BOTH_WAYS[0], {"claimerSeat": 2, "sourceSeat": 1, "claims": 2}]
    assert why_paid(LIABILITY, under, 3) == [
        "seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口",
        "seat 2 claimed 2 times from seat 1 座位2吃碰座位1 2口",
    ]


def test_relations_of_other_seats_and_split_relations():
    """Claims between other seats are not this payment's; two relations one way add up."""
    split = [{"claimerSeat": 1, "sourceSeat": 2, "claims": 1}, {"claimerSeat": 1, "sourceSeat": 2, "claims": 2}]
    others = [{"claimerSeat": 0, "sourceSeat": 3, "claims": 4}]
    assert why_paid(LIABILITY, split + others, 3) == ["seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口"]
    assert why_paid({**LIABILITY, "fromSeat": 0}, [{"claimerSeat": 1, "sourceSeat": 0, "claims": 1}], None) == [
        "seat 1 claimed 1 time from seat 0 座位1吃碰座位0 1口"
    ]


def test_only_liability_and_sankou_payments_are_explained():
    discard = {"fromSeat": 0, "toSeat": 1, "amount": 10.0, "reason": "PAYMENT_REASON_DISCARD"}
    sankou = {**LIABILITY, "reason": "PAYMENT_REASON_SANKOU"}
    assert payments_why([discard, sankou], BOTH_WAYS, 3) == [
        [],
        [
            "seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口",
            "seat 2 claimed 3 times from seat 1 座位2吃碰座位1 3口",
        ],
    ]
    assert (needs_threshold([discard, sankou]), needs_threshold([discard, LIABILITY])) == (False, True)


def test_without_a_threshold_pays_twice_is_not_said():
    assert len(why_paid(LIABILITY, BOTH_WAYS, None)) == 2

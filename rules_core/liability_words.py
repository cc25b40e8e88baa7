"""Why a liable (承包) or related (三口) seat pays, in words: the claims between it and the
winner each way, and that it pays twice when the claims run both ways, each at the
profile's threshold (RULES.md section 8, 相互有承包关系，重复计算).

One wording for every reader: `shmj score` and `shmj replay` print these phrases under the
payment, the explorer's Settle and Replay views ask for them (``POST /explorer/why``).
Everything is read from the proto3 JSON of the request's ``liabilities`` and the answer's
``payments``, as both have them.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules_core.vocabulary import TERMS

EXPLAINED_REASONS = frozenset({"PAYMENT_REASON_LIABILITY", "PAYMENT_REASON_SANKOU"})


def claims_between(liabilities: Iterable[dict], claimer: int, source: int) -> int:
    """How many melds ``claimer`` took from ``source``'s discards, over every relation given."""
    return sum(
        int(relation.get("claims", 0) or 0)
        for relation in liabilities
        if int(relation.get("claimerSeat", 0) or 0) == claimer and int(relation.get("sourceSeat", 0) or 0) == source
    )


def claimed_phrase(claimer: int, source: int, count: int) -> str:
    """``seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口``."""
    claimed, seat = TERMS["claimed"], TERMS["seat"].zh
    times = TERMS["claims_unit" if count != 1 else "claims_unit_one"]
    return (
        f"seat {claimer} {claimed.en} {count} {times.en} from seat {source}"
        f" {seat}{claimer}{claimed.zh}{seat}{source} {count}{times.zh}"
    )


def why_paid(payment: dict, liabilities: list[dict], threshold: int | None) -> list[str]:
    """The phrases for one payment: none unless it is a liability or 三口 payment. ``threshold``
    is the effective profile's ``liability_threshold`` (None: not known, pays twice not said)."""
    if payment.get("reason") not in EXPLAINED_REASONS:
        return []
    payer, winner = int(payment.get("fromSeat", 0) or 0), int(payment.get("toSeat", 0) or 0)
    ways = [
        (claimer, source, claims_between(liabilities, claimer, source))
        for claimer, source in ((winner, payer), (payer, winner))
    ]
    ways = [way for way in ways if way[2] > 0]
    said = [claimed_phrase(*way) for way in ways]
    liable = payment.get("reason") == "PAYMENT_REASON_LIABILITY"
    if liable and threshold is not None and len(ways) == 2 and all(count >= threshold for _, _, count in ways):
        twice = TERMS["pays_twice"]
        said.append(f"{twice.en} {twice.zh}")
    return said


def payments_why(payments: list[dict], liabilities: list[dict], threshold: int | None) -> list[list[str]]:
    """`why_paid` for each payment, in order."""
    return [why_paid(payment, liabilities, threshold) for payment in payments]


def needs_threshold(payments: Iterable[dict]) -> bool:
    """Whether saying why needs the profile's threshold: only a liability payment can be twice."""
    return any(payment.get("reason") == "PAYMENT_REASON_LIABILITY" for payment in payments)

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
# The ordinary share of the seat whose discard or kong the win took.
_PAYER_OF_THE_WIN = frozenset({"PAYMENT_REASON_DISCARD", "PAYMENT_REASON_ROBBING_KONG"})


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


def _kept(liabilities: Iterable[dict], claimer: int, source: int) -> bool:
    return any(
        relation.get("patternKept")
        for relation in liabilities
        if int(relation.get("claimerSeat", 0) or 0) == claimer and int(relation.get("sourceSeat", 0) or 0) == source
    )


def _said(key: str) -> str:
    words = TERMS[key]
    return f"{words.en} {words.zh}"


def why_paid(
    payment: dict,
    liabilities: list[dict],
    threshold: int | None,
    mode: str = "",
    declared: Iterable[int] | None = None,
    discarder: bool = False,
) -> list[str]:
    """The phrases for one payment: none unless it is a liability or 三口 payment. ``threshold``
    is the effective profile's ``liability_threshold`` (None: not known, pays twice not said),
    ``mode`` its ``liability_mode`` by name, ``declared`` the request's ``declared_seats`` and
    ``discarder`` whether the payer also pays the winner the ordinary share of its discard or
    robbed kong (RULES.md section 14: 包三口 is paid once; under 承包 a discarder that had not
    knocked pays its partners' shares too)."""
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
    if mode == "LIABILITY_MODE_BAOSANKOU":
        return [*said, _said("baosankou_liable")] if liable and ways else said
    if mode == "LIABILITY_MODE_CONTRACT":
        if ways:
            if any(_kept(liabilities, claimer, source) for claimer, source, _ in ways):
                said.append(_said("pattern_kept"))
            said.append(_said("contract_partners"))
        if discarder and declared is not None and payer not in set(declared):
            said.append(f"seat {payer} {_said('not_knocked_pays_all')}")
        return said
    if liable and threshold is not None and len(ways) == 2 and all(count >= threshold for _, _, count in ways):
        said.append(_said("pays_twice"))
    return said


def payments_why(
    payments: list[dict],
    liabilities: list[dict],
    threshold: int | None,
    mode: str = "",
    declared: Iterable[int] | None = None,
) -> list[list[str]]:
    """`why_paid` for each payment, in order."""
    declared = None if declared is None else tuple(declared)
    discards = {
        (payment.get("fromSeat", 0), payment.get("toSeat", 0))
        for payment in payments
        if payment.get("reason") in _PAYER_OF_THE_WIN
    }
    return [
        why_paid(
            payment,
            liabilities,
            threshold,
            mode,
            declared,
            (payment.get("fromSeat", 0), payment.get("toSeat", 0)) in discards,
        )
        for payment in payments
    ]


def needs_threshold(payments: Iterable[dict]) -> bool:
    """Whether saying why needs the profile's threshold: only a liability payment can be twice."""
    return any(payment.get("reason") == "PAYMENT_REASON_LIABILITY" for payment in payments)

"""Who pays whom (RULES.md section 8).

Every payment goes to a winner. The ordinary payers depend on the outcome
(self-draw and eight flowers: the three others; discard: the discarder;
robbing a kong: the kong player); the profile's liability mode then adds to
them (lezi 承包), replaces them, or applies the sankou 三口 table. A relation
between winner W and seat X exists when either claimed at least
``liability_threshold`` melds from the other's discards.
"""

from __future__ import annotations

from typing import Final, cast

from rules_core.profile import LiabilityMode, RuleProfile
from rules_core.requests import ON_DISCARD, ON_EIGHT_FLOWERS, ON_ROBBING_KONG, ON_SELF_DRAW, Outcome, SettleRequest
from rules_core.results import Payment, PaymentReason, WinnerResult, new

# Members of the other enums the hot path compares with, as constants (see rules_core.requests).
_ADDITIVE: Final = LiabilityMode.ADDITIVE
_REPLACE: Final = LiabilityMode.REPLACE
_SANKOU_MODE: Final = LiabilityMode.SANKOU
_LIABILITY_REASON: Final = PaymentReason.LIABILITY
_SANKOU_REASON: Final = PaymentReason.SANKOU

_BASE_REASON = {
    Outcome.SELF_DRAW: PaymentReason.SELF_DRAW,
    Outcome.EIGHT_FLOWERS: PaymentReason.EIGHT_FLOWERS,
    Outcome.DISCARD: PaymentReason.DISCARD,
    Outcome.ROBBING_KONG: PaymentReason.ROBBING_KONG,
}


def claim_counts(request: SettleRequest) -> dict[tuple[int, int], int]:
    """(claimer, source) -> claims, entries for the same pair added up."""
    counts: dict[tuple[int, int], int] = {}
    for relation in request.liabilities:
        key = (relation.claimer_seat, relation.source_seat)
        counts[key] = counts.get(key, 0) + relation.claims
    return counts


def liable_times(profile: RuleProfile, claims: dict[tuple[int, int], int], winner: int, seat: int) -> int:
    """0, 1 or 2: in how many directions ``seat`` and ``winner`` are related."""
    threshold = profile.liability_threshold
    return (claims.get((winner, seat), 0) >= threshold) + (claims.get((seat, winner), 0) >= threshold)


def outcome_reason(outcome: Outcome) -> PaymentReason:
    """The reason of a payer's ordinary share on this outcome."""
    return _BASE_REASON[outcome]


def ordinary_payers(profile: RuleProfile, request: SettleRequest, winner: int) -> list[tuple[int, float]]:
    """(seat, share) of the ordinary payments of section 8, before any liability."""
    outcome = request.outcome
    if outcome in (ON_SELF_DRAW, ON_EIGHT_FLOWERS):
        return [((winner + k) % 4, profile.self_draw_share) for k in (1, 2, 3)]
    if outcome == ON_DISCARD:
        return [(request.discarder_seat, profile.discard_share)]
    return [(request.discarder_seat, profile.robbing_kong_share)]


def winner_payments(
    profile: RuleProfile,
    request: SettleRequest,
    result: WinnerResult,
    claims: dict[tuple[int, int], int],
) -> list[Payment]:
    outcome = cast(Outcome, request.outcome)  # validated: never None
    winner = result.seat
    value = result.value
    others = [(winner + k) % 4 for k in (1, 2, 3)]
    reason = _BASE_REASON[outcome]
    base = ordinary_payers(profile, request, winner)

    mode = profile.liability_mode
    liable = [(s, times) for s in others if (times := liable_times(profile, claims, winner, s))] if claims else []
    extra: list[tuple[int, float]] = []
    extra_reason = _LIABILITY_REASON
    if not liable and mode == _SANKOU_MODE and outcome in (ON_SELF_DRAW, ON_EIGHT_FLOWERS):
        # The sankou table's row for no related seat: each of the three others pays.
        base = [(seat, profile.sankou_self_draw_shares[0]) for seat in others]
    elif liable and mode == _SANKOU_MODE:
        base, extra = _sankou(profile, outcome, request.discarder_seat, base, [s for s, _ in liable])
        extra_reason = _SANKOU_REASON
    elif liable and mode in (_ADDITIVE, _REPLACE):
        share = _liability_share(profile, outcome)
        extra = [(seat, share * times) for seat, times in liable]
        if mode == _REPLACE:
            base = []

    payments = [new(Payment, (seat, winner, value * share, reason)) for seat, share in base if share]
    payments += [new(Payment, (seat, winner, value * share, extra_reason)) for seat, share in extra if share]
    return payments


def _liability_share(profile: RuleProfile, outcome: Outcome) -> float:
    if outcome == ON_DISCARD:
        return profile.liability_discard_share
    if outcome == ON_ROBBING_KONG:
        return profile.liability_robbing_kong_share
    return profile.liability_self_draw_share


def _sankou(profile, outcome, discarder, base, related):
    """吃三口包五家: (ordinary payments kept, related seats' payments)."""
    if outcome == ON_ROBBING_KONG:
        return base, []  # the kong player pays 3 V; relations do not change it
    if outcome != ON_DISCARD:
        share = profile.sankou_self_draw_shares[len(related)]
        return [], [(seat, share) for seat in related]
    if discarder in related:
        return [], [(discarder, profile.sankou_related_discarder_share)]
    return base, [(seat, profile.sankou_related_seat_share) for seat in related]

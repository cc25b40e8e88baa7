"""Settle one hand: legality, itemised value, payments, seat deltas and the next hand."""

from __future__ import annotations

from typing import Final, cast

from rules_core.errors import InvalidRequest
from rules_core.legality import judge
from rules_core.multipliers import Multipliers, multipliers
from rules_core.next_hand import next_hand
from rules_core.patterns import PATTERNS_OF_MASK, patterns_of
from rules_core.payments import claim_counts, winner_payments
from rules_core.profile import RuleProfile
from rules_core.registry import BUILTIN_REGISTRY, ProfileRegistry
from rules_core.requests import ON_ABANDON, Outcome, SettleRequest, Winner
from rules_core.results import Penalty, PenaltyReason, SettleResult, WinnerResult, new
from rules_core.validation import settle_inputs

# Members of the other enums the hot path compares with, as constants (see rules_core.requests).
_ABANDON_PENALTY: Final = PenaltyReason.ABANDON


def settle(request: SettleRequest, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> SettleResult:
    """Settle a request, or raise `rules_core.InvalidRequest` naming each bad field. The request's
    profile is looked up in ``profiles`` (the built-in ones unless house profiles are given)."""
    violations: list[tuple[str, str]] = []
    found, counts = settle_inputs(request, profiles, violations)  # validate_settle, raised here
    if violations or found is None:  # no profile only with a violation naming why
        raise InvalidRequest(violations)
    profile = found
    outcome = cast(Outcome, request.outcome)  # validated: never None
    multi = multipliers(profile, request.huangfan_count, request.dice)
    dealer = request.dealer_seat
    winners = request.winners  # validated: one list of counts per winner
    declared = request.declared_seats
    results = tuple(
        [
            evaluate_winner(profile, outcome, dealer, multi, winners[i], counts[i], winners[i].seat in declared)
            for i in range(len(winners))
        ]
    )
    deltas = [0.0, 0.0, 0.0, 0.0]
    payments = []
    claims = claim_counts(request) if request.liabilities else _NO_CLAIMS
    for result in results:
        if result.legal:
            for payment in winner_payments(profile, request, result, claims):
                payments.append(payment)
                deltas[payment.from_seat] -= payment.amount
                deltas[payment.to_seat] += payment.amount
    penalties: tuple[Penalty, ...] = ()
    if outcome == ON_ABANDON:
        penalty = Penalty(request.abandoning_seat, float(profile.abandon_penalty), _ABANDON_PENALTY)
        penalties = (penalty,)
        deltas[penalty.seat] -= penalty.amount
    # Positional, in SettleResult's field order.
    return new(
        SettleResult,
        (
            request.request_id,
            profile.name,
            profile.unit,
            results,
            tuple(payments),
            (deltas[0] + 0.0, deltas[1] + 0.0, deltas[2] + 0.0, deltas[3] + 0.0),  # + 0.0 turns -0.0 into 0.0
            next_hand(request, results, multi.huangfan_after_dice, profile),
            penalties,
            multi.huangfan_after_dice,
            profiles.digest(profile),
        ),
    )


_NO_CLAIMS: dict[tuple[int, int], int] = {}


def evaluate_winner(
    profile: RuleProfile,
    outcome: Outcome,
    dealer_seat: int,
    multi: Multipliers,
    winner: Winner,
    counts: list[int],
    declared: bool = True,
) -> WinnerResult:
    """Legality, patterns, 花 and value of one validated winner; ``declared``: it has knocked
    (read only under `win_requires_declaration`)."""
    mask, reasons, flowers, value, items = judge(profile, outcome, dealer_seat, winner, counts, declared)
    patterns = PATTERNS_OF_MASK.get(mask)
    if patterns is None:
        patterns = patterns_of(mask)
    if reasons:
        return new(WinnerResult, (winner.seat, False, reasons, patterns, flowers, (), 0.0, 0.0))
    if multi.items:
        items = items + multi.items
    return new(
        WinnerResult, (winner.seat, True, (), patterns, flowers, items, float(value), float(value * multi.factor))
    )

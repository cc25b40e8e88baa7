"""Who pays whom under the liability modes of RULES.md section 14: 包三口 and 承包.

- `BAOSANKOU` (包三口, 14.5): a seat X is related to the winner W when either claimed at least
  `liability_threshold` times from the other; the liable seat L is the related one of lowest
  seat number. On a self-draw L alone pays `liability_self_draw_share` V; on L's own discard
  L pays `liability_discard_share` V; otherwise, and on a robbed kong or eight flowers, the
  ordinary payments of section 8 stand.
- `CONTRACT` (承包, MIL 2024, 14.10.6): X and W are partners when either claimed from the other
  at least `liability_threshold_unconditional` times, or at least `liability_threshold` times
  with that relation's `pattern_kept`. On a self-draw each partner pays
  `liability_self_draw_share` V and nobody else; on a discard or a robbed kong the payer pays
  its share and each partner its own on top; a payer that has not knocked (under
  `win_requires_declaration`) pays every share alone.

A liable seat's or a partner's amount is one payment with reason `LIABILITY`; a payer's ordinary
share is a payment with its outcome's reason.
"""

from __future__ import annotations

from typing import Final, cast

from rules_core.added_fields import declared_seats_of, pattern_kept_of
from rules_core.payments import ordinary_payers, outcome_reason
from rules_core.profile import LiabilityMode, RuleProfile
from rules_core.requests import (
    ON_DISCARD,
    ON_EIGHT_FLOWERS,
    ON_ROBBING_KONG,
    Outcome,
    SettleRequest,
)
from rules_core.results import Payment, PaymentReason, WinnerResult, new

_BAOSANKOU: Final = LiabilityMode.BAOSANKOU
_CONTRACT: Final = LiabilityMode.CONTRACT
FAMILY_LIABILITY_MODES: Final = frozenset({_BAOSANKOU, _CONTRACT})
_LIABILITY: Final = PaymentReason.LIABILITY


def family_payments(
    profile: RuleProfile,
    request: SettleRequest,
    result: WinnerResult,
    claims: dict[tuple[int, int], int],
) -> list[Payment]:
    outcome = cast(Outcome, request.outcome)  # validated: never None
    winner = result.seat
    value = result.value
    base = ordinary_payers(profile, request, winner)
    if profile.liability_mode == _BAOSANKOU:
        owed = _baosankou(profile, outcome, request.discarder_seat, winner, claims, base)
    else:
        owed = _contract(profile, request, outcome, winner, claims, base)
    return [new(Payment, (seat, winner, value * share, why)) for seat, share, why in owed if share]


def _related(profile: RuleProfile, claims: dict[tuple[int, int], int], winner: int, seat: int) -> bool:
    threshold = profile.liability_threshold
    return claims.get((winner, seat), 0) >= threshold or claims.get((seat, winner), 0) >= threshold


def _baosankou(profile, outcome, discarder, winner, claims, base) -> list[tuple[int, float, PaymentReason]]:
    reason = outcome_reason(outcome)
    ordinary = [(seat, share, reason) for seat, share in base]
    if outcome in (ON_ROBBING_KONG, ON_EIGHT_FLOWERS) or not claims:
        return ordinary
    related = [seat for seat in range(4) if seat != winner and _related(profile, claims, winner, seat)]
    if not related:
        return ordinary
    liable = related[0]  # the lowest seat number (14.7, reading 3)
    if outcome == ON_DISCARD:
        if discarder != liable:
            return ordinary
        return [(liable, profile.liability_discard_share, _LIABILITY)]
    return [(liable, profile.liability_self_draw_share, _LIABILITY)]


def _contract(profile, request, outcome, winner, claims, base) -> list[tuple[int, float, PaymentReason]]:
    reason = outcome_reason(outcome)
    partners = _partners(profile, request, winner, claims) if claims else []
    if not partners:
        return [(seat, share, reason) for seat, share in base]
    if outcome not in (ON_DISCARD, ON_ROBBING_KONG):  # a self-draw (or eight flowers)
        return [(seat, profile.liability_self_draw_share, _LIABILITY) for seat in partners]
    payer = request.discarder_seat
    share = profile.liability_discard_share if outcome == ON_DISCARD else profile.liability_robbing_kong_share
    owed = [(seat, amount, reason) for seat, amount in base]
    if profile.win_requires_declaration and payer not in declared_seats_of(request):
        # A payer that has not knocked pays all of it: its share and every partner's.
        owed.append((payer, share * len(partners), _LIABILITY))
    else:
        owed.extend([(seat, share, _LIABILITY) for seat in partners])
    return owed


def _partners(
    profile: RuleProfile, request: SettleRequest, winner: int, claims: dict[tuple[int, int], int]
) -> list[int]:
    """The winner's contract partners, in seat order: either direction, each once."""
    kept = {(r.claimer_seat, r.source_seat) for r in request.liabilities if pattern_kept_of(r)}
    threshold = profile.liability_threshold
    unconditional = profile.liability_threshold_unconditional

    def relates(claimer: int, source: int) -> bool:
        count = claims.get((claimer, source), 0)
        if unconditional and count >= unconditional:
            return True
        return count >= threshold and (claimer, source) in kept

    return [seat for seat in range(4) if seat != winner and (relates(winner, seat) or relates(seat, winner))]

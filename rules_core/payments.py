"""Who pays whom (RULES.md sections 8, 14.5 and 14.10.6).

Every payment goes to a winner. The ordinary payers depend on the outcome (self-draw and eight
flowers: the three others; discard: the discarder; robbing a kong: the kong player); the
profile's liability mode then changes them. A seat X is related to winner W when either claimed
at least ``liability_threshold`` melds from the other's discards.

- `NONE` (classic): the ordinary payments.
- `ADDITIVE` (lezi 承包): each liable seat pays its share per direction of the relation, on top;
  `REPLACE`: the same in place of the ordinary payers.
- `SANKOU` (吃三口包五家): the three-claims payment table.
- `BAOSANKOU` (包三口): the related seat of lowest number alone is liable: on a self-draw it
  alone pays `liability_self_draw_share` V, on its own discard `liability_discard_share` V;
  otherwise, and on a robbed kong or eight flowers, the ordinary payments stand.
- `CONTRACT` (承包, MIL 2024): X and W are partners when either claimed from the other at least
  `liability_threshold_unconditional` times, or at least `liability_threshold` times with that
  relation's `pattern_kept`. On a self-draw each partner pays `liability_self_draw_share` V and
  nobody else; on a discard or a robbed kong the payer pays its share and each partner its own
  on top; a payer that has not knocked (under `win_requires_declaration`) pays every share alone.

A liable seat's or a partner's amount is one payment with reason `LIABILITY` (`SANKOU` under the
sankou table); a payer's ordinary share is a payment with its outcome's reason.
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
_BAOSANKOU: Final = LiabilityMode.BAOSANKOU
_CONTRACT: Final = LiabilityMode.CONTRACT
_LIABILITY_REASON: Final = PaymentReason.LIABILITY
_SANKOU_REASON: Final = PaymentReason.SANKOU

_BASE_REASON = {
    Outcome.SELF_DRAW: PaymentReason.SELF_DRAW,
    Outcome.EIGHT_FLOWERS: PaymentReason.EIGHT_FLOWERS,
    Outcome.DISCARD: PaymentReason.DISCARD,
    Outcome.ROBBING_KONG: PaymentReason.ROBBING_KONG,
}

Owed = list[tuple[int, float]]  # (seat, share of V)


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
    if outcome == ON_SELF_DRAW or outcome == ON_EIGHT_FLOWERS:
        base = [(seat, profile.self_draw_share) for seat in others]
    elif outcome == ON_DISCARD:
        base = [(request.discarder_seat, profile.discard_share)]
    else:
        base = [(request.discarder_seat, profile.robbing_kong_share)]

    mode = profile.liability_mode
    extra: Owed = []
    extra_reason = _LIABILITY_REASON
    if mode == _SANKOU_MODE:
        related = [seat for seat in others if liable_times(profile, claims, winner, seat)] if claims else []
        base, extra = _sankou(profile, outcome, request.discarder_seat, base, others, related)
        extra_reason = _SANKOU_REASON
    elif claims and (mode == _ADDITIVE or mode == _REPLACE):
        share = _liability_share(profile, outcome)
        extra = [(s, share * times) for s in others if (times := liable_times(profile, claims, winner, s))]
        if extra and mode == _REPLACE:
            base = []
    elif claims and mode == _BAOSANKOU:
        base, extra = _baosankou(profile, outcome, request.discarder_seat, winner, claims, base)
    elif claims and mode == _CONTRACT:
        base, extra = _contract(profile, request, outcome, winner, claims, base)

    reason = _BASE_REASON[outcome]
    payments = [new(Payment, (seat, winner, value * share, reason)) for seat, share in base if share]
    payments += [new(Payment, (seat, winner, value * share, extra_reason)) for seat, share in extra if share]
    return payments


def _liability_share(profile: RuleProfile, outcome: Outcome) -> float:
    if outcome == ON_DISCARD:
        return profile.liability_discard_share
    if outcome == ON_ROBBING_KONG:
        return profile.liability_robbing_kong_share
    return profile.liability_self_draw_share


def _sankou(profile, outcome, discarder, base, others, related) -> tuple[Owed, Owed]:
    """吃三口包五家: (ordinary payments kept, related seats' payments)."""
    if not related:
        if outcome == ON_SELF_DRAW or outcome == ON_EIGHT_FLOWERS:
            # The table's row for no related seat: each of the three others pays.
            return [(seat, profile.sankou_self_draw_shares[0]) for seat in others], []
        return base, []
    if outcome == ON_ROBBING_KONG:
        return base, []  # the kong player pays 3 V; relations do not change it
    if outcome != ON_DISCARD:
        share = profile.sankou_self_draw_shares[len(related)]
        return [], [(seat, share) for seat in related]
    if discarder in related:
        return [], [(discarder, profile.sankou_related_discarder_share)]
    return base, [(seat, profile.sankou_related_seat_share) for seat in related]


def _baosankou(profile, outcome, discarder, winner, claims, base) -> tuple[Owed, Owed]:
    """包三口: (ordinary payments kept, the liable seat's payment)."""
    if outcome == ON_ROBBING_KONG or outcome == ON_EIGHT_FLOWERS:
        return base, []
    related = [seat for seat in range(4) if seat != winner and liable_times(profile, claims, winner, seat)]
    if not related:
        return base, []
    liable = related[0]  # the lowest seat number (14.7, reading 3)
    if outcome == ON_DISCARD:
        if discarder != liable:
            return base, []
        return [], [(liable, profile.liability_discard_share)]
    return [], [(liable, profile.liability_self_draw_share)]


def _contract(profile, request: SettleRequest, outcome, winner, claims, base) -> tuple[Owed, Owed]:
    """承包: (ordinary payments kept, the partners' payments)."""
    partners = _partners(profile, request, winner, claims)
    if not partners:
        return base, []
    if outcome != ON_DISCARD and outcome != ON_ROBBING_KONG:  # a self-draw (or eight flowers)
        return [], [(seat, profile.liability_self_draw_share) for seat in partners]
    payer = request.discarder_seat
    share = profile.liability_discard_share if outcome == ON_DISCARD else profile.liability_robbing_kong_share
    if profile.win_requires_declaration and payer not in request.declared_seats:
        # A payer that has not knocked pays all of it: its share and every partner's.
        return base, [(payer, share * len(partners))]
    return base, [(seat, share) for seat in partners]


def _partners(
    profile: RuleProfile, request: SettleRequest, winner: int, claims: dict[tuple[int, int], int]
) -> list[int]:
    """The winner's contract partners, in seat order: either direction, each once."""
    partners = []
    for seat in range(4):
        if seat != winner and (
            _relates(profile, request, claims, winner, seat) or _relates(profile, request, claims, seat, winner)
        ):
            partners.append(seat)
    return partners


def _relates(
    profile: RuleProfile, request: SettleRequest, claims: dict[tuple[int, int], int], claimer: int, source: int
) -> bool:
    """Whether ``claimer`` claimed from ``source`` often enough to make them partners: at least
    `liability_threshold_unconditional` times, or `liability_threshold` times with a relation
    of the pair marked `pattern_kept`."""
    count = claims.get((claimer, source), 0)
    unconditional = profile.liability_threshold_unconditional
    if unconditional and count >= unconditional:
        return True
    if count < profile.liability_threshold:
        return False
    for relation in request.liabilities:
        if relation.pattern_kept and relation.claimer_seat == claimer and relation.source_seat == source:
            return True
    return False

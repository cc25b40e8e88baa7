"""Payments and the next hand under the section 14 profiles (RULES.md 14.5, 14.6, 14.10.6,
14.10.7), and the whole answer in the proto3 JSON mapping."""

from __future__ import annotations

from collections import defaultdict

from tests.rules_core.reference_families.judge import Judged, Table, huangfan_after_dice, judge
from tests.rules_core.reference_families.profiles import Profile, effective

_OUTCOME_REASON = {
    "SELF_DRAW": "SELF_DRAW",
    "DISCARD": "DISCARD",
    "ROBBING_KONG": "ROBBING_KONG",
    "EIGHT_FLOWERS": "EIGHT_FLOWERS",
}


def _claims(request: dict) -> dict[tuple[int, int], tuple[int, bool]]:
    """(claimer, source) -> (claims, pattern_kept)."""
    out: dict[tuple[int, int], tuple[int, bool]] = {}
    for rel in request.get("liabilities", []):
        key = (rel.get("claimerSeat", 0), rel.get("sourceSeat", 0))
        before, kept = out.get(key, (0, False))
        out[key] = (before + rel.get("claims", 0), kept or rel.get("patternKept", False))
    return out


def _baosankou_liable(profile: Profile, request: dict, winner: int) -> int | None:
    """14.5: the related seat with the lowest seat number."""
    claims = _claims(request)
    related = [
        x
        for x in range(4)
        if x != winner
        and max(claims.get((winner, x), (0, False))[0], claims.get((x, winner), (0, False))[0]) >= profile.threshold
    ]
    return min(related, default=None)


def _contract_partners(profile: Profile, request: dict, winner: int) -> list[int]:
    """14.10.6: X and the winner are partners when either claimed from the other at least the
    unconditional threshold, or at least the threshold with pattern_kept."""

    def makes(claims: int, kept: bool) -> bool:
        unconditional = profile.threshold_unconditional and claims >= profile.threshold_unconditional
        return bool(unconditional or (claims >= profile.threshold and kept))

    claims = _claims(request)
    return [
        x
        for x in range(4)
        if x != winner and (makes(*claims.get((winner, x), (0, False))) or makes(*claims.get((x, winner), (0, False))))
    ]


def _payments(profile: Profile, request: dict, table: Table, j: Judged) -> list[tuple[int, int, float, str]]:
    """(from, to, amount, reason) of one legal winner.

    An eight-flowers win under 承包 (legal only by overrides: `qiaoma` refuses it) is not in
    14.10.6's table; it is paid as a self-draw, partners included, as section 8 groups the two
    (the engine's reading; 14.5 says the opposite for 包三口, so it is reported as open)."""
    v, w = j.value, j.seat
    outcome = table.outcome
    d = request.get("discarderSeat", 0)
    others = [s for s in range(4) if s != w]
    if profile.liability in ("NONE", "SANKOU", "ADDITIVE"):
        return _section_8_payments(profile, request, table, j)
    if profile.liability == "BAOSANKOU":
        if outcome == "EIGHT_FLOWERS":  # 14.5: no liability on eight flowers
            return [(s, w, v, "EIGHT_FLOWERS") for s in others]
        liable = _baosankou_liable(profile, request, w)
        if outcome == "SELF_DRAW":
            if liable is None:
                return [(s, w, v, "SELF_DRAW") for s in others]
            return [(liable, w, profile.liability_self_draw_share * v, "LIABILITY")]
        if outcome == "ROBBING_KONG":
            return [(d, w, profile.robbing_kong_share * v, "ROBBING_KONG")]
        if d == liable:
            return [(d, w, profile.liability_discard_share * v, "LIABILITY")]
        return [(d, w, v, "DISCARD")]
    partners = _contract_partners(profile, request, w)
    if outcome in ("SELF_DRAW", "EIGHT_FLOWERS"):  # see below
        reason = "SELF_DRAW" if outcome == "SELF_DRAW" else "EIGHT_FLOWERS"
        if not partners:
            return [(s, w, v, reason) for s in others]
        return [(p, w, profile.liability_self_draw_share * v, "LIABILITY") for p in partners]
    share = profile.robbing_kong_share if outcome == "ROBBING_KONG" else 1
    ordinary = [(d, w, share * v, _OUTCOME_REASON[outcome])]
    liable = [(p, w, profile.liability_discard_share * v, "LIABILITY") for p in partners]
    if partners and profile.win_requires_declaration and d not in table.declared:  # the unknocked payer pays it all
        return ordinary + [(d, w, sum(a for _, _, a, _ in liable), "LIABILITY")]
    return ordinary + liable


def _section_8_payments(profile: Profile, request: dict, table: Table, j: Judged) -> list:
    """Section 8: the ordinary payments, then `sankou`'s three-claims table or `lezi`'s additive
    liability (1 V on a discard, 3 V on a self-draw, eight flowers or a robbed kong, per
    direction of the relation)."""
    v, w = j.value, j.seat
    outcome = table.outcome
    d = request.get("discarderSeat", 0)
    others = [(w + k) % 4 for k in (1, 2, 3)]
    reason = _OUTCOME_REASON[outcome]
    if outcome in ("SELF_DRAW", "EIGHT_FLOWERS"):
        ordinary = [(s, w, v, reason) for s in others]
    elif outcome == "DISCARD":
        ordinary = [(d, w, v, reason)]
    else:
        ordinary = [(d, w, profile.robbing_kong_share * v, reason)]
    claims = _claims(request)
    times = {
        x: (claims.get((w, x), (0, False))[0] >= profile.threshold)
        + (claims.get((x, w), (0, False))[0] >= profile.threshold)
        for x in others
    }
    related = [x for x in others if times[x]]
    if profile.liability == "ADDITIVE":
        share = 1 if outcome == "DISCARD" else 3
        return ordinary + [(x, w, share * times[x] * v, "LIABILITY") for x in related]
    if profile.liability == "NONE" or not related or outcome == "ROBBING_KONG":
        return ordinary
    if outcome in ("SELF_DRAW", "EIGHT_FLOWERS"):
        share = {1: 5, 2: 3.5, 3: 3}[len(related)]
        return [(x, w, share * v, "SANKOU") for x in related]
    if d in related:
        return [(d, w, 2 * v, "SANKOU")]
    return ordinary + [(x, w, v, "SANKOU") for x in related]


def _next_hand(profile: Profile, request: dict, table: Table, legal: list[Judged]) -> dict | None:
    after_dice = huangfan_after_dice(profile, table)
    if table.outcome == "EXHAUSTIVE_DRAW":
        count = after_dice + 1
        if profile.huangfan_max_count:
            count = min(count, profile.huangfan_max_count)
        return {"dealerSeat": table.dealer, "huangfanCount": count}
    if not legal:
        return None
    discarder = request.get("discarderSeat", 0)
    if len(legal) == 1:
        dealer = legal[0].seat
    elif profile.multi_win_discarder_deals:
        dealer = discarder
    else:  # the first legal winner after the discarder in turn order
        dealer = min((j.seat for j in legal), key=lambda s: (s - discarder) % 4)
    count = 0 if profile.huangfan_reset_after_win else max(0, after_dice - 1)
    return {"dealerSeat": dealer, "huangfanCount": count}


def _winner_dict(j: Judged) -> dict:
    return {
        "seat": j.seat,
        "legal": j.legal,
        "illegalReasons": [f"ILLEGAL_REASON_{r}" for r in j.reasons],
        "patterns": [f"PATTERN_{p}" for p in j.patterns],
        "flowers": j.flowers,
        "items": [{"kind": k, "code": c, "contribution": x, "count": n} for k, c, x, n in j.items],
        "baseValue": j.base_value,
        "value": j.value,
    }


def reference_settle(request: dict) -> dict:
    """A `SettleRequest` (proto3 JSON) under a built-in profile, settled."""
    profile = effective(request["profile"], request.get("overrides"))
    dice = request.get("dice")
    table = Table(
        outcome=request["outcome"].removeprefix("OUTCOME_"),
        dealer=request.get("dealerSeat", 0),
        declared=frozenset(request.get("declaredSeats", [])),
        huangfan=request.get("huangfanCount", 0),
        dice=(dice["first"], dice["second"]) if dice else None,
    )
    judged = [judge(profile, table, w) for w in request.get("winners", [])]
    legal = [j for j in judged if j.legal]
    payments = [p for j in legal for p in _payments(profile, request, table, j)]
    deltas = defaultdict(float)
    for source, target, amount, _ in payments:
        deltas[source] -= amount
        deltas[target] += amount
    answer = {
        "profile": profile.name,
        "unit": profile.unit,
        "winners": [_winner_dict(j) for j in judged],
        "payments": [
            {"fromSeat": s, "toSeat": t, "amount": a, "reason": f"PAYMENT_REASON_{r}"} for s, t, a, r in payments
        ],
        "seatDeltas": [deltas[s] + 0.0 for s in range(4)],
        "huangfanAfterDice": huangfan_after_dice(profile, table),
    }
    next_hand = _next_hand(profile, request, table, legal)
    if next_hand is not None:
        answer["nextHand"] = next_hand
    return answer

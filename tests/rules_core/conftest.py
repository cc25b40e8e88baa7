from __future__ import annotations

from rules_core import Outcome, SettleRequest


def request(profile, outcome, winners=(), **table) -> SettleRequest:
    """A settle request in the terms of RULES.md: seat 0 deals, no dice, 荒番 0 unless given."""
    return SettleRequest(profile=profile, outcome=outcome, winners=tuple(winners), **table)


SELF, DISCARD, ROB, EIGHT = Outcome.SELF_DRAW, Outcome.DISCARD, Outcome.ROBBING_KONG, Outcome.EIGHT_FLOWERS

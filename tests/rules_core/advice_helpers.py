"""Advice requests and answers in the notation of RULES.md section 15, for the advice tests."""

from __future__ import annotations

from rules_core.advice import advise
from rules_core.advice_values import AdviceResult, AdviseRequest
from rules_core.build import hand
from rules_core.notation import parse_tiles


def advice(text: str, profile: str = "classic", seat: int = 0, seen: str = "", **table) -> AdviceResult:
    """Advice on a holding written in notation; seat 0 deals unless told, nothing seen."""
    return advise(AdviseRequest(profile, seat, hand(text), parse_tiles(seen) if seen else (), **table))


def paths(result: AdviceResult) -> list[str]:
    """``HALF_FLUSH 筒 1``, ``ALL_PUNGS 0``: each path's pattern, suit and shanten."""
    suits = {1: "万", 2: "筒", 3: "条"}
    return [
        " ".join(
            part
            for part in ((p.pattern.name if p.pattern else "ORDINARY"), suits.get(p.suit or 0, ""), str(p.shanten))
            if part
        )
        for p in result.paths
    ]


def useful(tiles) -> str:
    """``7s:2 C:2``: useful tiles with their live counts."""
    return " ".join(f"{u.tile.notation}:{u.live}" for u in tiles)


def waits(tiles) -> str:
    """``7s:2=6 C:2=10``: waits with live counts and values."""
    return " ".join(f"{w.tile.notation}:{w.live}={w.value:g}" for w in tiles)


def option_rows(result: AdviceResult) -> list[tuple]:
    """(tile, shanten, live_total, live_value, best) of each option, in order."""
    return [(o.tile.notation, o.shanten, o.live_total, o.live_value, o.best) for o in result.options]

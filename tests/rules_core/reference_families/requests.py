"""Short builders for section 14 requests in the proto3 JSON mapping, in RULES.md notation."""

from __future__ import annotations

from tests.rules_core.reference_families.tiles import TILE_NAME, hand

OUTCOMES = {
    "self": "OUTCOME_SELF_DRAW",
    "discard": "OUTCOME_DISCARD",
    "rob": "OUTCOME_ROBBING_KONG",
    "eight": "OUTCOME_EIGHT_FLOWERS",
    "draw": "OUTCOME_EXHAUSTIVE_DRAW",
}


def win(seat: int, text: str, tile: str | None = None, passed: str = "", **flags) -> dict:
    """A winner: ``text`` in notation, ``tile`` the winning tile, ``passed`` its 漏胡 tiles;
    ``flags``: replacementDraw, firstGoAround, lastTile."""
    out = {"seat": seat, "hand": hand(text, tile)}
    if passed:
        out["passedTiles"] = [TILE_NAME[t] for t in passed.split()]
    out.update({k: v for k, v in flags.items() if v})
    return out


def relation(claimer: int, source: int, claims: int, kept: bool = False) -> dict:
    out = {"claimerSeat": claimer, "sourceSeat": source, "claims": claims}
    if kept:
        out["patternKept"] = True
    return out


def request(profile: str, outcome: str, winners: list[dict], **table) -> dict:
    """``table``: dealer, discarder, huangfan, dice (a pair), declared (seats), liabilities, overrides."""
    out: dict = {
        "profile": profile,
        "outcome": OUTCOMES[outcome],
        "dealerSeat": table.get("dealer", 0),
        "winners": winners,
    }
    if "discarder" in table:
        out["discarderSeat"] = table["discarder"]
    if table.get("huangfan"):
        out["huangfanCount"] = table["huangfan"]
    if table.get("dice"):
        out["dice"] = {"first": table["dice"][0], "second": table["dice"][1]}
    if table.get("declared"):
        out["declaredSeats"] = list(table["declared"])
    if table.get("liabilities"):
        out["liabilities"] = list(table["liabilities"])
    if table.get("overrides"):
        out["overrides"] = dict(table["overrides"])
    return out

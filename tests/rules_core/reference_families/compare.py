"""The engine's answer and the reference's, side by side: what the differential test compares."""

from __future__ import annotations

from rules_core import registry as _registry
from rules_core import settle_json

PROFILES = _registry.BUILTIN_REGISTRY  # the built-in profiles, section 14's among them


def engine_settle(request: dict) -> dict:
    return settle_json(request, PROFILES)


def comparable(answer: dict) -> dict:
    """The parts the two must agree on exactly: each winner's legality, reasons, patterns, 花,
    items (kind, code, contribution, count, in order), base value and value; the payments (as a
    multiset); the seat deltas; the next hand."""
    winners = [
        {
            "seat": w.get("seat", 0),
            "legal": w.get("legal", False),
            "reasons": list(w.get("illegalReasons", [])),
            "patterns": list(w.get("patterns", [])),
            "flowers": w.get("flowers", 0),
            "items": [
                (i.get("kind"), i.get("code"), float(i.get("contribution", 0)), i.get("count", 0))
                for i in w.get("items", [])
            ],
            "base_value": float(w.get("baseValue", 0)),
            "value": float(w.get("value", 0)),
        }
        for w in answer.get("winners", [])
    ]
    payments = sorted(
        (p.get("fromSeat", 0), p.get("toSeat", 0), float(p.get("amount", 0)), p.get("reason"))
        for p in answer.get("payments", [])
    )
    nxt = answer.get("nextHand")
    return {
        "unit": answer.get("unit"),
        "winners": winners,
        "payments": payments,
        "deltas": [float(d) for d in answer.get("seatDeltas", [])],
        "next_hand": None if nxt is None else (nxt.get("dealerSeat", 0), nxt.get("huangfanCount", 0)),
        "huangfan_after_dice": answer.get("huangfanAfterDice", 0),
    }


def differences(engine: dict, reference: dict) -> list[str]:
    """Each part where they differ, as ``part: engine != reference``; empty when they agree."""
    a, b = comparable(engine), comparable(reference)
    out = []
    for key in a:
        if key == "winners":
            for i, (wa, wb) in enumerate(zip(a[key], b[key], strict=False)):
                out += [f"winners[{i}].{k}: {wa[k]} != {wb[k]}" for k in wa if wa[k] != wb[k]]
            if len(a[key]) != len(b[key]):
                out.append(f"winners: {len(a[key])} != {len(b[key])}")
        elif a[key] != b[key]:
            out.append(f"{key}: {a[key]} != {b[key]}")
    return out

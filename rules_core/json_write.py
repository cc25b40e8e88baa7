"""Write results in their proto3 JSON form, exactly as protobuf's
``MessageToDict(message, always_print_fields_with_no_presence=True)`` would: every field
printed, zeros and empty lists included (seat 0, dealer 0 and ``[]`` are explicit), enum
names, lowerCamelCase keys. Only fields with presence are left out when unset: an absent
``nextHand`` means no claimed win is legal, and an unset ``optional`` profile field is absent.

Error records (`error_record`) have the shape and key style of a ``SettleBatchResult`` that
holds an error, so a reader tells answers and errors apart by one key, ``error``."""

from __future__ import annotations

from typing import Any

from rules_core.json_names import (
    ENUM_FIELDS,
    FLAG_FIELDS,
    FLOWER_SOURCE,
    INT_FIELDS,
    PATTERN,
    PATTERN_LIST_FIELDS,
    PATTERN_TABLE_FIELDS,
    SHARE_FIELDS,
    TILE,
    UNIT,
    camel,
)
from rules_core.profile import RuleProfile
from rules_core.results import SettleResult, WinnerResult
from rules_core.waits import Waits


def winner_result_dict(w: WinnerResult) -> dict:
    return {
        "seat": w.seat,
        "legal": w.legal,
        "illegalReasons": [f"ILLEGAL_REASON_{r.name}" for r in w.illegal_reasons],
        "patterns": [PATTERN.name_of[p] for p in w.patterns],
        "flowers": w.flowers,
        "items": [
            {
                "kind": f"ITEM_KIND_{item.kind.name}",
                "code": item.code,
                "nameZh": item.name_zh,
                "nameEn": item.name_en,
                "contribution": float(item.contribution),
                "count": item.count,
            }
            for item in w.items
        ],
        "baseValue": float(w.base_value),
        "value": float(w.value),
    }


def settle_response_dict(result: SettleResult) -> dict:
    out: dict[str, Any] = {
        "requestId": result.request_id,
        "profile": result.profile,
        "unit": UNIT.name_of[result.unit],
        "winners": [winner_result_dict(w) for w in result.winners],
        "payments": [
            {
                "fromSeat": p.from_seat,
                "toSeat": p.to_seat,
                "amount": float(p.amount),
                "reason": f"PAYMENT_REASON_{p.reason.name}",
            }
            for p in result.payments
        ],
        "seatDeltas": [float(d) for d in result.seat_deltas],
    }
    if result.next_hand is not None:  # absent: no claimed win is legal, the hand goes on
        out["nextHand"] = {
            "dealerSeat": result.next_hand.dealer_seat,
            "huangfanCount": result.next_hand.huangfan_count,
        }
    out["penalties"] = [
        {"seat": p.seat, "amount": float(p.amount), "reason": f"PENALTY_REASON_{p.reason.name}"}
        for p in result.penalties
    ]
    out["huangfanAfterDice"] = result.huangfan_after_dice
    return out


def error_record(request_id: str | None, code: str, message: str, violations=()) -> dict:
    """An answer that is an error: a ``SettleBatchResult`` holding a ``SettleError``.

    ``violations`` are (field path, description) pairs; an unknown request id is ``""``."""
    return {
        "requestId": request_id or "",
        "error": {
            "code": code,
            "message": message,
            "fieldViolations": [{"field": field, "description": description} for field, description in violations],
        },
    }


def profile_dict(profile: RuleProfile) -> dict:
    """A full RuleProfile in JSON (every field set, as GetProfile returns it)."""
    out: dict[str, Any] = {"name": profile.name, "unit": UNIT.name_of[profile.unit]}
    for name in INT_FIELDS:
        out[camel(name)] = getattr(profile, name)
    for name in SHARE_FIELDS:
        out[camel(name)] = float(getattr(profile, name))
    for name in FLAG_FIELDS:
        out[camel(name)] = getattr(profile, name)
    for name, codec in ENUM_FIELDS.items():
        if name != "unit":
            out[camel(name)] = codec.name_of[getattr(profile, name)]
    for name in PATTERN_TABLE_FIELDS:
        table = getattr(profile, name)
        out[camel(name)] = [{"pattern": PATTERN.name_of[p], "value": table[p]} for p in sorted(table)]
    out["flowerValues"] = [
        {"source": FLOWER_SOURCE.name_of[s], "value": v} for s, v in sorted(profile.flower_values.items())
    ]
    for name in PATTERN_LIST_FIELDS:
        out[camel(name)] = [PATTERN.name_of[p] for p in sorted(getattr(profile, name))]
    out["diceHuangfan"] = [
        {"dice": {"first": a, "second": b}, "value": v} for (a, b), v in sorted(profile.dice_huangfan.items())
    ]
    out["kaibaoThrows"] = [{"first": a, "second": b} for a, b in sorted(profile.kaibao_throws)]
    out["sankouSelfDrawShares"] = [float(s) for s in profile.sankou_self_draw_shares]
    return out


def list_waits_response_dict(waits: Waits) -> dict:
    return {
        "requestId": waits.request_id,
        "discardWaits": [{"tile": TILE.name_of[w.tile], "result": winner_result_dict(w.result)} for w in waits.discard],
        "selfDrawWaits": [
            {"tile": TILE.name_of[w.tile], "result": winner_result_dict(w.result)} for w in waits.self_draw
        ],
    }

"""Write results in their proto3 JSON form, exactly as protobuf's MessageToDict would: default
values left out, `optional` fields kept, enum names, lowerCamelCase keys."""

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


def _put(out: dict, key: str, value) -> None:
    if value:
        out[key] = value


def winner_result_dict(w: WinnerResult) -> dict:
    out: dict[str, Any] = {}
    _put(out, "seat", w.seat)
    _put(out, "legal", w.legal)
    _put(out, "illegalReasons", [f"ILLEGAL_REASON_{r.name}" for r in w.illegal_reasons])
    _put(out, "patterns", [PATTERN.name_of[p] for p in w.patterns])
    _put(out, "flowers", w.flowers)
    items = []
    for item in w.items:
        entry: dict[str, Any] = {"kind": f"ITEM_KIND_{item.kind.name}"}
        _put(entry, "code", item.code)
        _put(entry, "nameZh", item.name_zh)
        _put(entry, "nameEn", item.name_en)
        _put(entry, "contribution", float(item.contribution))
        _put(entry, "count", item.count)
        items.append(entry)
    _put(out, "items", items)
    _put(out, "baseValue", float(w.base_value))
    _put(out, "value", float(w.value))
    return out


def settle_response_dict(result: SettleResult) -> dict:
    out: dict[str, Any] = {}
    _put(out, "requestId", result.request_id)
    _put(out, "profile", result.profile)
    out["unit"] = UNIT.name_of[result.unit]
    _put(out, "winners", [winner_result_dict(w) for w in result.winners])
    payments = []
    for p in result.payments:
        entry: dict[str, Any] = {}
        _put(entry, "fromSeat", p.from_seat)
        _put(entry, "toSeat", p.to_seat)
        _put(entry, "amount", float(p.amount))
        entry["reason"] = f"PAYMENT_REASON_{p.reason.name}"
        payments.append(entry)
    _put(out, "payments", payments)
    out["seatDeltas"] = [float(d) for d in result.seat_deltas]
    if result.next_hand is not None:
        next_hand: dict[str, Any] = {}
        _put(next_hand, "dealerSeat", result.next_hand.dealer_seat)
        _put(next_hand, "huangfanCount", result.next_hand.huangfan_count)
        out["nextHand"] = next_hand
    penalties = []
    for p in result.penalties:
        entry = {}
        _put(entry, "seat", p.seat)
        _put(entry, "amount", float(p.amount))
        entry["reason"] = f"PENALTY_REASON_{p.reason.name}"
        penalties.append(entry)
    _put(out, "penalties", penalties)
    _put(out, "huangfanAfterDice", result.huangfan_after_dice)
    return out


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
    return {k: v for k, v in out.items() if v != [] and v != 0 or k in _ALWAYS}


# `optional` fields keep presence in proto3, so zeros and false are printed for them.
_ALWAYS = {camel(n) for n in INT_FIELDS + SHARE_FIELDS + FLAG_FIELDS}


def list_waits_response_dict(waits: Waits) -> dict:
    out: dict[str, Any] = {}
    _put(out, "requestId", waits.request_id)
    for key, found in (("discardWaits", waits.discard), ("selfDrawWaits", waits.self_draw)):
        _put(out, key, [{"tile": TILE.name_of[w.tile], "result": winner_result_dict(w.result)} for w in found])
    return out

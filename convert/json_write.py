"""Write results in their proto3 JSON form, exactly as protobuf's
``MessageToDict(message, always_print_fields_with_no_presence=True)`` would: every field
printed, zeros and empty lists included (seat 0, dealer 0 and ``[]`` are explicit), enum
names, lowerCamelCase keys. Only fields with presence are left out when unset: an absent
``nextHand`` means no claimed win is legal, and an unset ``optional`` profile field is absent.

Error records (`error_record`) have the shape and key style of a ``SettleBatchResult`` that
holds an error, so a reader tells answers and errors apart by one key, ``error``."""

from __future__ import annotations

from typing import Any, Final

from convert.json_names import (
    ENUM_FIELDS,
    EVENT_KIND,
    FLAG_FIELDS,
    FLOWER,
    FLOWER_SOURCE,
    ILLEGAL_REASON,
    INT_FIELDS,
    ITEM_KIND,
    MELD_KIND,
    OUTCOME,
    PATTERN,
    PATTERN_LIST_FIELDS,
    PATTERN_TABLE_FIELDS,
    PAYMENT_REASON,
    PENALTY_REASON,
    SHARE_FIELDS,
    TILE,
    UNIT,
    camel,
)
from rules_core.errors import ProfileDigestMismatch
from rules_core.profile import RuleProfile
from rules_core.records import Pass, RecordResult, SettleRecordRequest
from rules_core.requests import SettleRequest
from rules_core.results import SettleResult, WinnerResult
from rules_core.version import ENGINE_VERSION
from rules_core.waits import Waits

# An answer's enums are named by list index (EnumCodec.names_by_value).
ILLEGAL_REASONS: Final = ILLEGAL_REASON.names_by_value()
PATTERNS: Final = PATTERN.names_by_value()
ITEM_KINDS: Final = ITEM_KIND.names_by_value()
PAYMENT_REASONS: Final = PAYMENT_REASON.names_by_value()
PENALTY_REASONS: Final = PENALTY_REASON.names_by_value()
UNITS: Final = UNIT.names_by_value()


def winner_result_dict(w: WinnerResult) -> dict:
    return {
        "seat": w.seat,
        "legal": w.legal,
        "illegalReasons": [ILLEGAL_REASONS[r] for r in w.illegal_reasons],
        "patterns": [PATTERNS[p] for p in w.patterns],
        "flowers": w.flowers,
        "items": [
            {
                "kind": ITEM_KINDS[item.kind],
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
        "unit": UNITS[result.unit],
        "winners": [winner_result_dict(w) for w in result.winners],
        "payments": [
            {
                "fromSeat": p.from_seat,
                "toSeat": p.to_seat,
                "amount": float(p.amount),
                "reason": PAYMENT_REASONS[p.reason],
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
        {"seat": p.seat, "amount": float(p.amount), "reason": PENALTY_REASONS[p.reason]} for p in result.penalties
    ]
    out["huangfanAfterDice"] = result.huangfan_after_dice
    out["engineVersion"] = ENGINE_VERSION
    out["profileDigest"] = result.profile_digest
    return out


def error_record(
    request_id: str | None, code: str, message: str, violations=(), reason: str = "", metadata=None
) -> dict:
    """An answer that is an error: a ``SettleBatchResult`` holding a ``SettleError``.

    ``violations`` are (field path, description) pairs; an unknown request id is ``""``;
    ``reason`` and ``metadata``, when given, are those of the ErrorInfo a call would carry."""
    error: dict[str, Any] = {
        "code": code,
        "message": message,
        "fieldViolations": [{"field": field, "description": description} for field, description in violations],
    }
    if reason:
        error["reason"] = reason
        error["metadata"] = dict(metadata or {})
    return {"requestId": request_id or "", "error": error}


def profile_digest_mismatch_record(request_id: str | None, error: ProfileDigestMismatch) -> dict:
    """The error record of a request pinned to another profile digest (API.md)."""
    metadata = {"expected": error.expected, "actual": error.actual}
    return error_record(request_id, "FAILED_PRECONDITION", str(error), (), "PROFILE_DIGEST_MISMATCH", metadata)


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
        "engineVersion": ENGINE_VERSION,
        "profileDigest": waits.profile_digest,
    }


# --- requests, as a record's derived request is answered (RULES.md section 13) ---------------


def _tile_names(tiles) -> list[str]:
    return [TILE.name_of[t] for t in tiles]


def overrides_dict(overrides) -> dict:
    """A partial RuleProfile in JSON from core overrides (the inverse of `json_read.read_overrides`)."""
    out: dict[str, Any] = {}
    for name, value in overrides.items():
        key = camel(name)
        if name in PATTERN_TABLE_FIELDS:
            out[key] = [{"pattern": PATTERN.name_of[p], "value": v} for p, v in _entries(value)]
        elif name == "flower_values":
            out[key] = [{"source": FLOWER_SOURCE.name_of[s], "value": v} for s, v in _entries(value)]
        elif name == "dice_huangfan":
            out[key] = [{"dice": {"first": a, "second": b}, "value": v} for (a, b), v in _entries(value)]
        elif name == "kaibao_throws":
            out[key] = [{"first": a, "second": b} for a, b in value]
        elif name in PATTERN_LIST_FIELDS:
            out[key] = [PATTERN.name_of[p] for p in sorted(value)]
        elif name == "sankou_self_draw_shares":
            out[key] = [float(s) for s in value]
        elif name in ENUM_FIELDS:
            out[key] = ENUM_FIELDS[name].name_of[value]
        elif name in SHARE_FIELDS:
            out[key] = float(value)
        else:
            out[key] = value
    return out


def _entries(table):
    return table.items() if isinstance(table, dict) else table


def _table_dict(request) -> dict[str, Any]:
    """The fields every request shares: id, profile, overrides, dealer, dice, 荒番 count."""
    out: dict[str, Any] = {"requestId": request.request_id, "profile": request.profile}
    if request.overrides:
        out["overrides"] = overrides_dict(request.overrides)
    out["dealerSeat"] = request.dealer_seat
    if request.dice is not None:
        out["dice"] = {"first": request.dice.first, "second": request.dice.second}
    out["huangfanCount"] = request.huangfan_count
    out["profileDigest"] = request.profile_digest
    return out


def settle_request_dict(request: SettleRequest) -> dict:
    """A SettleRequest in JSON, every field printed as MessageToDict prints it with defaults."""
    out = _table_dict(request)
    out["outcome"] = OUTCOME.name_of[request.outcome] if request.outcome is not None else OUTCOME.unspecified
    out["discarderSeat"] = request.discarder_seat
    out["winners"] = [
        {
            "seat": w.seat,
            "hand": {
                "concealed": _tile_names(w.hand.concealed),
                "winningTile": TILE.unspecified if w.hand.winning_tile is None else TILE.name_of[w.hand.winning_tile],
                "melds": [
                    {"kind": MELD_KIND.name_of[m.kind], "tiles": _tile_names(m.tiles), "fromSeat": m.from_seat}  # type: ignore[index]  # never None once validated
                    for m in w.hand.melds
                ],
                "flowers": [FLOWER.name_of[f] for f in w.hand.flowers],  # type: ignore[index]  # never None once validated
                "dragonFlowers": _tile_names(w.hand.dragon_flowers),
            },
            "passedTiles": _tile_names(w.passed_tiles),
            "replacementDraw": w.replacement_draw,
            "firstGoAround": w.first_go_around,
            "lastTile": w.last_tile,
        }
        for w in request.winners
    ]
    out["liabilities"] = [
        {
            "claimerSeat": r.claimer_seat,
            "sourceSeat": r.source_seat,
            "claims": r.claims,
            "patternKept": r.pattern_kept,
        }
        for r in request.liabilities
    ]
    out["abandoningSeat"] = request.abandoning_seat
    out["declaredSeats"] = list(request.declared_seats)
    return out


def pass_dict(p: Pass) -> dict:
    """A 漏胡 pass (API.md ``Pass``)."""
    return {
        "seat": p.seat,
        "tile": TILE.name_of[p.tile],
        "eventIndex": p.event_index,
        "patterns": [PATTERN.name_of[x] for x in p.patterns],
    }


def settle_record_response_dict(result: RecordResult) -> dict:
    return {
        "requestId": result.request_id,
        "settlement": settle_response_dict(result.settlement),
        "derived": settle_request_dict(result.derived),
        "passes": [pass_dict(p) for p in result.passes],
        "recordedMatch": result.recorded_match,
        "mismatchedSeats": list(result.mismatched_seats),
        "engineVersion": ENGINE_VERSION,
        "profileDigest": result.settlement.profile_digest,
    }


def settle_record_request_dict(request: SettleRecordRequest) -> dict:
    """A hand record in JSON, as a game server would write it: an event's unused fields left out."""
    out = _table_dict(request)
    events = []
    for event in request.events:
        entry: dict[str, Any] = {"kind": EVENT_KIND.name_of[event.kind], "seat": event.seat}  # type: ignore[index]  # never None once validated
        if event.tile is not None:
            entry["tile"] = TILE.name_of[event.tile]
        if event.tiles:
            entry["tiles"] = _tile_names(event.tiles)
        if event.flower is not None:
            entry["flower"] = FLOWER.name_of[event.flower]
        if event.flowers:
            entry["flowers"] = [FLOWER.name_of[f] for f in event.flowers]  # type: ignore[index]  # never None once validated
        if event.dragon_flowers:
            entry["dragonFlowers"] = _tile_names(event.dragon_flowers)
        if event.last_tile:
            entry["lastTile"] = True
        events.append(entry)
    out["events"] = events
    if request.recorded_deltas:
        out["recordedDeltas"] = [float(d) for d in request.recorded_deltas]
    return out

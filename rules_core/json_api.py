"""The rules as JSON, for engines that call them without gRPC (batch jobs, data pipelines).

`settle_json` takes a `SettleRequest` and returns a `SettleResponse`, both as
dicts in the proto3 JSON mapping of API.md: lowerCamelCase keys (snake_case
accepted on input, as protobuf's parser does), enum names as strings (numbers
accepted on input), default values left out of the output. Malformed input
raises `InvalidRequest` with the path of every field that is wrong.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import IntEnum
from typing import Any

from rules_core.errors import FieldViolation, InvalidRequest
from rules_core.patterns import Pattern
from rules_core.profile import CombineFixed, FlowerSource, HuangfanMode, LiabilityMode, RuleProfile, Unit
from rules_core.requests import (
    Dice,
    Hand,
    LiabilityRelation,
    ListWaitsRequest,
    Meld,
    MeldKind,
    Outcome,
    SettleRequest,
    Winner,
)
from rules_core.results import SettleResult, WinnerResult
from rules_core.settle import settle
from rules_core.tiles import Flower, Tile
from rules_core.waits import Waits, list_waits

# --- enums: core member <-> proto name -------------------------------------------------------


class EnumCodec:
    """Proto enum names and numbers for a core enum (proto number = core value + offset)."""

    def __init__(self, core: type[IntEnum], prefix: str, offset: int = 0):
        self.core = core
        self.prefix = prefix
        self.offset = offset
        self.by_name = {f"{prefix}{m.name}": m for m in core}
        self.by_number = {m.value + offset: m for m in core}
        self.name_of = {m: f"{prefix}{m.name}" for m in core}
        self.unspecified = f"{prefix}UNSPECIFIED"

    def read(self, value, path: str, violations: list) -> IntEnum | None:
        """The core member, or None for the unspecified value (0)."""
        if isinstance(value, str):
            if value == self.unspecified:
                return None
            member = self.by_name.get(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            if value == 0:
                return None
            member = self.by_number.get(value)
        else:
            violations.append(FieldViolation(path, f"expected a {self.prefix}* name, got {value!r}"))
            return None
        if member is None:
            violations.append(FieldViolation(path, f"unknown value {value!r}"))
        return member


TILE = EnumCodec(Tile, "TILE_", offset=1)
FLOWER = EnumCodec(Flower, "FLOWER_")
MELD_KIND = EnumCodec(MeldKind, "MELD_KIND_")
OUTCOME = EnumCodec(Outcome, "OUTCOME_")
PATTERN = EnumCodec(Pattern, "PATTERN_")
FLOWER_SOURCE = EnumCodec(FlowerSource, "FLOWER_SOURCE_")
UNIT = EnumCodec(Unit, "UNIT_")
COMBINE_FIXED = EnumCodec(CombineFixed, "COMBINE_FIXED_")
HUANGFAN_MODE = EnumCodec(HuangfanMode, "HUANGFAN_MODE_")
LIABILITY_MODE = EnumCodec(LiabilityMode, "LIABILITY_MODE_")

# Short spellings of RULES.md section 11 (`MAX`, `ONCE`, `ADDITIVE`) are accepted too.
for _codec in (COMBINE_FIXED, HUANGFAN_MODE, LIABILITY_MODE):
    _codec.by_name.update({m.name: m for m in _codec.core})


# --- reading -------------------------------------------------------------------------------


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


class _Reader:
    """Reads one JSON object against the field names of its message, collecting violations."""

    def __init__(self, data, path: str, fields: tuple[str, ...], violations: list):
        self.path = path
        self.violations = violations
        self.values: dict[str, Any] = {}
        if data is None:
            return
        if not isinstance(data, dict):
            violations.append(FieldViolation(path or "request", f"expected a JSON object, got {_kind(data)}"))
            return
        by_json = {camel(f): f for f in fields}
        for key, value in data.items():
            name = key if key in fields else by_json.get(key)
            if name is None:
                violations.append(FieldViolation(self.sub(key), "unknown field"))
            elif value is not None:
                self.values[name] = value

    def sub(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def has(self, name: str) -> bool:
        return name in self.values

    def int(self, name: str, default: int = 0) -> int:
        if name not in self.values:
            return default
        return _read_int(self.values[name], self.sub(name), self.violations)

    def float(self, name: str) -> float:
        return _read_float(self.values.get(name, 0.0), self.sub(name), self.violations)

    def str(self, name: str) -> str:
        value = self.values.get(name, "")
        if not isinstance(value, str):
            self.violations.append(FieldViolation(self.sub(name), f"expected a string, got {_kind(value)}"))
            return ""
        return value

    def bool(self, name: str) -> bool:
        value = self.values.get(name, False)
        if not isinstance(value, bool):
            self.violations.append(FieldViolation(self.sub(name), f"expected true or false, got {value!r}"))
            return False
        return value

    def enum(self, name: str, codec: EnumCodec):
        if name not in self.values:
            return None
        return codec.read(self.values[name], self.sub(name), self.violations)

    def list(self, name: str) -> list:
        value = self.values.get(name, [])
        if not isinstance(value, list):
            self.violations.append(FieldViolation(self.sub(name), f"expected a list, got {_kind(value)}"))
            return []
        return value

    def enums(self, name: str, codec: EnumCodec) -> tuple:
        path = self.sub(name)
        return tuple(codec.read(v, f"{path}[{i}]", self.violations) for i, v in enumerate(self.list(name)))

    def messages(self, name: str, read: Callable) -> tuple:
        path = self.sub(name)
        return tuple(read(v, f"{path}[{i}]", self.violations) for i, v in enumerate(self.list(name)))


def _kind(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(type(value), repr(value))


def _read_float(value, path: str, violations: list) -> float:
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            pass
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        violations.append(FieldViolation(path, f"expected a finite number, got {value!r}"))
        return 0.0
    return float(value)


def _read_int(value, path: str, violations: list) -> int:
    if isinstance(value, str):
        try:
            value = int(value)
        except ValueError:
            pass
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        violations.append(FieldViolation(path, f"expected a whole number, got {value!r}"))
        return 0
    if not -(2**31) <= value < 2**31:
        violations.append(FieldViolation(path, f"{value} is out of the int32 range"))
        return 0
    return value


_MELD_FIELDS = ("kind", "tiles", "from_seat")
_HAND_FIELDS = ("concealed", "winning_tile", "melds", "flowers")
_WINNER_FIELDS = ("seat", "hand", "passed_tiles", "replacement_draw", "first_go_around")
_DICE_FIELDS = ("first", "second")
_RELATION_FIELDS = ("claimer_seat", "source_seat", "claims")
_REQUEST_FIELDS = (
    "request_id",
    "profile",
    "overrides",
    "dealer_seat",
    "dice",
    "huangfan_count",
    "outcome",
    "discarder_seat",
    "winners",
    "liabilities",
    "abandoning_seat",
)


def _meld(data, path, violations) -> Meld:
    r = _Reader(data, path, _MELD_FIELDS, violations)
    return Meld(r.enum("kind", MELD_KIND), r.enums("tiles", TILE), r.int("from_seat"))


def read_hand(data, path, violations) -> Hand:
    r = _Reader(data, path, _HAND_FIELDS, violations)
    return Hand(
        concealed=r.enums("concealed", TILE),
        winning_tile=r.enum("winning_tile", TILE),
        melds=r.messages("melds", _meld),
        flowers=r.enums("flowers", FLOWER),
    )


def read_dice(data, path, violations) -> Dice:
    r = _Reader(data, path, _DICE_FIELDS, violations)
    return Dice(r.int("first"), r.int("second"))


def read_winner(data, path, violations) -> Winner:
    r = _Reader(data, path, _WINNER_FIELDS, violations)
    return Winner(
        seat=r.int("seat"),
        hand=read_hand(r.values.get("hand"), r.sub("hand"), violations),
        passed_tiles=r.enums("passed_tiles", TILE),
        replacement_draw=r.bool("replacement_draw"),
        first_go_around=r.bool("first_go_around"),
    )


def _relation(data, path, violations) -> LiabilityRelation:
    r = _Reader(data, path, _RELATION_FIELDS, violations)
    return LiabilityRelation(r.int("claimer_seat"), r.int("source_seat"), r.int("claims"))


def _read_table(r: _Reader) -> dict[str, Any]:
    """The fields every request shares: id, profile, overrides, dealer, dice, 荒番 count."""
    return {
        "request_id": r.str("request_id"),
        "profile": r.str("profile"),
        "overrides": read_overrides(r.values.get("overrides"), "overrides", r.violations),
        "dealer_seat": r.int("dealer_seat"),
        "dice": read_dice(r.values["dice"], "dice", r.violations) if r.has("dice") else None,
        "huangfan_count": r.int("huangfan_count"),
    }


def read_settle_request(data: dict) -> SettleRequest:
    """A core request from its proto3 JSON form, or InvalidRequest."""
    violations: list[FieldViolation] = []
    r = _Reader(data, "", _REQUEST_FIELDS, violations)
    request = SettleRequest(
        **_read_table(r),
        outcome=r.enum("outcome", OUTCOME),
        discarder_seat=r.int("discarder_seat"),
        winners=r.messages("winners", read_winner),
        liabilities=r.messages("liabilities", _relation),
        abandoning_seat=r.int("abandoning_seat"),
    )
    if violations:
        raise InvalidRequest(violations)
    return request


# --- profiles ------------------------------------------------------------------------------

_SCALAR_INT = (
    "lazi_value",
    "ordinary_base",
    "ordinary_lazi_threshold",
    "huangfan_multiplier",
    "kaibao_multiplier",
    "liability_threshold",
    "abandon_penalty",
)
_SCALAR_SHARE = (
    "self_draw_share",
    "discard_share",
    "robbing_kong_share",
    "liability_discard_share",
    "liability_self_draw_share",
    "liability_robbing_kong_share",
    "sankou_related_discarder_share",
    "sankou_related_seat_share",
)
_PROFILE_ENUMS = {
    "unit": UNIT,
    "combine_fixed": COMBINE_FIXED,
    "huangfan_mode": HUANGFAN_MODE,
    "liability_mode": LIABILITY_MODE,
}
_PATTERN_TABLES = ("fixed_values", "fan")
_PATTERN_LISTS = ("floor_patterns", "qualifying_patterns")
PROFILE_MESSAGE_FIELDS = (
    ("name",)
    + _SCALAR_INT
    + _SCALAR_SHARE
    + tuple(_PROFILE_ENUMS)
    + _PATTERN_TABLES
    + _PATTERN_LISTS
    + ("fan_on_fixed", "flower_values", "dice_huangfan", "kaibao_throws", "sankou_self_draw_shares")
)


def read_overrides(data, path: str, violations: list) -> dict[str, Any] | None:
    """Core overrides (field -> value) from a partial RuleProfile in JSON; None when empty."""
    if data is None:
        return None
    r = _Reader(data, path, PROFILE_MESSAGE_FIELDS, violations)
    overrides: dict[str, Any] = {}
    if r.str("name"):
        overrides["name"] = r.str("name")
    for name in _SCALAR_INT:
        if r.has(name):
            overrides[name] = r.int(name)
    for name in _SCALAR_SHARE:
        if r.has(name):
            overrides[name] = r.float(name)
    if r.has("fan_on_fixed"):
        overrides["fan_on_fixed"] = r.bool("fan_on_fixed")
    for name, codec in _PROFILE_ENUMS.items():
        member = r.enum(name, codec)
        if member is not None:
            overrides[name] = member
    for name in _PATTERN_TABLES:
        table = _table(r, name, "pattern", PATTERN)
        if table:
            overrides[name] = table
    flower_values = _table(r, "flower_values", "source", FLOWER_SOURCE)
    if flower_values:
        overrides["flower_values"] = flower_values
    for name in _PATTERN_LISTS:
        patterns = r.enums(name, PATTERN)
        if patterns:
            overrides[name] = frozenset(p for p in patterns if p is not None)
            if None in patterns:
                violations.append(FieldViolation(r.sub(name), "must list specified patterns"))
    dice_huangfan = {}
    for index, entry in enumerate(r.list("dice_huangfan")):
        entry_path = f"{r.sub('dice_huangfan')}[{index}]"
        er = _Reader(entry, entry_path, ("dice", "value"), violations)
        dice = read_dice(er.values.get("dice"), er.sub("dice"), violations)
        dice_huangfan[(dice.first, dice.second)] = er.int("value")
    if dice_huangfan:
        overrides["dice_huangfan"] = dice_huangfan
    throws = r.messages("kaibao_throws", read_dice)
    if throws:
        overrides["kaibao_throws"] = [(d.first, d.second) for d in throws]
    shares = r.list("sankou_self_draw_shares")
    if shares:
        path = r.sub("sankou_self_draw_shares")
        overrides["sankou_self_draw_shares"] = tuple(
            _read_float(v, f"{path}[{i}]", violations) for i, v in enumerate(shares)
        )
    return overrides or None


def _table(r: _Reader, name: str, key_field: str, codec: EnumCodec) -> dict:
    table = {}
    for index, entry in enumerate(r.list(name)):
        er = _Reader(entry, f"{r.sub(name)}[{index}]", (key_field, "value"), r.violations)
        found_before = len(r.violations)
        key = er.enum(key_field, codec)
        if key is None:
            if len(r.violations) == found_before:  # absent or UNSPECIFIED, not already reported
                r.violations.append(FieldViolation(er.sub(key_field), "must be specified"))
            continue
        table[key] = er.int("value")
    return table


# --- writing (mirrors protobuf's MessageToDict: defaults left out) ------------------------


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
    for name in _SCALAR_INT:
        out[camel(name)] = getattr(profile, name)
    for name in _SCALAR_SHARE:
        out[camel(name)] = float(getattr(profile, name))
    out["fanOnFixed"] = profile.fan_on_fixed
    for name, codec in _PROFILE_ENUMS.items():
        if name != "unit":
            out[camel(name)] = codec.name_of[getattr(profile, name)]
    for name in _PATTERN_TABLES:
        table = getattr(profile, name)
        out[camel(name)] = [{"pattern": PATTERN.name_of[p], "value": table[p]} for p in sorted(table)]
    out["flowerValues"] = [
        {"source": FLOWER_SOURCE.name_of[s], "value": v} for s, v in sorted(profile.flower_values.items())
    ]
    for name in _PATTERN_LISTS:
        out[camel(name)] = [PATTERN.name_of[p] for p in sorted(getattr(profile, name))]
    out["diceHuangfan"] = [
        {"dice": {"first": a, "second": b}, "value": v} for (a, b), v in sorted(profile.dice_huangfan.items())
    ]
    out["kaibaoThrows"] = [{"first": a, "second": b} for a, b in sorted(profile.kaibao_throws)]
    out["sankouSelfDrawShares"] = [float(s) for s in profile.sankou_self_draw_shares]
    return {k: v for k, v in out.items() if v != [] and v != 0 or k in _ALWAYS}


# `optional` fields keep presence in proto3, so zeros and false are printed for them.
_ALWAYS = {camel(n) for n in _SCALAR_INT + _SCALAR_SHARE} | {"fanOnFixed"}


_WAITS_FIELDS = (
    "request_id",
    "profile",
    "overrides",
    "dealer_seat",
    "dice",
    "huangfan_count",
    "seat",
    "hand",
    "passed_tiles",
    "replacement_draw",
    "first_go_around",
)


def read_list_waits_request(data: dict) -> ListWaitsRequest:
    violations: list[FieldViolation] = []
    r = _Reader(data, "", _WAITS_FIELDS, violations)
    request = ListWaitsRequest(
        **_read_table(r),
        seat=r.int("seat"),
        hand=read_hand(r.values.get("hand"), "hand", violations),
        passed_tiles=r.enums("passed_tiles", TILE),
        replacement_draw=r.bool("replacement_draw"),
        first_go_around=r.bool("first_go_around"),
    )
    if violations:
        raise InvalidRequest(violations)
    return request


def list_waits_response_dict(waits: Waits) -> dict:
    out: dict[str, Any] = {}
    _put(out, "requestId", waits.request_id)
    for key, found in (("discardWaits", waits.discard), ("selfDrawWaits", waits.self_draw)):
        _put(out, key, [{"tile": TILE.name_of[w.tile], "result": winner_result_dict(w.result)} for w in found])
    return out


def list_waits_json(request: dict) -> dict:
    """List the waits of a `ListWaitsRequest` given as a proto3 JSON dict; return the response dict."""
    return list_waits_response_dict(list_waits(read_list_waits_request(request)))


def settle_json(request: dict) -> dict:
    """Settle a `SettleRequest` given as a proto3 JSON dict; return the `SettleResponse` dict."""
    return settle_response_dict(settle(read_settle_request(request)))

"""The one place where proto messages and rules_core values are converted, both ways.

Enum numbers are shared with rules_core (a tile is its core index plus one);
a number the proto does not define is reported as a field violation, as the
JSON reader of rules_core reports an unknown name.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

from mahjong.shanghai.v1 import profile_pb2, tiles_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import rules_core as rc
from rules_core.errors import FieldViolation, InvalidRequest
from rules_core.patterns import Pattern
from rules_core.profile import (
    ENUM_FIELDS,
    FLAG_FIELDS,
    INT_FIELDS,
    PATTERN_LIST_FIELDS,
    PATTERN_TABLE_FIELDS,
    SHARE_FIELDS,
    FlowerSource,
    RuleProfile,
)
from rules_core.requests import CheckWinRequest, ListWaitsRequest, MeldKind, Outcome
from rules_core.tiles import ALL_FLOWERS, ALL_TILES

_UNKNOWN = object()


def _table(core_members, offset: int = 0) -> dict[int, Any]:
    table: dict[int, Any] = {0: None}
    table.update({int(m) + offset: m for m in core_members})
    return table


TILE_IN = _table(ALL_TILES, offset=1)
FLOWER_IN = _table(ALL_FLOWERS)
MELD_KIND_IN = _table(MeldKind)
OUTCOME_IN = _table(Outcome)
PATTERN_IN = _table(Pattern)
SOURCE_IN = _table(FlowerSource)


class Violations(list):
    """Field violations found while converting a message."""

    def unknown(self, path: str, number: int) -> None:
        self.append(FieldViolation(path, f"unknown value {number}"))


def _enum(table, number: int, path: str, violations: Violations):
    member = table.get(number, _UNKNOWN)
    if member is _UNKNOWN:
        violations.unknown(path, number)
        return None
    return member


def _enums(table, numbers, path: str, violations: Violations) -> tuple:
    members = tuple(map(table.get, numbers, repeat(_UNKNOWN)))
    if _UNKNOWN in members:
        for index, (member, number) in enumerate(zip(members, numbers, strict=True)):
            if member is _UNKNOWN:
                violations.unknown(f"{path}[{index}]", number)
        members = tuple(None if m is _UNKNOWN else m for m in members)
    return members


class Memo(dict):
    """Values made by ``make(key)`` on first use; emptied when ``limit`` is reached, so bounded."""

    def __init__(self, make, limit: int):
        super().__init__()
        self.make = make
        self.limit = limit

    def __missing__(self, key):
        value = self.make(key)
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


# --- proto -> rules_core --------------------------------------------------------------------


def _hand(msg: tiles_pb2.Hand, path: str, violations: Violations) -> rc.Hand:
    melds = tuple(
        rc.Meld(
            _enum(MELD_KIND_IN, m.kind, f"{path}.melds[{i}].kind", violations),
            _enums(TILE_IN, m.tiles, f"{path}.melds[{i}].tiles", violations),
            m.from_seat,
        )
        for i, m in enumerate(msg.melds)
    )
    return rc.Hand(
        _enums(TILE_IN, msg.concealed, f"{path}.concealed", violations),
        _enum(TILE_IN, msg.winning_tile, f"{path}.winning_tile", violations),
        melds,
        _enums(FLOWER_IN, msg.flowers, f"{path}.flowers", violations),
    )


def _winner(msg: pb.Winner, path: str, violations: Violations) -> rc.Winner:
    return rc.Winner(
        msg.seat,
        _hand(msg.hand, f"{path}.hand", violations),
        _enums(TILE_IN, msg.passed_tiles, f"{path}.passed_tiles", violations),
        msg.replacement_draw,
        msg.first_go_around,
    )


def _convert_meld(message: tiles_pb2.Meld, tile=TILE_IN.__getitem__, meld_kind=MELD_KIND_IN.__getitem__) -> rc.Meld:
    return rc.Meld(meld_kind(message.kind), tuple(map(tile, message.tiles)), message.from_seat)


def _meld_from_bytes(serialised: bytes) -> rc.Meld:
    return _convert_meld(tiles_pb2.Meld.FromString(serialised))


# A few hundred distinct melds occur (kind, tiles, source): each is converted once, keyed by
# its serialised form (the bytes are far cheaper to get than the fields one by one). An
# unknown enum number raises KeyError and is not kept.
_MELDS = Memo(_meld_from_bytes, limit=20_000)


def _meld(message: tiles_pb2.Meld, melds=_MELDS) -> rc.Meld:
    return melds[message.SerializeToString()]


def _fast_settle_request(
    msg: pb.SettleRequest,
    tile=TILE_IN.__getitem__,
    flower=FLOWER_IN.__getitem__,
    meld=_meld,
    Hand=rc.Hand,
    Winner=rc.Winner,
) -> rc.SettleRequest:
    """The request with every enum number known, else KeyError (then `settle_request` says which).

    The hot path of every settlement: lookups are bound as defaults, nothing is named twice.
    """
    winners = []
    for w in msg.winners:
        hand = w.hand
        melds, flowers, passed = hand.melds, hand.flowers, w.passed_tiles  # often empty: skip their work
        winners.append(
            Winner(
                w.seat,
                Hand(
                    tuple(map(tile, hand.concealed)),
                    tile(hand.winning_tile),
                    tuple(map(meld, melds)) if melds else (),
                    tuple(map(flower, flowers)) if flowers else (),
                ),
                tuple(map(tile, passed)) if passed else (),
                w.replacement_draw,
                w.first_go_around,
            )
        )
    liabilities = msg.liabilities
    return rc.SettleRequest(
        msg.profile,
        OUTCOME_IN[msg.outcome],
        tuple(winners),
        msg.dealer_seat,
        rc.Dice(msg.dice.first, msg.dice.second) if msg.HasField("dice") else None,
        msg.huangfan_count,
        msg.discarder_seat,
        tuple([rc.LiabilityRelation(r.claimer_seat, r.source_seat, r.claims) for r in liabilities])
        if liabilities
        else (),
        msg.abandoning_seat,
        None,
        msg.request_id,
    )


def _table_fields(msg, violations: Violations) -> dict[str, Any]:
    """The fields every request shares: profile, overrides, dealer, dice, 荒番 count, id."""
    return {
        "profile": msg.profile,
        "overrides": overrides(msg.overrides, "overrides", violations) if msg.HasField("overrides") else None,
        "dealer_seat": msg.dealer_seat,
        "dice": rc.Dice(msg.dice.first, msg.dice.second) if msg.HasField("dice") else None,
        "huangfan_count": msg.huangfan_count,
        "request_id": msg.request_id,
    }


def _checked(request, violations: Violations):
    if violations:
        raise InvalidRequest(violations)
    return request


def settle_request(msg: pb.SettleRequest) -> rc.SettleRequest:
    if not msg.HasField("overrides"):
        try:
            return _fast_settle_request(msg)
        except KeyError:
            pass  # an enum number the proto does not define: convert again, naming the field
    violations = Violations()
    request = rc.SettleRequest(
        **_table_fields(msg, violations),
        outcome=_enum(OUTCOME_IN, msg.outcome, "outcome", violations),
        winners=tuple(_winner(w, f"winners[{i}]", violations) for i, w in enumerate(msg.winners)),
        discarder_seat=msg.discarder_seat,
        liabilities=tuple(rc.LiabilityRelation(r.claimer_seat, r.source_seat, r.claims) for r in msg.liabilities),
        abandoning_seat=msg.abandoning_seat,
    )
    return _checked(request, violations)


def check_win_request(msg: svc.CheckWinRequest) -> CheckWinRequest:
    violations = Violations()
    request = CheckWinRequest(
        **_table_fields(msg, violations),
        outcome=_enum(OUTCOME_IN, msg.outcome, "outcome", violations),
        winner=_winner(msg.winner, "winner", violations),
    )
    return _checked(request, violations)


def list_waits_request(msg: svc.ListWaitsRequest) -> ListWaitsRequest:
    violations = Violations()
    request = ListWaitsRequest(
        **_table_fields(msg, violations),
        seat=msg.seat,
        hand=_hand(msg.hand, "hand", violations),
        passed_tiles=_enums(TILE_IN, msg.passed_tiles, "passed_tiles", violations),
        replacement_draw=msg.replacement_draw,
        first_go_around=msg.first_go_around,
    )
    return _checked(request, violations)


_OPTIONAL_SCALARS = INT_FIELDS + SHARE_FIELDS + FLAG_FIELDS  # `optional` in RuleProfile: presence is known
_PROFILE_ENUMS = tuple((name, _table(enum)) for name, enum in ENUM_FIELDS.items())


def overrides(msg: profile_pb2.RuleProfile, path: str, violations: Violations) -> dict[str, Any] | None:
    """Core overrides from a partial RuleProfile: only the fields that are set."""
    found: dict[str, Any] = {}
    if msg.name:
        found["name"] = msg.name
    for name in _OPTIONAL_SCALARS:
        if msg.HasField(name):
            found[name] = getattr(msg, name)
    for name, table in _PROFILE_ENUMS:
        member = _enum(table, getattr(msg, name), f"{path}.{name}", violations)
        if member is not None:
            found[name] = member
    for name in PATTERN_TABLE_FIELDS:
        entries = _keyed(getattr(msg, name), "pattern", PATTERN_IN, f"{path}.{name}", violations)
        if entries:
            found[name] = entries
    sources = _keyed(msg.flower_values, "source", SOURCE_IN, f"{path}.flower_values", violations)
    if sources:
        found["flower_values"] = sources
    for name in PATTERN_LIST_FIELDS:
        patterns = _enums(PATTERN_IN, getattr(msg, name), f"{path}.{name}", violations)
        if patterns:
            found[name] = frozenset(p for p in patterns if p is not None)
            if None in patterns:
                violations.append(FieldViolation(f"{path}.{name}", "must list specified patterns"))
    if msg.dice_huangfan:
        found["dice_huangfan"] = {(e.dice.first, e.dice.second): e.value for e in msg.dice_huangfan}
    if msg.kaibao_throws:
        found["kaibao_throws"] = [(d.first, d.second) for d in msg.kaibao_throws]
    if msg.sankou_self_draw_shares:
        found["sankou_self_draw_shares"] = tuple(msg.sankou_self_draw_shares)
    return found or None


def _keyed(entries, key_field: str, table, path: str, violations: Violations) -> dict:
    found = {}
    for index, entry in enumerate(entries):
        key_path = f"{path}[{index}].{key_field}"
        number = getattr(entry, key_field)
        key = _enum(table, number, key_path, violations)
        if key is None:
            if number == 0:
                violations.append(FieldViolation(key_path, "must be specified"))
            continue
        found[key] = entry.value
    return found


# --- rules_core -> proto --------------------------------------------------------------------


def _items_message(items: tuple) -> pb.WinnerResult:
    message = pb.WinnerResult()
    add_item = message.items.add
    for kind, code, name_zh, name_en, contribution, count in items:
        add_item(kind=kind, code=code, name_zh=name_zh, name_en=name_en, contribution=contribution, count=count)
    return message


# Few distinct item lists occur (a profile's patterns, flower counts, caps, multipliers): each
# is built once as a message holding only those items, then merged in one call.
_ITEM_TEMPLATES = Memo(_items_message, limit=50_000)


def _fill_winner(target: pb.WinnerResult, w: rc.WinnerResult) -> None:
    """Write a winner's result into a message in place (cheaper than building and copying one)."""
    target.seat = w.seat
    target.legal = w.legal
    target.illegal_reasons.extend(w.illegal_reasons)
    target.patterns.extend(w.patterns)
    target.flowers = w.flowers
    target.base_value = w.base_value
    target.value = w.value
    if w.items:
        target.MergeFrom(_ITEM_TEMPLATES[w.items])


# A SettleResponse is encoded as bytes from parts that recur across distinct hands: the
# profile and unit, each winner's result, and the payments with the deltas and next hand
# (a few thousand distinct values in 60,000 random hands). Each part is encoded by protobuf
# once and then looked up; only the request id is new each time. Joining cached bytes costs
# about a third of building the message field by field.


def _encode_head(key: tuple) -> bytes:
    profile, unit = key
    return pb.SettleResponse(profile=profile, unit=unit).SerializeToString()


def _encode_winner(winner: rc.WinnerResult) -> bytes:
    response = pb.SettleResponse()
    _fill_winner(response.winners.add(), winner)
    return response.SerializeToString()


def _encode_tail(key: tuple) -> bytes:
    payments, seat_deltas, next_hand, penalties, huangfan_after_dice = key
    response = pb.SettleResponse(seat_deltas=seat_deltas, huangfan_after_dice=huangfan_after_dice)
    add_payment = response.payments.add
    for from_seat, to_seat, amount, reason in payments:
        add_payment(from_seat=from_seat, to_seat=to_seat, amount=amount, reason=reason)
    for p in penalties:
        response.penalties.add(seat=p.seat, amount=p.amount, reason=p.reason)
    if next_hand is not None:
        response.next_hand.SetInParent()  # present even when both values are 0
        response.next_hand.dealer_seat, response.next_hand.huangfan_count = next_hand
    return response.SerializeToString()


_HEADS = Memo(_encode_head, limit=1_000)
_WINNERS = Memo(_encode_winner, limit=20_000)
_TAILS = Memo(_encode_tail, limit=20_000)


def _varint(value: int) -> bytes:
    """Protobuf's base-128 varint of a length."""
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_SHORT_VARINTS = tuple(_varint(n) for n in range(1 << 14))  # every length up to 16 KiB


def _length_prefixed(payload: bytes) -> bytes:
    size = len(payload)
    return (_SHORT_VARINTS[size] if size < 1 << 14 else _varint(size)) + payload


def _field_key(message, field: str) -> bytes:
    """The key byte(s) of a length-delimited field (wire type 2)."""
    return _varint(message.DESCRIPTOR.fields_by_name[field].number << 3 | 2)


# `request_id` is field 1 of both SettleResponse and SettleBatchResult.
_REQUEST_ID_KEY = _field_key(pb.SettleResponse, "request_id")
assert _REQUEST_ID_KEY == _field_key(svc.SettleBatchResult, "request_id")
_BATCH_RESPONSE_KEY = _field_key(svc.SettleBatchResult, "response")
_BATCH_RESULTS_KEY = _field_key(svc.SettleBatchResponse, "results")


def _request_id_field(request_id: str) -> bytes:
    return _REQUEST_ID_KEY + _length_prefixed(request_id.encode()) if request_id else b""


def _response_after_id(result: rc.SettleResult, heads=_HEADS, winners=_WINNERS, tails=_TAILS) -> bytes:
    """A serialised SettleResponse without its request id (field 1, which comes first)."""
    return b"".join(
        (
            heads[result.profile, result.unit],
            *map(winners.__getitem__, result.winners),
            tails[result.payments, result.seat_deltas, result.next_hand, result.penalties, result.huangfan_after_dice],
        )
    )


def settle_response_bytes(result: rc.SettleResult) -> bytes:
    """The serialised SettleResponse, byte for byte what protobuf writes for the same message."""
    return _request_id_field(result.request_id) + _response_after_id(result)


def settle_response(result: rc.SettleResult) -> pb.SettleResponse:
    return pb.SettleResponse.FromString(settle_response_bytes(result))


def batch_entry(request_id: str, outcome: rc.SettleResult | InvalidRequest) -> bytes:
    """One serialised `results` entry of a SettleBatchResponse: the settlement or the error."""
    if isinstance(outcome, InvalidRequest):
        result = svc.SettleBatchResult(request_id=request_id)
        settle_error(outcome, result.error)
        entry = result.SerializeToString()
    else:
        request_id_field = _request_id_field(request_id)
        response = _length_prefixed(request_id_field + _response_after_id(outcome))
        entry = request_id_field + _BATCH_RESPONSE_KEY + response
    return _BATCH_RESULTS_KEY + _length_prefixed(entry)


def settle_batch_response(entries: list[bytes]) -> bytes:
    """A serialised SettleBatchResponse: its entries, in order."""
    return b"".join(entries)


def settle_error(error: InvalidRequest, target: pb.SettleError | None = None) -> pb.SettleError:
    """An INVALID_ARGUMENT error entry; written into ``target`` when given."""
    if target is None:
        target = pb.SettleError()
    target.code = "INVALID_ARGUMENT"
    target.message = str(error)
    add = target.field_violations.add
    for field, description in error.violations:
        add(field=field, description=description)
    return target


def check_win_response(request_id: str, result: rc.WinnerResult) -> svc.CheckWinResponse:
    response = svc.CheckWinResponse(request_id=request_id)
    response.result.SetInParent()
    _fill_winner(response.result, result)
    return response


def list_waits_response(waits: rc.Waits) -> svc.ListWaitsResponse:
    response = svc.ListWaitsResponse(request_id=waits.request_id)
    for target, found in ((response.discard_waits, waits.discard), (response.self_draw_waits, waits.self_draw)):
        for wait in found:
            message = target.add(tile=wait.tile + 1)
            _fill_winner(message.result, wait.result)
    return response


def rule_profile(profile: RuleProfile) -> profile_pb2.RuleProfile:
    """Every field of a profile, as GetProfile returns it."""
    return profile_pb2.RuleProfile(
        name=profile.name,
        unit=profile.unit,
        **{name: getattr(profile, name) for name in _OPTIONAL_SCALARS},
        combine_fixed=profile.combine_fixed,
        huangfan_mode=profile.huangfan_mode,
        liability_mode=profile.liability_mode,
        fixed_values=[profile_pb2.PatternValue(pattern=p, value=v) for p, v in sorted(profile.fixed_values.items())],
        fan=[profile_pb2.PatternValue(pattern=p, value=v) for p, v in sorted(profile.fan.items())],
        flower_values=[profile_pb2.FlowerValue(source=s, value=v) for s, v in sorted(profile.flower_values.items())],
        floor_patterns=sorted(profile.floor_patterns),
        qualifying_patterns=sorted(profile.qualifying_patterns),
        dice_huangfan=[
            profile_pb2.DiceValue(dice=profile_pb2.Dice(first=a, second=b), value=v)
            for (a, b), v in sorted(profile.dice_huangfan.items())
        ],
        kaibao_throws=[profile_pb2.Dice(first=a, second=b) for a, b in sorted(profile.kaibao_throws)],
        sankou_self_draw_shares=profile.sankou_self_draw_shares,
    )


# --- rules_core requests -> proto (for clients and tests) -----------------------------------


def _tile_numbers(tiles) -> list[int]:
    return [0 if t is None else t + 1 for t in tiles]


def hand_message(hand: rc.Hand) -> tiles_pb2.Hand:
    return tiles_pb2.Hand(
        concealed=_tile_numbers(hand.concealed),
        winning_tile=0 if hand.winning_tile is None else hand.winning_tile + 1,
        melds=[
            tiles_pb2.Meld(kind=m.kind or 0, tiles=_tile_numbers(m.tiles), from_seat=m.from_seat) for m in hand.melds
        ],
        flowers=[f or 0 for f in hand.flowers],
    )


def winner_message(winner: rc.Winner) -> pb.Winner:
    return pb.Winner(
        seat=winner.seat,
        hand=hand_message(winner.hand),
        passed_tiles=_tile_numbers(winner.passed_tiles),
        replacement_draw=winner.replacement_draw,
        first_go_around=winner.first_go_around,
    )


def overrides_message(found: dict[str, Any] | None) -> profile_pb2.RuleProfile | None:
    """A partial RuleProfile from core overrides (the inverse of `overrides`)."""
    if not found:
        return None
    message = profile_pb2.RuleProfile()
    for name, value in found.items():
        if name in PATTERN_TABLE_FIELDS:
            getattr(message, name).extend(profile_pb2.PatternValue(pattern=p, value=v) for p, v in value.items())
        elif name == "flower_values":
            message.flower_values.extend(profile_pb2.FlowerValue(source=s, value=v) for s, v in value.items())
        elif name == "dice_huangfan":
            message.dice_huangfan.extend(
                profile_pb2.DiceValue(dice=profile_pb2.Dice(first=a, second=b), value=v) for (a, b), v in value.items()
            )
        elif name == "kaibao_throws":
            message.kaibao_throws.extend(profile_pb2.Dice(first=a, second=b) for a, b in value)
        elif name in PATTERN_LIST_FIELDS:
            getattr(message, name).extend(sorted(value))
        elif name == "sankou_self_draw_shares":
            message.sankou_self_draw_shares.extend(value)
        else:
            setattr(message, name, value)
    return message


def settle_request_message(request: rc.SettleRequest) -> pb.SettleRequest:
    message = pb.SettleRequest(
        request_id=request.request_id,
        profile=request.profile,
        overrides=overrides_message(request.overrides),
        dealer_seat=request.dealer_seat,
        huangfan_count=request.huangfan_count,
        outcome=request.outcome or 0,
        discarder_seat=request.discarder_seat,
        winners=[winner_message(w) for w in request.winners],
        liabilities=[
            pb.LiabilityRelation(claimer_seat=r.claimer_seat, source_seat=r.source_seat, claims=r.claims)
            for r in request.liabilities
        ],
        abandoning_seat=request.abandoning_seat,
    )
    if request.dice is not None:
        message.dice.first = request.dice.first
        message.dice.second = request.dice.second
    return message

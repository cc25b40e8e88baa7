"""Hand records (RULES.md section 13): proto messages to rules_core records, and answers back."""

from __future__ import annotations

from mahjong.shanghai.v1 import records_pb2

import rules_core as rc
from convert.enums import FLOWER_IN, TILE_IN, Violations, enum_table, lookup, lookup_all
from convert.json_names import EVENT_KIND
from convert.json_read import read_events, record_or_faults
from convert.messages import settle_request_message, table_fields, with_dice
from convert.profile_digest import BUILTIN_REGISTRY
from convert.requests import _table_fields
from convert.wire import settle_response
from rules_core.errors import FieldViolation
from rules_core.record_checks import MAX_DEAL_DRAGON_FLOWERS, MAX_DEAL_FLOWERS, MAX_DEAL_TILES, MAX_EVENTS
from rules_core.registry import ProfileRegistry
from rules_core.version import ENGINE_VERSION

EVENT_KIND_IN = enum_table(EVENT_KIND)


def _bounded(values, limit: int, path: str, violations: Violations, what: str = "entries"):
    """``values``, or nothing when there are more than the longest legal hand holds (then a
    violation): their elements are never read."""
    if len(values) <= limit:
        return values
    violations.append(FieldViolation(path, f"at most {limit} {what}, got {len(values)}"))
    return ()


def _event(msg: records_pb2.HandEvent, path: str, violations: Violations) -> rc.HandEvent:
    tiles = _bounded(msg.tiles, MAX_DEAL_TILES, f"{path}.tiles", violations)
    flowers = _bounded(msg.flowers, MAX_DEAL_FLOWERS, f"{path}.flowers", violations)
    dragons = _bounded(msg.dragon_flowers, MAX_DEAL_DRAGON_FLOWERS, f"{path}.dragon_flowers", violations)
    return rc.HandEvent(
        lookup(EVENT_KIND_IN, msg.kind, f"{path}.kind", violations),
        msg.seat,
        lookup(TILE_IN, msg.tile, f"{path}.tile", violations),
        lookup_all(TILE_IN, tiles, f"{path}.tiles", violations),
        lookup(FLOWER_IN, msg.flower, f"{path}.flower", violations),
        lookup_all(FLOWER_IN, flowers, f"{path}.flowers", violations),
        lookup_all(TILE_IN, dragons, f"{path}.dragon_flowers", violations),
        msg.last_tile,
    )


def settle_record_request(
    msg: records_pb2.SettleRecordRequest, profiles: ProfileRegistry = BUILTIN_REGISTRY
) -> rc.SettleRecordRequest:
    """The record a message holds, or InvalidRequest; its events read up to the first that
    cannot be (``profiles`` tell whether one before it was impossible: `record_or_faults`)."""
    violations = Violations()
    events = _bounded(msg.events, MAX_EVENTS, "events", violations, "events (the longest legal hand)")
    deltas = _bounded(msg.recorded_deltas, 4, "recorded_deltas", violations, "entries (none, or the four seat deltas)")
    table = _table_fields(msg, violations)
    read, unread = read_events(events, _event, Violations)
    request = rc.SettleRecordRequest(**table, events=read, recorded_deltas=tuple(deltas))
    return record_or_faults(request, unread, violations, profiles)


def settle_record_request_message(request: rc.SettleRecordRequest) -> records_pb2.SettleRecordRequest:
    """A core hand record as its message (the inverse of `settle_record_request`), for clients."""
    message = records_pb2.SettleRecordRequest(
        **table_fields(request),
        events=[
            records_pb2.HandEvent(
                kind=e.kind or 0,
                seat=e.seat,
                tile=0 if e.tile is None else e.tile + 1,
                tiles=[0 if t is None else t + 1 for t in e.tiles],
                flower=e.flower or 0,
                flowers=[f or 0 for f in e.flowers],
                dragon_flowers=[0 if t is None else t + 1 for t in e.dragon_flowers],
                last_tile=e.last_tile,
            )
            for e in request.events
        ],
        recorded_deltas=list(request.recorded_deltas),
    )
    return with_dice(message, request.dice)


def settle_record_response(result: rc.RecordResult) -> records_pb2.SettleRecordResponse:
    return records_pb2.SettleRecordResponse(
        request_id=result.request_id,
        settlement=settle_response(result.settlement),
        derived=settle_request_message(result.derived),
        passes=[
            records_pb2.Pass(seat=p.seat, tile=p.tile + 1, event_index=p.event_index, patterns=list(p.patterns))
            for p in result.passes
        ],
        recorded_match=result.recorded_match,
        mismatched_seats=list(result.mismatched_seats),
        engine_version=ENGINE_VERSION,
        profile_digest=result.settlement.profile_digest,
    )

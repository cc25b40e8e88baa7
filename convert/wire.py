"""SettleResponses and SettleBatchResponse entries as serialised bytes, from cached parts.

The batch hot path. A response's parts recur across distinct hands: the profile
and unit, each winner's result, and the payments with the deltas and next hand
(a few thousand distinct values in 60,000 random hands). Each part is serialised
by protobuf once, kept in a bounded memo keyed by the rules_core value, and
joined; only the request id is new each time. That costs about a third of
building the message field by field, and the bytes are exactly what protobuf
writes for the whole message (fields in number order; tests hold them to it).

Memo keys compare by value, so 0.0 and -0.0 would share a part; rules_core
never produces -0.0.
"""

from __future__ import annotations

from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import rules_core as rc
from convert.memo import Memo
from convert.responses import fill_winner
from rules_core.validation import request_id_violation
from rules_core.version import ENGINE_VERSION


def _encode_head(key: tuple) -> bytes:
    profile, unit = key
    return pb.SettleResponse(profile=profile, unit=unit).SerializeToString()


def _encode_winner(winner: rc.WinnerResult) -> bytes:
    response = pb.SettleResponse()
    fill_winner(response.winners.add(), winner)
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


def _encode_versions(profile_digest: str) -> bytes:
    """engine_version and profile_digest, the last fields of a SettleResponse."""
    return pb.SettleResponse(engine_version=ENGINE_VERSION, profile_digest=profile_digest).SerializeToString()


HEADS = Memo(_encode_head, limit=1_000)
VERSIONS = Memo(_encode_versions, limit=2_000)  # one per effective profile
WINNERS = Memo(_encode_winner, limit=20_000)
TAILS = Memo(_encode_tail, limit=10_000)  # 3,928 distinct in 60,000 random hands


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


def _response_after_id(result: rc.SettleResult, heads=HEADS, winners=WINNERS, tails=TAILS, versions=VERSIONS) -> bytes:
    """A serialised SettleResponse without its request id (field 1, which comes first)."""
    return b"".join(
        (
            heads[result.profile, result.unit],
            *map(winners.__getitem__, result.winners),
            tails[result.payments, result.seat_deltas, result.next_hand, result.penalties, result.huangfan_after_dice],
            versions[result.profile_digest],
        )
    )


def settle_response_bytes(result: rc.SettleResult) -> bytes:
    """The serialised SettleResponse, byte for byte what protobuf writes for the same message."""
    return _request_id_field(result.request_id) + _response_after_id(result)


def settle_response(result: rc.SettleResult) -> pb.SettleResponse:
    return pb.SettleResponse.FromString(settle_response_bytes(result))


def echoed_id(request_id: str) -> str:
    """The request id an error answer echoes: none when it is over the bound (it may be megabytes)."""
    return "" if request_id_violation(request_id) else request_id


def stream_response(request_id: str, outcome) -> pb.SettleResponse:
    """One SettleStream answer: the settlement (an ``rc.SettleResult``), or the request id with
    the error (anything with ``fill_settle_error``: the server's `server.errors.Failure`)."""
    if isinstance(outcome, rc.SettleResult):
        return settle_response(outcome)
    response = pb.SettleResponse(request_id=echoed_id(request_id))
    outcome.fill_settle_error(response.error)
    return response


def batch_entry(request_id: str, outcome) -> bytes:
    """One serialised `results` entry of a SettleBatchResponse: the settlement (an
    ``rc.SettleResult``) or the error (anything with ``fill_settle_error``)."""
    if isinstance(outcome, rc.SettleResult):
        request_id_field = _request_id_field(request_id)
        response = _length_prefixed(request_id_field + _response_after_id(outcome))
        entry = request_id_field + _BATCH_RESPONSE_KEY + response
    else:
        result = svc.SettleBatchResult(request_id=echoed_id(request_id))
        outcome.fill_settle_error(result.error)
        entry = result.SerializeToString()
    return _BATCH_RESULTS_KEY + _length_prefixed(entry)


def settle_batch_response(entries: list[bytes]) -> bytes:
    """A serialised SettleBatchResponse: its entries, in order."""
    return b"".join(entries)

"""The largest body a legal request of each rpc can be, checked before protobuf reads it.

A legal request is small: its strings are ids and names (`MAX_STRING_BYTES`), its
repeated fields hold what a real table can (`rules_core.validation.MAX_LENGTHS`: 14
concealed tiles, 4 melds, 4 winners, one RuleProfile's tables...). Each bound is
computed once from the message's descriptor, every field at its longest encoding
(varints of 10 bytes, each repeated entry with its own tag, strings at their bound),
then multiplied by `BODY_MARGIN` for fields a newer client may add. A body over its
bound is refused at once: decoding a megabyte of nonsense cost 29-80 ms of a worker
under load, nearly all of it in protobuf, and settling cannot take anything that big.

A hand record (`SettleRecordRequest`) is bounded by the longest legal hand
(`largest_record_encoding`). `SettleBatchRequest` and streams are bounded per request: each entry of a batch is
measured on the wire, and the entries counted, before protobuf reads any (`batch_extent`), each
stream message like a body.
"""

from __future__ import annotations

from typing import NamedTuple

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from mahjong.shanghai.v1 import advice_pb2, records_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

from convert.proto_bytes import batch_extent as batch_fields
from rules_core.advice_validation import MAX_SEEN
from rules_core.errors import FieldViolation
from rules_core.record_checks import CHOW_TILES, MAX_DEAL_DRAGON_FLOWERS, MAX_DEAL_FLOWERS, MAX_DEAL_TILES, MAX_EVENTS
from rules_core.validation import MAX_LENGTHS, MAX_REQUEST_ID_BYTES

MAX_STRING_BYTES = MAX_REQUEST_ID_BYTES  # request ids; profile and pattern names are far shorter
BODY_MARGIN = 2
_FIXED_SIZES = {
    FieldDescriptor.TYPE_DOUBLE: 8,
    FieldDescriptor.TYPE_FIXED64: 8,
    FieldDescriptor.TYPE_SFIXED64: 8,
    FieldDescriptor.TYPE_FLOAT: 4,
    FieldDescriptor.TYPE_FIXED32: 4,
    FieldDescriptor.TYPE_SFIXED32: 4,
    FieldDescriptor.TYPE_BOOL: 1,
}
_LONGEST_VARINT = 10


def _varint_size(value: int) -> int:
    return max(1, (value.bit_length() + 6) // 7)


def _length_delimited(size: int) -> int:
    return _varint_size(size) + size


def largest_encoding(descriptor: Descriptor, counts: dict[str, int] | None = None) -> int:
    """The most bytes a message of this type can take when every field is within its bound;
    ``counts`` bounds this message's repeated fields by name, where they differ from a
    settle request's (`MAX_LENGTHS`)."""
    total = 0
    for field in descriptor.fields:
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            value = _length_delimited(largest_encoding(field.message_type))
        elif field.type in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES):
            value = _length_delimited(MAX_STRING_BYTES)
        else:
            value = _FIXED_SIZES.get(field.type, _LONGEST_VARINT)
        if not _repeated(field):
            count = 1
        elif counts is not None and field.name in counts:
            count = counts[field.name]
        else:
            count = MAX_LENGTHS.get(field.name, max(MAX_LENGTHS.values()))
        total += count * (_varint_size(field.number << 3) + value)
    return total


def _repeated(field: FieldDescriptor) -> bool:
    return field.is_repeated


def _bound(descriptor: Descriptor) -> int:
    return _rounded(BODY_MARGIN * largest_encoding(descriptor))


def _rounded(size: int) -> int:
    return -(-size // 1024) * 1024  # up to KiB


def largest_record_encoding() -> int:
    """The most bytes a legal hand record (`SettleRecordRequest`) can take: the longest legal
    hand (`rules_core.record_checks.MAX_EVENTS`), four deals of 14 tiles, 8 flowers and 12 dragon
    flowers, every other event with a tile and the two tiles of a chow, each field at its longest
    encoding."""
    event = records_pb2.HandEvent.DESCRIPTOR
    deal = largest_encoding(
        event, {"tiles": MAX_DEAL_TILES, "flowers": MAX_DEAL_FLOWERS, "dragon_flowers": MAX_DEAL_DRAGON_FLOWERS}
    )
    other = largest_encoding(event, {"tiles": CHOW_TILES, "flowers": 0, "dragon_flowers": 0})
    record = records_pb2.SettleRecordRequest.DESCRIPTOR
    tag = _varint_size(record.fields_by_name["events"].number << 3)
    rest = largest_encoding(record, {"events": 0, "recorded_deltas": 4})
    return rest + 4 * (tag + _length_delimited(deal)) + (MAX_EVENTS - 4) * (tag + _length_delimited(other))


# The body of each unary rpc and of each SettleStream message or SettleBatch entry.
MAX_BODY_BYTES: dict[str, int] = {
    message.DESCRIPTOR.full_name: _bound(message.DESCRIPTOR)
    for message in (pb.SettleRequest, svc.CheckWinRequest, svc.ListWaitsRequest, svc.GetProfileRequest)
}
MAX_BODY_BYTES[svc.ListProfilesRequest.DESCRIPTOR.full_name] = 1024  # no fields: only a newer client's
MAX_BODY_BYTES[records_pb2.SettleRecordRequest.DESCRIPTOR.full_name] = _rounded(BODY_MARGIN * largest_record_encoding())
MAX_BODY_BYTES[advice_pb2.AdviseRequest.DESCRIPTOR.full_name] = _rounded(
    BODY_MARGIN * largest_encoding(advice_pb2.AdviseRequest.DESCRIPTOR, {"seen": MAX_SEEN})
)
MAX_REQUEST_BYTES = MAX_BODY_BYTES[pb.SettleRequest.DESCRIPTOR.full_name]
BATCH_MESSAGE = svc.SettleBatchRequest.DESCRIPTOR.full_name
MIN_ENTRY_BYTES = 2  # an entry's tag and length: a body of n entries is at least 2n bytes


def inspected_from(message_name: str) -> int | None:
    """The body length over which `body_violation` can find something (None: never), so that a
    caller compares one length on its hot path and calls it only past that."""
    return MAX_REQUEST_BYTES if message_name == BATCH_MESSAGE else MAX_BODY_BYTES.get(message_name)


def body_violation(message_name: str, body: bytes, what: str = "body") -> FieldViolation | None:
    """Why a body for ``message_name`` is too large to be a legal request, or None."""
    if message_name == BATCH_MESSAGE:
        return batch_entry_violation(body)
    limit = MAX_BODY_BYTES.get(message_name)
    if limit is None or len(body) <= limit:
        return None
    return FieldViolation(what, f"a legal {message_name} is at most {limit} bytes, got {len(body)}")


class BatchExtent(NamedTuple):
    """What a SettleBatchRequest body holds, known before protobuf reads it: its entries, and
    the first entry too large to be a legal request (None if there is none)."""

    entries: int
    oversized: FieldViolation | None


def batch_extent(body: bytes) -> BatchExtent:
    """The body's entries counted from their tags and lengths alone (`convert.proto_bytes`:
    nothing is made per entry, so a body of millions costs no memory), and the first entry over
    `MAX_REQUEST_BYTES`. The walk stops at anything but a well-formed body: protobuf then says
    what is wrong with it."""
    entries, index, size = batch_fields(body, MAX_REQUEST_BYTES)
    if index < 0:
        return BatchExtent(entries, None)
    violation = FieldViolation(
        f"requests[{index}]", f"a legal SettleRequest is at most {MAX_REQUEST_BYTES} bytes, got {size}"
    )
    return BatchExtent(entries, violation)


def batch_entry_violation(body: bytes) -> FieldViolation | None:
    """The first entry of a SettleBatchRequest body over `MAX_REQUEST_BYTES` (`batch_extent`), or None."""
    if len(body) <= MAX_REQUEST_BYTES:
        return None  # no entry can be larger
    return batch_extent(body).oversized

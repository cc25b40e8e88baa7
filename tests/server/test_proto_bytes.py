"""SettleBatch's entries read from the body's bytes (``convert.proto_bytes``) are what reading
them from the parsed message gives (``convert.settle_request``), or left to that reading: for
generated requests, valid and malformed, for entries in unusual wire forms (unknown fields, a
field twice, repeated fields unpacked, overrides, negative numbers), for every form of a varint
protobuf reads, and for mutated entries."""

from __future__ import annotations

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.json_format import ParseDict, ParseError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
import rules_core as rc
from convert.proto_bytes import FLOWERS, MELD_KINDS, OUTCOMES, TILES, read_batch
from generators.random_hands import generate_requests
from tests.batch.test_readers_agree import requests as json_requests
from tests.fuzz.wire import overlong_varint, tag, varint

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def message_reading(entry: bytes):
    """What SettleBatch made of an entry before: its message read by `convert`, or the violations."""
    try:
        return convert.settle_request(pb.SettleRequest.FromString(entry))
    except rc.InvalidRequest as error:
        return error.violations


def body(entries: list[bytes]) -> bytes:
    """A SettleBatchRequest's bytes: each entry as field 1, length-delimited."""
    return b"".join(b"\x0a" + _length(len(entry)) + entry for entry in entries)


def _length(size: int) -> bytes:
    """A length's varint; the entries here are under 16 KiB, so two bytes at most."""
    return bytes([size]) if size < 0x80 else bytes([size & 0x7F | 0x80, size >> 7])


def test_the_enum_tables_are_the_converters():
    """Numbered as the wire contract numbers them, as `convert.enums` reads them."""
    from convert.enums import FLOWER_IN, MELD_KIND_IN, OUTCOME_IN, TILE_IN

    for table, converter in (
        (TILES, TILE_IN),
        (FLOWERS, FLOWER_IN),
        (MELD_KINDS, MELD_KIND_IN),
        (OUTCOMES, OUTCOME_IN),
    ):
        assert dict(enumerate(table)) == converter


def test_every_generated_request_is_read_from_the_bytes_as_from_its_message():
    messages = [convert.settle_request_message(r) for r in generate_requests(2000, seed=5)]
    entries = read_batch(svc.SettleBatchRequest(requests=messages).SerializeToString())
    assert entries is not None and len(entries) == len(messages)
    for message, entry in zip(messages, entries, strict=True):
        assert entry is not None  # the usual form: none is left to the message
        assert entry == convert.settle_request(message)


# Bytes that make an entry unusual, added after it: protobuf reads them (an unknown field, a
# field twice, whose singular values the last one wins and whose messages merge), this reader
# leaves the entry to the message.
ODD_TAILS = [
    b"\xa8\x01\x07",  # field 21, a varint: unknown
    b"\x68\x05",  # field 13, a varint: unknown
    b"\x20\x02\x20\x03",  # dealer_seat twice
    b"\x20\x01\x20\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",  # dealer_seat twice, the last -1
    b"\x38\x01\x38\x63",  # outcome twice, the last 99: undefined
    b"\x2a\x02\x08\x03\x2a\x02\x10\x04",  # dice twice: merged
    b"\x1a\x00",  # overrides, empty
    b"\x4a\x06\x12\x04\x08\x01\x08\x01",  # a winner whose concealed tiles are unpacked
    b"\x4a\x05\x12\x03\x22\x01\x09",  # a winner whose hand has flower 9, undefined
    b"\x4a\x08\x12\x06\x1a\x04\x08\x02\x10\x01",  # a meld whose tiles are unpacked
    b"\x4a\x04\x12\x02\x10\x23",  # a winner whose winning tile is 35, undefined
]
# Bytes in the usual form, added after an entry: read here as protobuf reads them.
USUAL_TAILS = [
    b"\x4a\x04\x12\x02\x10\x1f",  # a winner whose hand's winning tile is NORTH
    b"\x4a\x03\x08\x80\x01",  # a winner at seat 128
    b"\x52\x0b\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",  # a liability of claimer -1
]
REFUSED_TAIL = b"\x0a\x02\xc3\x28"  # request_id again, not UTF-8: protobuf refuses the body


def _same_reading(entry: bytes) -> None:
    """What the bytes reader gives for ``entry`` is the message's reading, or nothing (it leaves
    the entry to the message); a body protobuf refuses is never read."""
    try:
        svc.SettleBatchRequest.FromString(body([entry]))
    except Exception:  # noqa: BLE001 - protobuf refuses the body: SettleBatch never reads it
        return
    (read,) = read_batch(body([entry]))
    if read is not None:
        assert read == message_reading(entry)


@SETTINGS
@given(json_requests(), st.lists(st.sampled_from([*ODD_TAILS, *USUAL_TAILS, REFUSED_TAIL]), max_size=2))
def test_an_entry_is_read_as_its_message_reads_it_or_left_to_it(data, tails):
    try:
        message = ParseDict(data, pb.SettleRequest())
    except (ParseError, ValueError, TypeError):
        return  # not a message protobuf can hold: no batch carries it
    _same_reading(message.SerializeToString() + b"".join(tails))


def test_an_entry_in_an_unusual_form_is_left_to_the_message_and_one_in_the_usual_form_is_not():
    request = generate_requests(1, seed=5)[0]._replace(winners=())
    base = convert.settle_request_message(request).SerializeToString()
    for tail in ODD_TAILS:
        assert read_batch(body([base + tail])) == [None], tail
    for tail in USUAL_TAILS:
        (read,) = read_batch(body([base + tail]))
        assert read is not None and read == message_reading(base + tail), tail


def test_a_body_holding_anything_but_entries_is_left_to_the_message():
    entry = convert.settle_request_message(generate_requests(1, seed=5)[0]).SerializeToString()
    assert read_batch(body([entry]) + b"\x10\x01") is None  # field 2 of the batch: unknown
    assert read_batch(body([entry, entry])) == [message_reading(entry)] * 2
    assert read_batch(b"") == []


def test_a_varint_running_past_its_entry_is_left_to_the_message():
    """protobuf refuses it; read on to the body's end, it took the next entry's tag as its last
    byte (dealer_seat 1281)."""
    assert read_batch(body([b"\x20\x81", b""])) == [None, rc.SettleRequest(profile="", outcome=None)]


def test_a_batch_whose_entry_length_does_not_end_is_left_to_the_message():
    assert read_batch(b"\x0a\x80") is None
    assert read_batch(b"\x0a" + b"\xff" * 10 + b"\x01") is None


def test_settle_batch_reads_its_entries_with_this_reader():
    from server import service

    assert service.read_batch is read_batch


def _tag(number: int, wire_type: int) -> bytes:
    return tag(number, wire_type)


def _encoded(message, varint, explicit) -> bytes:
    """``message``'s wire form with each value's varint (not the tags' or lengths') written by
    ``varint(value, field type)`` (a value of 64 bits,
    which may write it longer or with bits above 64 set): the forms protobuf reads as the same.
    A singular number or bool left at zero is written too where ``explicit()`` says so."""
    out = bytearray()
    present = message.ListFields()
    written = {d.number for d, _ in present}
    for descriptor in message.DESCRIPTOR.fields:
        numeric = descriptor.type not in (descriptor.TYPE_MESSAGE, descriptor.TYPE_STRING)
        if numeric and not descriptor.is_repeated and descriptor.number not in written and explicit():
            present.append((descriptor, 0))
    for descriptor, value in present:
        values = value if descriptor.is_repeated else [value]
        if descriptor.type == descriptor.TYPE_MESSAGE:
            for item in values:
                payload = _encoded(item, varint, explicit)
                out += _tag(descriptor.number, 2) + _length(len(payload)) + payload
        elif descriptor.type == descriptor.TYPE_STRING:
            payload = value.encode()
            out += _tag(descriptor.number, 2) + _length(len(payload)) + payload
        elif descriptor.is_repeated:  # packed enums
            payload = b"".join(varint(v & 0xFFFFFFFFFFFFFFFF, descriptor.type) for v in values)
            out += _tag(descriptor.number, 2) + _length(len(payload)) + payload
        else:
            out += _tag(descriptor.number, 0) + varint(int(value) & 0xFFFFFFFFFFFFFFFF, descriptor.type)
    return bytes(out)


@st.composite
def widened_entries(draw):
    """A generated request's bytes with each varint of the kinds drawn (bools, int32s, enums)
    in a form drawn for it: minimal, padded to more bytes, or ten bytes with any of the six
    bits above 64 set; a number or bool at zero written or not."""
    request = generate_requests(1, seed=draw(st.integers(0, 10_000)))[0]
    message = convert.settle_request_message(request)
    for index in draw(st.lists(st.integers(0, 3), max_size=2)):  # booleans set or not, as drawn
        if index < len(message.winners):
            message.winners[index].replacement_draw ^= True

    widened = draw(
        st.sets(st.sampled_from([FieldDescriptor.TYPE_BOOL, FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_ENUM]))
    )

    def written(value: int, field_type: int) -> bytes:
        shortest = max(1, (value.bit_length() + 6) // 7)
        if field_type not in widened:
            return varint(value)
        choice = draw(st.sampled_from(["minimal", "padded", "above 64"]))
        if choice == "padded" and shortest < 10:
            return overlong_varint(value, draw(st.integers(shortest + 1, 10)))
        if choice == "above 64":
            return varint(value | draw(st.integers(1, 63)) << 64)  # ten bytes
        return varint(value)

    return _encoded(message, written, lambda: draw(st.booleans()))


@st.composite
def mutated_entries(draw):
    """A widened entry with a few bytes flipped, inserted or removed."""
    entry = bytearray(draw(widened_entries()))
    for _ in range(draw(st.integers(0, 3))):
        position = draw(st.integers(0, len(entry)))
        kind = draw(st.sampled_from(["flip", "insert", "delete"]))
        byte = draw(st.integers(0, 255))
        if kind == "insert" or position == len(entry):
            entry[position:position] = bytes([byte])
        elif kind == "flip":
            entry[position] = byte
        else:
            del entry[position]
    return bytes(entry)


@SETTINGS
@given(widened_entries())
def test_a_varint_in_any_form_protobuf_reads_is_read_as_protobuf_reads_it(entry):
    _same_reading(entry)


@SETTINGS
@given(mutated_entries())
def test_a_mutated_entry_is_read_as_its_message_reads_it_or_left_to_it(entry):
    _same_reading(entry)

"""The protobuf wire format written by hand, so a body can say what no generated class would:
overlong varints, wrong wire types, groups nested past any parser's limit, lengths that lie."""

from __future__ import annotations

import struct

VARINT, I64, LEN, SGROUP, EGROUP, I32 = 0, 1, 2, 3, 4, 5


def varint(value: int) -> bytes:
    """Base-128 varint; a negative value is written as protobuf writes int32/int64: 10 bytes."""
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def overlong_varint(value: int, length: int) -> bytes:
    """``value`` padded with continuation bytes to ``length`` bytes (over 10 is malformed)."""
    encoded = bytearray(varint(value))
    while len(encoded) < length:
        encoded[-1] |= 0x80
        encoded.append(0)
    return bytes(encoded)


def tag(field: int, wire_type: int) -> bytes:
    return varint((field << 3) | wire_type)


def int_field(field: int, value: int) -> bytes:
    return tag(field, VARINT) + varint(value)


def len_field(field: int, payload: bytes) -> bytes:
    return tag(field, LEN) + varint(len(payload)) + payload


def double_field(field: int, value: float) -> bytes:
    return tag(field, I64) + struct.pack("<d", value)


def packed_varints(field: int, values) -> bytes:
    return len_field(field, b"".join(varint(v) for v in values))


def group(field: int, payload: bytes) -> bytes:
    return tag(field, SGROUP) + payload + tag(field, EGROUP)


def nested_groups(field: int, depth: int, closed: bool = True) -> bytes:
    """``depth`` start-group tags inside each other, with their end tags when ``closed``."""
    start, end = tag(field, SGROUP), tag(field, EGROUP)
    return start * depth + (end * depth if closed else b"")


def nested_messages(field: int, depth: int) -> bytes:
    """An unknown length-delimited field holding itself ``depth`` times."""
    body = b""
    for _ in range(depth):
        body = len_field(field, body)
    return body


def packed_repeat(field: int, value: int, count: int) -> bytes:
    """A packed repeated field of ``count`` copies of one value."""
    return len_field(field, varint(value) * count)

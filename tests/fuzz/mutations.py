"""Byte-level and structural damage to a serialised request, one function a kind.

Each takes the generator's ``rng``, a valid serialised body and the server's message limit,
and returns the damaged body.
"""

from __future__ import annotations

import random

from tests.fuzz import wire


def bit_flip(rng: random.Random, body: bytes, limit: int) -> bytes:
    if not body:
        return bytes([1 << rng.randrange(8)])
    data = bytearray(body)
    for _ in range(rng.choice((1, 1, 2, 3, 8))):
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


def byte_edit(rng: random.Random, body: bytes, limit: int) -> bytes:
    data = bytearray(body)
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(data))
        action = rng.randrange(3)
        if action == 0 and at < len(data):
            data[at] = rng.choice((0x00, 0x7F, 0x80, 0xFF, rng.randrange(256)))
        elif action == 1:
            data[at:at] = rng.randbytes(rng.randint(1, 8))
        else:
            del data[at : at + rng.randint(1, 8)]
    return bytes(data)


def truncate(rng: random.Random, body: bytes, limit: int) -> bytes:
    return body[: rng.randrange(len(body))] if body else b""


def random_bytes(rng: random.Random, body: bytes, limit: int) -> bytes:
    return rng.choice((b"\xff", b"\x00", b"\x08", b"\x0a\xff\xff\xff\xff\x0f", rng.randbytes(rng.randint(1, 256))))


def unknown_fields(rng: random.Random, body: bytes, limit: int) -> bytes:
    """Fields the schema does not have, of every wire type, including the invalid ones (6, 7)
    and field numbers 0 and 2^29-1."""
    number = rng.choice((0, 12, 15, 16, 100, 2047, 2**29 - 1, rng.randint(1, 2**29 - 1)))
    extra = rng.choice(
        (
            wire.int_field(number, rng.choice((0, 1, 2**63, -1))),
            wire.double_field(number, float("nan")),
            wire.len_field(number, rng.randbytes(rng.randint(0, 64))),
            wire.group(number, wire.int_field(1, 1)),
            wire.tag(number, wire.I32) + rng.randbytes(4),
            wire.tag(number, 6) + b"\x01",
            wire.tag(number, 7),
            wire.tag(number, wire.EGROUP),
        )
    )
    at = rng.choice((0, len(body)))
    return body[:at] + extra + body[at:]


def wrong_wire_type(rng: random.Random, body: bytes, limit: int) -> bytes:
    """A known field number (1-11) sent with a wire type it does not have."""
    number = rng.randint(1, 11)
    extra = rng.choice(
        (
            wire.int_field(number, 5),
            wire.len_field(number, b"\x08\x01"),
            wire.tag(number, wire.I64) + b"\x00" * 8,
            wire.tag(number, wire.I32) + b"\x00" * 4,
            wire.group(number, b""),
        )
    )
    return body + extra


def huge_varint(rng: random.Random, body: bytes, limit: int) -> bytes:
    """Varints at and past ten bytes, as values, as tags and as lengths."""
    number = rng.randint(1, 11)
    extra = rng.choice(
        (
            wire.tag(number, wire.VARINT) + b"\xff" * 9 + b"\x01",  # 2^64 - 1
            wire.tag(number, wire.VARINT) + wire.overlong_varint(1, rng.choice((10, 11, 64))),
            wire.tag(number, wire.VARINT) + b"\xff" * rng.choice((10, 100, 10_000)),  # never ends
            b"\xff" * 10 + b"\x01",  # a tag beyond 2^32
            wire.tag(number, wire.LEN) + wire.overlong_varint(2**62, 10),
            wire.tag(number, wire.VARINT) + wire.varint(2**31) if rng.random() < 0.5 else wire.int_field(number, -1),
        )
    )
    return rng.choice((body + extra, extra + body))


def lying_length(rng: random.Random, body: bytes, limit: int) -> bytes:
    """A length-delimited field whose length is not what follows it."""
    number = rng.randint(1, 11)
    claimed = rng.choice((1, 2**31 - 1, 2**31, 2**32 - 1, 2**63 - 1, limit, limit + 1))
    return body + wire.tag(number, wire.LEN) + wire.varint(claimed) + rng.randbytes(rng.randint(0, 16))


def deep_group(rng: random.Random, body: bytes, limit: int) -> bytes:
    """Unknown groups and known sub-messages nested past any recursion limit."""
    depth = rng.choice((31, 32, 99, 100, 101, 1000, 100_000))
    depth = min(depth, max(1, limit // 4))
    number = rng.choice((20, 2**29 - 1, 3, 9))
    shape = rng.randrange(3)
    if shape == 0:
        extra = wire.nested_groups(number, depth, closed=True)
    elif shape == 1:
        extra = wire.nested_groups(number, depth, closed=False)
    else:
        extra = wire.nested_messages(number, min(depth, 2000))
    return body + extra


def invalid_utf8(rng: random.Random, body: bytes, limit: int) -> bytes:
    """A string field (request_id, profile or name: field 1 or 2) holding bytes that are not UTF-8."""
    payload = rng.choice((b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"abc\x80", b"\x00\xff"))
    return body + wire.len_field(rng.choice((1, 2)), payload)


def splice(rng: random.Random, body: bytes, other: bytes) -> bytes:
    """The head of one body and the tail of another."""
    return body[: rng.randint(0, len(body))] + other[rng.randint(0, len(other)) :]


RAW = {
    "bit_flip": (bit_flip, 12),
    "byte_edit": (byte_edit, 8),
    "truncate": (truncate, 8),
    "random_bytes": (random_bytes, 4),
    "unknown_fields": (unknown_fields, 6),
    "wrong_wire_type": (wrong_wire_type, 5),
    "huge_varint": (huge_varint, 5),
    "lying_length": (lying_length, 3),
    "deep_group": (deep_group, 4),
    "invalid_utf8": (invalid_utf8, 3),
}

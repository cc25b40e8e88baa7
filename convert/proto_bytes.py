"""A SettleBatchRequest's entries read from protobuf's wire form straight into core values.

The batch's hot path (SettleBatch): a body protobuf has already parsed, and so found
well-formed, is read again here from its bytes, with none of protobuf's message objects and
their per-field attribute reads, a third of what `convert.settle_request` costs an entry (the
handler 1.3x faster, docs/PERFORMANCE.md). Compiled with mypyc with the rest of the hot path,
this is plain integer work on bytes. It is the one second reader of protobuf bytes: C over
CPython's API gained no more than noise over it, and went.

It reads only the usual form: every field known and at most once (a repeated one packed, in
one piece), no ``overrides``, every enum number one the proto defines, every list within its
bound (`rules_core.validation`), every meld short. An entry in any other form is None, and the
caller reads it from the parsed message, field by field, as it reads every Settle. So this
reader need only be right where it answers: it gives the value the message's reading gives
(`convert.settle_request`), which tests/server/test_proto_bytes.py holds it to, on generated,
widened (every varint form protobuf reads) and mutated entries.

The enum numbers are the wire contract's (docs/API.md): a tile is its core index plus one, a
flower, meld kind and outcome their core value; 0 (unspecified) is None, which validation
names. A number is read as protobuf reads it: an int32 is the low 32 bits of its varint,
signed; a bool whether the low 64 bits are not all zero.
"""

from __future__ import annotations

from typing import Any, Final

from convert.json_names import FLOWER, MELD_KIND, OUTCOME, TILE, EnumCodec
from convert.unread import defaults_after
from rules_core.requests import Dice, Hand, LiabilityRelation, Meld, SettleRequest, Winner
from rules_core.validation import MAX_CONCEALED, MAX_FLOWERS, MAX_LIABILITIES, MAX_MELDS, MAX_PASSED, MAX_WINNERS


class Unusual(Exception):
    """The entry is not in the usual form: read it from its message."""


def _by_number(codec: EnumCodec) -> tuple:
    """The core members indexed by their proto number (the descriptor's); None at 0
    (unspecified). The numbers run from 1 with no gap, each read as one byte."""
    if sorted(codec.by_number) != list(range(1, len(codec.by_number) + 1)) or len(codec.by_number) >= 128:
        raise ImportError(f"{codec.proto.full_name}: numbers not 1 to n under 128, as this reader reads them")
    table: list = [None] * (max(codec.by_number) + 1)
    for number, member in codec.by_number.items():
        table[number] = member
    return tuple(table)


TILES: Final = _by_number(TILE)
FLOWERS: Final = _by_number(FLOWER)
MELD_KINDS: Final = _by_number(MELD_KIND)
OUTCOMES: Final = _by_number(OUTCOME)

# A meld the message's reading converts at once (convert.requests) serialises to at most this:
# one no longer, on the wire, goes there. Its protobuf serialisation is never longer than the
# wire's bytes it was read from, so what is read here the message's reading reads the same way.
MAX_MELD_BYTES: Final = 32
_REQUESTS_TAG: Final = 0x0A  # SettleBatchRequest.requests: field 1, length-delimited
# The fields after those read here (an entry with one of them is declined): their defaults.
_MELD_REST: Final = defaults_after(Meld, "from_seat")
_HAND_REST: Final = defaults_after(Hand, "flowers")
_DICE_REST: Final = defaults_after(Dice, "second")
_WINNER_REST: Final = defaults_after(Winner, "first_go_around")
_RELATION_REST: Final = defaults_after(LiabilityRelation, "claims")
_REQUEST_REST: Final = defaults_after(SettleRequest, "profile_digest")
_EMPTY_HAND: Final = Hand(())
# A NamedTuple made by tuple's own constructor: its generated ``__new__`` is Python code, which
# costs more than the rest of a meld's reading.
_make: Final[Any] = tuple.__new__


def read_batch(body: bytes) -> list[SettleRequest | None] | None:
    """Each entry of a serialised SettleBatchRequest as a core value, or None where it is not in
    the usual form; None for the whole body when it holds anything but entries."""
    entries: list[SettleRequest | None] = []
    position = 0
    end = len(body)
    while position < end:
        if body[position] != _REQUESTS_TAG:
            return None
        try:
            size, position = _varint(body, position + 1, end)
        except Unusual:
            return None
        stop = position + size
        if stop > end:
            return None
        try:
            entries.append(_request(body, position, stop))
        except Unusual:
            entries.append(None)
        position = stop
    return entries


def batch_extent(body: bytes, max_entry_bytes: int) -> tuple[int, int, int]:
    """How many entries a serialised SettleBatchRequest holds, from its fields' tags and lengths
    alone (no entry is read, nothing is made per entry): ``(entries, index, size)``, ``index``
    the first entry longer than ``max_entry_bytes`` (``size`` its length), or -1. The walk
    stops at that entry, and at anything protobuf refuses (a varint that does not end, a length
    past the body, field 0, a wire type that is none, a group that does not close), with the
    entries counted so far: protobuf then says what is wrong with the body. Fields of other
    numbers (a newer client's) are stepped over as protobuf steps over them, groups included."""
    position = 0
    end = len(body)
    entries = 0
    while position < end:
        if body[position] == _REQUESTS_TAG:  # the usual field first: one byte
            position += 1
            try:
                size, position = _varint(body, position, end)
            except Unusual:
                break
            if size > max_entry_bytes:
                return entries, entries, size
            if size > end - position:
                break
            entries += 1
            position += size
            continue
        try:
            position = _skipped(body, position, end, 0)
        except Unusual:
            break
    return entries, -1, 0


def field_cuts(body: bytes, step: int) -> list[int]:
    """Where to cut a serialised message into pieces of about ``step`` bytes, each piece whole
    fields (an entry is never cut): the positions after the last field of each piece, the
    body's end last. Parsing the pieces in turn, each merged into one message, is parsing the
    body, as protobuf defines a message's concatenation; what protobuf would refuse ends the
    walk, and the rest is one piece, for protobuf to refuse."""
    cuts: list[int] = []
    position = 0
    start = 0
    end = len(body)
    while position < end:
        try:
            position = _skipped(body, position, end, 0)
        except Unusual:
            break
        if position - start >= step:
            cuts.append(position)
            start = position
    if not cuts or cuts[-1] != end:
        cuts.append(end)
    return cuts


MAX_GROUP_DEPTH: Final = 100  # protobuf's own recursion limit


def _skipped(body: bytes, position: int, end: int, depth: int) -> int:
    """The position after the field whose tag is at ``position`` (a group with all it holds)."""
    key, position = _varint(body, position, end)
    number = key >> 3
    kind = key & 7
    if number == 0 or number > 0x1FFFFFFF:
        raise Unusual("not a field number")
    if kind == 0:
        return _varint(body, position, end)[1]
    if kind == 2:
        size, position = _varint(body, position, end)
        if size > end - position:
            raise Unusual("a payload past the body")
        return position + size
    if kind == 1 or kind == 5:
        position += 8 if kind == 1 else 4
        if position > end:
            raise Unusual("a number past the body")
        return position
    if kind == 3 and depth < MAX_GROUP_DEPTH:
        closing = number << 3 | 4
        while position < end:
            inner, after = _varint(body, position, end)
            if inner == closing:
                return after
            position = _skipped(body, position, end, depth + 1)
    raise Unusual("a group that does not close, or no wire type")


def _varint(body: bytes, position: int, stop: int) -> tuple[int, int]:
    """The varint at ``position`` and the position after it; one that runs past ``stop``, the
    end of its message, does not end (protobuf refuses it: read on, it took the next entry's
    bytes as its own)."""
    value = 0
    shift = 0
    while position < stop:
        byte = body[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, position
        shift += 7
        if shift > 63:
            break
    raise Unusual("a varint that does not end")


def _int32(value: int) -> int:
    """An int32 field's value from its varint: the low 32 bits, signed (as protobuf reads it)."""
    value &= 0xFFFFFFFF
    return value - 0x100000000 if value >= 0x80000000 else value


def _bool(value: int) -> bool:
    """A bool field's value from its varint: whether its low 64 bits are not all zero, as
    protobuf reads it (a varint of 2^64 is false)."""
    return value & 0xFFFFFFFFFFFFFFFF != 0


def _field(body: bytes, position: int, stop: int) -> tuple[int, int]:
    """The field number and wire type of the tag at ``position`` (one byte: every field here is
    numbered under 16), and the position after it."""
    if position >= stop:
        raise Unusual("no tag")
    tag = body[position]
    if tag >= 0x80:
        raise Unusual("a field number this reader does not know")
    return tag, position + 1


def _once(seen: int, number: int) -> int:
    """``seen`` (the singular fields read, one bit each) with field ``number``; a field read
    twice is left to protobuf, whose reading merges it or keeps the last."""
    if seen & 1 << number:
        raise Unusual("a field twice")
    return seen | 1 << number


def _length(body: bytes, position: int, stop: int) -> tuple[int, int]:
    """The end of the length-delimited payload whose length is at ``position``, and its start."""
    size, position = _varint(body, position, stop)
    end = position + size
    if end > stop:
        raise Unusual("a payload past its message")
    return end, position


def _members(body: bytes, position: int, end: int, table: tuple, limit: int) -> tuple:
    """A packed repeated enum: its members by ``table``, at most ``limit`` of them."""
    if end - position > limit:  # one byte each, since every number defined is under 128
        raise Unusual("too long")
    members = []
    size = len(table)
    while position < end:
        number = body[position]
        if number >= size:
            raise Unusual("an enum number the proto does not define")
        members.append(table[number])
        position += 1
    return tuple(members)


def _member(value: int, table: tuple) -> Any:
    if value >= len(table):
        raise Unusual("an enum number the proto does not define")
    return table[value]


def _request(body: bytes, position: int, stop: int) -> SettleRequest:
    request_id = ""
    profile = ""
    digest = ""
    dealer = 0
    huangfan = 0
    outcome = 0
    discarder = 0
    abandoning = 0
    dice: Dice | None = None
    winners: list[Winner] = []
    liabilities: list[LiabilityRelation] = []
    seen = 0
    while position < stop:
        tag, position = _field(body, position, stop)
        number = tag >> 3
        if tag & 7 == 0:
            value, position = _varint(body, position, stop)
            if number == 4:
                dealer = _int32(value)
            elif number == 6:
                huangfan = _int32(value)
            elif number == 7:
                outcome = value
            elif number == 8:
                discarder = _int32(value)
            elif number == 11:
                abandoning = _int32(value)
            else:
                raise Unusual("an unknown field")
        elif tag & 7 == 2:
            end, position = _length(body, position, stop)
            if number == 9:
                if len(winners) == MAX_WINNERS:
                    raise Unusual("too long")
                winners.append(_winner(body, position, end))
            elif number == 10:
                if len(liabilities) == MAX_LIABILITIES:
                    raise Unusual("too long")
                liabilities.append(_liability(body, position, end))
            elif number == 1:
                request_id = _text(body, position, end)
            elif number == 2:
                profile = _text(body, position, end)
            elif number == 12:
                digest = _text(body, position, end)
            elif number == 5:
                dice = _dice(body, position, end)
            else:  # 3: overrides, read from the message
                raise Unusual("an unknown field")
            position = end
        else:
            raise Unusual("a wire type this reader does not read")
        if number != 9 and number != 10:
            seen = _once(seen, number)
    fields = (
        profile,
        _member(outcome, OUTCOMES),
        tuple(winners),
        dealer,
        dice,
        huangfan,
        discarder,
        tuple(liabilities),
        abandoning,
        None,
        request_id,
        digest,
    ) + _REQUEST_REST
    request: SettleRequest = _make(SettleRequest, fields)
    return request


def _text(body: bytes, position: int, end: int) -> str:
    try:
        return body[position:end].decode("utf-8")
    except UnicodeDecodeError:
        raise Unusual("not UTF-8") from None


def _small_ints(body: bytes, position: int, stop: int, count: int) -> list[int]:
    """The int32 varint fields numbered 1 to ``count`` of a small message (0 where absent)."""
    values = [0] * count
    seen = 0
    while position < stop:
        tag, position = _field(body, position, stop)
        number = tag >> 3
        if tag & 7 != 0 or number < 1 or number > count:
            raise Unusual("a field this reader does not read")
        seen = _once(seen, number)
        value, position = _varint(body, position, stop)
        values[number - 1] = _int32(value)
    return values


def _dice(body: bytes, position: int, stop: int) -> Dice:
    dice: Dice = _make(Dice, (*_small_ints(body, position, stop, 2), *_DICE_REST))
    return dice


def _liability(body: bytes, position: int, stop: int) -> LiabilityRelation:
    relation: LiabilityRelation = _make(LiabilityRelation, (*_small_ints(body, position, stop, 3), *_RELATION_REST))
    return relation


def _winner(body: bytes, position: int, stop: int) -> Winner:
    seat = 0
    hand = _EMPTY_HAND
    passed: tuple = ()
    replacement_draw = False
    first_go_around = False
    seen = 0
    while position < stop:
        tag, position = _field(body, position, stop)
        number = tag >> 3
        seen = _once(seen, number)
        if tag & 7 == 0:
            value, position = _varint(body, position, stop)
            if number == 1:
                seat = _int32(value)
            elif number == 4:
                replacement_draw = _bool(value)
            elif number == 5:
                first_go_around = _bool(value)
            else:
                raise Unusual("an unknown field")
        elif tag & 7 == 2:
            end, position = _length(body, position, stop)
            if number == 2:
                hand = _hand(body, position, end)
            elif number == 3:
                passed = _members(body, position, end, TILES, MAX_PASSED)
            else:
                raise Unusual("an unknown field")
            position = end
        else:
            raise Unusual("a wire type this reader does not read")
    winner: Winner = _make(Winner, (seat, hand, passed, replacement_draw, first_go_around) + _WINNER_REST)
    return winner


def _hand(body: bytes, position: int, stop: int) -> Hand:
    concealed: tuple = ()
    winning_tile = 0
    melds: list[Meld] = []
    flowers: tuple = ()
    seen = 0
    while position < stop:
        tag, position = _field(body, position, stop)
        number = tag >> 3
        if number != 3:
            seen = _once(seen, number)
        if tag & 7 == 0:
            if number != 2:
                raise Unusual("an unknown field")
            winning_tile, position = _varint(body, position, stop)
        elif tag & 7 == 2:
            end, position = _length(body, position, stop)
            if number == 1:
                concealed = _members(body, position, end, TILES, MAX_CONCEALED)
            elif number == 3:
                if len(melds) == MAX_MELDS:
                    raise Unusual("too long")
                melds.append(_meld(body, position, end))
            elif number == 4:
                flowers = _members(body, position, end, FLOWERS, MAX_FLOWERS)
            else:
                raise Unusual("an unknown field")
            position = end
        else:
            raise Unusual("a wire type this reader does not read")
    hand: Hand = _make(Hand, (concealed, _member(winning_tile, TILES), tuple(melds), flowers) + _HAND_REST)
    return hand


def _meld(body: bytes, position: int, stop: int) -> Meld:
    if stop - position > MAX_MELD_BYTES:
        raise Unusual("a long meld")
    kind = 0
    tiles: tuple = ()
    from_seat = 0
    seen = 0
    while position < stop:
        tag, position = _field(body, position, stop)
        seen = _once(seen, tag >> 3)
        if tag == 0x12:  # 2: tiles, packed
            end, position = _length(body, position, stop)
            tiles = _members(body, position, end, TILES, MAX_MELD_BYTES)
            position = end
        elif tag == 0x08:  # 1: kind
            kind, position = _varint(body, position, stop)
        elif tag == 0x18:  # 3: from_seat
            value, position = _varint(body, position, stop)
            from_seat = _int32(value)
        else:
            raise Unusual("a field this reader does not read")
    meld: Meld = _make(Meld, (_member(kind, MELD_KINDS), tiles, from_seat) + _MELD_REST)
    return meld

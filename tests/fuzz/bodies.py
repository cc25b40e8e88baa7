"""The fuzz bodies: for every rpc of ScoringService, mutated and random request bytes.

`generate(seed, count, limit)` yields `Body`s; body ``i`` depends only on ``(seed, i)``, so a
finding is replayed from its index alone (``python -m tests.fuzz --seed S --only I``).
``limit`` is the server's ``--max-message-bytes``: the large kinds size themselves around it,
so the answers they ask for land just under, at, and just over it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

from mahjong.shanghai.v1 import profile_pb2, records_pb2

from tests.fuzz import wire
from tests.fuzz.fields import INT32_EXTREMES, mutate_field
from tests.fuzz.mutations import RAW, splice
from tests.fuzz.seeds import Seeds

RPC_WEIGHTS = {
    "Settle": 22,
    "SettleBatch": 14,
    "SettleStream": 14,
    "CheckWin": 16,
    "ListWaits": 14,
    "GetProfile": 14,
    "ListProfiles": 6,
    "SettleRecord": 14,
}
UNKNOWN_TILE = 99  # not a Tile number: each copy is one field violation


@dataclass(frozen=True)
class Body:
    index: int
    rpc: str
    kind: str
    messages: tuple[bytes, ...]  # one for a unary rpc; the stream's messages for SettleStream

    @property
    def size(self) -> int:
        return sum(map(len, self.messages))


def _copy(message):
    copy = type(message)()
    copy.CopyFrom(message)
    return copy


def _budget(rng: random.Random, limit: int) -> int:
    """How large a flood may grow: mostly small, now and then up to the server's limit."""
    roll = rng.random()
    if roll < 0.85:
        return 4096
    if roll < 0.97:
        return min(65536, limit)
    return limit


class BodyMaker:
    """Makes the bodies of each kind from the valid seed messages."""

    def __init__(self, seed: int, limit: int, max_batch_size: int):
        self.seeds = Seeds.make(seed)
        self.limit = limit
        self.max_batch_size = max_batch_size

    def seed_message(self, rng: random.Random, rpc: str):
        return _copy(rng.choice(self.seeds.by_rpc[rpc]))

    # --- kinds built from messages -------------------------------------------------------
    def valid(self, rng, rpc):
        return self.seed_message(rng, rpc).SerializeToString()

    def field_mutation(self, rng, rpc):
        message = self.seed_message(rng, rpc)
        budget = _budget(rng, self.limit)
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            mutate_field(rng, message, budget)
        return message.SerializeToString()

    def nan_overrides(self, rng, rpc):
        """Overrides whose numbers no profile could hold: NaN, infinities, int32 extremes, and
        a multiplier raised to a huge 荒番 count (a stall if computed naively)."""
        message = self.seed_message(rng, rpc)
        if "overrides" not in message.DESCRIPTOR.fields_by_name:
            return self.field_mutation(rng, rpc)
        overrides = message.overrides
        doubles = [
            f.name for f in profile_pb2.RuleProfile.DESCRIPTOR.fields if f.type == f.TYPE_DOUBLE and not f.is_repeated
        ]
        ints = [
            f.name for f in profile_pb2.RuleProfile.DESCRIPTOR.fields if f.type == f.TYPE_INT32 and not f.is_repeated
        ]
        for name in rng.sample(doubles, rng.randint(1, 3)):
            setattr(overrides, name, rng.choice((math.nan, math.inf, -math.inf, -0.0, 1e308, -1.0, 5e-324)))
        for name in rng.sample(ints, rng.randint(0, 3)):
            setattr(overrides, name, rng.choice(INT32_EXTREMES))
        if rng.random() < 0.4:
            overrides.huangfan_mode = profile_pb2.HUANGFAN_MODE_PER_LEVEL
            overrides.huangfan_multiplier = rng.choice((2, 10, 2**31 - 1))
            if "huangfan_count" in message.DESCRIPTOR.fields_by_name:
                message.huangfan_count = rng.choice((64, 1000, 2**31 - 1))
        if rng.random() < 0.3:
            overrides.sankou_self_draw_shares.extend([math.nan, math.inf, -1.0, 1e308][: rng.randint(1, 4)])
        if rng.random() < 0.3:
            overrides.fixed_values.add(pattern=rng.choice((0, 99, 1)), value=rng.choice(INT32_EXTREMES))
            overrides.dice_huangfan.add(dice=profile_pb2.Dice(first=0, second=7), value=-(2**31))
        return message.SerializeToString()

    def huge_repeated(self, rng, rpc):
        """One repeated field flooded up to the budget, with valid or unknown values."""
        message = self.seed_message(rng, rpc)
        budget = rng.choice((10_000, self.limit // 2, self.limit - 64, self.limit + 64))
        target = _repeated_target(rng, message)
        if target is None:
            return message.SerializeToString() + wire.packed_repeat(1, UNKNOWN_TILE, budget)
        parent, field = target
        if field.message_type is None:
            value = rng.choice((UNKNOWN_TILE, 1, 0, -1)) if field.type == field.TYPE_ENUM else 1
            element = len(wire.varint(value))
            parent.MergeFromString(wire.packed_repeat(field.number, value, max(1, budget // element)))
        else:
            entry = field.message_type._concrete_class()
            if len(getattr(parent, field.name)):
                entry.CopyFrom(getattr(parent, field.name)[0])
            encoded = wire.len_field(field.number, entry.SerializeToString())
            parent.MergeFromString(encoded * max(1, budget // len(encoded)))
        return message.SerializeToString()

    def oversized_id(self, rng, rpc):
        """A request id (GetProfile: the name) long enough that echoing it passes the limit."""
        message = self.seed_message(rng, rpc)
        name = "name" if rpc == "GetProfile" else "request_id"
        if name not in message.DESCRIPTOR.fields_by_name:
            return message.SerializeToString() + wire.len_field(1, b"i" * (self.limit - 100))
        length = rng.choice((257, 4096, 65536, self.limit - 200, self.limit - 80, self.limit - 16, self.limit + 1))
        setattr(message, name, "i" * max(1, min(length, self.limit + 1)))
        return message.SerializeToString()

    def spliced(self, rng, rpc):
        return splice(rng, self.valid(rng, rpc), self.field_mutation(rng, rpc))

    def raw(self, rng, rpc, kind):
        function, _ = RAW[kind]
        return function(rng, self.valid(rng, rpc), self.limit)

    def unary(self, rng, rpc, kind):
        if kind in RAW:
            return self.raw(rng, rpc, kind)
        return getattr(self, kind)(rng, rpc)

    # --- rpc-specific kinds ---------------------------------------------------------------
    def batch_of_mutants(self, rng, rpc):
        """A batch whose requests are themselves mutated bodies, each a length-delimited entry."""
        entries = []
        for _ in range(rng.randint(1, 12)):
            kind = _pick(rng, _UNARY_KINDS)
            entries.append(wire.len_field(1, self.unary(rng, "Settle", kind)))
        return b"".join(entries)

    def batch_over_size(self, rng, rpc):
        """More requests than --max-batch-size, each empty: cheap to send, must be refused whole."""
        count = self.max_batch_size + rng.choice((1, 1000))
        return wire.len_field(1, b"") * count

    def event_mutation(self, rng, rpc):
        """A simulated hand record whose events are changed as a hostile game server might change
        them: events dropped, repeated, swapped or cut short, given another seat, kind or tile, a
        WIN or a draw put anywhere. Well-formed protobuf, so the replay itself is tried: each must
        be settled or refused naming its event, never an INTERNAL."""
        message = self.seed_message(rng, rpc)
        events = [_copy(event) for event in message.events]
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            at = rng.randrange(len(events)) if events else 0
            _EVENT_CHANGES[rng.randrange(len(_EVENT_CHANGES))](rng, events, at)
        del message.events[:]
        message.events.extend(events)
        return message.SerializeToString()

    def stream(self, rng) -> tuple[str, tuple[bytes, ...]]:
        roll = rng.random()
        if roll < 0.05:
            # The case: the error answer lists every unknown tile and outgrows the request.
            copies = max(1, self.limit // 70)
            hand = wire.packed_repeat(1, UNKNOWN_TILE, copies)
            winner = wire.len_field(2, hand)
            return "stream_error_flood", (wire.len_field(9, winner),)
        if roll < 0.10:
            return "stream_long", tuple(self.valid(rng, "Settle") for _ in range(rng.choice((50, 300))))
        kinds = []
        messages = []
        for _ in range(rng.randint(1, 6)):
            kind = _pick(rng, _UNARY_KINDS)
            kinds.append(kind)
            messages.append(self.unary(rng, "SettleStream", kind))
        return "stream:" + "+".join(sorted(set(kinds))), tuple(messages)


def _drop(rng, events, at):
    del events[at : at + 1]


def _repeat(rng, events, at):
    if events:
        events.insert(at, _copy(rng.choice(events)))


def _swap(rng, events, at):
    if events:
        other = rng.randrange(len(events))
        events[at], events[other] = events[other], events[at]


def _cut(rng, events, at):
    del events[at:]


def _other_seat(rng, events, at):
    if events:
        events[at].seat = rng.choice((0, 1, 2, 3, 3, 4, -1))


def _other_kind(rng, events, at):
    if events:
        events[at].kind = rng.randint(1, len(records_pb2.EventKind.values()) - 1)


def _other_tile(rng, events, at):
    if events:
        event = events[at]
        if event.tiles and rng.random() < 0.5:
            event.tiles[rng.randrange(len(event.tiles))] = rng.randint(1, 34)
        else:
            event.tile = rng.randint(1, 34)


def _win_anywhere(rng, events, at):
    events.insert(at, records_pb2.HandEvent(kind=records_pb2.EVENT_KIND_WIN, seat=rng.randrange(4)))


def _draw_anywhere(rng, events, at):
    draw = records_pb2.HandEvent(kind=records_pb2.EVENT_KIND_DRAW, seat=rng.randrange(4))
    if rng.random() < 0.2:
        draw.flower = rng.randint(1, 8)
    else:
        draw.tile = rng.randint(1, 34)
    events.insert(at, draw)


_EVENT_CHANGES = (
    _drop,
    _repeat,
    _swap,
    _cut,
    _other_seat,
    _other_kind,
    _other_tile,
    _other_tile,
    _win_anywhere,
    _draw_anywhere,
)


def _repeated_target(rng: random.Random, message):
    """A (message, repeated field) somewhere in the tree; sub-messages are made present."""
    candidates = []

    def walk(msg):
        for field in msg.DESCRIPTOR.fields:
            if field.is_repeated:
                candidates.append((msg, field))
                if field.message_type is not None:
                    for child in getattr(msg, field.name):
                        walk(child)
            elif field.message_type is not None and msg.HasField(field.name):
                walk(getattr(msg, field.name))

    walk(message)
    return rng.choice(candidates) if candidates else None


_UNARY_KINDS = {
    "valid": 4,
    "field_mutation": 30,
    "nan_overrides": 5,
    "huge_repeated": 2,
    "oversized_id": 1,
    "spliced": 3,
    **{kind: weight for kind, (_, weight) in RAW.items()},
}
_BATCH_KINDS = {**_UNARY_KINDS, "batch_of_mutants": 20, "batch_over_size": 2}
_RECORD_KINDS = {**_UNARY_KINDS, "event_mutation": 30}


def _pick(rng: random.Random, weights: dict[str, float]) -> str:
    return rng.choices(list(weights), list(weights.values()))[0]


def body_at(maker: BodyMaker, seed: int, index: int) -> Body:
    rng = random.Random(f"{seed}:{index}")
    rpc = _pick(rng, RPC_WEIGHTS)
    if rpc == "SettleStream":
        kind, messages = maker.stream(rng)
        return Body(index, rpc, kind, messages)
    if rpc == "SettleBatch":
        kind = _pick(rng, _BATCH_KINDS)
        if kind in ("batch_of_mutants", "batch_over_size"):
            return Body(index, rpc, kind, (getattr(maker, kind)(rng, rpc),))
    elif rpc == "SettleRecord":
        kind = _pick(rng, _RECORD_KINDS)
        if kind == "event_mutation":
            return Body(index, rpc, kind, (maker.event_mutation(rng, rpc),))
    else:
        kind = _pick(rng, _UNARY_KINDS)
    return Body(index, rpc, kind, (maker.unary(rng, rpc, kind),))


def generate(seed: int, count: int, limit: int, max_batch_size: int = 10_000, start: int = 0) -> Iterator[Body]:
    maker = BodyMaker(seed, limit, max_batch_size)
    for index in range(start, start + count):
        yield body_at(maker, seed, index)

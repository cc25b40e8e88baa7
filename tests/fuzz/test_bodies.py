"""The body generator itself: deterministic, covering every rpc and kind, and writing the wire
format as protobuf reads it."""

from __future__ import annotations

from collections import Counter

import pytest
from google.protobuf.message import DecodeError
from mahjong.shanghai.v1 import settlement_pb2 as pb
from mahjong.shanghai.v1 import tiles_pb2

from tests.fuzz import wire
from tests.fuzz.bodies import RPC_WEIGHTS, BodyMaker, body_at, generate
from tests.fuzz.mutations import RAW

LIMIT = 1 << 20


def test_a_body_depends_only_on_seed_and_index():
    bodies = list(generate(7, 300, LIMIT))
    maker = BodyMaker(7, LIMIT, 10_000)
    assert [body_at(maker, 7, i) for i in (299, 3, 150)] == [bodies[299], bodies[3], bodies[150]]
    assert list(generate(7, 10, LIMIT, start=290)) == bodies[290:]
    assert list(generate(8, 300, LIMIT)) != bodies


def test_two_thousand_bodies_reach_every_rpc_and_kind():
    bodies = list(generate(1, 2000, LIMIT))
    rpcs = Counter(body.rpc for body in bodies)
    kinds = Counter(body.kind.split(":")[0] for body in bodies)
    assert set(rpcs) == set(RPC_WEIGHTS)
    expected = set(RAW) | {"valid", "field_mutation", "nan_overrides", "huge_repeated", "oversized_id", "spliced"}
    expected |= {"stream", "stream_long", "stream_error_flood", "batch_of_mutants", "batch_over_size", "event_mutation"}
    assert set(kinds) == expected


def test_a_record_whose_events_are_changed_is_still_a_record_message_mostly_impossible():
    from mahjong.shanghai.v1 import records_pb2

    import convert
    from rules_core import InvalidRequest, settle_record

    bodies = [b for b in generate(3, 3000, LIMIT) if b.kind == "event_mutation"]
    assert len(bodies) > 50
    refused = 0
    for body in bodies:
        message = records_pb2.SettleRecordRequest.FromString(body.messages[0])
        try:
            settle_record(convert.settle_record_request(message))
        except InvalidRequest:
            refused += 1
    assert 0.5 * len(bodies) < refused < len(bodies)  # most are impossible, some still settle


def test_the_large_kinds_size_themselves_around_the_limit():
    bodies = list(generate(1, 3000, LIMIT))
    over = [b for b in bodies if b.size > LIMIT]
    near = [b for b in bodies if LIMIT - 256 <= max(map(len, b.messages)) <= LIMIT]
    assert over and near
    assert max(b.size for b in bodies) < 8 * LIMIT


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 2**31 - 1, -1, -(2**31)])
def test_varints_read_back_as_protobuf_reads_them(value):
    message = pb.Winner.FromString(wire.int_field(1, value))
    assert message.seat == value


def test_packed_and_length_fields_read_back():
    hand = tiles_pb2.Hand.FromString(wire.packed_repeat(1, 5, 14) + wire.int_field(2, 5))
    assert list(hand.concealed) == [5] * 14 and hand.winning_tile == 5
    winner = pb.Winner.FromString(wire.len_field(2, hand.SerializeToString()))
    assert list(winner.hand.concealed) == [5] * 14


def test_the_malformed_encodings_are_malformed():
    for body in (
        wire.int_field(1, 1)[:1] + wire.overlong_varint(1, 11),
        wire.nested_groups(20, 200, closed=False),
        wire.len_field(1, b"\xff"),  # request_id that is not UTF-8
    ):
        with pytest.raises(DecodeError):
            pb.SettleRequest.FromString(body)
    assert pb.SettleRequest.FromString(wire.nested_groups(20, 50)).request_id == ""

"""Settle and SettleBatch read the same bytes the same way: one form, one reading.

A SettleBatch entry is the bytes of a SettleRequest; whatever SettleBatch reads them with, the
answer is the one Settle gives for the same bytes (protobuf's parse, then `convert`). The
servicer is called in this process, each rpc with its request as gRPC hands it over."""

from __future__ import annotations

import asyncio

from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
import rules_core as rc
from rules_core.build import dice, winner
from server.config import ServerConfig
from server.parsed_body import ParsedBody
from server.service import ScoringService
from tests.fuzz.wire import len_field


class Aborted(Exception):
    pass


class Context:
    """What the servicer asks of gRPC's context: its time left, and the abort of a call."""

    def __init__(self) -> None:
        self.status = None

    @staticmethod
    def time_remaining() -> float:
        return 60.0

    async def abort_with_status(self, status) -> None:
        self.status = status
        raise Aborted


def settle_answer(entry: bytes):
    """What Settle answers to the SettleRequest ``entry``: its seat deltas, or its violations."""
    context = Context()
    try:
        answer = asyncio.run(ScoringService(ServerConfig()).Settle(pb.SettleRequest.FromString(entry), context))
    except Aborted:
        return "refused", context.status.details
    return tuple(pb.SettleResponse.FromString(answer).seat_deltas)


def settle_batch_answer(entry: bytes):
    """What SettleBatch answers to a batch of the one ``entry``, in the same form."""
    body = len_field(1, entry)
    request = ParsedBody(svc.SettleBatchRequest.FromString(body), body)
    answer = asyncio.run(ScoringService(ServerConfig()).SettleBatch(request, Context()))
    (result,) = svc.SettleBatchResponse.FromString(answer).results
    if result.HasField("error"):
        return "refused", result.error.message
    return tuple(result.response.seat_deltas)


# Seat 1's self-drawn win of sankou: 2 from each other seat, doubled for a win on a replacement tile.
SELF_DRAWN = rc.SettleRequest(
    profile="sankou",
    outcome=rc.Outcome.SELF_DRAW,
    winners=(winner(1, "EE 123456789s [123s@0]", win="5s"),),
    dealer_seat=3,
    dice=dice(3, 1),
)
TWO_TO_THE_64 = b"\x80" * 9 + b"\x02"  # a 10-byte varint whose low 64 bits are zero


def with_replacement_draw(varint_bytes: bytes) -> bytes:
    """SELF_DRAWN's bytes with its winner's ``replacement_draw`` (field 4) given as ``varint_bytes``."""
    message = convert.settle_request_message(SELF_DRAWN)
    (winner_message,) = message.winners
    del message.winners[:]
    return message.SerializeToString() + len_field(9, winner_message.SerializeToString() + b"\x20" + varint_bytes)


def test_the_example_settles_two_from_each_seat_and_four_on_a_replacement_tile():
    assert settle_answer(with_replacement_draw(b"\x00")) == (-2, 6, -2, -2)
    assert settle_answer(with_replacement_draw(b"\x01")) == (-4, 12, -4, -4)


def test_a_bool_of_2_to_the_64_is_false_in_settle_and_in_settle_batch():
    """protobuf keeps a varint's low 64 bits, and a bool is whether they are zero."""
    entry = with_replacement_draw(TWO_TO_THE_64)
    assert pb.SettleRequest.FromString(entry).winners[0].replacement_draw is False
    assert settle_answer(entry) == (-2, 6, -2, -2)
    assert settle_batch_answer(entry) == (-2, 6, -2, -2)


def test_a_bool_whose_low_64_bits_are_not_zero_is_true_in_both():
    entry = with_replacement_draw(b"\x81" + b"\x80" * 8 + b"\x02")  # 2^64 + 1
    assert settle_answer(entry) == settle_batch_answer(entry) == (-4, 12, -4, -4)

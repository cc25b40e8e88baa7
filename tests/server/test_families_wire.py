"""The request fields of RULES.md section 14 (dragon flowers, 海底捞月, the knocked seats,
pattern_kept) reach the rules by every road: Settle and SettleBatch, over gRPC and HTTP, in
protobuf and JSON. SettleBatch's bytes reader does not read them: it leaves such an entry to the
message reader, so the answer is the same as Settle's."""

from __future__ import annotations

import grpc
import pytest
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
import rules_core as rc
from convert.proto_bytes import read_batch
from rules_core.build import winner
from rules_core.patterns import Pattern

# 碰碰胡 + 门清 with 2 花, self-drawn on the last tile of the wall: 12 under classic.
LAST_TILE_WIN = winner(0, "111m 555m 999p EEE 77s", win="7s", flowers="1f 5f", last_tile=True)
STATED = {
    "declared_seats": (0, 2),
    "liabilities": (rc.LiabilityRelation(1, 2, 3, pattern_kept=True),),
}


def request(overrides=None, **fields) -> pb.SettleRequest:
    core = rc.SettleRequest("classic", rc.Outcome.SELF_DRAW, (LAST_TILE_WIN,), overrides=overrides, **fields)
    return convert.settle_request_message(core)


# classic ignores 海底捞月, the knocks and pattern_kept; a 番 for LAST_TILE counts it (12 -> 20).
CASES = {
    "classic": (request(**STATED), (Pattern.ALL_PUNGS, Pattern.CONCEALED), 12, [36, -12, -12, -12]),
    "last-tile-fan": (
        request({"fan": {Pattern.LAST_TILE: 1}}, **STATED),
        (Pattern.ALL_PUNGS, Pattern.CONCEALED, Pattern.LAST_TILE),
        20,
        [60, -20, -20, -20],
    ),
}


def settled(response: pb.SettleResponse) -> tuple:
    first = response.winners[0]
    return tuple(first.patterns), first.value, list(response.seat_deltas)


def test_the_bytes_reader_leaves_the_new_fields_to_the_message_reader():
    usual = convert.settle_request_message(
        rc.SettleRequest("classic", rc.Outcome.SELF_DRAW, (LAST_TILE_WIN._replace(last_tile=False),))
    )
    batch = svc.SettleBatchRequest(requests=[CASES["classic"][0], usual])
    read = read_batch(batch.SerializeToString())
    assert read is not None and read[0] is None and read[1] == convert.settle_request(usual)
    assert convert.settle_request(CASES["classic"][0]).declared_seats == (0, 2)


@pytest.mark.parametrize("case", list(CASES))
def test_settle_and_settle_batch_give_one_answer_by_grpc_and_http(stub, http, case):
    message, patterns, value, deltas = CASES[case]
    expected = (patterns, value, deltas)
    answer = stub.Settle(message, timeout=10)
    assert settled(answer) == expected
    batch = svc.SettleBatchRequest(requests=[message, message])
    results = stub.SettleBatch(batch, timeout=10).results
    assert [r.response for r in results] == [answer, answer]
    over_http = http.json_call("Settle", message)
    assert over_http.status == 200 and over_http.json() == convert.message_dict(answer)
    batch_json = http.json_call("SettleBatch", batch)
    assert batch_json.status == 200
    assert [r["response"] for r in batch_json.json()["results"]] == [convert.message_dict(answer)] * 2
    batch_proto = http.proto_call("SettleBatch", batch)
    assert [r.response for r in svc.SettleBatchResponse.FromString(batch_proto.body).results] == [answer, answer]


def test_dragon_flowers_are_read_and_refused_where_dragons_are_tiles(stub, http):
    hand = LAST_TILE_WIN.hand._replace(dragon_flowers=(rc.Tile.RED,))
    message = request()
    message.winners[0].hand.dragon_flowers.append(rc.Tile.RED + 1)
    assert convert.settle_request(message).winners[0].hand == hand
    with pytest.raises(grpc.RpcError) as error:
        stub.Settle(message, timeout=10)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "winners[0].hand.dragon_flowers" in error.value.details()
    reply = http.json_call("Settle", message)
    assert reply.status == 400 and "winners[0].hand.dragon_flowers" in reply.body.decode()
    results = stub.SettleBatch(svc.SettleBatchRequest(requests=[message]), timeout=10).results
    assert results[0].WhichOneof("result") == "error"

"""The conversion between proto messages and rules_core values, without a server.

The batch path writes SettleResponses as bytes from cached parts; these tests
hold those bytes to what protobuf itself writes for the message built from the
rules_core JSON writer, an encoder that shares no code with them.
"""

from __future__ import annotations

import pytest
from google.protobuf import json_format
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb
from mahjong.shanghai.v1 import tiles_pb2

import convert
import rules_core as rc
from convert import wire
from convert.json_write import settle_response_dict
from convert.memo import Memo
from convert.results import settle_result
from generators.random_hands import generate_requests
from rules_core.requests import replace
from server import errors
from tests.worked_examples import WORKED_EXAMPLES

# Overrides that change values, shares and the combination of fixed values.
_OVERRIDES = (
    {"lazi_value": 3, "huangfan_multiplier": 3},
    {"self_draw_share": 0.5, "fan_on_fixed": True},
    {"combine_fixed": rc.CombineFixed.SUM, "abandon_penalty": 7},
)


def _settled_requests() -> list[rc.SettleRequest]:
    requests = [request for _, request, _, _ in WORKED_EXAMPLES]
    requests += generate_requests(2_000, seed=11)
    requests += [replace(r, request_id=f"id-{i}-汉字" * (i % 3)) for i, r in enumerate(requests[:40])]
    requests += [replace(r, overrides=_OVERRIDES[i % 3]) for i, r in enumerate(requests[:300])]
    return [r for r in requests if _settles(r)]


def _settles(request) -> bool:
    try:
        rc.settle(request)
    except rc.InvalidRequest:
        return False
    return True


SETTLED = _settled_requests()


def _expected(result: rc.SettleResult) -> pb.SettleResponse:
    return json_format.ParseDict(settle_response_dict(result), pb.SettleResponse())


def test_response_bytes_are_what_protobuf_writes():
    for request in SETTLED:
        result = rc.settle(request)
        assert convert.settle_response_bytes(result) == _expected(result).SerializeToString(), request


def test_response_bytes_do_not_depend_on_what_was_cached_before():
    results = [rc.settle(r) for r in SETTLED[:300]]
    first = [convert.settle_response_bytes(r) for r in results]
    for memo in (wire.HEADS, wire.WINNERS, wire.TAILS):
        memo.clear()
    assert [convert.settle_response_bytes(r) for r in reversed(results)] == first[::-1]


def test_a_batch_response_holds_settlements_and_errors_in_order():
    good = [rc.settle(replace(r, request_id=i)) for r, i in zip(SETTLED, ("a", "", "c"), strict=False)]
    error = rc.InvalidRequest([rc.FieldViolation("winners[0].seat", "must be 0..3")])
    failure = errors.invalid_request(error)
    entries = [
        convert.batch_entry("a", good[0]),
        convert.batch_entry("bad", failure),
        convert.batch_entry("", good[1]),
        convert.batch_entry("c", good[2]),
    ]
    parsed = svc.SettleBatchResponse.FromString(convert.settle_batch_response(entries))
    assert parsed == svc.SettleBatchResponse(
        results=[
            svc.SettleBatchResult(request_id="a", response=_expected(good[0])),
            svc.SettleBatchResult(
                request_id="bad",
                error=pb.SettleError(
                    code="INVALID_ARGUMENT",
                    message=str(error),
                    reason="INVALID_REQUEST",
                    field_violations=[pb.FieldViolation(field="winners[0].seat", description="must be 0..3")],
                ),
            ),
            svc.SettleBatchResult(request_id="", response=_expected(good[1])),
            svc.SettleBatchResult(request_id="c", response=_expected(good[2])),
        ]
    )


def test_long_responses_get_multi_byte_lengths():
    result = rc.settle(SETTLED[0])._replace(request_id="x" * 20_000)
    entry = convert.batch_entry(result.request_id, result)
    parsed = svc.SettleBatchResponse.FromString(convert.settle_batch_response([entry]))
    assert parsed.results[0].request_id == "x" * 20_000
    assert parsed.results[0].response == _expected(result)


def test_memo_is_bounded():
    made = []
    memo = Memo(lambda key: made.append(key) or key * 2, limit=3)
    assert [memo[k] for k in (1, 2, 3, 1)] == [2, 4, 6, 2]
    assert made == [1, 2, 3]
    assert memo[4] == 8
    assert list(memo) == [2, 3, 4]  # full: the oldest went for 4
    assert memo[1] == 2 and made == [1, 2, 3, 4, 1]
    assert list(memo) == [3, 4, 1]


def test_melds_convert_through_the_memo_and_unknown_kinds_are_still_named():
    request = pb.SettleRequest(
        profile="classic",
        outcome=pb.OUTCOME_SELF_DRAW,
        winners=[pb.Winner(seat=0, hand=tiles_pb2.Hand(melds=[tiles_pb2.Meld(kind=2, tiles=[1, 1, 1], from_seat=1)]))],
    )
    first = convert.settle_request(request)
    assert first.winners[0].hand.melds == (rc.Meld(rc.MeldKind.PUNG, (rc.Tile.M1,) * 3, 1),)
    assert convert.settle_request(request).winners[0].hand.melds[0] is first.winners[0].hand.melds[0]
    request.winners[0].hand.melds[0].kind = 99
    with pytest.raises(rc.InvalidRequest) as caught:
        convert.settle_request(request)
    assert caught.value.violations == [rc.FieldViolation("winners[0].hand.melds[0].kind", "unknown value 99")]


def test_responses_read_back_into_results_write_the_json_protobuf_writes():
    for request in SETTLED:
        message = convert.settle_response(rc.settle(request))
        assert settle_response_dict(settle_result(message)) == convert.message_dict(message), request


def test_reading_back_an_enum_number_rules_core_does_not_define_raises_key_error():
    for number in (999, 0):  # a newer server's pattern; the unspecified value no answer should hold
        message = convert.settle_response(rc.settle(SETTLED[0]))
        message.winners[0].patterns.append(number)
        with pytest.raises(KeyError):
            settle_result(message)
    message = convert.settle_response(rc.settle(SETTLED[0]))
    message.payments[0].reason = 0
    with pytest.raises(KeyError):
        settle_result(message)


def _one_winner(**hand) -> pb.SettleRequest:
    return pb.SettleRequest(
        profile="classic", outcome=pb.OUTCOME_SELF_DRAW, winners=[pb.Winner(seat=0, hand=tiles_pb2.Hand(**hand))]
    )


def test_a_megabyte_of_unknown_tiles_is_one_violation():
    """Issue 8: a million copies of tile 99 listed a million violations (5-12 s, 1 GB)."""
    request = _one_winner(concealed=[99] * 1_000_000)
    with pytest.raises(rc.InvalidRequest) as caught:
        convert.settle_request(request)
    assert caught.value.violations == [
        rc.FieldViolation("winners[0].hand.concealed", "at most 14 entries, got 1000000")
    ]


def test_a_list_of_known_tiles_too_long_is_refused_before_it_is_converted():
    pung = tiles_pb2.Meld(kind=2, tiles=[1, 1, 1], from_seat=1)
    for hand, violation in [
        ({"concealed": [1] * 15}, ("winners[0].hand.concealed", "at most 14 entries, got 15")),
        ({"flowers": [1] * 9}, ("winners[0].hand.flowers", "at most 8 entries, got 9")),
        ({"melds": [pung] * 5}, ("winners[0].hand.melds", "at most 4 entries, got 5")),
    ]:
        with pytest.raises(rc.InvalidRequest) as caught:
            convert.settle_request(_one_winner(**hand))
        assert violation in caught.value.violations


def test_a_meld_the_memo_would_keep_large_is_converted_without_it():
    """The meld memo is keyed by serialised bytes: a meld with 100 KB of unknown fields or
    thousands of tiles must not become a key (20,000 of them would hold gigabytes)."""
    from convert.requests import _MELDS

    meld = tiles_pb2.Meld(kind=2, tiles=[1, 1, 1], from_seat=1)
    unknown_field_100 = b"\xa2\x06" + wire._varint(100_000) + b"u" * 100_000  # key 100 << 3 | 2, length, bytes
    padded = tiles_pb2.Meld.FromString(meld.SerializeToString() + unknown_field_100)
    request = _one_winner(concealed=[5, 5, 5, 9, 9, 9, 27, 27, 27, 34, 34], winning_tile=34, melds=[padded])
    converted = convert.settle_request(request)
    assert converted.winners[0].hand.melds == (rc.Meld(rc.MeldKind.PUNG, (rc.Tile.M1,) * 3, 1),)
    huge = _one_winner(melds=[tiles_pb2.Meld(kind=2, tiles=[1] * 5000, from_seat=1)])
    with pytest.raises(rc.InvalidRequest) as caught:
        convert.settle_request(huge)
    assert caught.value.violations == [
        rc.FieldViolation("winners[0].hand.melds[0].tiles", "at most 4 entries, got 5000")
    ]
    assert max(map(len, _MELDS)) <= 32


def test_overrides_lists_are_bounded():
    request = _one_winner()
    request.overrides.floor_patterns.extend([1] * 100_000)
    with pytest.raises(rc.InvalidRequest) as caught:
        convert.settle_request(request)
    assert caught.value.violations == [rc.FieldViolation("overrides.floor_patterns", "at most 64 entries, got 100000")]


def test_an_over_long_request_id_is_a_field_violation():
    request = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    request.request_id = "x" * 257
    with pytest.raises(rc.InvalidRequest) as caught:
        rc.settle(convert.settle_request(request))
    assert caught.value.violations == [rc.FieldViolation("request_id", "at most 256 bytes, got 257")]

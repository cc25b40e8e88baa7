"""Every rpc of ScoringService, over a real channel to the real server."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf.json_format import MessageToDict
from mahjong.shanghai.v1 import profile_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
import rules_core as rc
from convert.json_api import settle_json
from convert.profile_digest import BUILTIN_REGISTRY as DIGESTED
from generators.random_hands import generate_requests
from rules_core.build import hand, winner
from tests.server.error_details import bad_request
from tests.worked_examples import WORKED_EXAMPLES


@pytest.mark.parametrize(
    ("name", "request_", "deltas", "next_hand"), WORKED_EXAMPLES, ids=[e[0] for e in WORKED_EXAMPLES]
)
def test_worked_examples_over_the_wire(stub, name, request_, deltas, next_hand):
    response = stub.Settle(convert.settle_request_message(request_))
    assert tuple(response.seat_deltas) == deltas
    if next_hand is None:
        assert not response.HasField("next_hand")
    else:
        assert (response.next_hand.dealer_seat, response.next_hand.huangfan_count) == next_hand
    assert MessageToDict(response) == MessageToDict(convert.settle_response(rc.settle(request_, DIGESTED)))


def test_settle_itemises_example_1(stub):
    response = stub.Settle(convert.settle_request_message(WORKED_EXAMPLES[0][1]))
    (result,) = response.winners
    assert result.legal and result.flowers == 3 and result.value == 12
    assert [(i.code, i.contribution) for i in result.items] == [
        ("FLOWER_TILE", 2),
        ("WIND_PUNG", 1),
        ("ORDINARY_BASE", 3),
        ("CONCEALED", 1),
    ]
    assert [(p.from_seat, p.to_seat, p.amount, p.reason) for p in response.payments] == [
        (1, 0, 12, pb.PAYMENT_REASON_SELF_DRAW),
        (2, 0, 12, pb.PAYMENT_REASON_SELF_DRAW),
        (3, 0, 12, pb.PAYMENT_REASON_SELF_DRAW),
    ]
    assert response.unit == profile_pb2.UNIT_FLOWER


def test_malformed_input_is_invalid_argument_with_field_paths(stub):
    request = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    request.winners[0].hand.melds.add(kind=2, tiles=[1, 1, 2], from_seat=1)
    request.winners[0].hand.winning_tile = 30
    with pytest.raises(grpc.RpcError) as error:
        stub.Settle(request)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in bad_request(error.value)] == [
        "winners[0].hand.concealed",
        "winners[0].hand.winning_tile",
        "winners[0].hand.melds[0]",
    ]


def test_unknown_enum_numbers_name_the_field(stub):
    request = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    request.winners[0].hand.concealed[3] = 99
    with pytest.raises(grpc.RpcError) as error:
        stub.Settle(request)
    assert bad_request(error.value) == [("winners[0].hand.concealed[3]", "unknown value 99")]


def test_unknown_profile_names_the_known_ones(stub):
    with pytest.raises(grpc.RpcError) as error:
        stub.Settle(pb.SettleRequest(profile="Classic", outcome=pb.OUTCOME_EXHAUSTIVE_DRAW))
    assert bad_request(error.value) == [
        (
            "profile",
            "unknown profile 'Classic' (did you mean classic?); known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou",
        )
    ]


def test_an_illegal_win_is_a_normal_answer(stub):
    response = stub.Settle(convert.settle_request_message(WORKED_EXAMPLES[5][1]))
    assert not response.winners[0].legal
    assert list(response.winners[0].illegal_reasons) == [2]


def test_settle_batch_keeps_order_and_isolates_bad_requests(stub):
    good = [convert.settle_request_message(e[1]) for e in WORKED_EXAMPLES[:3]]
    bad = pb.SettleRequest(request_id="bad", profile="classic")
    response = stub.SettleBatch(svc.SettleBatchRequest(requests=[good[0], bad, good[1], good[2]]))
    assert [r.WhichOneof("result") for r in response.results] == ["response", "error", "response", "response"]
    error = response.results[1].error
    assert response.results[1].request_id == "bad"
    assert error.code == "INVALID_ARGUMENT"
    assert [v.field for v in error.field_violations] == ["outcome"]
    assert [tuple(r.response.seat_deltas) for r in response.results if r.HasField("response")] == [
        e[2] for e in WORKED_EXAMPLES[:3]
    ]


def test_settle_batch_over_the_limit_is_rejected(stub):
    request = svc.SettleBatchRequest(requests=[pb.SettleRequest()] * 2001)
    with pytest.raises(grpc.RpcError) as error:
        stub.SettleBatch(request)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request(error.value) == [("requests", "at most 2000 requests per call, got 2001")]


def test_settle_stream_answers_each_request_in_order(stub):
    requests = [convert.settle_request_message(e[1]) for e in WORKED_EXAMPLES]
    requests.insert(2, pb.SettleRequest(request_id="broken", profile="nope", outcome=1))
    responses = list(stub.SettleStream(iter(requests)))
    assert len(responses) == len(requests)
    assert responses[2].request_id == "broken" and responses[2].HasField("error")
    assert responses[2].error.field_violations[0].field == "profile"
    others = [r for r in responses if not r.HasField("error")]
    assert [tuple(r.seat_deltas) for r in others] == [e[2] for e in WORKED_EXAMPLES]


def test_check_win(stub):
    candidate = winner(0, "7s 7s [123m@3] [456p@3] [789s@3] [EEE@1]", win="7s")
    request = svc.CheckWinRequest(
        request_id="c1", profile="classic", outcome=pb.OUTCOME_DISCARD, winner=convert.winner_message(candidate)
    )
    response = stub.CheckWin(request)
    assert response.request_id == "c1"
    assert response.result.legal and list(response.result.patterns) == [9] and response.result.value == 20
    request.profile = "lezi"
    assert not stub.CheckWin(request).result.legal


def test_check_win_rejects_non_win_outcomes(stub):
    request = svc.CheckWinRequest(profile="classic", outcome=pb.OUTCOME_EXHAUSTIVE_DRAW)
    with pytest.raises(grpc.RpcError) as error:
        stub.CheckWin(request)
    assert bad_request(error.value)[0][0] == "outcome"


def test_list_waits_separates_discard_and_self_draw(stub):
    request = svc.ListWaitsRequest(
        profile="classic",
        seat=0,
        hand=convert.hand_message(hand("111m 555m 999p EEE 7s", flowers="1f 5f")),
        passed_tiles=[25],  # 7s: a discard win on it is locked (漏胡)
    )
    response = stub.ListWaits(request)
    assert list(response.discard_waits) == []
    assert [(w.tile, w.result.value) for w in response.self_draw_waits] == [(25, 12)]
    request.ClearField("passed_tiles")
    assert [(w.tile, w.result.value) for w in stub.ListWaits(request).discard_waits] == [(25, 12)]


def test_list_waits_validates_the_short_hand(stub):
    request = svc.ListWaitsRequest(profile="classic", seat=0, hand=convert.hand_message(hand("111m 555m")))
    with pytest.raises(grpc.RpcError) as error:
        stub.ListWaits(request)
    assert bad_request(error.value) == [("hand.concealed", "0 meld(s) leave 13 concealed tiles, got 6")]


def test_get_profile_merges_overrides(stub):
    profile = stub.GetProfile(svc.GetProfileRequest(name="classic")).profile
    assert (profile.lazi_value, profile.ordinary_base, profile.combine_fixed) == (20, 3, profile_pb2.COMBINE_FIXED_MAX)
    overrides = profile_pb2.RuleProfile(ordinary_base=5, fixed_values=[profile_pb2.PatternValue(pattern=3, value=30)])
    changed = stub.GetProfile(svc.GetProfileRequest(name="classic", overrides=overrides)).profile
    assert changed.ordinary_base == 5
    assert {v.pattern: v.value for v in changed.fixed_values}[3] == 30
    assert {v.pattern: v.value for v in changed.fixed_values}[5] == 40  # the other values stay


def test_get_profile_errors(stub):
    with pytest.raises(grpc.RpcError) as error:
        stub.GetProfile(svc.GetProfileRequest(name="riichi"))
    assert error.value.code() == grpc.StatusCode.NOT_FOUND
    assert "classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou" in error.value.details()
    with pytest.raises(grpc.RpcError) as error:
        stub.GetProfile(svc.GetProfileRequest(name="classic", overrides=profile_pb2.RuleProfile(lazi_value=0)))
    assert bad_request(error.value) == [("overrides.lazi_value", "must be at least 1")]


def test_list_profiles(stub):
    names = [p.name for p in stub.ListProfiles(svc.ListProfilesRequest()).profiles]
    assert names == ["classic", "sankou", "lezi", "qiaoma", "qiaoma_lezi", "qinghunpeng"]


def test_overrides_change_the_settlement(stub):
    request = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    request.overrides.ordinary_base = 5  # (5 + 3) x 2 = 16
    assert list(stub.Settle(request).seat_deltas) == [48, -16, -16, -16]


def test_deadline_is_honoured_in_a_long_batch(stub):
    requests = [convert.settle_request_message(r) for r in generate_requests(2000, 3)]
    with pytest.raises(grpc.RpcError) as error:
        stub.SettleBatch(svc.SettleBatchRequest(requests=requests), timeout=0.005)
    assert error.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert stub.ListProfiles(svc.ListProfilesRequest(), timeout=5).profiles  # still serving


def test_proto_and_json_entry_points_agree(stub):
    """rules_core.settle_json and the service give identical answers, field by field."""
    for request in generate_requests(400, 11):
        message = convert.settle_request_message(request)
        try:
            expected = settle_json(MessageToDict(message))
        except rc.InvalidRequest as error:
            with pytest.raises(grpc.RpcError) as wire_error:
                stub.Settle(message)
            assert bad_request(wire_error.value) == [tuple(v) for v in error.violations]
            continue
        assert convert.message_dict(stub.Settle(message)) == expected


def test_batch_stream_and_unary_settle_answer_alike(stub):
    """SettleBatch writes its answers as bytes from cached parts; Settle and SettleStream do not."""
    messages = [convert.settle_request_message(r) for r in generate_requests(300, 23)]
    batch = stub.SettleBatch(svc.SettleBatchRequest(requests=messages))
    streamed = list(stub.SettleStream(iter(messages)))
    assert len(batch.results) == len(streamed) == len(messages)
    rejected = 0
    for message, entry, from_stream in zip(messages, batch.results, streamed, strict=True):
        assert entry.request_id == from_stream.request_id == message.request_id
        if entry.HasField("error"):
            rejected += 1
            assert from_stream.error == entry.error
            with pytest.raises(grpc.RpcError) as wire_error:
                stub.Settle(message)
            assert bad_request(wire_error.value) == [(v.field, v.description) for v in entry.error.field_violations]
        else:
            assert entry.response == from_stream == stub.Settle(message)
    assert 0 < rejected < len(messages)

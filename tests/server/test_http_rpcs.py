"""Every unary rpc over the Connect protocol with plain HTTP requests: the same answers as gRPC,
byte for byte in protobuf and field for field in JSON."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf.json_format import MessageToDict
from mahjong.shanghai.v1 import profile_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
from convert.json_api import settle_json
from generators.random_hands import generate_requests
from rules_core.build import hand, winner
from rules_core.builtin_profiles import BUILTIN_PROFILES
from tests.server.http_calls import Http
from tests.server.test_http_errors import bad_request_of
from tests.server.test_rpcs import bad_request
from tests.worked_examples import WORKED_EXAMPLES

SERVICE = "/mahjong.shanghai.v1.ScoringService/"


@pytest.fixture(scope="module")
def grpc_bytes(server):
    """gRPC's answer to a call as the bytes on the wire."""
    channel = server.channel()

    def call(method: str, message) -> bytes:
        return channel.unary_unary(SERVICE + method, request_serializer=type(message).SerializeToString)(
            message, timeout=10
        )

    yield call
    channel.close()


def same_answers(http: Http, grpc_bytes, method: str, message) -> dict:
    """Assert gRPC, Connect protobuf and Connect JSON give the same answer; return the JSON."""
    expected = grpc_bytes(method, message)
    as_proto = http.proto_call(method, message)
    assert (as_proto.status, as_proto.headers["content-type"]) == (200, "application/proto")
    assert as_proto.body == expected
    as_json = http.json_call(method, message)
    assert (as_json.status, as_json.headers["content-type"]) == (200, "application/json")
    response_class = {
        "Settle": pb.SettleResponse,
        "SettleBatch": svc.SettleBatchResponse,
        "CheckWin": svc.CheckWinResponse,
        "ListWaits": svc.ListWaitsResponse,
        "GetProfile": svc.GetProfileResponse,
        "ListProfiles": svc.ListProfilesResponse,
    }[method]
    assert as_json.json() == convert.message_dict(response_class.FromString(expected))
    return as_json.json()


@pytest.mark.parametrize(
    ("name", "request_", "deltas", "next_hand"), WORKED_EXAMPLES, ids=[e[0] for e in WORKED_EXAMPLES]
)
def test_worked_examples_answer_as_grpc_does(http, grpc_bytes, name, request_, deltas, next_hand):
    answer = same_answers(http, grpc_bytes, "Settle", convert.settle_request_message(request_))
    assert answer["seatDeltas"] == list(deltas)
    assert all("seat" in w for w in answer["winners"])  # seat 0 is written out: defaults are printed
    if next_hand is None:
        assert "nextHand" not in answer  # absent: no claimed win is legal
    else:
        assert answer["nextHand"] == {"dealerSeat": next_hand.dealer_seat, "huangfanCount": next_hand.huangfan_count}


def test_example_1_over_curl_style_json(http):
    """What the README's curl example sends: hand-written JSON, enum names, zeros printed."""
    request = (
        b'{"profile": "classic", "outcome": "OUTCOME_SELF_DRAW", "winners": [{"seat": 0, "hand": {'
        b'"concealed": ["TILE_M1","TILE_M1","TILE_M1","TILE_M5","TILE_M5","TILE_M5","TILE_P9","TILE_P9",'
        b'"TILE_P9","TILE_EAST","TILE_EAST","TILE_EAST","TILE_S7","TILE_S7"],'
        b'"winningTile": "TILE_S7", "flowers": ["FLOWER_SPRING", "FLOWER_PLUM"]}}]}'
    )
    reply = http.post("Settle", request)
    assert reply.status == 200
    answer = reply.json()
    assert answer["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert answer["nextHand"] == {"dealerSeat": 0, "huangfanCount": 0}
    assert answer["winners"][0]["patterns"] == ["PATTERN_ALL_PUNGS", "PATTERN_CONCEALED"]
    assert answer["winners"][0]["value"] == 12.0
    assert answer == settle_json(MessageToDict(convert.settle_request_message(WORKED_EXAMPLES[0][1])))


def test_random_hands_answer_as_grpc_does(http, grpc_bytes):
    """A few hundred generated hands, legal, illegal and malformed, one call each."""
    rejected = 0
    for request in generate_requests(300, 41):
        message = convert.settle_request_message(request)
        try:
            expected = grpc_bytes("Settle", message)
        except grpc.RpcError as error:  # the HTTP answer carries the same violations
            rejected += 1
            reply = http.json_call("Settle", message)
            assert reply.status == 400
            assert bad_request_of(reply) == bad_request(error)
            continue
        assert http.proto_call("Settle", message).body == expected
        assert http.json_call("Settle", message).json() == convert.message_dict(pb.SettleResponse.FromString(expected))
    assert 0 < rejected < 300


def test_settle_batch_answers_as_grpc_does(http, grpc_bytes):
    messages = [convert.settle_request_message(r) for r in generate_requests(300, 43)]
    answer = same_answers(http, grpc_bytes, "SettleBatch", svc.SettleBatchRequest(requests=messages))
    assert [entry["requestId"] for entry in answer["results"]] == [m.request_id for m in messages]
    assert any("error" in entry for entry in answer["results"])


def test_check_win_answers_as_grpc_does(http, grpc_bytes):
    candidate = winner(0, "7s 7s [123m@3] [456p@3] [789s@3] [EEE@1]", win="7s")
    request = svc.CheckWinRequest(
        request_id="c1", profile="classic", outcome=pb.OUTCOME_DISCARD, winner=convert.winner_message(candidate)
    )
    answer = same_answers(http, grpc_bytes, "CheckWin", request)
    assert (answer["requestId"], answer["result"]["legal"], answer["result"]["value"]) == ("c1", True, 20.0)
    assert answer["result"]["seat"] == 0


def test_list_waits_answers_as_grpc_does(http, grpc_bytes):
    request = svc.ListWaitsRequest(
        profile="classic", seat=0, hand=convert.hand_message(hand("111m 555m 999p EEE 7s", flowers="1f 5f"))
    )
    answer = same_answers(http, grpc_bytes, "ListWaits", request)
    assert [(w["tile"], w["result"]["value"]) for w in answer["discardWaits"]] == [("TILE_S7", 12.0)]


def test_profiles_answer_as_grpc_does(http, grpc_bytes):
    answer = same_answers(http, grpc_bytes, "ListProfiles", svc.ListProfilesRequest())
    assert [p["name"] for p in answer["profiles"]] == [*BUILTIN_PROFILES]
    overrides = profile_pb2.RuleProfile(ordinary_base=5)
    changed = same_answers(http, grpc_bytes, "GetProfile", svc.GetProfileRequest(name="classic", overrides=overrides))
    assert changed["profile"]["ordinaryBase"] == 5


def test_an_empty_json_body_is_the_empty_request(http):
    reply = http.post("ListProfiles", b"")
    assert reply.status == 200 and len(reply.json()["profiles"]) == 6

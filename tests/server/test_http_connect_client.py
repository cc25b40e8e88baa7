"""connectrpc's own Python client (connect-python, not ours) against the HTTP endpoint:
JSON and protobuf, its gzip request bodies, errors with their details, deadlines."""

from __future__ import annotations

import pytest
from connectrpc.client import ConnectClientSync
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo
from google.rpc import error_details_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
from generators.random_hands import generate_requests
from tests.worked_examples import WORKED_EXAMPLES

SERVICE = "mahjong.shanghai.v1.ScoringService"


def method(name: str, request_class, response_class) -> MethodInfo:
    return MethodInfo(
        name=name,
        service_name=SERVICE,
        input=request_class,
        output=response_class,
        idempotency_level=IdempotencyLevel.UNKNOWN,
    )


SETTLE = method("Settle", pb.SettleRequest, pb.SettleResponse)
SETTLE_BATCH = method("SettleBatch", svc.SettleBatchRequest, svc.SettleBatchResponse)
SETTLE_STREAM = method("SettleStream", pb.SettleRequest, pb.SettleResponse)
LIST_PROFILES = method("ListProfiles", svc.ListProfilesRequest, svc.ListProfilesResponse)


@pytest.fixture(scope="module", params=[False, True], ids=["proto", "json"])
def client(request, server):
    with ConnectClientSync(server.http_url, proto_json=request.param, timeout_ms=10_000) as connect_client:
        yield connect_client


def test_worked_examples_settle_as_over_grpc(client, stub):
    for _name, request, deltas, _next_hand in WORKED_EXAMPLES:
        message = convert.settle_request_message(request)
        answer = client.execute_unary(request=message, method=SETTLE)
        assert tuple(answer.seat_deltas) == deltas
        assert answer == stub.Settle(message)


def test_a_batch_answers_as_over_grpc(client, stub):
    batch = svc.SettleBatchRequest(requests=[convert.settle_request_message(r) for r in generate_requests(200, 5)])
    assert client.execute_unary(request=batch, method=SETTLE_BATCH) == stub.SettleBatch(batch)


def test_field_violations_arrive_as_a_bad_request_detail(client):
    message = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    del message.winners[0].hand.concealed[-1]
    with pytest.raises(ConnectError) as raised:
        client.execute_unary(request=message, method=SETTLE)
    assert raised.value.code == Code.INVALID_ARGUMENT
    info, detail = raised.value.details
    error_info, bad_request = error_details_pb2.ErrorInfo(), error_details_pb2.BadRequest()
    assert info.Unpack(error_info) and detail.Unpack(bad_request)
    assert (error_info.reason, error_info.domain) == ("INVALID_REQUEST", "scoring.mahjong.shanghai.v1")
    assert [(v.field, v.description) for v in bad_request.field_violations] == [
        ("winners[0].hand.concealed", "0 meld(s) leave 14 concealed tiles, got 13")
    ]


def test_the_client_deadline_reaches_the_server(server):
    """2,000 hands take the server 60 ms or more; the client gives it 30 (encoding them in
    protobuf takes it about 2, and the deadline counts from the start of the call)."""
    batch = svc.SettleBatchRequest(requests=[convert.settle_request_message(r) for r in generate_requests(2000, 3)])
    with ConnectClientSync(server.http_url) as client:
        with pytest.raises(ConnectError) as raised:
            client.execute_unary(request=batch, method=SETTLE_BATCH, timeout_ms=30)
        assert raised.value.code == Code.DEADLINE_EXCEEDED
        assert len(client.execute_unary(request=svc.ListProfilesRequest(), method=LIST_PROFILES).profiles) == 6


def test_settle_stream_is_unimplemented(client):
    request = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    with pytest.raises(ConnectError) as raised:
        list(client.execute_bidi_stream(request=iter([request]), method=SETTLE_STREAM))
    assert raised.value.code == Code.UNIMPLEMENTED
    assert "send the hands to SettleBatch" in raised.value.message

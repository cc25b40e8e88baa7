"""Every failure carries a google.rpc.ErrorInfo (AIP-193): a stable machine-readable
`reason` in the domain scoring.mahjong.shanghai.v1, over gRPC in the status details and over
HTTP in the Connect error body, and in a batch entry's SettleError. Read from real calls."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
from server.errors import Reason
from tests.server.error_details import bad_request, error_info, http_bad_request, http_error_info
from tests.worked_examples import WORKED_EXAMPLES

SERVICE = "mahjong.shanghai.v1.ScoringService"


def short_hand() -> pb.SettleRequest:
    request = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    del request.winners[0].hand.concealed[-1]
    return request


def test_a_malformed_request_is_invalid_request_beside_its_bad_request(stub):
    with pytest.raises(grpc.RpcError) as raised:
        stub.Settle(short_hand())
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(raised.value) == ("INVALID_REQUEST", {})
    assert bad_request(raised.value) == [("winners[0].hand.concealed", "0 meld(s) leave 14 concealed tiles, got 13")]


def test_an_unknown_profile_is_unknown_profile_naming_it(stub):
    with pytest.raises(grpc.RpcError) as raised:
        stub.GetProfile(svc.GetProfileRequest(name="riichi"))
    assert raised.value.code() == grpc.StatusCode.NOT_FOUND
    assert error_info(raised.value) == ("UNKNOWN_PROFILE", {"profile": "riichi"})


def test_a_batch_over_the_limit_is_batch_too_large_with_its_count(stub):
    with pytest.raises(grpc.RpcError) as raised:
        stub.SettleBatch(svc.SettleBatchRequest(requests=[pb.SettleRequest()] * 2001))
    assert error_info(raised.value) == ("BATCH_TOO_LARGE", {"count": "2001", "limit": "2000"})
    assert bad_request(raised.value) == [("requests", "at most 2000 requests per call, got 2001")]


def test_a_body_that_is_no_message_is_malformed_body(server):
    with server.channel() as channel, pytest.raises(grpc.RpcError) as raised:
        channel.unary_unary(f"/{SERVICE}/CheckWin")(b"\xff", timeout=10)
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(raised.value) == ("MALFORMED_BODY", {})


def test_a_body_larger_than_any_legal_request_is_body_too_large(server):
    with server.channel() as channel, pytest.raises(grpc.RpcError) as raised:
        channel.unary_unary(f"/{SERVICE}/Settle")(b"\xff" * 41985, timeout=10)
    assert error_info(raised.value) == ("BODY_TOO_LARGE", {})


def test_a_bad_batch_entry_carries_its_reason(stub):
    good = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    results = stub.SettleBatch(svc.SettleBatchRequest(requests=[good, short_hand()])).results
    assert results[0].HasField("response")
    assert (results[1].error.code, results[1].error.reason, dict(results[1].error.metadata)) == (
        "INVALID_ARGUMENT",
        "INVALID_REQUEST",
        {},
    )


def test_over_http_the_same_details_come_in_the_json_body(http):
    reply = http.json_call("Settle", short_hand())
    assert reply.status == 400
    assert [d["type"] for d in reply.json()["details"]] == ["google.rpc.ErrorInfo", "google.rpc.BadRequest"]
    assert http_error_info(reply) == ("INVALID_REQUEST", {})
    assert http_bad_request(reply) == [("winners[0].hand.concealed", "0 meld(s) leave 14 concealed tiles, got 13")]
    assert http_error_info(http.proto_call("Settle", short_hand())) == ("INVALID_REQUEST", {})
    reply = http.post("GetProfile", b'{"name": "riichi"}')
    assert (reply.status, http_error_info(reply)) == (404, ("UNKNOWN_PROFILE", {"profile": "riichi"}))


@pytest.mark.parametrize(
    ("method", "body", "headers", "status", "reason"),
    [
        ("Shuffle", b"{}", {}, 501, "UNKNOWN_METHOD"),
        ("SettleStream", b"{}", {}, 501, "STREAM_OVER_HTTP"),
        ("ListProfiles", b"{}", {"Content-Encoding": "br"}, 501, "UNSUPPORTED_ENCODING"),
        ("ListProfiles", b"{}", {"Connect-Timeout-Ms": "soon"}, 400, "INVALID_TIMEOUT"),
        ("ListProfiles", b"{}", {"Connect-Timeout-Ms": "0"}, 504, "DEADLINE_EXCEEDED"),
        ("Settle", b"{profile", {}, 400, "MALFORMED_BODY"),
        ("Settle", b"[]", {}, 400, "MALFORMED_BODY"),
        ("GetProfile", b"\x1f\x8b", {"Content-Encoding": "gzip"}, 400, "MALFORMED_BODY"),
    ],
)
def test_every_http_refusal_has_its_reason(http, method, body, headers, status, reason):
    reply = http.post(method, body, **headers)
    assert (reply.status, http_error_info(reply)) == (status, (reason, {}))


def test_every_reason_is_listed_in_the_docs():
    docs = Path(__file__).resolve().parents[2] / "docs"
    for page in ("CLIENTS.md", "HTTP.md"):
        text = (docs / page).read_text()
        missing = [r.value for r in Reason if f"`{r.value}`" not in text]
        assert missing == [], page

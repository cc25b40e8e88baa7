"""Versioned answers over the wire (API.md): every answer names the engine version and the
digest of the effective profile; a request pinned to another digest is refused as
FAILED_PRECONDITION with ErrorInfo PROFILE_DIGEST_MISMATCH, and in a batch is an error entry."""

from __future__ import annotations

import json
import time

import grpc
import pytest
from mahjong.shanghai.v1 import profile_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
import rules_core as rc
from tests.server.error_details import error_info, http_error_info
from tests.worked_examples import WORKED_EXAMPLES

CLASSIC = "sha256:60f281dad8e607b302c88b713d00f9123cf4c2a55bdc98b2bd0f18a8196de2ea"
LEZI = "sha256:33e4bd19998a17c18f44f816573a4eca52f7ea20b6a4a6b08659329e7e7cfa34"
OTHER = "sha256:" + "0" * 64


def classic_request(**fields):
    request = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    assert request.profile == "classic"
    for name, value in fields.items():
        setattr(request, name, value)
    return request


def test_a_settlement_names_the_engine_and_the_profile_digest(stub):
    answer = stub.Settle(classic_request())
    assert answer.engine_version == rc.ENGINE_VERSION
    assert answer.engine_version.startswith("0.1.0+")
    assert answer.profile_digest == CLASSIC


def test_overrides_give_the_merged_profiles_digest(stub):
    request = classic_request()
    request.overrides.CopyFrom(profile_pb2.RuleProfile(lazi_value=40))
    digest = stub.Settle(request).profile_digest
    assert digest not in (CLASSIC, "") and digest.startswith("sha256:")
    assert stub.GetProfile(svc.GetProfileRequest(name="classic", overrides=request.overrides)).digest == digest


def test_a_request_pinned_to_the_digest_in_force_is_answered(stub):
    assert stub.Settle(classic_request(profile_digest=CLASSIC)).profile_digest == CLASSIC


def test_a_request_pinned_to_another_digest_is_failed_precondition(stub):
    with pytest.raises(grpc.RpcError) as raised:
        stub.Settle(classic_request(profile_digest=OTHER))
    assert raised.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error_info(raised.value) == ("PROFILE_DIGEST_MISMATCH", {"expected": OTHER, "actual": CLASSIC})


def test_a_pinned_batch_entry_is_an_error_entry_and_the_others_are_settled(stub):
    answer = stub.SettleBatch(
        svc.SettleBatchRequest(
            requests=[classic_request(request_id="a"), classic_request(request_id="b", profile_digest=LEZI)]
        )
    )
    first, second = answer.results
    assert first.response.profile_digest == CLASSIC
    assert second.request_id == "b"
    assert (second.error.code, second.error.reason) == ("FAILED_PRECONDITION", "PROFILE_DIGEST_MISMATCH")
    assert dict(second.error.metadata) == {"expected": LEZI, "actual": CLASSIC}


def test_check_win_and_list_waits_name_the_digest_and_honour_a_pin(stub):
    settle = WORKED_EXAMPLES[0][1]
    winner = convert.settle_request_message(settle).winners[0]
    check = svc.CheckWinRequest(profile="classic", outcome=settle.outcome.value, winner=winner)
    answer = stub.CheckWin(check)
    assert (answer.engine_version, answer.profile_digest) == (rc.ENGINE_VERSION, CLASSIC)
    check.profile_digest = OTHER
    with pytest.raises(grpc.RpcError) as raised:
        stub.CheckWin(check)
    assert error_info(raised.value)[0] == "PROFILE_DIGEST_MISMATCH"
    hand = svc.ListWaitsRequest(profile="lezi", seat=0, hand=winner.hand)
    del hand.hand.concealed[-1]
    waits = stub.ListWaits(hand)
    assert (waits.engine_version, waits.profile_digest) == (rc.ENGINE_VERSION, LEZI)
    hand.profile_digest = CLASSIC
    with pytest.raises(grpc.RpcError) as raised:
        stub.ListWaits(hand)
    assert error_info(raised.value) == ("PROFILE_DIGEST_MISMATCH", {"expected": CLASSIC, "actual": LEZI})


def test_profiles_carry_their_digests(stub):
    assert stub.GetProfile(svc.GetProfileRequest(name="lezi")).digest == LEZI
    summaries = {s.name: s.digest for s in stub.ListProfiles(svc.ListProfilesRequest()).summaries}
    assert summaries["classic"] == CLASSIC and summaries["lezi"] == LEZI


def test_over_http_the_answer_and_the_refusal_carry_the_same(http):
    reply = http.json_call("Settle", classic_request())
    assert (reply.json()["engineVersion"], reply.json()["profileDigest"]) == (rc.ENGINE_VERSION, CLASSIC)
    reply = http.post("Settle", json.dumps({**reply_request_json(), "profileDigest": OTHER}).encode())
    assert http_error_info(reply) == ("PROFILE_DIGEST_MISMATCH", {"expected": OTHER, "actual": CLASSIC})


def reply_request_json() -> dict:
    from google.protobuf import json_format

    return json_format.MessageToDict(classic_request())


def test_each_calls_log_line_names_the_digest_of_its_answer(server, stub, http):
    stub.Settle(classic_request(request_id="logged-grpc"))
    stub.GetProfile(svc.GetProfileRequest(name="lezi"))
    http.json_call("Settle", classic_request(request_id="logged-http"))
    with pytest.raises(grpc.RpcError):
        stub.Settle(classic_request(request_id="logged-pinned", profile_digest=OTHER))
    deadline = time.monotonic() + 10
    while True:
        lines = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
        rpcs = {(e["request_id"], e["method"].rsplit("/", 1)[1]): e for e in lines if e.get("event") == "rpc"}
        if ("logged-pinned", "Settle") in rpcs or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert rpcs["logged-grpc", "Settle"]["profile_digest"] == CLASSIC
    assert rpcs["logged-http", "Settle"]["profile_digest"] == CLASSIC
    assert rpcs["logged-http", "Settle"]["protocol"] == "connect"
    assert [e["profile_digest"] for (_, method), e in rpcs.items() if method == "GetProfile"][-1] == LEZI
    assert (rpcs["logged-pinned", "Settle"]["code"], rpcs["logged-pinned", "Settle"]["profile_digest"]) == (
        "FAILED_PRECONDITION",
        "",
    )

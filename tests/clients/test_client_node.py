"""A real Node.js client (clients/node: @grpc/grpc-js, @grpc/proto-loader) against the real server.

Its answers are compared with the Python client's for the worked examples of RULES.md and a
few hundred generated requests, and the worked examples' deltas with RULES.md itself.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import google.rpc
import grpc
import pytest
from google.protobuf.json_format import MessageToDict, ParseDict
from google.protobuf.message import Message
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
import rules_core as rc
from clients import ScoringClient, ScoringError
from generators.random_hands import generate_requests
from rules_core.build import winner
from tests.debian_tools import debian_tool
from tests.server.conftest import ROOT
from tests.worked_examples import WORKED_EXAMPLES

NODE_DIR = ROOT / "clients/node"
CLIENTS_MD = (ROOT / "docs/CLIENTS.md").read_text()
GOOGLEAPIS_DIR = Path(google.rpc.__path__[0]).parent.parent  # holds google/rpc/status.proto

WORKED = [convert.settle_request_message(request) for _, request, _, _ in WORKED_EXAMPLES]
GENERATED = [convert.settle_request_message(request) for request in generate_requests(300, 5)]


def as_json(message: Message) -> dict:
    """A request as the Node program gets it: the .proto's own field names, enum names."""
    return MessageToDict(message, preserving_proto_field_name=True)


def from_node(document, message_type: type[Message]) -> Message:
    """A Node answer read back into a message. Dropped: null (an unset message) and the names of
    the members oneofs hold (``result``, and ``_lazi_value`` for each proto3 ``optional``)."""

    def clean(value):
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items() if v is not None and not _oneof_name(k, v)}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    return ParseDict(clean(document), message_type())


def _oneof_name(key: str, value) -> bool:
    return isinstance(value, str) and (key == "result" or key.startswith("_"))


def run_node(server, jobs: list[dict]) -> list[dict]:
    node = debian_tool("node")
    if not (NODE_DIR / "node_modules/@grpc/grpc-js").is_dir():
        pytest.fail("clients/node/node_modules is missing: run `make install` (npm ci, from Debian package npm)")
    result = subprocess.run(
        [node, "shmj_node.js", "--target", server.address, "--proto-dir", str(ROOT / "proto")]
        + ["--googleapis-dir", str(GOOGLEAPIS_DIR)],
        cwd=NODE_DIR,
        input="".join(json.dumps(job) + "\n" for job in jobs),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(jobs)
    return answers


def one_tile_short(request: pb.SettleRequest) -> svc.ListWaitsRequest | None:
    """The winner's hand before its winning tile, as a ListWaits request."""
    if not request.winners or not request.winners[0].hand.winning_tile:
        return None
    winner = request.winners[0]
    concealed = list(winner.hand.concealed)
    if winner.hand.winning_tile not in concealed:
        return None
    concealed.remove(winner.hand.winning_tile)
    hand = type(winner.hand)(concealed=concealed, melds=winner.hand.melds, flowers=winner.hand.flowers)
    return svc.ListWaitsRequest(
        request_id=request.request_id,
        profile=request.profile,
        seat=winner.seat,
        hand=hand,
        dealer_seat=request.dealer_seat,
    )


def answer_or_error(call, message):
    try:
        return call(message)
    except ScoringError as error:
        return error


def assert_same(node: dict, python, message_type: type[Message], request_id: str) -> None:
    """A Node answer is the Python client's: the same response, or the same refusal and violations."""
    if isinstance(python, ScoringError):
        assert node == {
            "error": {
                "code": python.code.name,
                "message": python.message,
                "fieldViolations": [v._asdict() for v in python.violations],
            }
        }, request_id
        assert node["error"]["fieldViolations"], request_id  # the BadRequest detail, decoded in Node
    else:
        assert from_node(node["response"], message_type) == python, request_id


@pytest.fixture(scope="module")
def answers(server):
    """Every job sent once through Node, and the Python client's answers to the same."""
    waits = [w for w in map(one_tile_short, WORKED + GENERATED[:40]) if w is not None]
    checks = [
        svc.CheckWinRequest(
            request_id=r.request_id,
            profile=r.profile,
            outcome=r.outcome,
            winner=r.winners[0],
            dealer_seat=r.dealer_seat,
        )
        for r in WORKED + GENERATED[:40]
        if r.winners
    ]
    jobs = (
        [{"rpc": "Settle", "request": as_json(m)} for m in WORKED + GENERATED]
        + [{"rpc": "SettleStream", "requests": [as_json(m) for m in WORKED + GENERATED]}]
        + [{"rpc": "SettleBatch", "requests": [as_json(m) for m in WORKED + GENERATED]}]
        + [{"rpc": "CheckWin", "request": as_json(m)} for m in checks]
        + [{"rpc": "ListWaits", "request": as_json(m)} for m in waits]
        + [{"rpc": "GetProfile", "request": {"name": "lezi"}}, {"rpc": "ListProfiles"}]
    )
    node = iter(run_node(server, jobs))
    with ScoringClient(server.address, timeout=10) as client:
        python = {"settle": [answer_or_error(client.settle, m) for m in WORKED + GENERATED]}
        python["stream"] = list(client.settle_stream(WORKED + GENERATED))
        python["batch"] = client.settle_batch(WORKED + GENERATED)
        python["check"] = [answer_or_error(client.check_win, m) for m in checks]
        python["waits"] = [answer_or_error(client.list_waits, m) for m in waits]
        python["profile"] = client.get_profile("lezi")
        python["profiles"] = client.list_profiles()
    return {
        "python": python,
        "settle": [next(node) for _ in WORKED + GENERATED],
        "stream": next(node),
        "batch": next(node),
        "check": [next(node) for _ in checks],
        "waits": [next(node) for _ in waits],
        "profile": next(node),
        "profiles": next(node),
    }


def test_worked_examples_through_node_match_rules_md(answers):
    for (name, _, deltas, next_hand), answer in zip(WORKED_EXAMPLES, answers["settle"], strict=False):
        response = answer["response"]
        assert response["seat_deltas"] == list(deltas), name
        if next_hand is None:
            assert response["next_hand"] is None, name
        else:
            assert response["next_hand"] == {
                "dealer_seat": next_hand.dealer_seat,
                "huangfan_count": next_hand.huangfan_count,
            }, name


def test_settle_through_node_answers_as_the_python_client(answers):
    pairs = list(zip(WORKED + GENERATED, answers["settle"], answers["python"]["settle"], strict=True))
    for message, node, python in pairs:
        assert_same(node, python, pb.SettleResponse, message.request_id)
    refused = sum(isinstance(python, ScoringError) for _, _, python in pairs)
    assert 0 < refused < len(GENERATED)


def test_settle_stream_and_batch_through_node_answer_as_the_python_client(answers):
    streamed = [from_node(r, pb.SettleResponse) for r in answers["stream"]["responses"]]
    assert streamed == answers["python"]["stream"]
    assert from_node(answers["batch"]["response"], svc.SettleBatchResponse) == svc.SettleBatchResponse(
        results=answers["python"]["batch"]
    )
    kinds = [r["result"] for r in answers["batch"]["response"]["results"]]
    assert kinds.count("error") == sum(isinstance(p, ScoringError) for p in answers["python"]["settle"])


def test_check_win_and_list_waits_through_node_answer_as_the_python_client(answers):
    assert len(answers["check"]) > 40 and len(answers["waits"]) > 20
    for node, python in zip(answers["check"], answers["python"]["check"], strict=True):
        assert_same(node, python, svc.CheckWinResponse, "CheckWin")
    for node, python in zip(answers["waits"], answers["python"]["waits"], strict=True):
        assert_same(node, python, svc.ListWaitsResponse, "ListWaits")
    waits = [w for w in answers["python"]["waits"] if not isinstance(w, ScoringError)]
    assert any(w.discard_waits for w in waits)


def test_profiles_through_node_answer_as_the_python_client(answers):
    profile = from_node(answers["profile"]["response"], svc.GetProfileResponse).profile
    assert profile == answers["python"]["profile"]
    profiles = from_node(answers["profiles"]["response"], svc.ListProfilesResponse).profiles
    assert list(profiles) == answers["python"]["profiles"]


def test_node_keeps_snake_case_field_names(answers):
    """keepCase: true. Without it proto-loader wants lowerCamelCase and drops snake_case keys silently."""
    example_1 = answers["settle"][0]["response"]
    assert example_1["winners"][0]["seat"] == 0 and "base_value" in example_1["winners"][0]
    assert example_1["request_id"] == "" and example_1["huangfan_after_dice"] == 0


def test_a_refused_call_carries_its_bad_request_detail_to_node(server):
    short = pb.SettleRequest(profile="classic", outcome=pb.OUTCOME_SELF_DRAW, winners=[pb.Winner(seat=5)])
    (answer, not_found) = run_node(
        server,
        [{"rpc": "Settle", "request": as_json(short)}, {"rpc": "GetProfile", "request": {"name": "shanghai"}}],
    )
    with ScoringClient(server.address) as client:
        with pytest.raises(ScoringError) as error:
            client.settle(short)
    assert error.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert answer["error"]["code"] == "INVALID_ARGUMENT"
    assert answer["error"]["fieldViolations"] == [v._asdict() for v in error.value.violations]
    assert answer["error"]["fieldViolations"][0]["field"] == "winners[0].seat"
    assert not_found["error"]["code"] == "NOT_FOUND" and not_found["error"]["fieldViolations"] == []


def test_the_node_example_of_clients_md_runs_as_written(server, tmp_path):
    (example,) = re.findall(r"```js\n(.*?)```", CLIENTS_MD, flags=re.S)
    script = tmp_path / "example.js"
    script.write_text(example.replace("127.0.0.1:50051", server.address))
    (command, shown) = re.findall(r"```console\n\$ (NODE_PATH=[^\n]*)\n(.*?)```", CLIENTS_MD, flags=re.S)[0]
    assert command == "NODE_PATH=clients/node/node_modules node example.js"
    command = command.replace("example.js", str(script)).replace(" node ", f" {debian_tool('node')} ")
    result = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == shown == "[ 36, -12, -12, -12 ]\n"


# RULES.md 14.10: worked example 1 with 红中 held as a flower (Hand.dragon_flowers), under the built-in
# qiaoma profile asked for by name, as a 敲麻 room's backend would; seat 0 has knocked (declared_seats),
# or, in the second request, has not.
DRAGON_FLOWER_WIN = winner(0, "111m 555m 999p EEE 77s", win="7s", flowers="1f 5f", dragon_flowers="C")
KNOCKED = convert.settle_request_message(
    rc.SettleRequest("qiaoma", rc.Outcome.SELF_DRAW, (DRAGON_FLOWER_WIN,), declared_seats=(0,))
)
NOT_KNOCKED = convert.settle_request_message(rc.SettleRequest("qiaoma", rc.Outcome.SELF_DRAW, (DRAGON_FLOWER_WIN,)))


def test_the_knock_and_a_dragon_flower_reach_the_server_through_node(server):
    knocked, not_knocked = run_node(server, [{"rpc": "Settle", "request": as_json(m)} for m in (KNOCKED, NOT_KNOCKED)])
    assert knocked["response"]["seat_deltas"] == [60, -20, -20, -20]  # (1 + 4 花) × 2^2 番, a share
    assert knocked["response"]["winners"][0]["flowers"] == 4  # 1f 5f, 红中, the concealed wind pung
    assert knocked["response"]["winners"][0]["patterns"] == ["PATTERN_ALL_PUNGS", "PATTERN_CONCEALED"]
    assert not_knocked["response"]["winners"][0]["illegal_reasons"] == ["ILLEGAL_REASON_NOT_DECLARED"]
    assert not_knocked["response"]["seat_deltas"] == [0, 0, 0, 0]
    with ScoringClient(server.address, timeout=10) as client:
        for node, message in ((knocked, KNOCKED), (not_knocked, NOT_KNOCKED)):
            assert from_node(node["response"], pb.SettleResponse) == client.settle(message)

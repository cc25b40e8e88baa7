"""Issue 8, from outside: no body a client sends can crash, stall or bloat a worker, and every
failure is a clean answer, logged and counted like any other call."""

from __future__ import annotations

import json
import time
from pathlib import Path

import grpc
import pytest
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb
from mahjong.shanghai.v1 import tiles_pb2

import convert
import rules_core as rc
from convert.limits import MAX_BODY_BYTES
from convert.profile_digest import profile_digest
from tests.server.conftest import run_server
from tests.server.error_details import bad_request
from tests.server.test_lifecycle import EXAMPLE, sample
from tests.worked_examples import WORKED_EXAMPLES

SERVICE = "mahjong.shanghai.v1.ScoringService"
LIMIT = 1024 * 1024
UNARY_REQUESTS = {
    "Settle": "SettleRequest",
    "SettleBatch": "SettleBatchRequest",
    "CheckWin": "CheckWinRequest",
    "ListWaits": "ListWaitsRequest",
    "GetProfile": "GetProfileRequest",
    "ListProfiles": "ListProfilesRequest",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with run_server(tmp_path_factory.mktemp("hostile"), "--max-message-bytes", str(LIMIT)) as running:
        yield running


@pytest.fixture(scope="module")
def channel(server):
    channel = server.channel()
    yield channel
    channel.close()


def events(server) -> list[dict]:
    return [json.loads(line) for line in server.log().splitlines()]


def worker_pids(server) -> list[int]:
    return [e["pid"] for e in events(server) if e["event"] == "serving"]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


CODE_LABELS = {
    grpc.StatusCode.INVALID_ARGUMENT: "InvalidArgument",
    grpc.StatusCode.RESOURCE_EXHAUSTED: "ResourceExhausted",
}


def refused_logged_and_counted(server, channel, method: str, body: bytes, code: grpc.StatusCode) -> grpc.RpcError:
    """Send a raw unary body; the call must end ``code``, be counted in grpc_server_handled_total
    and have its log line. Returns the error, for its details."""
    labels = {"grpc_method": method, "grpc_code": CODE_LABELS[code]}
    before = sample(server.metrics(), "grpc_server_handled_total", **labels)
    with pytest.raises(grpc.RpcError) as error:
        channel.unary_unary(f"/{SERVICE}/{method}")(body, timeout=10)
    assert error.value.code() == code
    time.sleep(0.2)
    assert sample(server.metrics(), "grpc_server_handled_total", **labels) == before + 1
    logged = [e for e in events(server) if e["event"] == "rpc" and e["method"] == f"{SERVICE}/{method}"]
    assert logged[-1]["code"] == code.name
    return error.value


def settle_stream(channel, bodies: list[bytes], timeout: float = 20) -> list[pb.SettleResponse]:
    call = channel.stream_stream(f"/{SERVICE}/SettleStream", response_deserializer=pb.SettleResponse.FromString)
    return list(call(iter(bodies), timeout=timeout))


def bad_tiles(count: int, request_id: str = "") -> pb.SettleRequest:
    hand = tiles_pb2.Hand(concealed=[99] * count, winning_tile=1)
    return pb.SettleRequest(
        request_id=request_id, profile="classic", outcome=pb.OUTCOME_SELF_DRAW, winners=[pb.Winner(hand=hand)]
    )


def test_a_stream_answer_that_would_echo_a_64_mib_id_is_an_error_entry_and_the_worker_lives(server, channel):
    """Finding 1: an id that made the answer 80 bytes over the limit crashed the worker (SIGSEGV)."""
    huge_id = pb.SettleRequest(request_id="x" * (LIMIT - 100), profile="classic")
    answers = settle_stream(channel, [huge_id.SerializeToString(), EXAMPLE.SerializeToString()])
    assert len(answers) == 2
    assert answers[0].request_id == ""  # an id over the bound is never echoed
    assert answers[0].error.code == "INVALID_ARGUMENT"
    assert [(v.field, v.description) for v in answers[0].error.field_violations] == [
        ("body", f"a legal mahjong.shanghai.v1.SettleRequest is at most 41984 bytes, got {huge_id.ByteSize()}")
    ]  # measured, never decoded
    assert answers[1].seat_deltas == [36, -12, -12, -12]
    assert worker_pids(server) == worker_pids(server)[:1]  # still the first worker


def test_thousands_of_unknown_tiles_in_a_stream_are_one_short_error_entry(channel):
    """Finding 1: 15,000 copies of tile 99 made an error answer longer than the request."""
    answers = settle_stream(channel, [bad_tiles(15_000, "t-1").SerializeToString()] * 3)
    assert [a.request_id for a in answers] == ["t-1"] * 3
    for answer in answers:
        assert [(v.field, v.description) for v in answer.error.field_violations] == [
            ("winners[0].hand.concealed", "at most 14 entries, got 15000")
        ]


def test_a_megabyte_of_bad_tiles_is_refused_at_once_and_leaves_nothing_behind(server, channel):
    """Finding 2: a million copies of tile 99 cost seconds of CPU, ~1 GB at peak, 550-700 MB kept
    per call and 52 MB of trailers. Now: one violation, and the worker's memory stays where it was."""
    stub = channel.unary_unary(f"/{SERVICE}/Settle", response_deserializer=pb.SettleResponse.FromString)
    body = bad_tiles(1_000_000).SerializeToString()
    assert len(body) > 1_000_000
    (pid,) = worker_pids(server)
    with pytest.raises(grpc.RpcError):
        stub(body, timeout=20)  # warm-up: the first call may grow the heap once
    before = rss_kib(pid)
    for _ in range(12):
        with pytest.raises(grpc.RpcError) as error:
            stub(body, timeout=20)
        assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert bad_request(error.value) == [
            ("body", f"a legal mahjong.shanghai.v1.SettleRequest is at most 41984 bytes, got {len(body)}")
        ]  # measured, never decoded
    assert rss_kib(pid) - before < 20 * 1024


def test_many_faults_in_one_request_give_the_same_bounded_answer_every_time(channel):
    """Finding 2: from about 100 bad values up the answer was INVALID_ARGUMENT or RESOURCE_EXHAUSTED
    at random (trailers over what the client accepts)."""
    request = bad_tiles(14)
    request.winners[0].passed_tiles.extend([99] * 136)
    stub = channel.unary_unary(f"/{SERVICE}/Settle", request_serializer=pb.SettleRequest.SerializeToString)
    for _ in range(20):
        with pytest.raises(grpc.RpcError) as error:
            stub(request, timeout=10)
        assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        found = bad_request(error.value)
        assert len(found) == 21
        assert found[0] == ("winners[0].hand.concealed[0]", "unknown value 99")
        assert found[20] == ("request", "130 more violation(s) not listed")


@pytest.mark.parametrize("method", sorted(UNARY_REQUESTS))
def test_an_undecodable_body_is_invalid_argument_logged_and_counted(server, channel, method):
    """Finding 3: the body ff answered UNKNOWN "Unexpected <class 'DecodeError'>", unlogged, uncounted."""
    error = refused_logged_and_counted(server, channel, method, b"\xff", grpc.StatusCode.INVALID_ARGUMENT)
    assert error.details() == f"the body is not a mahjong.shanghai.v1.{UNARY_REQUESTS[method]} message"


@pytest.mark.parametrize("method", [m for m in UNARY_REQUESTS if m != "SettleBatch"])
def test_a_body_larger_than_any_legal_request_is_refused_before_it_is_decoded(server, channel, method):
    """Issue 8: a 1 MB malformed request cost 29-80 ms under load, nearly all of it protobuf
    decoding what no legal request can be. Now its length alone answers INVALID_ARGUMENT."""
    message = f"mahjong.shanghai.v1.{UNARY_REQUESTS[method]}"
    limit = MAX_BODY_BYTES[message]
    body = b"\xff" * (limit + 1)
    error = refused_logged_and_counted(server, channel, method, body, grpc.StatusCode.INVALID_ARGUMENT)
    assert bad_request(error) == [("body", f"a legal {message} is at most {limit} bytes, got {limit + 1}")]


def test_a_body_over_the_message_limit_is_resource_exhausted_logged_and_counted(server, channel):
    """Issue 8: gRPC's core refused a body over --max-message-bytes before any of the server's
    code ran, so the call was neither logged nor counted in grpc_server_*."""
    body = svc.SettleBatchRequest(requests=[EXAMPLE] * (LIMIT // EXAMPLE.ByteSize())).SerializeToString()
    assert LIMIT < len(body) < 2 * LIMIT
    error = refused_logged_and_counted(server, channel, "SettleBatch", body, grpc.StatusCode.RESOURCE_EXHAUSTED)
    assert error.details() == f"the body is {len(body)} bytes, over the {LIMIT}-byte message limit"


def test_a_stream_message_over_the_message_limit_ends_the_stream_resource_exhausted(server, channel):
    body = pb.SettleRequest(request_id="x" * LIMIT).SerializeToString()
    call = channel.stream_stream(f"/{SERVICE}/SettleStream", response_deserializer=pb.SettleResponse.FromString)
    answers = []
    with pytest.raises(grpc.RpcError) as error:
        for answer in call(iter([EXAMPLE.SerializeToString(), body]), timeout=10):
            answers.append(answer)
    assert len(answers) == 1 and answers[0].seat_deltas == [36, -12, -12, -12]
    assert error.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert error.value.details() == f"message 2 of the stream is {len(body)} bytes, over the {LIMIT}-byte message limit"
    time.sleep(0.2)
    logged = [e for e in events(server) if e["event"] == "rpc" and e["method"].endswith("/SettleStream")]
    assert logged[-1]["code"] == "RESOURCE_EXHAUSTED"


def test_a_batch_entry_larger_than_any_legal_request_refuses_the_batch_naming_the_entry(channel):
    entries = [EXAMPLE, pb.SettleRequest(request_id="x" * 45_000), EXAMPLE]
    body = svc.SettleBatchRequest(requests=entries).SerializeToString()
    with pytest.raises(grpc.RpcError) as error:
        channel.unary_unary(f"/{SERVICE}/SettleBatch")(body, timeout=10)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    size = entries[1].ByteSize()
    assert bad_request(error.value) == [("requests[1]", f"a legal SettleRequest is at most 41984 bytes, got {size}")]


def test_a_corrupt_stream_message_ends_the_stream_invalid_argument_without_a_traceback(server, channel):
    """Finding 4: SettleStream answered INTERNAL and logged a full traceback."""
    call = channel.stream_stream(f"/{SERVICE}/SettleStream", response_deserializer=pb.SettleResponse.FromString)
    answers = []
    with pytest.raises(grpc.RpcError) as error:
        for answer in call(iter([EXAMPLE.SerializeToString(), b"\xff", EXAMPLE.SerializeToString()]), timeout=10):
            answers.append(answer)
    assert len(answers) == 1 and answers[0].seat_deltas == [36, -12, -12, -12]
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.value.details() == "message 2 of the stream is not a mahjong.shanghai.v1.SettleRequest message"
    time.sleep(0.2)
    assert "Traceback" not in server.log()
    logged = [e for e in events(server) if e["event"] == "rpc" and e["method"].endswith("/SettleStream")]
    assert logged[-1]["code"] == "INVALID_ARGUMENT"


def test_no_answer_is_ever_larger_than_the_limit(tmp_path):
    """Finding 1: a stream answer over --max-message-bytes crashed the worker. Each stream and
    batch answer is checked first: one that does not fit is an error entry and the call goes on."""
    small = convert.settle_request_message(WORKED_EXAMPLES[0][1])  # 37 bytes in, 320 bytes out
    # and the answer's engine version and profile digest (API.md, versioned answers)
    digest = profile_digest(rc.BUILTIN_PROFILES["classic"])
    versions = len(pb.SettleResponse(engine_version=rc.ENGINE_VERSION, profile_digest=digest).SerializeToString())
    with run_server(tmp_path, "--max-message-bytes", "200") as server:
        channel = server.channel()
        small.request_id = "s-1"
        answers = settle_stream(channel, [small.SerializeToString()] * 3)
        assert [a.request_id for a in answers] == ["s-1"] * 3
        for answer in answers:
            assert answer.error.code == "RESOURCE_EXHAUSTED"
            assert answer.error.message == f"the answer is {325 + versions} bytes, over the 200-byte message limit"
        settle_batch = channel.unary_unary(
            f"/{SERVICE}/SettleBatch",
            request_serializer=svc.SettleBatchRequest.SerializeToString,
            response_deserializer=svc.SettleBatchResponse.FromString,
        )
        (result,) = settle_batch(svc.SettleBatchRequest(requests=[small]), timeout=10).results
        assert (result.request_id, result.error.code) == ("s-1", "RESOURCE_EXHAUSTED")
        assert result.error.message == f"the answer is {336 + versions} bytes, over the 200-byte message limit"
        with pytest.raises(grpc.RpcError) as error:  # each entry fits, all of them do not
            settle_batch(svc.SettleBatchRequest(requests=[small] * 3), timeout=10)
        assert error.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert error.value.details() == "the answer is 399 bytes, over the 200-byte message limit; send fewer requests"
        with pytest.raises(grpc.RpcError) as error:
            channel.unary_unary(f"/{SERVICE}/Settle", request_serializer=pb.SettleRequest.SerializeToString)(
                small, timeout=10
            )
        assert error.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert error.value.details() == f"the answer is {325 + versions} bytes, over the 200-byte message limit"
        assert len(worker_pids(server)) == 1
        assert server.process.poll() is None
        channel.close()

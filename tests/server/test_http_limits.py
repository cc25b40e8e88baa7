"""The gRPC limits hold over HTTP too: message size (also for chunked and gzip bodies),
batch size, deadlines from Connect-Timeout-Ms; and each call is logged and counted as gRPC's are."""

from __future__ import annotations

import gzip
import json
import socket
import time
from urllib.parse import urlsplit

import pytest
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from prometheus_client.parser import text_string_to_metric_families

import convert
from generators.random_hands import generate_requests
from tests.server.conftest import run_server
from tests.server.error_details import http_error
from tests.server.http_calls import SERVICE_PATH, Http
from tests.server.test_http_errors import bad_request_of
from tests.worked_examples import WORKED_EXAMPLES

LIMIT = 4000  # bytes: ListProfiles answers 7,536 bytes of JSON (a newline included) and 1,448 of protobuf


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    with run_server(
        tmp_path_factory.mktemp("small"),
        *("--max-message-bytes", str(LIMIT), "--max-batch-size", "5", "--max-concurrent-rpcs", "1"),
    ) as running:
        yield running


@pytest.fixture
def http(small):
    with Http(small.http_url) as connection:
        yield connection


def _exhausted(reply, message: str, reason: str, **metadata: str) -> None:
    body = {"code": "resource_exhausted", "message": message, "reason": reason}
    if metadata:
        body["metadata"] = metadata
    assert http_error(reply) == (429, body)


def test_a_body_over_the_limit_is_refused_before_it_is_read(http):
    _exhausted(
        http.post("Settle", b" " * (LIMIT + 1)),
        f"the request is over the server's limit of {LIMIT} bytes",
        "MESSAGE_TOO_LARGE",
        limit=str(LIMIT),
    )


def test_a_chunked_body_over_the_limit_is_refused(http):
    chunks = iter([b" " * 1000] * 5)  # no Content-Length: the size is known only while reading
    reply = http.request("POST", SERVICE_PATH + "Settle", chunks, {"Content-Type": "application/json"})
    _exhausted(reply, f"the request is over the server's limit of {LIMIT} bytes", "MESSAGE_TOO_LARGE", limit=str(LIMIT))


def test_a_gzip_body_that_inflates_over_the_limit_is_refused(http):
    bomb = gzip.compress(b" " * 1_000_000)  # 1 MB of spaces in about 1 kB
    assert len(bomb) < LIMIT
    reply = http.post("Settle", bomb, **{"Content-Encoding": "gzip"})
    _exhausted(reply, f"the request is over the server's limit of {LIMIT} bytes", "MESSAGE_TOO_LARGE", limit=str(LIMIT))


def test_an_answer_over_the_limit_is_refused(http):
    _exhausted(
        http.post("ListProfiles", b"{}"),
        f"the answer is 18664 bytes, over the {LIMIT}-byte message limit",  # each summary with its digest
        "ANSWER_TOO_LARGE",
        size="18664",
        limit=str(LIMIT),
    )
    assert http.post("ListProfiles", b"", "application/proto").status == 200  # 3,713 bytes


def test_a_batch_over_the_limit_is_invalid_argument(http):
    messages = [convert.settle_request_message(WORKED_EXAMPLES[0][1])] * 6
    reply = http.proto_call("SettleBatch", svc.SettleBatchRequest(requests=messages))
    assert reply.json()["message"] == "batch too large; split it"
    assert bad_request_of(reply) == [("requests", "at most 5 requests per call, got 6")]


def test_a_call_over_the_concurrency_limit_is_resource_exhausted(small, http):
    """A call whose body is still coming holds the worker's one slot: others are refused until it ends."""
    host, port = urlsplit(small.http_url).hostname, urlsplit(small.http_url).port
    with socket.create_connection((host, port), timeout=10) as slow:
        slow.sendall(
            f"POST {SERVICE_PATH}GetProfile HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n".encode()
            + b'Content-Length: 19\r\n\r\n{"name": '
        )
        deadline = time.monotonic() + 10
        while (reply := http.post("GetProfile", b'{"name": "lezi"}')).status == 200 and time.monotonic() < deadline:
            time.sleep(0.05)
        _exhausted(reply, "too many calls at once; retry later", "TOO_MANY_CALLS")
        slow.sendall(b'"classic"}')
        answer = b""
        while b'"name":"classic"' not in answer and (chunk := slow.recv(65536)):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200 OK\r\n") and b'"name":"classic"' in answer
    assert http.post("GetProfile", b'{"name": "lezi"}').status == 200


def test_an_expired_deadline_ends_the_call(server):
    message = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    with Http(server.http_url) as http:
        reply = http.proto_call("Settle", message, **{"Connect-Timeout-Ms": "0"})
        assert http_error(reply) == (
            504,
            {"code": "deadline_exceeded", "message": "deadline exceeded", "reason": "DEADLINE_EXCEEDED"},
        )
        assert http.proto_call("Settle", message, **{"Connect-Timeout-Ms": "5000"}).status == 200


def test_the_deadline_is_honoured_inside_a_long_batch(server):
    batch = svc.SettleBatchRequest(requests=[convert.settle_request_message(r) for r in generate_requests(2000, 3)])
    with Http(server.http_url) as http:
        reply = http.proto_call("SettleBatch", batch, **{"Connect-Timeout-Ms": "5"})
        assert (reply.status, reply.json()["code"]) == (504, "deadline_exceeded")
        assert http.post("ListProfiles", b"{}").status == 200  # still serving


def test_a_malformed_timeout_is_invalid_argument(server):
    with Http(server.http_url) as http:
        reply = http.post("ListProfiles", b"{}", **{"Connect-Timeout-Ms": "soon"})
    assert reply.status == 400
    assert reply.json()["message"] == (
        "Connect-Timeout-Ms must be a whole number of milliseconds (at most 10 digits), got 'soon'"
    )


def _samples(text: str) -> dict[tuple, float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _delta(before: dict, after: dict, name: str, **labels) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


def test_calls_are_counted_in_the_grpc_families_and_by_codec(small, http):
    settle = {"grpc_service": "mahjong.shanghai.v1.ScoringService", "grpc_method": "Settle", "grpc_type": "unary"}
    message = convert.settle_request_message(WORKED_EXAMPLES[0][1])  # classic self-draw, legal
    before = _samples(small.metrics())
    assert http.json_call("Settle", message).status == 200
    assert http.proto_call("Settle", message).status == 200
    assert http.post("Settle", b'{"profile": "riichi"}').status == 400
    after = _samples(small.metrics())
    assert _delta(before, after, "grpc_server_started_total", **settle) == 3
    assert _delta(before, after, "grpc_server_handled_total", grpc_code="OK", **settle) == 2
    assert _delta(before, after, "grpc_server_handled_total", grpc_code="InvalidArgument", **settle) == 1
    assert _delta(before, after, "grpc_server_handling_seconds_count", **settle) == 3
    codec = {"grpc_method": "Settle"}
    assert _delta(before, after, "shmj_connect_handled_total", codec="json", grpc_code="OK", **codec) == 1
    assert _delta(before, after, "shmj_connect_handled_total", codec="proto", grpc_code="OK", **codec) == 1
    assert _delta(before, after, "shmj_connect_handled_total", codec="json", grpc_code="InvalidArgument", **codec) == 1
    assert _delta(before, after, "shmj_settlements_total", profile="classic", outcome="SELF_DRAW") == 2
    assert _delta(before, after, "shmj_rejected_requests_total", grpc_method="Settle") == 1


def test_each_call_is_one_log_line_like_grpc_calls(small, http):
    message = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    message.request_id = "http-log-1"
    assert http.json_call("Settle", message).status == 200
    assert http.post("ListProfiles", b"{}", **{"X-Request-Id": "http-log-2"}).status == 429
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        lines = [json.loads(line) for line in small.log().splitlines() if line.startswith("{")]
        calls = {line.get("request_id"): line for line in lines if line["event"] == "rpc"}
        if {"http-log-1", "http-log-2"} <= calls.keys():
            break
        time.sleep(0.1)
    first, second = calls["http-log-1"], calls["http-log-2"]
    assert {k: first[k] for k in ("method", "code", "protocol", "codec", "level")} == {
        "method": "mahjong.shanghai.v1.ScoringService/Settle",
        "code": "OK",
        "protocol": "connect",
        "codec": "json",
        "level": "info",
    }
    assert first["peer"].startswith("ipv4:127.0.0.1:") and first["duration_ms"] >= 0
    assert (first["profile"], second["profile"]) == ("classic", "")
    assert (second["method"], second["code"]) == (
        "mahjong.shanghai.v1.ScoringService/ListProfiles",
        "RESOURCE_EXHAUSTED",
    )
    assert "hand" not in json.dumps(first)  # hands are never logged at info level

"""Issue 8, findings 5 and 7: every line the server writes is one bounded JSON object, whoever
wrote it (the service, gRPC's Python layer, asyncio, gRPC's C core, OpenSSL)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import grpc
import pytest
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
from generators.random_hands import generate_requests
from tests.server.conftest import ROOT, run_server
from tests.server.test_lifecycle import EXAMPLE

MAX_LINE_BYTES = 10_000


def json_lines(text: str) -> list[dict]:
    """Every line as JSON: a line that is not one fails the test."""
    for line in text.splitlines():
        assert len(line.encode()) < MAX_LINE_BYTES, line[:300]
    return [json.loads(line) for line in text.splitlines()]


SPEAKERS = r"""
import asyncio, logging, os, sys
from server.logs import capture_stderr, configure_logging, release_stderr
configure_logging("info")
relay = capture_stderr()
os.write(2, b"E1129 22:06:10.871571   24338 ev_epoll1_linux.cc:120] File descriptor limit reached\n")
os.write(2, b"I1129 22:06:10.871571   24338 ssl_transport_security.cc:2563] Handshake failed with error SSL_ERROR_SSL\n")
os.write(2, b"x" * 50_000 + b"\nplain words\n")
try:
    raise ValueError("y" * 100_000)
except ValueError:
    logging.getLogger("grpc._cython.cygrpc").exception("Unexpected error in servicer")
logging.getLogger("asyncio").error("Task exception was never retrieved")
print("from print", file=sys.stderr, flush=True)
release_stderr(relay)
"""


def test_whatever_writes_to_stderr_or_the_standard_loggers_becomes_bounded_json_lines():
    ended = subprocess.run([sys.executable, "-c", SPEAKERS], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert ended.returncode == 0 and ended.stderr == ""
    lines = json_lines(ended.stdout)
    core = [(e["level"], e["source"], e["message"]) for e in lines if e["event"] == "grpc core"]
    assert core == [
        ("error", "ev_epoll1_linux.cc:120", "File descriptor limit reached"),
        ("info", "ssl_transport_security.cc:2563", "Handshake failed with error SSL_ERROR_SSL"),
    ]
    plain = [e["message"] for e in lines if e["event"] == "stderr"]
    assert plain[-2:] == ["plain words", "from print"]
    assert all(len(m) <= 1100 for m in plain)  # the 50,000 x came in parts of 4,000, each cut
    (failure,) = [e for e in lines if e["event"] == "Unexpected error in servicer"]
    assert failure["logger"] == "grpc._cython.cygrpc" and failure["level"] == "error"
    assert "ValueError" in failure["exception"] and len(failure["exception"]) < 8100
    (asyncio_line,) = [e for e in lines if e.get("logger") == "asyncio"]
    assert asyncio_line["event"] == "Task exception was never retrieved"


def test_ids_are_cut_and_cancelled_calls_leave_no_traceback(server):
    """Finding 5: a 64 MiB request_id wrote a 67 MB line, 7,000 bytes of x-request-id went in
    verbatim. Finding 7: cancelled calls wrote CancelledError tracebacks."""
    channel = server.channel()
    settle = channel.unary_unary(
        "/mahjong.shanghai.v1.ScoringService/Settle", request_serializer=pb.SettleRequest.SerializeToString
    )
    long_id = pb.SettleRequest(request_id="L" * 20_000, profile="classic")  # a larger body is never decoded
    with pytest.raises(grpc.RpcError):
        settle(long_id, timeout=10)
    stream = channel.stream_stream(
        "/mahjong.shanghai.v1.ScoringService/SettleStream", request_serializer=pb.SettleRequest.SerializeToString
    )
    list(stream(iter([EXAMPLE]), metadata=[("x-request-id", "M" * 7000)], timeout=10))

    def endless():
        requests = [convert.settle_request_message(r) for r in generate_requests(200, 3)]
        while True:
            yield from requests

    cancelled = stream(endless(), timeout=10)
    next(cancelled)
    cancelled.cancel()
    with pytest.raises(grpc.RpcError):
        list(stream(endless(), timeout=0.5))  # ends DEADLINE_EXCEEDED mid-stream
    time.sleep(0.5)
    channel.close()
    lines = json_lines(server.log())
    ids = {e["request_id"] for e in lines if e["event"] == "rpc"}
    assert "L" * 128 + "… (20000 characters)" in ids
    assert "M" * 128 + "… (7000 characters)" in ids
    assert not [e for e in lines if "exception" in e or e["event"] == "stderr"]


def test_tls_handshake_failures_from_grpc_core_are_json_lines(tmp_path, pki):
    """Finding 7: gRPC's core wrote TLS handshake errors as plain text among the JSON."""
    folder, ca_pem, _, _ = pki
    credentials = grpc.ssl_channel_credentials(root_certificates=ca_pem)
    args = ("--tls-cert", str(folder / "server.pem"), "--tls-key", str(folder / "server.key"))
    with run_server(tmp_path, *args, credentials=credentials) as server:
        host, port = server.address.split(":")
        with socket.create_connection((host, int(port))) as plain:
            plain.sendall(b"GET / HTTP/1.1\r\n\r\n")  # not TLS
            plain.settimeout(5)
            assert plain.recv(100) == b""
        time.sleep(0.5)
    lines = json_lines(server.log())
    handshakes = [e for e in lines if e["event"] == "grpc core" and "Handshake failed" in e["message"]]
    assert handshakes and handshakes[0]["source"].startswith("ssl_transport_security.cc")


BATCH_HANDS = [convert.settle_request_message(r) for r in generate_requests(2000, 21)]


def test_a_deadline_passing_mid_batch_is_logged_as_what_it_is_never_as_an_unexpected_error(tmp_path):
    """Issue 21, finding 6: 9 of 20 batches with a deadline of a few milliseconds logged an
    error-level "unexpected error" traceback ("Abort already called!"): the abort that ends
    the call at its deadline failed, as gRPC's core had ended the call already."""
    with run_server(tmp_path) as server:
        stub = server.stub()
        codes = []
        for i in range(20):
            try:
                stub.SettleBatch(
                    svc.SettleBatchRequest(requests=BATCH_HANDS),
                    timeout=0.001 * (1 + i),
                    metadata=[("x-request-id", f"deadline-{i}")],
                )
                codes.append(grpc.StatusCode.OK)
            except grpc.RpcError as error:
                codes.append(error.code())
        assert grpc.StatusCode.DEADLINE_EXCEEDED in codes
        time.sleep(0.5)
        lines = json_lines(server.log())
    assert [e for e in lines if e["level"] not in ("info", "debug")] == []
    assert not [e for e in lines if "exception" in e]
    ends = {
        e["request_id"]: e["code"] for e in lines if e["event"] == "rpc" and e["request_id"].startswith("deadline-")
    }
    assert "DEADLINE_EXCEEDED" in ends.values()  # (a call whose deadline passed before gRPC's core took it has no line)
    assert set(ends.values()) <= {"OK", "DEADLINE_EXCEEDED"}

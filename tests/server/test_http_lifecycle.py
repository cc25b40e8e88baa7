"""The HTTP endpoint's life: every worker serves it on one port, /readyz turns 503 from the
moment a SIGTERM starts the drain while calls are still answered, and a taken port stops
the start with a clear error."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.server.conftest import ROOT, free_port, run_server
from tests.server.http_calls import Http


def _log_lines(server) -> list[dict]:
    return [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]


def _events(server, event: str, count: int) -> list[dict] | None:
    """The log lines of ``event``, once there are ``count`` of them."""
    lines = [line for line in _log_lines(server) if line["event"] == event]
    return lines if len(lines) == count else None


def _wait_for(predicate, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def test_every_worker_serves_http_and_readyz_reports_the_drain(tmp_path):
    with run_server(tmp_path, "--shutdown-delay-s", "2", workers=2) as server:
        serving = _wait_for(lambda: _events(server, "serving http", count=2))
        assert {line["address"] for line in serving} == {server.http_url}
        worker_pids = {line["pid"] for line in serving}
        assert len(worker_pids) == 2
        for i in range(30):  # a connection each: the kernel spreads connections over the workers
            with Http(server.http_url) as http:
                assert http.post("ListProfiles", b"{}", **{"X-Request-Id": f"spread-{i}"}).status == 200
        served_by = _wait_for(
            lambda: (
                {
                    line["pid"]
                    for line in _log_lines(server)
                    if line["event"] == "rpc" and line.get("request_id", "").startswith("spread-")
                }
                == worker_pids
            )
        )
        assert served_by

        with Http(server.http_url) as http:
            assert (http.get("/readyz").status, http.get("/readyz").body) == (200, b"ok\n")
        server.process.send_signal(signal.SIGTERM)
        _wait_for(lambda: Http(server.http_url).get("/readyz").status == 503, timeout=1.5)
        with Http(server.http_url) as http:
            assert (http.get("/readyz").status, http.get("/readyz").body) == (503, b"draining\n")
            assert (http.get("/healthz").status, http.get("/healthz").body) == (200, b"ok\n")  # alive
            assert http.post("ListProfiles", b"{}").status == 200  # still answering while the balancer notices
        with grpc.insecure_channel(server.address) as channel:
            health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=2)
            assert health.status == health_pb2.HealthCheckResponse.NOT_SERVING
        assert server.process.wait(timeout=30) == 0
        with pytest.raises(ConnectionRefusedError):
            Http(server.http_url).get("/healthz")


def test_a_taken_http_port_stops_the_start_with_a_clear_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        ended = subprocess.run(
            [sys.executable, "-m", "server", "--port", str(free_port()), "--metrics-port", "0"]
            + ["--http-port", str(port), "--workers", "1"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    output = ended.stdout + ended.stderr
    failures = [json.loads(line) for line in ended.stdout.splitlines() if '"cannot listen"' in line]
    assert ended.returncode == 1
    assert [(f["address"], f["error"]) for f in failures] == [(f"127.0.0.1:{port}", "Address already in use")]
    assert "Traceback" not in output


def _http_address(server) -> tuple[str, int]:
    host, port = server.http_url.rsplit("/", 1)[1].split(":")
    return host, int(port)


def _status_line(sock: socket.socket) -> bytes:
    sock.settimeout(10)
    return sock.recv(65536).split(b"\r\n", 1)[0]


def test_http_calls_cut_by_the_drain_are_answered_unavailable_and_logged_at_info(tmp_path):
    """Issue 21, finding 6: SIGTERM with 50 clients trickling their bodies logged 50 error-level
    CancelledError tracebacks ("Exception in ASGI application") when uvicorn's grace ran out."""
    with run_server(tmp_path, "--grace-period-s", "1") as server:
        clients = []
        for _ in range(10):
            sock = socket.create_connection(_http_address(server))
            sock.sendall(
                b"POST /mahjong.shanghai.v1.ScoringService/Settle HTTP/1.1\r\nHost: x\r\n"
                b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n"
            )
            clients.append(sock)
        time.sleep(0.5)
        server.process.send_signal(signal.SIGTERM)
        answers = [_status_line(sock) for sock in clients]
        assert server.process.wait(timeout=30) == 0
        for sock in clients:
            sock.close()
        lines = _log_lines(server)
    assert answers == [b"HTTP/1.1 503 Service Unavailable"] * 10
    assert [line for line in lines if line["level"] not in ("info", "debug") or "exception" in line] == []
    (cut,) = [line for line in lines if line["event"] == "grace period ending; http calls in flight end UNAVAILABLE"]
    assert cut["calls"] == 10

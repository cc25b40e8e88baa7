"""Issue 21, findings 1 and 2: no HTTP client holds a connection, a descriptor or a worker's
memory past the HTTP face's limits. Before, silent connections, headers trickled a byte every
5 s and trickled chunked bodies were all still open after 95 s; 43,500 silent connections took
both workers' descriptors, and gRPC health checks failed with them; 40 chunked 15 MB bodies,
then silence, added 585 MB to the workers. The limits here are scaled down to a second."""

from __future__ import annotations

import json
import socket
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families

from tests.server.conftest import run_server

SETTLE = b"POST /mahjong.shanghai.v1.ScoringService/Settle HTTP/1.1\r\nHost: x\r\n"
CHUNKED = SETTLE + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
LIMITS = (
    *("--http-header-timeout-s", "1", "--http-body-timeout-s", "1", "--http-idle-timeout-s", "1"),
    *("--http-max-connections", "20", "--max-message-bytes", "1048576", "--http-body-budget-bytes", "1048576"),
)


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    with run_server(tmp_path_factory.mktemp("guarded"), *LIMITS) as running:
        yield running


def _connect(server) -> socket.socket:
    host, port = server.http_url.rsplit("/", 1)[1].split(":")
    sock = socket.create_connection((host, int(port)))
    sock.settimeout(10)
    return sock


def _closed(sock: socket.socket) -> bool:
    """Whether the server closed the connection (reading whatever it answered first)."""
    try:
        while sock.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def _read_till_closed(sock: socket.socket) -> bytes:
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    return received


def _closes(server, reason: str) -> float:
    for family in text_string_to_metric_families(server.metrics()):
        for sample in family.samples:
            if sample.name == "shmj_http_connections_closed_total" and sample.labels == {"reason": reason}:
                return sample.value
    return 0.0


def _wait_for(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)


def test_a_silent_connection_is_closed_at_the_header_deadline(guarded):
    before = _closes(guarded, "header_timeout")
    with _connect(guarded) as sock:
        assert _closed(sock)
    _wait_for(lambda: _closes(guarded, "header_timeout") == before + 1)


def test_headers_trickled_a_byte_at_a_time_are_closed_at_the_header_deadline(guarded):
    """Each byte arrives well within the deadline: the deadline counts from the start of the
    request, not from the last byte."""
    with _connect(guarded) as sock:
        sent = 0
        try:
            for byte in SETTLE:
                sock.sendall(bytes([byte]))
                sent += 1
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert sent < len(SETTLE)  # 1 s at a byte every 0.1 s: about a third of the head
        assert _closed(sock)


def test_a_trickled_body_is_closed_at_the_body_deadline(guarded):
    before = _closes(guarded, "body_timeout")
    with _connect(guarded) as sock:
        sock.sendall(CHUNKED)
        try:
            for _ in range(40):
                sock.sendall(b"1\r\n \r\n")  # JSON whitespace, a byte every 0.1 s, never the end
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert _closed(sock)
    _wait_for(lambda: _closes(guarded, "body_timeout") == before + 1)


def test_a_kept_alive_connection_is_closed_after_the_idle_timeout(guarded):
    with _connect(guarded) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 200 OK")
        assert _closed(sock)


def test_connections_over_the_cap_are_closed_at_once_and_grpc_health_answers_throughout(guarded):
    """The flood: one thread opens connections as fast as it can and holds them; each worker
    keeps at most --http-max-connections (20) of them open, closes the rest as soon as they
    are accepted, and gRPC's health checks answer all along."""
    before = _closes(guarded, "max_connections")
    stop = threading.Event()
    held: list[socket.socket] = []

    def flood():
        while not stop.is_set() and len(held) < 2000:
            try:
                held.append(_connect(guarded))
            except OSError:
                time.sleep(0.01)

    flooder = threading.Thread(target=flood)
    flooder.start()
    try:
        _wait_for(lambda: _closes(guarded, "max_connections") >= before + 100)
        with grpc.insecure_channel(guarded.address) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            answers = [health.Check(health_pb2.HealthCheckRequest(), timeout=5).status for _ in range(20)]
        assert answers == [health_pb2.HealthCheckResponse.SERVING] * 20
        stop.set()
        flooder.join()
        time.sleep(0.2)
        assert sum(1 for sock in held if not _closed_now(sock)) <= 20
    finally:
        stop.set()
        flooder.join()
        for sock in held:
            sock.close()


def _closed_now(sock: socket.socket) -> bool:
    sock.settimeout(0)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_bodies_past_the_workers_budget_are_refused_and_their_connections_closed(tmp_path):
    """Budget 1 MiB: a client holding 600 kB of a body leaves room for 400 kB more; a second
    client's body passing it is refused 429 and its connection closed, while the first one's
    call still completes."""
    with run_server(tmp_path, "--max-message-bytes", "1048576", "--http-body-budget-bytes", "1048576") as server:
        _two_bodies_over_the_budget(server)
        _wait_for(lambda: _closes(server, "body_budget") == 1)


def _two_bodies_over_the_budget(server) -> None:
    with _connect(server) as first, _connect(server) as second:
        first.sendall(CHUNKED + b"%x\r\n" % 600_000 + b" " * 600_000 + b"\r\n")
        time.sleep(0.3)
        second.sendall(CHUNKED)
        try:
            for _ in range(10):
                second.sendall(b"%x\r\n" % 100_000 + b" " * 100_000 + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = _read_till_closed(second)  # the server closes the connection after its answer
        assert answer.startswith(b"HTTP/1.1 429 ")
        body = json.loads(answer.partition(b"\r\n\r\n")[2])
        assert (body["code"], body["message"]) == (
            "resource_exhausted",
            "the server is reading too many request bodies at once; retry the call",
        )
        assert [d["debug"]["reason"] for d in body["details"]] == ["TOO_MANY_BODIES"]
        first.sendall(b"2\r\n{}\r\n0\r\n\r\n")
        assert first.recv(65536).startswith(b"HTTP/1.1 400 ")  # the call ran: {} is no valid Settle

"""Issue 21, finding 10: one door policy for both faces. A server started with --tls-cert,
--tls-key and --tls-client-ca refused a gRPC client without a certificate, yet its HTTP face
settled the same requests in plaintext for anyone. Now the HTTP face serves gRPC's TLS
certificate and, under mutual TLS, requires a client certificate signed by the same CA;
curl is the client."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import grpc
import pytest

from tests.server.conftest import ROOT, free_port, run_server

REQUEST = b'{"name": "classic"}'
GET_PROFILE = "/mahjong.shanghai.v1.ScoringService/GetProfile"


def _tls_args(folder, client_ca: bool) -> list[str]:
    args = ["--tls-cert", str(folder / "server.pem"), "--tls-key", str(folder / "server.key")]
    return args + (["--tls-client-ca", str(folder / "ca")] if client_ca else [])


def _port(server) -> int:
    return int(server.http_url.rsplit(":", 1)[1])


def _curl(url: str, port: int, *options: str) -> subprocess.CompletedProcess:
    """POST GetProfile with curl, ``localhost`` resolved to the loopback address the server binds."""
    return subprocess.run(
        ["curl", "-sS", "--max-time", "10", "--resolve", f"localhost:{port}:127.0.0.1", *options]
        + ["-H", "Content-Type: application/json", "-d", REQUEST.decode(), "-w", "\\n%{http_code}", url + GET_PROFILE],
        capture_output=True,
        text=True,
        timeout=30,
    )


def _answered(ended: subprocess.CompletedProcess) -> bool:
    return ended.returncode == 0 and ended.stdout.endswith("\n200") and '"name":"classic"' in ended.stdout


@pytest.fixture
def client_files(tmp_path, pki):
    _, _, client_key, client_pem = pki
    (tmp_path / "client.key").write_bytes(client_key)
    (tmp_path / "client.pem").write_bytes(client_pem)
    return str(tmp_path / "client.pem"), str(tmp_path / "client.key")


def test_under_mutual_tls_the_http_face_refuses_a_client_without_a_certificate(tmp_path, pki, client_files):
    folder, ca_pem, client_key, client_pem = pki
    credentials = grpc.ssl_channel_credentials(ca_pem, client_key, client_pem)
    with run_server(tmp_path, *_tls_args(folder, client_ca=True), credentials=credentials) as server:
        port = _port(server)
        https = f"https://localhost:{port}"
        cert, key = client_files
        assert _answered(_curl(https, port, "--cacert", str(folder / "ca"), "--cert", cert, "--key", key))
        anonymous = _curl(https, port, "--cacert", str(folder / "ca"))
        assert anonymous.returncode != 0 and not anonymous.stdout.endswith("200")  # the handshake fails
        plaintext = _curl(f"http://localhost:{port}", port)
        assert plaintext.returncode != 0 or not plaintext.stdout.endswith("200")
        lines = [line for line in server.log().splitlines() if '"serving http"' in line]
        assert '"address": "https://127.0.0.1:' in lines[0] and '"tls": true, "mtls": true' in lines[0]


def test_under_tls_the_http_face_serves_the_same_certificate(tmp_path, pki):
    folder, ca_pem, _, _ = pki
    credentials = grpc.ssl_channel_credentials(root_certificates=ca_pem)
    with run_server(tmp_path, *_tls_args(folder, client_ca=False), credentials=credentials) as server:
        port = _port(server)
        assert _answered(_curl(f"https://localhost:{port}", port, "--cacert", str(folder / "ca")))
        plaintext = _curl(f"http://localhost:{port}", port)
        assert not _answered(plaintext)


def test_a_plaintext_http_face_open_to_the_network_beside_tls_grpc_needs_the_operator_to_say_so(pki):
    folder, _, _, _ = pki
    command = [sys.executable, "-m", "server", *_tls_args(folder, client_ca=True), "--http-host", "0.0.0.0"]
    command += ["--port", str(free_port()), "--http-port", str(free_port()), "--metrics-port", "0"]
    ended = subprocess.run(command + ["--http-tls", "off"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert ended.returncode == 2 and ended.stdout == ""
    assert ended.stderr == (
        "shmj-server: --http-tls off serves HTTP in plaintext on 0.0.0.0 while gRPC takes TLS only, so anyone "
        "reaching it would get past TLS: serve it on 127.0.0.1 behind a TLS proxy, drop --http-tls off, or add "
        "--http-plaintext-public to mean it (see shmj-server --help)\n"
    )


def test_a_plaintext_http_face_on_loopback_beside_tls_grpc_is_for_a_proxy_in_front(tmp_path, pki):
    folder, ca_pem, client_key, client_pem = pki
    credentials = grpc.ssl_channel_credentials(ca_pem, client_key, client_pem)
    args = [*_tls_args(folder, client_ca=True), "--http-tls", "off"]
    with run_server(tmp_path, *args, credentials=credentials) as server:
        port = _port(server)
        assert _answered(_curl(f"http://localhost:{port}", port))


def test_under_tls_connections_count_from_their_accept_and_a_handshake_has_the_heads_deadline(tmp_path, pki):
    """A TLS connection that never starts its handshake held a descriptor for the event loop's
    60 s, outside the connection cap, which counted only connections past their handshake."""
    folder, ca_pem, _, _ = pki
    credentials = grpc.ssl_channel_credentials(root_certificates=ca_pem)
    limits = ("--http-header-timeout-s", "1", "--http-max-connections", "3")
    with run_server(tmp_path, *_tls_args(folder, client_ca=False), *limits, credentials=credentials) as server:
        port = _port(server)
        silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]  # no handshake, ever
        time.sleep(0.3)
        with socket.create_connection(("127.0.0.1", port)) as over_the_cap:
            over_the_cap.settimeout(5)
            assert _closed_by_server(over_the_cap)  # closed at once: 3 are open, handshakes or not
        started = time.monotonic()
        for sock in silent:
            sock.settimeout(10)
            assert _closed_by_server(sock)
            sock.close()
        assert time.monotonic() - started < 5  # at the 1 s deadline, not the loop's 60 s
        assert _answered(_curl(f"https://localhost:{port}", port, "--cacert", str(folder / "ca")))


def _closed_by_server(sock: socket.socket) -> bool:
    try:
        return sock.recv(100) == b""
    except ConnectionResetError:
        return True

"""`shmj health` and the plaintext health-only port that keeps kubelet probes working under TLS."""

from __future__ import annotations

import signal
import time

import grpc
import pytest
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc

from clients.cli import main
from tests.server.conftest import (
    free_port,
    pki,  # noqa: F401  (the test CA, server and client certificates)
    run_server,
)

SERVICE = "mahjong.shanghai.v1.ScoringService"


def _health(capsys, *args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of `shmj health args`, whether main returns or argparse exits."""
    try:
        code = main(["health", "--timeout", "2", *args])
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def mtls_server(tmp_path_factory, pki):  # noqa: F811
    folder, ca_pem, client_key, client_pem = pki
    (folder / "client.key").write_bytes(client_key)
    (folder / "client.pem").write_bytes(client_pem)
    health_port = free_port()
    args = ["--tls-cert", str(folder / "server.pem"), "--tls-key", str(folder / "server.key")]
    args += ["--tls-client-ca", str(folder / "ca"), "--health-port", str(health_port), "--shutdown-delay-s", "3"]
    credentials = grpc.ssl_channel_credentials(ca_pem, client_key, client_pem)
    with run_server(tmp_path_factory.mktemp("health"), *args, credentials=credentials) as server:
        yield server, f"127.0.0.1:{health_port}", folder


def test_the_health_port_answers_in_plaintext_for_the_server_and_the_service(capsys, mtls_server):
    _, health, _ = mtls_server
    assert _health(capsys, "--target", health) == (0, f"{health} (the server 服务器): serving 服务中 (SERVING)\n", "")
    assert _health(capsys, "--target", health, "--service", SERVICE) == (
        0,
        f"{health} {SERVICE}: serving 服务中 (SERVING)\n",
        "",
    )


def test_the_health_port_serves_nothing_but_health(mtls_server):
    _, health, _ = mtls_server
    with grpc.insecure_channel(health) as channel:
        with pytest.raises(grpc.RpcError) as error:
            scoring_service_pb2_grpc.ScoringServiceStub(channel).ListProfiles(svc.ListProfilesRequest(), timeout=5)
    assert error.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_health_over_mutual_tls(capsys, mtls_server):
    server, _, folder = mtls_server
    tls = [
        "--tls",
        "--ca",
        str(folder / "ca"),
        "--cert",
        str(folder / "client.pem"),
        "--key",
        str(folder / "client.key"),
    ]
    # the certificate names localhost, so ask by name
    target = server.address.replace("127.0.0.1", "localhost")
    assert _health(capsys, "--target", target, *tls) == (
        0,
        f"{target} (the server 服务器): serving 服务中 (SERVING)\n",
        "",
    )


def test_an_unknown_service_is_a_mistake_said_in_words_exit_2(capsys, mtls_server):
    _, health, _ = mtls_server
    assert _health(capsys, "--target", health, "--service", "no.Such") == (
        2,
        "",
        f"shmj: not found 未找到 (NOT_FOUND): {health} reports on no service 'no.Such'; ask about {SERVICE}, "
        "or leave --service out\n",
    )


def test_mutual_tls_from_the_environment(capsys, mtls_server, monkeypatch):
    server, _, folder = mtls_server
    target = server.address.replace("127.0.0.1", "localhost")
    monkeypatch.setenv("SHMJ_TARGET", target)
    monkeypatch.setenv("SHMJ_TLS", "1")
    monkeypatch.setenv("SHMJ_CA", str(folder / "ca"))
    monkeypatch.setenv("SHMJ_CERT", str(folder / "client.pem"))
    monkeypatch.setenv("SHMJ_KEY", str(folder / "client.key"))
    assert _health(capsys) == (0, f"{target} (the server 服务器): serving 服务中 (SERVING)\n", "")


def test_plaintext_against_a_tls_server_suggests_tls(capsys, mtls_server):
    server, _, _ = mtls_server
    assert _health(capsys, "--target", server.address) == (
        1,
        "",
        f"shmj: server unavailable 无法连接服务器 (UNAVAILABLE): {server.address} closed the connection at once: "
        "if it serves TLS, add --tls or SHMJ_TLS=1\n",
    )


def test_an_untrusted_server_certificate_names_the_ca_flag(capsys, mtls_server):
    server, _, _ = mtls_server
    target = server.address.replace("127.0.0.1", "localhost")
    code, out, err = _health(capsys, "--target", target, "--tls")
    assert (code, out) == (1, "")
    assert err == (
        f"shmj: server unavailable 无法连接服务器 (UNAVAILABLE): the certificate of {target} is not trusted (CERTIFICATE_VERIFY_FAILED: "
        "unable to get local issuer certificate): name its CA with --ca or SHMJ_CA\n"
    )


def test_no_server_is_unavailable_exit_1(capsys):
    target = f"127.0.0.1:{free_port()}"
    code, out, err = _health(capsys, "--target", target)
    assert (code, out) == (1, "")
    assert err.startswith(f"shmj: server unavailable 无法连接服务器 (UNAVAILABLE): {target} refuses the connection")
    assert "Traceback" not in err


def test_a_missing_certificate_file_is_a_usage_error(capsys, tmp_path):
    missing = tmp_path / "nope.pem"
    assert _health(capsys, "--tls", "--ca", str(missing)) == (
        2,
        "",
        f"shmj health: argument --ca: cannot read {missing}: No such file or directory\n",
    )


def test_a_draining_server_is_not_serving_exit_1(capsys, mtls_server):
    """Last in this module: it stops the server. The drain keeps the health port up for the shutdown delay."""
    server, health, _ = mtls_server
    server.process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        code, out, _ = _health(capsys, "--target", health)
        if out == f"{health} (the server 服务器): not serving 暂停服务 (NOT_SERVING)\n":
            break
        time.sleep(0.1)
    assert (code, out) == (1, f"{health} (the server 服务器): not serving 暂停服务 (NOT_SERVING)\n")

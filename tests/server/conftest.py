"""Start the real server (`python -m server`) on free localhost ports and call it over a channel."""

from __future__ import annotations

import datetime
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from grpc_health.v1 import health_pb2, health_pb2_grpc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc

from tests.server.http_calls import Http

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class RunningServer:
    process: subprocess.Popen
    address: str
    metrics_url: str
    log_path: Path
    http_url: str = ""  # the Connect (HTTP/JSON) endpoint

    def channel(self, credentials=None) -> grpc.Channel:
        options = [("grpc.max_receive_message_length", 64 * 1024 * 1024)]
        if credentials is None:
            return grpc.insecure_channel(self.address, options=options)
        options.append(("grpc.ssl_target_name_override", "localhost"))
        return grpc.secure_channel(self.address, credentials, options=options)

    def stub(self) -> scoring_service_pb2_grpc.ScoringServiceStub:
        return scoring_service_pb2_grpc.ScoringServiceStub(self.channel())

    def metrics(self) -> str:
        with urllib.request.urlopen(self.metrics_url, timeout=5) as response:
            return response.read().decode()

    def log(self) -> str:
        return self.log_path.read_text()


def wait_serving(address: str, process: subprocess.Popen, credentials=None, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        channel = (
            grpc.secure_channel(address, credentials, options=[("grpc.ssl_target_name_override", "localhost")])
            if credentials
            else grpc.insecure_channel(address)
        )
        try:
            status = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1)
            if status.status == health_pb2.HealthCheckResponse.SERVING:
                return
        except grpc.RpcError:
            time.sleep(0.1)
        finally:
            channel.close()
    raise RuntimeError("server did not become SERVING")


def wait_logged(server: RunningServer, event: str, count: int, timeout: float = 30.0) -> None:
    """Until the log has ``count`` lines of ``event``; at once an error if the server has exited
    without them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        exited = server.process.poll() is not None  # read before the log: its last lines are then in
        if server.log().count(f'"event": "{event}"') >= count:
            return
        if exited:
            raise RuntimeError(
                f"the server exited ({server.process.returncode}) with fewer than {count} {event!r} lines"
            )
        time.sleep(0.05)
    raise RuntimeError(f"fewer than {count} {event!r} log lines")


# How long a server may take to serve: a start takes a second or two on a quiet machine, and
# more than 30 s with two workers on two cores shared by twenty busy processes. A server that
# exits fails the wait at once; one that never serves fails it at this bound.
START_TIMEOUT_S = 120.0


@contextmanager
def run_server(
    tmp_path: Path, *args: str, workers: int = 1, credentials=None, port: int | None = None, health_check: bool = True
):
    """A real server on free ports, once every worker serves (`START_TIMEOUT_S`); `health_check=False`
    waits for the log lines alone, so that no health call shows in its metrics."""
    port, metrics_port, http_port = port or free_port(), free_port(), free_port()
    log_path = tmp_path / f"server-{port}.log"
    command = [
        sys.executable,
        "-m",
        "server",
        "--port",
        str(port),
        "--metrics-port",
        str(metrics_port),
        "--http-port",
        str(http_port),
        "--workers",
        str(workers),
        "--shutdown-delay-s",
        "0.5",
        "--multiproc-dir",
        str(tmp_path / f"metrics-{port}"),
        *args,
    ]
    with open(log_path, "w") as log:
        process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ))
    server = RunningServer(
        process,
        f"127.0.0.1:{port}",
        f"http://127.0.0.1:{metrics_port}/metrics",
        log_path,
        f"http://127.0.0.1:{http_port}",
    )
    try:
        if health_check:
            wait_serving(server.address, process, credentials, START_TIMEOUT_S)
        wait_logged(server, "serving", workers, START_TIMEOUT_S)  # every worker listens, not only the first
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    with run_server(tmp_path_factory.mktemp("server"), "--max-batch-size", "2000") as running:
        yield running


@pytest.fixture(scope="session")
def stub(server):
    return server.stub()


@pytest.fixture
def http(server):
    """A keep-alive HTTP connection to the session server's Connect endpoint."""
    with Http(server.http_url) as connection:
        yield connection


def _certificate(name: str, issuer_key=None, issuer_name=None, ca: bool = False):
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer_name or subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if not ca:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
    certificate = builder.sign(issuer_key or key, hashes.SHA256())
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return key, certificate, key_pem, certificate.public_bytes(serialization.Encoding.PEM)


@pytest.fixture(scope="session")
def pki(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pki")
    ca_key, ca_cert, _, ca_pem = _certificate("test CA", ca=True)
    _, _, server_key, server_pem = _certificate("localhost", ca_key, ca_cert.subject)
    _, _, client_key, client_pem = _certificate("client", ca_key, ca_cert.subject)
    files = {"ca": ca_pem, "server.key": server_key, "server.pem": server_pem}
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder, ca_pem, client_key, client_pem

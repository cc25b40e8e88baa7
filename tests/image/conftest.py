"""The image's tests: `make test-image` only (tests/conftest.py leaves this folder out unless
SHMJ_IMAGE names an image). One server of the image for the module's checks, with a folder of
house profiles mounted read-only."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import grpc
import pytest
from mahjong.shanghai.v1 import scoring_service_pb2_grpc

from tests.deploy.tools import ROOT
from tests.image.container import Container
from tests.server.conftest import free_port, wait_serving

PROFILES_IN_IMAGE = "/etc/shmj/profiles"
HOUSE_PROFILE = ROOT / "examples/profiles/shanghai-club-a.yaml"


def server_env(**more: str) -> dict[str, str]:
    """Every address on loopback (the image's defaults are 0.0.0.0), on free ports."""
    ports = {"SHMJ_PORT": free_port(), "SHMJ_METRICS_PORT": free_port(), "SHMJ_HTTP_PORT": free_port()}
    hosts = {f"SHMJ_{face}HOST": "127.0.0.1" for face in ("", "METRICS_", "HTTP_")}
    return {**hosts, **{key: str(port) for key, port in ports.items()}, "SHMJ_WORKERS": "2", **more}


class Served:
    def __init__(self, container: Container, env: dict[str, str]):
        self.container = container
        self.env = env
        self.address = f"127.0.0.1:{env['SHMJ_PORT']}"
        self.http_url = f"http://127.0.0.1:{env['SHMJ_HTTP_PORT']}"
        self.metrics_url = f"http://127.0.0.1:{env['SHMJ_METRICS_PORT']}/metrics"
        self.channel = grpc.insecure_channel(self.address)
        self.stub = scoring_service_pb2_grpc.ScoringServiceStub(self.channel)


def wait_workers_serving(log: Path, workers: int, timeout: float = 60) -> None:
    """Until every worker has said it serves gRPC (health answers as soon as one does)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
        if len({line["pid"] for line in lines if line["event"] == "serving"}) == workers:
            return
        time.sleep(0.1)
    raise TimeoutError(f"fewer than {workers} workers serving after {timeout} s")


def start(tmp_path, **env: str) -> Served:
    """The image's entrypoint in a new container, serving; the caller removes the container."""
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    shutil.copy(HOUSE_PROFILE, profiles)
    env = server_env(SHMJ_PROFILES_DIR=PROFILES_IN_IMAGE, **env)
    container = Container(env, volumes=(f"{profiles}:{PROFILES_IN_IMAGE}:ro",))
    process = container.start(tmp_path / "server.log")
    try:
        wait_serving(f"127.0.0.1:{env['SHMJ_PORT']}", process, timeout=120)
        wait_workers_serving(tmp_path / "server.log", int(env["SHMJ_WORKERS"]))
    except BaseException:
        print((tmp_path / "server.log").read_text())
        container.remove()
        raise
    return Served(container, env)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = start(tmp_path_factory.mktemp("image-server"))
    yield server
    server.channel.close()
    server.container.signal_server()
    server.container.process.wait(timeout=60)
    server.container.remove()

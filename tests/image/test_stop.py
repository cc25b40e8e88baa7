"""SIGTERM to the image's entrypoint, as `docker stop` and Kubernetes send it: health turns
NOT_SERVING, the workers drain, and the process exits 0."""

from __future__ import annotations

import json
import time

from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.image.conftest import start
from tests.image.container import running

NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def test_sigterm_turns_health_not_serving_then_drains_to_exit_0(tmp_path):
    served = start(tmp_path, SHMJ_SHUTDOWN_DELAY_S="5")
    try:
        health = health_pb2_grpc.HealthStub(served.channel)
        served.container.signal_server()
        deadline, status = time.monotonic() + 5, None
        while status != NOT_SERVING and time.monotonic() < deadline:
            status = health.Check(health_pb2.HealthCheckRequest(), timeout=5).status
        assert status == NOT_SERVING
        assert served.container.process.wait(timeout=60) == 0
    finally:
        served.channel.close()
        served.container.remove()
    lines = [json.loads(line) for line in (tmp_path / "server.log").read_text().splitlines() if line.startswith("{")]
    assert [line["exitcodes"] for line in lines if line["event"] == "stopped" and "exitcodes" in line] == [[0, 0]]


def test_removing_a_container_whose_server_runs_ends_every_process_of_it(tmp_path):
    """What a failing test leaves: no server running on, holding its ports."""
    served = start(tmp_path)
    served.channel.close()
    pids = served.container.server_pids()
    assert len(pids) == 4
    served.container.remove()
    assert [pid for pid in pids if running(pid)] == []

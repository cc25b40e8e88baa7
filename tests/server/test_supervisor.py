"""Issue 8, findings 1 and 8: the supervisor keeps serving whatever kills a worker, stops only
when the server cannot start, and never shares its port with another server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
from mahjong.shanghai.v1 import scoring_service_pb2_grpc

from tests.server.conftest import ROOT, free_port, run_server, wait_logged
from tests.server.test_lifecycle import EXAMPLE


def events(server) -> list[dict]:
    return [json.loads(line) for line in server.log().splitlines()]


def live_workers(server) -> list[int]:
    found = events(server)
    dead = {e["worker"] for e in found if e["event"] == "worker died; replacing it"}
    return [e["pid"] for e in found if e["event"] == "serving" and e["pid"] not in dead]


def settled_on_a_new_connection(server) -> float:
    channel = server.channel()  # the killed worker's connections are reset: a new one goes to a live worker
    try:
        return scoring_service_pb2_grpc.ScoringServiceStub(channel).Settle(EXAMPLE, timeout=10).seat_deltas[0]
    finally:
        channel.close()


def test_workers_that_keep_dying_are_replaced_with_backoff_and_the_server_keeps_serving(tmp_path):
    """Finding 1: after a few worker crashes within seconds the supervisor logged "worker failed
    to start; stopping" and exited 1 with both ports closed."""
    with run_server(tmp_path, workers=2) as server:
        for kill in range(1, 4):
            victim = live_workers(server)[-1]  # the newest: the replacement of the last one killed
            os.kill(victim, signal.SIGSEGV)  # as the crash a client could cause in gRPC's Cython layer
            wait_logged(server, "worker died; replacing it", kill)
            assert settled_on_a_new_connection(server) == 36  # the other worker answers
            wait_logged(server, "serving", 2 + kill)  # the replacement serves
        deaths = [e for e in events(server) if e["event"] == "worker died; replacing it"]
        assert [(e["signal"], e["exitcode"]) for e in deaths] == [("SIGSEGV", -11)] * 3
        assert [e["restart_in_s"] for e in deaths] == [0.5, 1.0, 2.0]
        assert len(live_workers(server)) == 2
        assert server.process.poll() is None
        assert settled_on_a_new_connection(server) == 36
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == 0


def start_alone(*args: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    """``shmj-server`` with no metrics or HTTP endpoint, to the end; its JSON log lines."""
    command = [sys.executable, "-m", "server", "--metrics-port", "0", "--http-port", "0", *args]
    ended = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    return ended, [json.loads(line) for line in ended.stdout.splitlines()]


@pytest.mark.parametrize("flag", ["--port", "--http-port", "--health-port"])
def test_a_second_server_on_the_same_port_refuses_to_start(tmp_path, flag):
    """Finding 8: with SO_REUSEPORT a second server bound the port too and shared its traffic;
    the HTTP and health ports too (the health port was not probed)."""
    health_port = str(free_port())
    with run_server(tmp_path, "--health-port", health_port, workers=2) as first:
        taken = {
            "--port": first.address.rsplit(":", 1)[1],
            "--http-port": first.http_url.rsplit(":", 1)[1],
            "--health-port": health_port,
        }[flag]
        ports = {"--port": str(free_port()), flag: taken}
        second, logged = start_alone(*[a for item in ports.items() for a in item], "--workers", "2")
        assert second.returncode == 1
        assert [(e["event"], e.get("address"), e.get("reason")) for e in logged] == [
            ("cannot listen", f"127.0.0.1:{taken}", "another server already answers on this port")
        ]
        assert logged[0]["hint"] == HINTS[flag]  # what to change, `make run` taking no flags
        assert second.stderr == ""
        assert first.stub().Settle(EXAMPLE, timeout=10).seat_deltas[0] == 36


HINTS = {
    "--port": "stop the server that holds it, or choose another --port (env SHMJ_PORT)",
    "--http-port": "stop the server that holds it, or choose another --http-port (env SHMJ_HTTP_PORT; 0 turns it off)",
    "--health-port": "stop the server that holds it, or choose another --health-port (env SHMJ_HEALTH_PORT; 0 turns it off)",
}


def test_a_certificate_that_is_not_pem_stops_the_server_at_start(tmp_path):
    (tmp_path / "bad.pem").write_text("not a certificate\n")
    bad = str(tmp_path / "bad.pem")
    ended, logged = start_alone("--port", "0", "--workers", "1", "--tls-cert", bad, "--tls-key", bad)
    assert ended.returncode == 1
    (failure,) = [e for e in logged if e["event"] == "cannot listen"]
    assert failure["hint"].endswith("or the TLS certificate or key is not valid PEM")
    assert [e["event"] for e in logged if e["event"].startswith("worker")] == ["worker failed to start; stopping"]
    assert "Traceback" not in ended.stdout and ended.stderr == ""

"""The server as ops see it: health, shutdown, reflection, metrics, logs, workers, TLS."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
from generators.random_hands import generate_requests
from tests.server.conftest import ROOT, free_port, run_server, wait_serving
from tests.worked_examples import WORKED_EXAMPLES

EXAMPLE = convert.settle_request_message(WORKED_EXAMPLES[0][1])


def health_status(server) -> int:
    channel = server.channel()
    try:
        return health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10).status
    finally:
        channel.close()


def sample(metrics_text: str, name: str, **labels) -> float:
    for line in metrics_text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            found = dict(re.findall(r'(\w+)="([^"]*)"', line.split(" ")[0]))
            if all(found.get(k) == v for k, v in labels.items()):
                return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_reflection_lists_the_services(server):
    stub = reflection_pb2_grpc.ServerReflectionStub(server.channel())
    (response,) = stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
    names = {s.name for s in response.list_services_response.service}
    assert {"mahjong.shanghai.v1.ScoringService", "grpc.health.v1.Health"} <= names


def test_health_is_serving(server):
    assert health_status(server) == health_pb2.HealthCheckResponse.SERVING


def test_health_watch_streams_serving_then_not_serving_as_the_server_drains(tmp_path):
    """Found by a hostile-client test: Watch answered UNKNOWN ("'async for' requires an object
    with __aiter__ method, got coroutine"), since the call wrapper took every server stream for
    an async generator and grpc_health's Watch writes with context.write."""
    with run_server(tmp_path, "--workers", "1") as server:
        with server.channel() as channel:
            health = health_pb2_grpc.HealthStub(channel)
            for service in ("", "mahjong.shanghai.v1.ScoringService"):
                watched = health.Watch(health_pb2.HealthCheckRequest(service=service), timeout=30)
                assert next(watched).status == health_pb2.HealthCheckResponse.SERVING, service
            server.process.send_signal(signal.SIGTERM)
            assert next(watched).status == health_pb2.HealthCheckResponse.NOT_SERVING


def test_metrics_change_as_calls_are_made(server, stub):
    before = server.metrics()
    labels = dict(grpc_type="unary", grpc_service="mahjong.shanghai.v1.ScoringService", grpc_method="Settle")
    stub.Settle(EXAMPLE)
    with pytest.raises(grpc.RpcError):
        stub.Settle(pb.SettleRequest(profile="nope", outcome=1))
    stub.SettleBatch(svc.SettleBatchRequest(requests=[EXAMPLE] * 3))
    after = server.metrics()
    assert (
        sample(after, "grpc_server_started_total", **labels) - sample(before, "grpc_server_started_total", **labels)
        == 2
    )
    ok = dict(labels, grpc_code="OK")
    invalid = dict(labels, grpc_code="InvalidArgument")
    assert sample(after, "grpc_server_handled_total", **ok) - sample(before, "grpc_server_handled_total", **ok) == 1
    assert (
        sample(after, "grpc_server_handled_total", **invalid) - sample(before, "grpc_server_handled_total", **invalid)
        == 1
    )
    assert sample(after, "grpc_server_handling_seconds_count", **labels) >= 2
    settled = dict(profile="classic", outcome="SELF_DRAW")
    assert sample(after, "shmj_settlements_total", **settled) - sample(before, "shmj_settlements_total", **settled) == 4
    legal = dict(profile="classic", legal="true", reason="none")
    assert sample(after, "shmj_wins_total", **legal) - sample(before, "shmj_wins_total", **legal) == 4
    pattern = dict(profile="classic", pattern="ALL_PUNGS")
    assert sample(after, "shmj_patterns_total", **pattern) - sample(before, "shmj_patterns_total", **pattern) == 4
    assert sample(after, "shmj_batch_size_count", grpc_method="SettleBatch") >= 1
    batch_ok = dict(labels, grpc_method="SettleBatch", grpc_code="OK")  # answered as pre-serialised bytes
    assert (
        sample(after, "grpc_server_handled_total", **batch_ok) - sample(before, "grpc_server_handled_total", **batch_ok)
        == 1
    )
    assert sample(after, "shmj_build_info") == 1


def test_stream_messages_are_counted(server, stub):
    labels = dict(grpc_type="bidi_stream", grpc_method="SettleStream")
    before = server.metrics()
    list(stub.SettleStream(iter([EXAMPLE] * 5)))
    after = server.metrics()
    for name in ("grpc_server_msg_received_total", "grpc_server_msg_sent_total"):
        assert sample(after, name, **labels) - sample(before, name, **labels) == 5


def test_one_json_log_line_per_request_without_the_hand(server, stub):
    request = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    request.request_id = "log-check-1"
    stub.Settle(request)
    time.sleep(0.2)
    lines = [json.loads(line) for line in server.log().splitlines() if "log-check-1" in line]
    assert len(lines) == 1
    (line,) = lines
    assert line["method"] == "mahjong.shanghai.v1.ScoringService/Settle"
    assert line["code"] == "OK" and line["level"] == "info" and line["duration_ms"] > 0
    assert line["peer"].startswith("ipv")
    assert line["profile"] == "classic"  # what support staff look up to explain a settlement
    assert "TILE_" not in json.dumps(line) and "concealed" not in json.dumps(line)


def test_no_input_produces_internal(stub):
    """Random bytes that parse as SettleRequests: every answer is OK or INVALID_ARGUMENT."""
    import random

    rng = random.Random(5)
    seeds = [convert.settle_request_message(r).SerializeToString() for r in generate_requests(40, 9)]
    checked = 0
    for data in seeds:
        for _ in range(40):
            mutated = bytearray(data)
            for _ in range(rng.randint(1, 2)):
                mutated[rng.randrange(len(mutated))] = rng.randrange(256)
            try:
                message = pb.SettleRequest.FromString(bytes(mutated))
            except Exception:
                continue
            checked += 1
            try:
                stub.Settle(message, timeout=10)
            except grpc.RpcError as error:
                # a byte turned into a profile_digest pins rules that are not in force
                pinned = message.profile_digest and error.code() == grpc.StatusCode.FAILED_PRECONDITION
                assert pinned or error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    assert checked > 300


def test_sigterm_drains_in_flight_calls_and_reports_not_serving(tmp_path):
    batch = [convert.settle_request_message(r) for r in generate_requests(5000, 4)] * 6  # about a second of work
    args = ("--grace-period-s", "30", "--shutdown-delay-s", "1.0", "--max-batch-size", "30000")
    with run_server(tmp_path, *args) as server:
        stub = server.stub()
        outcome = {}

        def long_call():
            try:
                outcome["response"] = stub.SettleBatch(svc.SettleBatchRequest(requests=batch), timeout=60)
                outcome["finished"] = time.monotonic()
            except grpc.RpcError as error:
                outcome["error"] = error

        thread = threading.Thread(target=long_call)
        thread.start()
        time.sleep(0.3)  # the batch is being settled
        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        assert health_status(server) == health_pb2.HealthCheckResponse.NOT_SERVING
        thread.join(timeout=60)
        assert "error" not in outcome, outcome.get("error")
        assert outcome["finished"] > signalled  # the call was in flight when SIGTERM came
        assert len(outcome["response"].results) == 30000
        assert server.process.wait(timeout=30) == 0
        assert '"stopped"' in server.log()


def test_two_workers_share_the_port(tmp_path):
    with run_server(tmp_path, workers=2) as server:
        for _ in range(30):
            # each new connection goes to either worker; a subchannel pool of the channel's own,
            # or gRPC may carry the next channel on the connection the last one left open
            channel = grpc.insecure_channel(server.address, options=[("grpc.use_local_subchannel_pool", 1)])
            scoring_service_pb2_grpc.ScoringServiceStub(channel).Settle(EXAMPLE)
            channel.close()
        time.sleep(0.3)
        lines = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
        workers = {line["pid"] for line in lines if line["event"] == "serving"}
        served_by = {line["pid"] for line in lines if line["event"] == "rpc" and line["method"].endswith("/Settle")}
        assert len(workers) == 2
        assert served_by == workers  # both workers answered calls on the one port
        # each worker runs on uvloop's event loop (docs/PERFORMANCE.md: less CPU per call)
        assert [line["event_loop"] for line in lines if line["event"] == "serving"] == ["uvloop", "uvloop"]
        # the supervisor adds up both workers' metrics
        assert sample(server.metrics(), "grpc_server_handled_total", grpc_method="Settle", grpc_code="OK") == 30


def test_messages_over_the_limit_are_resource_exhausted(tmp_path):
    with run_server(tmp_path, "--max-message-bytes", "2000") as server:
        requests = [EXAMPLE] * 50
        with pytest.raises(grpc.RpcError) as error:
            server.stub().SettleBatch(svc.SettleBatchRequest(requests=requests))
        assert error.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_tls(tmp_path, pki):
    folder, ca_pem, _, _ = pki
    credentials = grpc.ssl_channel_credentials(root_certificates=ca_pem)
    args = ("--tls-cert", str(folder / "server.pem"), "--tls-key", str(folder / "server.key"))
    with run_server(tmp_path, *args, credentials=credentials) as server:
        stub = scoring_service_pb2_grpc.ScoringServiceStub(server.channel(credentials))
        assert stub.Settle(EXAMPLE).seat_deltas[0] == 36


def test_mutual_tls_requires_a_client_certificate(tmp_path, pki):
    folder, ca_pem, client_key, client_pem = pki
    with_client = grpc.ssl_channel_credentials(ca_pem, client_key, client_pem)
    args = (
        "--tls-cert",
        str(folder / "server.pem"),
        "--tls-key",
        str(folder / "server.key"),
        "--tls-client-ca",
        str(folder / "ca"),
    )
    with run_server(tmp_path, *args, credentials=with_client) as server:
        stub = scoring_service_pb2_grpc.ScoringServiceStub(server.channel(with_client))
        assert stub.Settle(EXAMPLE).seat_deltas[0] == 36
        anonymous = scoring_service_pb2_grpc.ScoringServiceStub(
            server.channel(grpc.ssl_channel_credentials(root_certificates=ca_pem))
        )
        with pytest.raises(grpc.RpcError) as error:
            anonymous.Settle(EXAMPLE, timeout=5)
        assert error.value.code() == grpc.StatusCode.UNAVAILABLE


def test_workers_do_not_outlive_a_killed_supervisor(tmp_path):
    with run_server(tmp_path, workers=2) as server:
        server.process.send_signal(signal.SIGKILL)  # the supervisor alone, as the OOM killer would
        server.process.wait()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            lines = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
            if sum(1 for line in lines if line["event"] == "stopped") == 2:
                break
            time.sleep(0.2)
        assert sum(1 for line in lines if line["event"] == "supervisor gone; draining") == 2
        assert sum(1 for line in lines if line["event"] == "stopped") == 2
        with pytest.raises(grpc.RpcError) as error:
            server.stub().ListProfiles(svc.ListProfilesRequest(), timeout=2)
        assert error.value.code() == grpc.StatusCode.UNAVAILABLE  # nothing holds the port any more


def test_a_worker_whose_supervisor_died_while_it_started_drains_at_once(tmp_path):
    """The supervisor hands its pid to the worker. A worker that read its parent's pid itself,
    after the supervisor had died, would read init's and never notice (it flaked under load)."""
    gone = subprocess.Popen(["true"])
    gone.wait()  # a supervisor that is gone: it is not the worker's parent
    worker = (
        "import sys\n"
        "from server.config import parse_config\n"
        "from server.worker import run_worker\n"
        "run_worker(parse_config(['--port', '0', '--http-port', '0', '--workers', '1', '--shutdown-delay-s', '0']), False, int(sys.argv[1]))\n"
    )
    ended = subprocess.run(
        [sys.executable, "-c", worker, str(gone.pid)], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    events = [json.loads(line)["event"] for line in ended.stdout.splitlines() if line.startswith("{")]
    assert ended.returncode == 0, ended.stderr
    assert events == ["serving", "supervisor gone; draining", "draining", "stopped"]


def test_workers_whose_log_pipe_is_gone_still_answer_and_outlive_no_killed_supervisor(tmp_path):
    """Found running the image: with stdout a pipe whose reader has gone (a log shipper that
    died, `| head`), every log line raised BrokenPipeError: calls failed UNKNOWN, and once the
    supervisor was killed its workers never drained (the "supervisor gone" line raised first)."""
    port, metrics_port, http_port = free_port(), free_port(), free_port()
    command = [sys.executable, "-m", "server", "--port", str(port), "--metrics-port", str(metrics_port)]
    command += ["--http-port", str(http_port), "--workers", "2", "--shutdown-delay-s", "0"]
    command += ["--multiproc-dir", str(tmp_path / "metrics")]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    workers = []
    try:
        for line in process.stdout:
            event = json.loads(line)
            if event["event"] == "started":
                workers = event["pids"]
            if event["event"] == "serving" and workers:
                break
        wait_serving(f"127.0.0.1:{port}", process)
        process.stdout.close()  # the log's reader goes away
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = scoring_service_pb2_grpc.ScoringServiceStub(channel)
            for _ in range(4):  # each call writes a log line into the broken pipe
                assert list(stub.Settle(EXAMPLE, timeout=10).seat_deltas) == [36.0, -12.0, -12.0, -12.0]
        process.send_signal(signal.SIGKILL)
        process.wait()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
            time.sleep(0.2)
        assert [pid for pid in workers if _alive(pid)] == []
    finally:
        for pid in [process.pid, *workers]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has exited
        return stat.read().split(") ", 1)[1][0] != "Z"

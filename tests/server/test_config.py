"""Configuration: flags, each defaulting to SHMJ_<FLAG> from the environment."""

from __future__ import annotations

import concurrent.futures
import json
import socket
import subprocess
import sys

import grpc
import pytest
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
from generators.random_hands import generate_requests
from server.config import ServerConfig, parse_config
from tests.server.conftest import ROOT, free_port, run_server


def test_defaults_listen_on_localhost():
    config = parse_config([], environ={})
    assert config == ServerConfig()
    assert (config.address, config.metrics_port) == ("127.0.0.1:50051", 9464)


def test_environment_sets_defaults_and_flags_win():
    environ = {"SHMJ_PORT": "6000", "SHMJ_MAX_BATCH_SIZE": "5", "SHMJ_GRACE_PERIOD_S": "2.5"}
    config = parse_config(["--port", "7000"], environ=environ)
    assert (config.port, config.max_batch_size, config.grace_period_s) == (7000, 5, 2.5)


def test_following_profile_links_out_of_the_directory_is_off_unless_the_operator_says_so():
    assert parse_config([], environ={}).profiles_follow_links is False
    assert parse_config(["--profiles-follow-links"], environ={}).profiles_follow_links is True
    assert parse_config([], environ={"SHMJ_PROFILES_FOLLOW_LINKS": "true"}).profiles_follow_links is True
    assert (
        parse_config(
            ["--profiles-follow-links", "false"], environ={"SHMJ_PROFILES_FOLLOW_LINKS": "1"}
        ).profiles_follow_links
        is False
    )


def test_bad_configuration_is_refused(capsys, tmp_path):
    cert = tmp_path / "cert.pem"
    cert.write_text("-")
    for argv, environ, message in [
        ([], {"SHMJ_PORT": "http"}, "SHMJ_PORT: 'http' is not a whole number"),
        (["--tls-cert", str(cert)], {}, "--tls-cert and --tls-key go together"),
        (["--tls-client-ca", str(cert)], {}, "--tls-client-ca needs --tls-cert and --tls-key"),
        (["--port", "0", "--workers", "2"], {}, "--port 0 picks a port per process"),
        # Issue 8: accepted before, then served nothing, ran at info, or died with a traceback
        (["--workers", "-1"], {}, "argument --workers: -1 is not between 0 and 1024"),
        (["--log-level", "verbose"], {}, "argument --log-level: 'verbose' is not one of debug, info, warning, error"),
        ([], {"SHMJ_LOG_LEVEL": "verbose"}, "SHMJ_LOG_LEVEL: 'verbose' is not one of debug, info, warning, error"),
        (["--tls-cert", str(cert), "--tls-key", "/nope.key"], {}, "argument --tls-key: cannot read /nope.key: No such"),
        (["--port", "70000"], {}, "argument --port: 70000 is not between 0 and 65535"),
        (["--max-message-bytes", "0"], {}, "argument --max-message-bytes: 0 is not between 1 and 2147483647"),
        (["--grace-period-s", "nan"], {}, "argument --grace-period-s: nan is not between 0 and 3600 seconds"),
        (["--profiles-follow-links", "maybe"], {}, "argument --profiles-follow-links: 'maybe' is not true or false"),
        ([], {"SHMJ_PROFILES_FOLLOW_LINKS": "sure"}, "SHMJ_PROFILES_FOLLOW_LINKS: 'sure' is not true or false"),
    ]:
        with pytest.raises(SystemExit) as exit_:
            parse_config(argv, environ=environ)
        assert exit_.value.code == 2
        error = capsys.readouterr().err
        assert message in error
        assert error.count("\n") == 1 and error.startswith("shmj-server: ")


@pytest.mark.parametrize(
    "variable, meant",
    [
        ("SHMJ_GRACE_PERIOD", "SHMJ_GRACE_PERIOD_S"),
        ("SHMJ_WORKER", "SHMJ_WORKERS"),
        ("SHMJ_HEALTHPORT", "SHMJ_HEALTH_PORT"),
        ("SHMJ_PROFILE_DIR", "SHMJ_PROFILES_DIR"),
        ("SHMJ_MAX_BATCH", "SHMJ_MAX_BATCH_SIZE"),
    ],
)
def test_a_misspelt_setting_in_the_environment_stops_the_start_naming_the_one_meant(variable, meant, capsys):
    """A manifest's typo would otherwise leave the default in force without a word."""
    with pytest.raises(SystemExit) as exit_:
        parse_config([], environ={variable: "5"})
    assert exit_.value.code == 2
    assert capsys.readouterr().err == (
        f"shmj-server: {variable} is not a setting of shmj-server; did you mean {meant}? (see shmj-server --help)\n"
    )


def test_the_other_programs_variables_and_unrelated_ones_are_left_alone():
    others = ("SHMJ_TARGET", "SHMJ_TLS", "SHMJ_CA", "SHMJ_CERT", "SHMJ_KEY", "SHMJ_PURE_PYTHON", "SHMJ_IMAGE")
    environ = {name: "1" for name in (*others, "SHMJ_REQUIRE_COMPILED", "SHMJ_TOOLCHAIN_ROOT", "SHMJ_ANYTHING_ELSE")}
    assert parse_config([], environ=environ) == ServerConfig()


def test_the_command_refuses_a_missing_key_in_one_line_without_a_traceback():
    ended = subprocess.run(
        [sys.executable, "-m", "server", "--tls-cert", "/nope.pem", "--tls-key", "/nope.key"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ended.returncode == 2
    assert ended.stdout == ""
    assert ended.stderr == (
        "shmj-server: argument --tls-cert: cannot read /nope.pem: No such file or directory (see shmj-server --help)\n"
    )


def test_max_concurrent_rpcs_answers_resource_exhausted(tmp_path):
    requests = [convert.settle_request_message(r) for r in generate_requests(3000, 6)]
    batch = svc.SettleBatchRequest(requests=requests)
    with run_server(tmp_path, "--max-concurrent-rpcs", "1") as server:
        stub = server.stub()
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            calls = [pool.submit(stub.SettleBatch, batch, timeout=60) for _ in range(4)]
            codes = []
            for call in calls:
                try:
                    call.result()
                    codes.append(grpc.StatusCode.OK)
                except grpc.RpcError as error:
                    codes.append(error.code())
    assert grpc.StatusCode.OK in codes
    assert grpc.StatusCode.RESOURCE_EXHAUSTED in codes
    assert set(codes) <= {grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED}


def _start_on_taken_port(which: str) -> tuple[int, list[dict], str]:
    """Start the server with its gRPC or metrics port already taken; its exit code, JSON logs, output."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        ports = {"grpc": [str(port), "0"], "metrics": [str(free_port()), str(port)]}[which]
        process = subprocess.run(
            [sys.executable, "-m", "server", "--port", ports[0], "--metrics-port", ports[1], "--http-port", "0"]
            + ["--workers", "1"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    output = process.stdout + process.stderr
    logs = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    return process.returncode, logs, output


def test_a_grpc_port_in_use_stops_the_server_with_a_clear_error():
    code, logs, output = _start_on_taken_port("grpc")
    assert code == 1
    failure = next(entry for entry in logs if entry["event"] == "cannot listen")
    assert failure["address"].startswith("127.0.0.1:") and failure["level"] == "error"
    assert "Traceback" not in output


def test_a_metrics_port_in_use_stops_the_server_with_a_clear_error():
    code, logs, output = _start_on_taken_port("metrics")
    assert code == 1
    failure = next(entry for entry in logs if entry["event"] == "cannot serve metrics")
    assert failure["error"] == "Address already in use"
    assert failure["hint"] == "choose another --metrics-port (env SHMJ_METRICS_PORT; 0 turns it off)"
    assert not [entry for entry in logs if entry["event"] == "started"]  # no worker was started
    assert "Traceback" not in output


def test_one_worker_per_core_counts_the_cores_the_process_may_run_on():
    """`taskset`, a container's cpuset or Kubernetes' static CPU manager give a process fewer
    cores than the machine has: `--workers 0` starts one worker for each of those."""
    script = "import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
    script += "from server.config import ServerConfig; print(ServerConfig().worker_count)"
    ended = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert ended.stdout == "1\n"

"""Configuration: flags, each defaulting to SHMJ_<FLAG> from the environment."""

from __future__ import annotations

import concurrent.futures

import grpc
import pytest
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

from rules_core.random_hands import generate_requests
from server import convert
from server.config import ServerConfig, parse_config
from tests.server.conftest import run_server


def test_defaults_listen_on_localhost():
    config = parse_config([], environ={})
    assert config == ServerConfig()
    assert (config.address, config.metrics_port) == ("127.0.0.1:50051", 9464)


def test_environment_sets_defaults_and_flags_win():
    environ = {"SHMJ_PORT": "6000", "SHMJ_MAX_BATCH_SIZE": "5", "SHMJ_GRACE_PERIOD_S": "2.5"}
    config = parse_config(["--port", "7000"], environ=environ)
    assert (config.port, config.max_batch_size, config.grace_period_s) == (7000, 5, 2.5)


def test_bad_configuration_is_refused(capsys):
    for argv, environ, message in [
        ([], {"SHMJ_PORT": "http"}, "SHMJ_PORT='http' is not a valid int"),
        (["--tls-cert", "cert.pem"], {}, "--tls-cert and --tls-key go together"),
        (["--tls-client-ca", "ca.pem"], {}, "--tls-client-ca needs --tls-cert and --tls-key"),
        (["--port", "0", "--workers", "2"], {}, "--port 0 picks a port per process"),
    ]:
        with pytest.raises(SystemExit) as exit_:
            parse_config(argv, environ=environ)
        assert exit_.value.code == 2
        assert message in capsys.readouterr().err


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

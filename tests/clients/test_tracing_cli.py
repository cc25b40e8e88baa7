"""Tracing of the ``shmj`` commands, for real: the command in its own process and a traced
server in another, both sending to one OTLP receiver on loopback. A call is a client span whose
child is the server's span; an incoming ``TRACEPARENT`` parents the command's spans; the spans
are flushed before the command exits; a receiver that is down costs one line on stderr, never
a hang or a traceback; without OTEL_* variables nothing of OpenTelemetry is even imported."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import rules_core as rc
from convert.profile_digest import profile_digest
from tests.server.conftest import ROOT, free_port
from tests.server.otlp_receiver import GrpcReceiver, HttpReceiver, otel_environment

SERVICE = "mahjong.shanghai.v1.ScoringService"
CLASSIC = profile_digest(rc.BUILTIN_PROFILES["classic"])
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"
CLIENT_KIND, SERVER_KIND = 3, 2  # opentelemetry.proto.trace.v1.Span.SpanKind
STATUS_ERROR = 2  # opentelemetry.proto.trace.v1.Status.STATUS_CODE_ERROR
HAND = ["score", "111m 555m 999p EEE 77s", "--win", "7s"]


def shmj(*args: str, environment: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "TRACEPARENT"))}
    command = [sys.executable, "-m", "clients.shmj", *args]
    return subprocess.run(
        command, cwd=ROOT, env={**environ, **environment}, capture_output=True, text=True, timeout=timeout
    )


def by_kind(spans: list[dict], kind: int) -> list[dict]:
    return [s for s in spans if s["kind"] == kind]


def test_a_command_s_call_is_a_client_span_whose_child_is_the_server_s_span(traced_server):
    with GrpcReceiver() as receiver, traced_server(receiver) as server:
        environment = otel_environment(receiver, TRACEPARENT=f"00-{TRACE_ID}-{PARENT_ID}-01")
        ended = shmj(*HAND, "--target", server.address, environment=environment)
        assert (ended.returncode, ended.stderr) == (0, "")
        spans = receiver.wait_for(2)
    (client,) = by_kind(spans, CLIENT_KIND)
    (served,) = by_kind(spans, SERVER_KIND)
    port = int(server.address.rsplit(":", 1)[1])
    assert client["name"] == f"{SERVICE}/Settle"
    assert client["attributes"] == {
        "rpc.system": "grpc",
        "rpc.service": SERVICE,
        "rpc.method": "Settle",
        "server.address": "127.0.0.1",
        "server.port": port,
        "rpc.grpc.status_code": 0,
    }
    assert client["resource"]["service.name"] == "shmj"
    assert (client["trace_id"], client["parent_span_id"]) == (TRACE_ID, PARENT_ID)  # the TRACEPARENT variable
    assert (served["trace_id"], served["parent_span_id"]) == (TRACE_ID, client["span_id"])  # across processes
    assert served["resource"]["service.name"] == "shmj-scoring"
    assert served["attributes"]["shmj.profile_digest"] == CLASSIC


def test_a_refused_call_is_an_error_client_span_and_without_traceparent_a_root(traced_server):
    with HttpReceiver() as receiver, traced_server(receiver, "http/protobuf") as server:
        environment = otel_environment(receiver, "http/protobuf", OTEL_SERVICE_NAME="hand-audit")
        ended = shmj(
            "score", "111m 555m 999p EEE 7s", "--win", "7s", "--target", server.address, environment=environment
        )
        assert ended.returncode == 2
        spans = receiver.wait_for(2)
    (client,) = by_kind(spans, CLIENT_KIND)
    (served,) = by_kind(spans, SERVER_KIND)
    assert (client["attributes"]["rpc.grpc.status_code"], client["status"]) == (3, STATUS_ERROR)  # INVALID_ARGUMENT
    assert client["parent_span_id"] == "" and served["parent_span_id"] == client["span_id"]
    assert client["resource"]["service.name"] == "hand-audit"


def test_a_receiver_that_is_down_costs_one_line_and_no_hang(server):
    environment = {
        "OTEL_TRACES_EXPORTER": "otlp",
        "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
        "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{free_port()}",  # nothing listens there
    }
    started = time.monotonic()
    ended = shmj(*HAND, "--target", server.address, environment=environment)
    took = time.monotonic() - started
    assert ended.returncode == 0
    assert "All pungs 碰碰胡" in ended.stdout
    (line,) = ended.stderr.splitlines()
    assert line.startswith("shmj: traces not exported within 3 s: Transient error StatusCode.UNAVAILABLE")
    assert took < 30  # the flush waits 3 s at most; the SDK's own wait would be 30 s and more


def test_ctrl_c_while_the_spans_are_flushed_gives_them_up_without_a_traceback(server):
    environment = {
        "OTEL_TRACES_EXPORTER": "otlp",
        "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
        "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{free_port()}",  # nothing listens there
    }
    environ = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    command = [sys.executable, "-m", "clients.shmj", *HAND, "--target", server.address]
    with subprocess.Popen(
        command, cwd=ROOT, env={**environ, **environment}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        assert process.stdout.readline().startswith("Profile ")  # answered: now it flushes
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0
    (line,) = err.splitlines()
    assert line.startswith("shmj: traces not exported within 3 s")


def test_an_exporter_shmj_cannot_use_is_a_usage_error(server):
    ended = shmj(*HAND, "--target", server.address, environment={"OTEL_TRACES_EXPORTER": "zipkin"})
    assert (ended.returncode, ended.stdout, ended.stderr) == (
        2,
        "",
        "shmj: OTEL_TRACES_EXPORTER='zipkin': shmj exports otlp, console or none\n",
    )


def test_without_otel_variables_a_command_imports_no_opentelemetry(server):
    code = (
        "import sys; from clients.cli import main; "
        f"code = main({json.dumps([*HAND, '--target', server.address])}); "
        "print(code, sorted({m.split('.')[0] for m in sys.modules if m.startswith('opentelemetry')}))"
    )
    environ = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    ended = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True)
    assert ended.stdout.splitlines()[-1] == "0 []"


def loadtest(server, tmp_path, environment: dict[str, str]) -> subprocess.CompletedProcess:
    report = str(tmp_path / "report.json")
    common = ["--rate", "40", "--duration", "1", "--report", report, "--plot", ""]
    return shmj("loadtest", "--target", server.address, *common, environment=environment)


def test_loadtest_calls_are_client_spans_each_the_parent_of_its_server_span(traced_server, tmp_path):
    with GrpcReceiver() as receiver, traced_server(receiver) as server:
        ended = loadtest(server, tmp_path, otel_environment(receiver))
        assert ended.returncode == 0, ended.stderr
        spans = receiver.wait_for(80)
    calls, served = by_kind(spans, CLIENT_KIND), by_kind(spans, SERVER_KIND)
    assert len(calls) == len(served) == 40
    assert sorted(s["parent_span_id"] for s in served) == sorted(c["span_id"] for c in calls)
    assert {c["attributes"]["rpc.method"] for c in calls} <= {"Settle", "CheckWin", "ListWaits", "SettleBatch"}
    assert {c["attributes"]["rpc.grpc.status_code"] for c in calls} == {0}
    assert len({c["trace_id"] for c in calls}) == 40  # each call a trace of its own


def test_loadtest_calls_sampled_out_are_sampled_out_on_the_server_too(traced_server, tmp_path):
    with GrpcReceiver() as receiver, traced_server(receiver) as server:
        sampler = {"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0"}
        ended = loadtest(server, tmp_path, otel_environment(receiver, **sampler))
        assert ended.returncode == 0, ended.stderr
        time.sleep(1)
        assert receiver.wait_for(1, timeout=0.5) == []
        lines = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
    calls = [e for e in lines if e.get("event") == "rpc" and SERVICE in e["method"]]
    assert len(calls) == 40 and not any("trace_id" in e for e in calls)

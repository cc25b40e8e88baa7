"""OpenTelemetry tracing, for real: a server whose OTEL_* variables point at an OTLP receiver on
loopback exports one server span per ScoringService call, over gRPC and over HTTP, named and
attributed by the RPC conventions plus shmj.*, its parent the caller's W3C traceparent, its
ids in the call's log line; health calls are not traced; without the variables, nothing is."""

from __future__ import annotations

import json
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc

import convert
import rules_core as rc
from convert.profile_digest import profile_digest
from tests.server.conftest import run_server
from tests.server.http_calls import Http
from tests.server.otlp_receiver import GrpcReceiver, HttpReceiver
from tests.worked_examples import WORKED_EXAMPLES

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"
TRACEPARENT = f"00-{TRACE_ID}-{PARENT_ID}-01"
SERVICE = "mahjong.shanghai.v1.ScoringService"
CLASSIC = profile_digest(rc.BUILTIN_PROFILES["classic"])
SERVER_KIND = 2  # opentelemetry.proto.trace.v1.Span.SPAN_KIND_SERVER


def example():
    return convert.settle_request_message(WORKED_EXAMPLES[0][1])


def rpc_lines(server, count: int) -> list[dict]:
    deadline = time.monotonic() + 10
    while True:
        lines = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
        found = [e for e in lines if e.get("event") == "rpc"]
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


@pytest.fixture
def traced(tmp_path, monkeypatch):
    def start(receiver, protocol: str, *extra: tuple[str, str]):
        monkeypatch.setenv("OTEL_TRACES_EXPORTER", "otlp")
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_PROTOCOL", protocol)
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint)
        monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "100")
        for name, value in extra:
            monkeypatch.setenv(name, value)
        return run_server(tmp_path)

    return start


def test_a_call_over_grpc_is_a_server_span_under_the_callers_trace(traced):
    with GrpcReceiver() as receiver, traced(receiver, "grpc", ("OTEL_SERVICE_NAME", "scoring-eu")) as server:
        with grpc.insecure_channel(server.address) as channel:
            stub = scoring_service_pb2_grpc.ScoringServiceStub(channel)
            stub.Settle(example(), metadata=[("traceparent", TRACEPARENT)])
            batch = svc.SettleBatchRequest(requests=[example(), example()])
            stub.SettleBatch(batch)
            health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
        spans = receiver.wait_for(2)
        lines = rpc_lines(server, 3)
    assert len(spans) == 2  # the health check is not traced
    settle = next(s for s in spans if s["name"] == f"{SERVICE}/Settle")
    assert (settle["trace_id"], settle["parent_span_id"], settle["kind"]) == (TRACE_ID, PARENT_ID, SERVER_KIND)
    assert settle["attributes"] == {
        "rpc.system": "grpc",
        "rpc.service": SERVICE,
        "rpc.method": "Settle",
        "rpc.grpc.status_code": 0,
        "shmj.profile": "classic",
        "shmj.outcome": "OUTCOME_SELF_DRAW",
        "shmj.profile_digest": CLASSIC,
        "shmj.legal": True,
    }
    assert settle["resource"]["service.name"] == "scoring-eu"
    batch_span = next(s for s in spans if s["name"] == f"{SERVICE}/SettleBatch")
    assert batch_span["parent_span_id"] == "" and batch_span["trace_id"] != TRACE_ID  # a root: no traceparent
    assert batch_span["attributes"]["shmj.batch_size"] == 2
    logged = next(e for e in lines if e["method"].endswith("/Settle"))
    assert (logged["trace_id"], logged["span_id"]) == (TRACE_ID, settle["span_id"])
    health = next(e for e in lines if "Health" in e["method"])
    assert "trace_id" not in health


def test_a_call_over_http_is_traced_and_exported_over_http_protobuf(traced):
    with HttpReceiver() as receiver, traced(receiver, "http/protobuf") as server:
        with Http(server.http_url) as http:
            pinned = example()
            pinned.profile_digest = "sha256:" + "0" * 64
            reply = http.json_call("Settle", pinned, traceparent=TRACEPARENT)
            assert reply.status == 400
        (span,) = receiver.wait_for(1)
    assert (span["name"], span["trace_id"], span["parent_span_id"]) == (f"{SERVICE}/Settle", TRACE_ID, PARENT_ID)
    assert span["attributes"]["rpc.system"] == "connect_rpc"
    assert span["attributes"]["rpc.connect_rpc.error_code"] == "failed_precondition"
    assert "shmj.profile_digest" not in span["attributes"]  # refused before any answer
    assert span["resource"]["service.name"] == "shmj-scoring"


def test_sampled_out_calls_are_not_exported_nor_linked_from_the_log(traced):
    sampler = (("OTEL_TRACES_SAMPLER", "traceidratio"), ("OTEL_TRACES_SAMPLER_ARG", "0"))
    with GrpcReceiver() as receiver, traced(receiver, "grpc", *sampler) as server:
        with grpc.insecure_channel(server.address) as channel:
            scoring_service_pb2_grpc.ScoringServiceStub(channel).Settle(example())
        lines = rpc_lines(server, 1)
        time.sleep(1)
        assert receiver.wait_for(1, timeout=0.5) == []
    assert "trace_id" not in lines[0]


def test_an_exporter_the_service_cannot_use_stops_the_start_in_one_line(tmp_path, monkeypatch):
    import subprocess
    import sys

    from tests.server.conftest import ROOT, free_port

    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "zipkin")
    command = [sys.executable, "-m", "server", "--port", str(free_port()), "--workers", "1"]
    ended = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (ended.returncode, ended.stderr) == (
        2,
        "shmj-server: OTEL_TRACES_EXPORTER='zipkin': this service exports otlp, console or none\n",
    )


def test_the_client_librarys_span_is_the_parent_of_the_servers_across_processes(traced):
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from clients.client import ScoringClient

    exported = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exported))
    tracer = provider.get_tracer("game-backend")
    with GrpcReceiver() as receiver, traced(receiver, "grpc") as server:
        with ScoringClient(server.address) as client, tracer.start_as_current_span("settle hand 12") as caller:
            client.settle(example())
            ids = caller.get_span_context()
        (span,) = receiver.wait_for(1)
    assert (span["trace_id"], span["parent_span_id"]) == (f"{ids.trace_id:032x}", f"{ids.span_id:016x}")
    assert span["attributes"]["shmj.profile_digest"] == CLASSIC


def test_a_long_profile_is_exported_cut_as_the_log_line_cuts_it(traced):
    """Found trying the server with tracing on as a hostile client: the attribute kept it whole
    (tests/server/test_tracing_bounds.py has the other bounds)."""
    with HttpReceiver() as receiver, traced(receiver, "http/protobuf") as server:
        with Http(server.http_url) as http:
            request = example()
            request.profile = "z" * 200_000  # as long as a body's value is read
            assert http.json_call("Settle", request).status == 400
        (span,) = receiver.wait_for(1)
    assert span["attributes"]["shmj.profile"] == "z" * 128 + "… (200000 characters)"

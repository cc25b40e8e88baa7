"""`shmj rescore` traced, for real. With --dask the command in its own process starts a
2-worker Dask LocalCluster (worker processes), and all of them send spans to one OTLP receiver
on loopback: the job is a span in the command, each partition task a span in the worker that
ran it, the job span's child through the W3C context sent with the task. Without --dask, the
job span is the parent of the server's spans of the calls its worker processes make."""

from __future__ import annotations

import json

from tests.clients.test_rescore import mixed_file
from tests.clients.test_tracing_cli import PARENT_ID, SERVER_KIND, TRACE_ID, shmj
from tests.server.otlp_receiver import GrpcReceiver, otel_environment

STATUS_UNSET = 0


def test_a_dask_rescore_is_a_job_span_whose_children_are_its_partition_tasks_on_the_workers(tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    mixed_file(inputs / "a.jsonl")
    mixed_file(inputs / "b.jsonl")
    out = tmp_path / "out"
    with GrpcReceiver() as receiver:
        environment = otel_environment(
            receiver, TRACEPARENT=f"00-{TRACE_ID}-{PARENT_ID}-01", OTEL_EXPERIMENTAL_RESOURCE_DETECTORS="process"
        )
        command = ["rescore", str(inputs), "-o", str(out), "--dask", "local:2", "--no-progress"]
        ended = shmj(*command, environment=environment, timeout=180)
        assert ended.returncode == 0, ended.stderr
        spans = receiver.wait_for(3)
    (job,) = [s for s in spans if s["name"] == "shmj rescore"]
    tasks = sorted(
        (s for s in spans if s["name"] == "shmj rescore partition"), key=lambda s: s["attributes"]["shmj.partition"]
    )
    assert len(spans) == 3
    assert (job["trace_id"], job["parent_span_id"], job["status"]) == (TRACE_ID, PARENT_ID, STATUS_UNSET)
    assert job["resource"]["service.name"] == "shmj"
    assert job["attributes"] == {
        "shmj.inputs": 2,
        "shmj.output": str(out),
        "shmj.format": "jsonl",
        "shmj.parts": 2,
        "shmj.parts_complete": 2,
        "shmj.failed_parts": 0,
        "shmj.records": 16,
        "shmj.errors": 10,
        "shmj.skipped_by_resume": 0,
    }
    for task, name, source in zip(tasks, ("part-00000.jsonl", "part-00001.jsonl"), ("a.jsonl", "b.jsonl"), strict=True):
        stats = json.loads((out / "_stats" / f"{name}.json").read_text())
        assert (task["trace_id"], task["parent_span_id"]) == (TRACE_ID, job["span_id"])
        assert task["attributes"] == {
            "shmj.partition": name,
            "shmj.input": str(inputs / source),
            "shmj.records": 8,
            "shmj.errors": 5,
            "shmj.settled": 3,
        }
        assert (stats["records"], stats["rejected"], stats["settled"]) == (8, 5, 3)
        assert task["resource"]["service.name"] == "shmj-rescore-worker"
        assert task["resource"]["process.pid"] != job["resource"]["process.pid"]  # exported by a worker process


def test_a_rescore_against_a_server_is_a_job_span_parenting_the_server_s_spans(traced_server, tmp_path):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    mixed_file(source)
    with GrpcReceiver() as receiver, traced_server(receiver) as server:
        environment = otel_environment(receiver, TRACEPARENT=f"00-{TRACE_ID}-{PARENT_ID}-01")
        command = ["rescore", str(source), "-o", str(out), "--target", server.address, "--workers", "1"]
        ended = shmj(*command, "--no-progress", environment=environment, timeout=120)
        assert ended.returncode == 0, ended.stderr
        spans = receiver.wait_for(2)
    (job,) = [s for s in spans if s["name"] == "shmj rescore"]
    (served,) = [s for s in spans if s["kind"] == SERVER_KIND]  # one SettleBatch of the lines that read as requests
    assert len(spans) == 2
    assert (job["trace_id"], job["parent_span_id"], job["resource"]["service.name"]) == (TRACE_ID, PARENT_ID, "shmj")
    assert job["attributes"] == {
        "shmj.inputs": 1,
        "shmj.output": str(out),
        "shmj.format": "jsonl",
        "shmj.records": 8,
        "shmj.settled": 3,
        "shmj.errors": 5,
        "shmj.skipped_by_resume": 0,
    }
    assert served["name"] == "mahjong.shanghai.v1.ScoringService/SettleBatch"
    assert (served["trace_id"], served["parent_span_id"]) == (TRACE_ID, job["span_id"])
    assert served["attributes"]["shmj.batch_size"] == 4  # 3 settled, one the server refuses (its profile)

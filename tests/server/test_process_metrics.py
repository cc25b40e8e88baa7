"""process_* metrics in multi-process mode: the supervisor and every worker, told apart by a label."""

from __future__ import annotations

import json
import os
import signal
import time

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from server.process_metrics import register
from tests.server.conftest import run_server

FAMILIES = {
    "process_cpu_seconds": "counter",
    "process_resident_memory_bytes": "gauge",
    "process_virtual_memory_bytes": "gauge",
    "process_start_time_seconds": "gauge",
    "process_open_fds": "gauge",
    "process_max_fds": "gauge",
}


def _process_samples(text: str) -> dict[str, dict[str, float]]:
    """family name -> {process label: value}"""
    found: dict[str, dict[str, float]] = {}
    for family in text_string_to_metric_families(text):
        if family.name.startswith("process_"):
            assert family.type == FAMILIES[family.name], family.name
            for sample in family.samples:
                found.setdefault(family.name, {})[sample.labels["process"]] = sample.value
    return found


def test_a_process_that_has_exited_is_left_out():
    registry = CollectorRegistry()
    register(registry, lambda: [("supervisor", os.getpid()), ("worker-0", 2**22 + 1)])  # above pid_max
    samples = _process_samples(generate_latest(registry).decode())
    assert set(samples) == set(FAMILIES)
    assert all(set(by_process) == {"supervisor"} for by_process in samples.values())


def test_the_supervisor_and_each_worker_export_process_metrics_and_a_replaced_worker_keeps_its_slot(tmp_path):
    """The replacement is what ShmjScoringWorkersRestarting counts: a slot's start time changes,
    and no new series appears."""
    with run_server(tmp_path, workers=2) as server:
        samples = _process_samples(server.metrics())
        assert set(samples) == set(FAMILIES)
        for name, by_process in samples.items():
            assert set(by_process) == {"supervisor", "worker-0", "worker-1"}, name
        rss = samples["process_resident_memory_bytes"]
        assert all(value > 10 * 2**20 for value in rss.values()), rss  # a Python interpreter with grpc loaded
        before = samples["process_start_time_seconds"]
        assert before["supervisor"] <= min(before["worker-0"], before["worker-1"])  # the workers are its children

        started = next(json.loads(line) for line in server.log().splitlines() if '"started"' in line)
        os.kill(started["pids"][0], signal.SIGKILL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            after = _process_samples(server.metrics())["process_start_time_seconds"]
            if set(after) == {"supervisor", "worker-0", "worker-1"} and after["worker-0"] != before["worker-0"]:
                break
            time.sleep(0.2)
    assert set(after) == {"supervisor", "worker-0", "worker-1"}
    assert after["worker-0"] > before["worker-0"]
    assert (after["supervisor"], after["worker-1"]) == (before["supervisor"], before["worker-1"])

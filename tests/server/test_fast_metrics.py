"""Issue 12: metric children write their values straight into prometheus_client's
multiprocess file; what its collector reads back must be what its own API would have made."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.server.conftest import ROOT

WRITER = r"""
import json, os, sys, tempfile
os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp()
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector
from server import metrics

counter = metrics.SETTLEMENTS.labels("classic", "DISCARD")
gauge = metrics.IN_FLIGHT.labels("svc", "M")
histogram = metrics.HANDLING_SECONDS.labels("unary", "svc", "M")
fast_counter, fast_gauge, fast_histogram = metrics.Fast(counter), metrics.Fast(gauge), metrics.Fast(histogram)
fast_counter.inc()
counter.inc(2)
fast_gauge.inc()
fast_gauge.inc()
fast_counter.inc(3)
fast_gauge.dec()
gauge.inc()
fast_histogram.observe(0.003)
histogram.observe(0.003)
fast_histogram.observe(100)
fast_histogram.observe_many(0.0004, 5)
registry = CollectorRegistry()
MultiProcessCollector(registry)
get = registry.get_sample_value
labels = {"grpc_type": "unary", "grpc_service": "svc", "grpc_method": "M"}
print(json.dumps({
    "counter": get("shmj_settlements_total", {"profile": "classic", "outcome": "DISCARD"}),
    "gauge": get("grpc_server_in_flight_requests", {"grpc_service": "svc", "grpc_method": "M"}),
    "count": get("grpc_server_handling_seconds_count", labels),
    "sum": get("grpc_server_handling_seconds_sum", labels),
    "le_0.0005": get("grpc_server_handling_seconds_bucket", {**labels, "le": "0.0005"}),
    "le_0.005": get("grpc_server_handling_seconds_bucket", {**labels, "le": "0.005"}),
    "le_50": get("grpc_server_handling_seconds_bucket", {**labels, "le": "10.0"}),
    "le_inf": get("grpc_server_handling_seconds_bucket", {**labels, "le": "+Inf"}),
}))
"""


def test_fast_children_write_what_prometheus_client_reads_back():
    ended = subprocess.run([sys.executable, "-c", WRITER], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ended.returncode == 0, ended.stderr
    values = json.loads(ended.stdout)
    assert values == {
        "counter": 6.0,
        "gauge": 2.0,
        "count": 8.0,
        "sum": 0.003 + 0.003 + 100 + 0.0004 * 5,
        "le_0.0005": 5.0,
        "le_0.005": 7.0,
        "le_50": 7.0,
        "le_inf": 8.0,
    }

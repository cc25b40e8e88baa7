"""A real Prometheus (Debian's, as in .ci/debian-packages) scrapes a real 2-worker server under a
short load with bad entries, with the deploy rules loaded; every dashboard query, variable and
rule is evaluated through Prometheus's HTTP API: none errors, every dashboard query has data."""

from __future__ import annotations

import json
import subprocess
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import grpc
import pytest
import yaml
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
from rules_core.build import hand
from tests.debian_tools import debian_tool
from tests.deploy.tools import DEPLOY, PROMETHEUS
from tests.server.conftest import free_port, run_server
from tests.worked_examples import WORKED_EXAMPLES

SCRAPE = "1s"
RATE_INTERVAL = "10s"  # what Grafana's $__rate_interval is at a 1 s scrape interval, with room
RANGE = "1m"
REQUESTS = [convert.settle_request_message(example[1]) for example in WORKED_EXAMPLES]
BAD = pb.SettleRequest(request_id="bad", profile="classic")  # no outcome: INVALID_ARGUMENT


def drive_load(stub, stop: threading.Event) -> None:
    """Every rpc, legal and illegal wins, bad entries in batches and streams, client errors."""
    waits = svc.ListWaitsRequest(profile="classic", seat=0, hand=convert.hand_message(hand("111m 555m 999p EEE 7s")))
    while not stop.is_set():
        for request in REQUESTS:
            stub.Settle(request, timeout=5)
        stub.SettleBatch(svc.SettleBatchRequest(requests=REQUESTS * 3 + [BAD] * 4), timeout=5)
        list(stub.SettleStream(iter(REQUESTS + [BAD]), timeout=5))
        stub.ListWaits(waits, timeout=5)
        stub.ListProfiles(svc.ListProfilesRequest(), timeout=5)
        for call, request in ((stub.Settle, BAD), (stub.GetProfile, svc.GetProfileRequest(name="nope"))):
            try:
                call(request, timeout=5)
            except grpc.RpcError:
                pass
        stop.wait(0.1)


class Prometheus:
    def __init__(self, url: str):
        self.url = url

    def get(self, path: str, **params) -> dict:
        query = urllib.parse.urlencode(params, doseq=True)
        try:
            with urllib.request.urlopen(f"{self.url}{path}?{query}", timeout=10) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:  # a bad query is a 400 with a JSON error body
            return json.load(error)

    def query(self, expression: str) -> dict:
        return self.get("/api/v1/query", query=expression)

    def ready(self) -> bool:
        """Whether the server answers queries: it refuses connections while starting, then
        answers 503 Service Unavailable (not JSON) until its storage is open."""
        try:
            with urllib.request.urlopen(f"{self.url}/-/ready", timeout=10) as response:
                return response.status == 200
        except OSError:  # urllib's HTTPError and URLError are OSErrors
            return False


@pytest.fixture(scope="module")
def prometheus(tmp_path_factory):
    binary = debian_tool("prometheus")
    folder = tmp_path_factory.mktemp("prometheus")
    with run_server(folder, workers=2) as server:
        config = yaml.safe_load((PROMETHEUS / "prometheus-local.yml").read_text())
        config["global"] = {"scrape_interval": SCRAPE, "evaluation_interval": SCRAPE}
        config["rule_files"] = [str(PROMETHEUS / name) for name in config["rule_files"]]
        config["scrape_configs"][0]["static_configs"][0]["targets"] = [server.metrics_url.split("/")[2]]
        (folder / "prometheus.yml").write_text(yaml.safe_dump(config))
        port = free_port()
        command = [binary, f"--config.file={folder / 'prometheus.yml'}", f"--storage.tsdb.path={folder / 'data'}"]
        command += [f"--web.listen-address=127.0.0.1:{port}"]
        with open(folder / "prometheus.log", "w") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        stop = threading.Event()
        load = threading.Thread(target=drive_load, args=(server.stub(), stop), daemon=True)
        load.start()
        try:
            api = Prometheus(f"http://127.0.0.1:{port}")
            wait_for_samples(api, process, folder / "prometheus.log")
            yield api
        finally:
            stop.set()
            load.join(timeout=10)
            process.terminate()
            process.wait(timeout=30)


def wait_for_samples(api: Prometheus, process: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    """Until 15 scrapes of the running load are in, so the 10 s rates have several samples."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()[-3000:]
        if api.ready():
            found = api.query('count_over_time(up{job="shmj-scoring"}[1m])')["data"]["result"]
            if found and float(found[0]["value"][1]) >= 15:
                return
        time.sleep(0.5)
    raise AssertionError("Prometheus did not scrape the server 15 times\n" + log.read_text()[-3000:])


def dashboard_queries() -> list[tuple[str, str]]:
    dashboard = json.loads((DEPLOY / "grafana/shmj-scoring-dashboard.json").read_text())
    return [(p["title"], t["expr"]) for p in dashboard["panels"] if p["type"] != "row" for t in p["targets"]]


def test_the_variables_find_the_job_namespace_and_pod(prometheus):
    dashboard = json.loads((DEPLOY / "grafana/shmj-scoring-dashboard.json").read_text())
    found = {}
    for variable in dashboard["templating"]["list"][1:]:
        source, name = variable["query"]["query"][len("label_values(") : -1].rsplit(", ", 1)
        for key, value in found.items():
            source = source.replace(f"${key}", value)
        answer = prometheus.get(f"/api/v1/label/{name}/values", **{"match[]": source})
        assert answer["status"] == "success", answer
        (found[name],) = answer["data"]
    assert found == {"job": "shmj-scoring", "namespace": "local", "pod": "local"}


def test_every_dashboard_query_runs_and_has_data(prometheus):
    values = {"$job": "shmj-scoring", "$namespace": "local", "$pod": "local"}
    values |= {"$__rate_interval": RATE_INTERVAL, "$__range": RANGE}
    empty = []
    for title, expression in dashboard_queries():
        for name, value in values.items():
            expression = expression.replace(name, value)
        answer = prometheus.query(expression)
        assert answer["status"] == "success", (title, expression, answer)
        assert not answer.get("warnings"), (title, answer["warnings"])
        if not answer["data"]["result"]:
            empty.append((title, expression))
    assert empty == []


def test_every_rule_evaluates_without_error_and_every_recorded_sli_has_data(prometheus):
    deadline = time.monotonic() + 10
    while True:  # until every rule has been evaluated once
        groups = prometheus.get("/api/v1/rules")["data"]["groups"]
        rules = [rule for group in groups for rule in group["rules"]]
        if all(rule["lastEvaluation"][:4] != "0001" for rule in rules) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert {group["file"].rsplit("/", 1)[1] for group in groups} == {"rules.yml", "alerts.yml"}
    assert len(rules) == 9 + 9  # the recording rules of rules.yml, the alerts of alerts.yml
    for rule in rules:
        assert (rule["health"], rule.get("lastError", "")) == ("ok", ""), rule["name"]
        answer = prometheus.query(rule["query"])
        assert answer["status"] == "success", (rule["name"], answer)
        if rule["type"] == "recording":
            assert answer["data"]["result"], rule["name"]
            labels = answer["data"]["result"][0]["metric"]
            assert (labels["job"], labels["namespace"]) == ("shmj-scoring", "local"), rule["name"]


# The latency objective (25 ms p99) is the host's as much as the service's: on a test machine
# shared with other jobs a loaded moment breaks it, so its alert may be pending here. The promtool
# unit tests (deploy/prometheus/tests/) show it firing and silent on fixed series.
HOST_DEPENDENT = {"ShmjScoringSlowCalls"}


def test_nothing_pages_or_tickets_for_a_healthy_server_with_a_few_bad_entries(prometheus):
    alerts = prometheus.get("/api/v1/alerts")["data"]["alerts"]  # pending ones too: their condition holds
    assert [a["labels"]["alertname"] for a in alerts if a["labels"]["alertname"] not in HOST_DEPENDENT] == []
    errors = prometheus.query("job:shmj_server_errors:ratio_rate5m")["data"]["result"]
    assert [float(sample["value"][1]) for sample in errors] == [0.0]


def test_the_supervisor_and_both_workers_report_process_metrics(prometheus):
    answer = prometheus.query('count by (process) (process_resident_memory_bytes{job="shmj-scoring"})')
    assert sorted(s["metric"]["process"] for s in answer["data"]["result"]) == ["supervisor", "worker-0", "worker-1"]

"""The deploy files agree with the service: ports, probes, and every metric they query exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from prometheus_client import REGISTRY

import server.metrics  # noqa: F401  (registers the service's metrics)
from server.config import ServerConfig

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"), "gauge": ("",)}


def exported_names() -> set[str]:
    """Sample names of every metric the service defines, used or not yet."""
    names = set()
    for collector in list(REGISTRY._names_to_collectors.values()):
        for family in collector.collect():
            names |= {family.name + suffix for suffix in SUFFIXES.get(family.type, ("",))}
    return names


def queried_metrics(expression: str) -> set[str]:
    return set(re.findall(r"\b((?:grpc_server|shmj)_[a-z_]+)\b", expression))


def test_dashboard_queries_only_exported_metrics():
    dashboard = json.loads((DEPLOY / "grafana/shmj-scoring-dashboard.json").read_text())
    names = exported_names()
    expressions = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    assert len(expressions) >= 10
    for expression in expressions:
        assert queried_metrics(expression) <= names, expression


def test_alerts_query_only_exported_metrics():
    rules = yaml.safe_load((DEPLOY / "prometheus/alerts.yml").read_text())["groups"][0]["rules"]
    names = exported_names()
    for rule in rules:
        assert queried_metrics(rule["expr"]) <= names, rule["alert"]


def test_prometheus_scrapes_the_default_metrics_address():
    config = yaml.safe_load((DEPLOY / "prometheus/prometheus.yml").read_text())
    local = config["scrape_configs"][0]["static_configs"][0]["targets"]
    defaults = ServerConfig()
    assert local == [f"{defaults.metrics_host}:{defaults.metrics_port}"]


def test_kubernetes_probes_use_grpc_health_on_the_service_port():
    deployment = yaml.safe_load((DEPLOY / "kubernetes/deployment.yaml").read_text())
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    defaults = ServerConfig()
    assert ports == {"grpc": defaults.port, "metrics": defaults.metrics_port}
    assert container["readinessProbe"]["grpc"]["port"] == defaults.port
    assert container["livenessProbe"]["grpc"]["port"] == defaults.port
    env = {e["name"]: e["value"] for e in container["env"]}
    grace = deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert float(env["SHMJ_SHUTDOWN_DELAY_S"]) + float(env["SHMJ_GRACE_PERIOD_S"]) < grace
    services = list(yaml.safe_load_all((DEPLOY / "kubernetes/service.yaml").read_text()))
    assert {s["metadata"]["name"] for s in services} == {"shmj-scoring", "shmj-scoring-headless"}


def test_container_builds_with_the_projects_own_install():
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "RUN make install" in dockerfile
    assert "-r requirements.txt" in dockerfile
    assert re.search(r"EXPOSE 50051 9464", dockerfile)
    assert 'ENTRYPOINT ["shmj-server"]' in dockerfile

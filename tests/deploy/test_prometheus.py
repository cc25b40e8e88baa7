"""Prometheus: the rules pass `promtool check` and their unit tests, every alert is tested firing
and silent and links to its runbook, and both scrape configs find the service."""

from __future__ import annotations

import re
import subprocess

import yaml

from server.config import ServerConfig
from tests.debian_tools import debian_tool
from tests.deploy.tools import OPERATIONS, PROMETHEUS, anchors, exported_names, queried_metrics

RULE_FILES = ("rules.yml", "alerts.yml")


def _rules(name: str) -> list[dict]:
    return [rule for group in yaml.safe_load((PROMETHEUS / name).read_text())["groups"] for rule in group["rules"]]


def _promtool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([debian_tool("promtool"), *args], cwd=PROMETHEUS, capture_output=True, text=True)


def test_promtool_checks_the_rules_and_the_local_config():
    for args in (("check", "rules", *RULE_FILES), ("check", "config", "prometheus-local.yml")):
        result = _promtool(*args)
        assert result.returncode == 0, result.stdout + result.stderr


def test_promtool_unit_tests_pass():
    result = _promtool("test", "rules", "tests/alerts_test.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("SUCCESS")


def test_every_alert_is_unit_tested_firing_and_silent():
    alerts = {rule["alert"] for rule in _rules("alerts.yml")}
    tests = yaml.safe_load((PROMETHEUS / "tests/alerts_test.yml").read_text())["tests"]
    checks = [check for test in tests for check in test["alert_rule_test"]]
    firing = {check["alertname"] for check in checks if check["exp_alerts"]}
    silent = {check["alertname"] for check in checks if not check["exp_alerts"]}
    assert firing == alerts
    assert silent == alerts


def test_every_alert_explains_itself_and_links_its_runbook_section():
    sections = anchors(OPERATIONS.read_text())
    for rule in _rules("alerts.yml"):
        annotations = rule["annotations"]
        assert set(annotations) == {"summary", "description", "runbook_url"}, rule["alert"]
        assert annotations["runbook_url"] == f"docs/OPERATIONS.md#{rule['alert'].lower()}"
        assert rule["alert"].lower() in sections, rule["alert"]
        assert rule["labels"]["severity"] in ("page", "ticket"), rule["alert"]


def test_rules_query_only_exported_metrics():
    names = exported_names()
    for name in RULE_FILES:
        for rule in _rules(name):
            assert queried_metrics(rule["expr"]) <= names, rule.get("alert") or rule["record"]


def test_the_local_config_scrapes_the_default_metrics_address():
    config = yaml.safe_load((PROMETHEUS / "prometheus-local.yml").read_text())
    (job,) = config["scrape_configs"]
    defaults = ServerConfig()
    assert job["job_name"] == "shmj-scoring"
    assert job["static_configs"][0]["targets"] == [f"{defaults.metrics_host}:{defaults.metrics_port}"]
    assert config["rule_files"] == list(RULE_FILES)


def test_the_cluster_config_discovers_pods_by_their_metrics_port_and_nothing_static():
    """Debian's promtool is built without Kubernetes discovery, so this config is read here."""
    config = yaml.safe_load((PROMETHEUS / "prometheus.yml").read_text())
    (job,) = config["scrape_configs"]
    assert job["job_name"] == "shmj-scoring"
    assert "static_configs" not in job
    assert job["kubernetes_sd_configs"] == [{"role": "pod"}]
    keeps = {tuple(r["source_labels"]): r["regex"] for r in job["relabel_configs"] if r.get("action") == "keep"}
    assert keeps == {
        ("__meta_kubernetes_pod_label_app_kubernetes_io_name",): "shmj-scoring",
        ("__meta_kubernetes_pod_container_port_name",): "metrics",
    }
    targets = {r.get("target_label") for r in job["relabel_configs"]}
    assert {"namespace", "pod"} <= targets
    assert config["rule_files"] == list(RULE_FILES)


def test_operations_md_lists_every_alert_with_its_severity_and_a_runbook_that_says_what_to_do():
    text = OPERATIONS.read_text()
    listed = dict(re.findall(r"^\| `(Shmj\w+)` \| (\w+) \|", text, flags=re.M))
    assert listed == {rule["alert"]: rule["labels"]["severity"] for rule in _rules("alerts.yml")}
    for alert in listed:
        start = text.index(f"\n### {alert}\n") + 1
        following = re.search(r"^#{2,3} ", text[start + 4 :], flags=re.M)
        runbook = text[start : start + 4 + following.start()] if following else text[start:]
        assert [part for part in ("**Means:**", "**Look at:**", "**Do:**") if part not in runbook] == [], alert

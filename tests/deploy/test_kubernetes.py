"""Kubernetes: every kustomize overlay renders, validates strictly against the API schemas, passes
checkov, meets the Pod Security "restricted" standard and agrees with the server's flags."""

from __future__ import annotations

import re
import subprocess
from dataclasses import fields
from pathlib import Path

import pytest
import yaml

from server.config import ServerConfig, env_name, parse_config
from tests.deploy.conftest import OVERLAYS
from tests.deploy.tools import DEPLOY, OPERATIONS, PROMETHEUS, tool

KUBERNETES = DEPLOY / "kubernetes"
TLS_OVERLAYS = ("overlays/production-tls", "overlays/production-mtls")
DEFAULTS = ServerConfig()


def objects(rendered: dict[str, Path], overlay: str) -> dict[tuple[str, str], dict]:
    return {(o["kind"], o["metadata"]["name"]): o for o in yaml.safe_load_all(rendered[overlay].read_text())}


def deployment(rendered, overlay: str) -> dict:
    return objects(rendered, overlay)["Deployment", "shmj-scoring"]


def container(rendered, overlay: str) -> dict:
    (server,) = deployment(rendered, overlay)["spec"]["template"]["spec"]["containers"]
    return server


def env(rendered, overlay: str) -> dict[str, str]:
    return {e["name"]: e["value"] for e in container(rendered, overlay)["env"]}


def test_every_object_validates_strictly(rendered):
    result = subprocess.run(
        [tool("kubernetes-validate"), "--strict", "--quiet", *map(str, rendered.values())],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert (
        sum(len(objects(rendered, overlay)) for overlay in OVERLAYS) == 6 + 3 * 8
    )  # the ConfigMap of house profiles in each


def test_checkov_finds_nothing_and_every_skip_says_why(rendered, checkov):
    passed, failed, skipped = checkov["kubernetes"]
    assert (failed, skipped) == (0, 4)  # the image digest check, in each overlay (see below)
    assert passed > 300
    for overlay in OVERLAYS:
        for obj in objects(rendered, overlay).values():
            for key, value in obj["metadata"].get("annotations", {}).items():
                if key.startswith("checkov.io/skip"):
                    check, _, reason = value.partition("=")
                    assert len(reason.split()) >= 5, (overlay, check)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_pods_meet_the_restricted_pod_security_standard(rendered, overlay):
    pod = deployment(rendered, overlay)["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] > 0
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    assert not {"hostNetwork", "hostPID", "hostIPC"} & set(pod)
    for volume in pod["volumes"]:
        assert set(volume) - {"name"} <= {"emptyDir", "secret", "configMap", "projected"}, volume
    for server in pod["containers"]:
        context = server["securityContext"]
        assert context["allowPrivilegeEscalation"] is False
        assert context["capabilities"] == {"drop": ["ALL"]}
        assert context["readOnlyRootFilesystem"] is True
        assert "privileged" not in context


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_no_service_account_token_and_every_empty_dir_is_bounded(rendered, overlay):
    found = objects(rendered, overlay)
    pod = deployment(rendered, overlay)["spec"]["template"]["spec"]
    account = found["ServiceAccount", pod["serviceAccountName"]]
    assert account["automountServiceAccountToken"] is False
    assert pod["automountServiceAccountToken"] is False
    empty_dirs = [v["emptyDir"] for v in pod["volumes"] if "emptyDir" in v]
    assert empty_dirs and all(d.get("sizeLimit") for d in empty_dirs)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_termination_grace_covers_the_shutdown_delay_and_the_grace_period(rendered, overlay):
    settings = env(rendered, overlay)
    drain = float(settings["SHMJ_SHUTDOWN_DELAY_S"]) + float(settings["SHMJ_GRACE_PERIOD_S"])
    grace = deployment(rendered, overlay)["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert drain + 5 <= grace  # 5 s for the processes to exit after the drain, before SIGKILL


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_variable_the_container_gets_is_a_setting_the_server_parses(rendered, overlay):
    """A misspelt name would leave its flag at the default; and each value passes the server's checks."""
    settings = env(rendered, overlay)
    assert sorted(set(settings) - {env_name(f.name) for f in fields(ServerConfig)}) == []
    files = {name for name in settings if name.startswith(("SHMJ_TLS_", "SHMJ_PROFILES_DIR"))}  # mounted at run time
    config = parse_config([], environ={name: value for name, value in settings.items() if name not in files})
    assert (config.port, config.health_port, config.http_port) == (DEFAULTS.port, int(settings["SHMJ_HEALTH_PORT"]), 0)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_ports_probes_and_services_agree_with_the_server(rendered, overlay):
    server = container(rendered, overlay)
    ports = {p["name"]: p["containerPort"] for p in server["ports"]}
    settings = env(rendered, overlay)
    assert (ports["grpc"], ports["metrics"]) == (DEFAULTS.port, DEFAULTS.metrics_port)
    assert settings["SHMJ_HOST"] == settings["SHMJ_METRICS_HOST"] == "0.0.0.0"
    # Every overlay's probes ask the health-only port: the main port may be at its calls-at-once
    # limit (--receive-budget-bytes) under hostile clients, and under TLS kubelet cannot ask it.
    probe_port = int(settings["SHMJ_HEALTH_PORT"])
    assert ports["health"] == probe_port
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert server[probe]["grpc"] == {"port": probe_port}, probe
    labels = deployment(rendered, overlay)["spec"]["template"]["metadata"]["labels"]
    found = objects(rendered, overlay)
    for name in ("shmj-scoring", "shmj-scoring-headless"):
        service = found["Service", name]
        assert service["spec"]["selector"].items() <= labels.items()
        assert [(p["port"], p["targetPort"]) for p in service["spec"]["ports"]] == [(DEFAULTS.port, "grpc")]
    assert found["Service", "shmj-scoring-headless"]["spec"]["clusterIP"] == "None"
    registry = server["image"].split("/")[0]
    assert "." in registry, server["image"]  # a registry host, not a bare name Docker Hub would get


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_network_policy_admits_grpc_and_metrics_only(rendered, overlay):
    policy = objects(rendered, overlay)["NetworkPolicy", "shmj-scoring"]["spec"]
    labels = deployment(rendered, overlay)["spec"]["template"]["metadata"]["labels"]
    assert policy["podSelector"]["matchLabels"].items() <= labels.items()
    assert policy["policyTypes"] == ["Ingress", "Egress"]
    assert policy["egress"] == []
    admitted = [(p["port"], rule.get("from")) for rule in policy["ingress"] for p in rule["ports"]]
    monitoring = [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "monitoring"}}}]
    assert admitted == [("grpc", None), ("metrics", monitoring)]


def test_prometheus_finds_the_pods_by_label_and_port_name(rendered):
    config = yaml.safe_load((PROMETHEUS / "prometheus.yml").read_text())
    relabels = config["scrape_configs"][0]["relabel_configs"]
    keeps = {r["source_labels"][0]: r["regex"] for r in relabels if r.get("action") == "keep"}
    labels = deployment(rendered, "base")["spec"]["template"]["metadata"]["labels"]
    assert labels["app.kubernetes.io/name"] == keeps["__meta_kubernetes_pod_label_app_kubernetes_io_name"]
    assert keeps["__meta_kubernetes_pod_container_port_name"] in {
        p["name"] for p in container(rendered, "base")["ports"]
    }


def test_production_autoscales_on_cpu_keeps_pods_through_drains_and_spreads_them(rendered):
    found = objects(rendered, "overlays/production")
    spec = found["Deployment", "shmj-scoring"]["spec"]
    assert "replicas" not in spec  # the autoscaler owns it
    hpa = found["HorizontalPodAutoscaler", "shmj-scoring"]["spec"]
    assert hpa["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "shmj-scoring"}
    assert [m["resource"]["name"] for m in hpa["metrics"]] == ["cpu"]
    assert hpa["minReplicas"] >= 3
    pdb = found["PodDisruptionBudget", "shmj-scoring"]["spec"]
    assert pdb["maxUnavailable"] == 1
    assert pdb["selector"]["matchLabels"].items() <= spec["template"]["metadata"]["labels"].items()
    spread = {c["topologyKey"]: c["whenUnsatisfiable"] for c in spec["template"]["spec"]["topologySpreadConstraints"]}
    assert spread == {"kubernetes.io/hostname": "DoNotSchedule", "topology.kubernetes.io/zone": "ScheduleAnyway"}
    cpu = spec["template"]["spec"]["containers"][0]["resources"]["requests"]["cpu"]
    assert int(env(rendered, "overlays/production")["SHMJ_WORKERS"]) == int(cpu)  # one worker per requested core


@pytest.mark.parametrize("overlay", TLS_OVERLAYS)
def test_tls_files_come_from_mounted_secrets(rendered, overlay):
    pod = deployment(rendered, overlay)["spec"]["template"]["spec"]
    secrets = {v["name"]: v["secret"]["secretName"] for v in pod["volumes"] if "secret" in v}
    mounts = {m["mountPath"]: m["name"] for m in pod["containers"][0]["volumeMounts"] if m["name"] in secrets}
    settings = env(rendered, overlay)
    files = [settings["SHMJ_TLS_CERT"], settings["SHMJ_TLS_KEY"]]
    if overlay.endswith("mtls"):
        files.append(settings["SHMJ_TLS_CLIENT_CA"])
    else:
        assert "SHMJ_TLS_CLIENT_CA" not in settings
    for path in files:
        assert str(Path(path).parent) in mounts, path
    assert set(secrets.values()) == {"shmj-scoring-tls"} | (
        {"shmj-scoring-client-ca"} if overlay.endswith("mtls") else set()
    )


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_house_profiles_configmap_is_mounted_where_the_server_reads_it_and_is_valid(rendered, overlay):
    from convert.house_profiles import house_registry

    found = objects(rendered, overlay)
    pod = deployment(rendered, overlay)["spec"]["template"]["spec"]
    (volume,) = [v for v in pod["volumes"] if "configMap" in v]
    (mount,) = [m for m in pod["containers"][0]["volumeMounts"] if m["name"] == volume["name"]]
    assert mount == {"name": volume["name"], "mountPath": "/etc/shmj/profiles", "readOnly": True}  # no subPath
    assert env(rendered, overlay)["SHMJ_PROFILES_DIR"] == mount["mountPath"]
    data = found["ConfigMap", volume["configMap"]["name"]]["data"]
    registry, problems = house_registry((name, yaml.safe_load(text)) for name, text in data.items())
    assert problems == []
    assert [(e.name, e.base) for e in registry.house] == [("shanghai-club-a", "lezi")]
    example = (KUBERNETES.parents[1] / "examples/profiles/shanghai-club-a.yaml").read_text()
    assert data["shanghai-club-a.yaml"] == example.split("\n", 1)[1]  # OPERATIONS.md's example, less its first comment


def test_the_release_overlay_operations_md_shows_pins_the_image_by_digest(tmp_path):
    """OPERATIONS.md's "Deploy by digest": its commands, run as written with kubectl's own
    kustomize, render the production overlay with the image named by digest, not by tag."""
    text = OPERATIONS.read_text()
    (block,) = [b for b in re.findall(r"```sh\n(.*?)```", text, flags=re.S) if "kubectl kustomize release" in b]
    digest = "0123456789abcdef" * 4
    (tmp_path / "deploy").symlink_to(DEPLOY)
    ran = subprocess.run(
        ["bash", "-e", "-c", block.replace("DIGEST", digest).replace("kubectl ", f"{tool('kubectl')} ")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (ran.returncode, ran.stderr) == (0, "")
    rendered = list(yaml.safe_load_all((tmp_path / "release" / "manifests.yaml").read_text()))
    (deployed,) = [o for o in rendered if o["kind"] == "Deployment"]
    images = [c["image"] for c in deployed["spec"]["template"]["spec"]["containers"]]
    assert images == [f"registry.example.com/shmj/shmj-scoring@sha256:{digest}"]

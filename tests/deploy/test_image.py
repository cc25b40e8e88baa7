"""The container image: hadolint and checkov find nothing, the build context leaves out what the
image must not carry, and, with no Docker engine here, the Dockerfile's own build and install
steps (deploy/image/steps.sh) make a venv from the wheels alone that serves and answers health."""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.tools import DEPLOY, ROOT, tool
from tests.server.conftest import free_port, wait_serving

DOCKERFILE = DEPLOY / "Dockerfile"
STEPS = "deploy/image/steps.sh"
CONTEXT = {"requirements.txt", "requirements-dev.txt", "pyproject.toml", STEPS}
CONTEXT_FOLDERS = {"proto", "rules_core", "convert", "profile_files", "server", "clients"}


def ignored(path: str, patterns: list[str]) -> bool:
    """Docker's rule: the last pattern that matches a path or one of its parents decides."""
    parts = path.split("/")
    verdict = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        glob = pattern.lstrip("!").rstrip("/").replace("**/", "*")
        if any(fnmatch.fnmatch("/".join(parts[:n]), glob) for n in range(1, len(parts) + 1)):
            verdict = not negate
    return verdict


def context_files() -> list[str]:
    """What `docker build .` sends, by .dockerignore, among the files git tracks."""
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    tracked = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [path for path in tracked.splitlines() if not ignored(path, patterns)]


def test_hadolint_finds_nothing():
    result = subprocess.run([tool("hadolint"), str(DOCKERFILE)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_checkov_finds_nothing_and_every_skip_says_why(checkov):
    passed, failed, skipped = checkov["dockerfile"]
    assert (failed, skipped) == (0, 1)  # CKV_DOCKER_7, which cannot read the base from ARG
    assert passed > 50
    for check, reason in re.findall(r"checkov:skip=(\w+):(.*)", DOCKERFILE.read_text()):
        assert len(reason.split()) >= 5, check


def test_the_base_is_pinned_by_digest_and_the_image_runs_as_no_one_in_particular():
    text = DOCKERFILE.read_text()
    assert re.search(r"^ARG PYTHON_IMAGE=python:3\.11-slim-bookworm@sha256:[0-9a-f]{64}$", text, flags=re.M)
    assert re.findall(r"^FROM (\S+)", text, flags=re.M) == ["${PYTHON_IMAGE}", "${PYTHON_IMAGE}"]
    assert re.search(r"^USER 10001:10001$", text, flags=re.M)
    assert re.search(r'^HEALTHCHECK .*\n\s+CMD \["sh", "-c", "shmj health ', text, flags=re.M)
    runtime = text.split(" AS runtime")[1]
    assert not re.search(r"^COPY (?!--from=build)", runtime, flags=re.M)  # nothing from the context


def test_the_build_context_is_the_sources_and_pins_only():
    files = context_files()
    top = {path if path in CONTEXT else path.split("/")[0] for path in files}
    assert top == CONTEXT | CONTEXT_FOLDERS
    assert not [path for path in files if path.startswith(("tests/", "bench/", "gen/", ".venv/"))]
    copied = re.findall(r"^COPY (?!--from)(.+) \S+$", DOCKERFILE.read_text(), flags=re.M)
    for source in " ".join(copied).split():
        assert source in CONTEXT or source in CONTEXT_FOLDERS, source


@pytest.fixture(scope="module")
def image_venv(tmp_path_factory) -> Path:
    """The two stages' steps: wheels built from a copy of the build context, then a fresh venv
    (from the base interpreter, not the project's) installed from those wheels with no index."""
    work = tmp_path_factory.mktemp("image")
    source = work / "src"
    for path in context_files():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / path, source / path)
    build = {**os.environ, "PYTHON": sys.executable}  # the dev venv has the build tools at the same pins

    def step(*args: str, cwd: Path, env: dict) -> None:
        result = subprocess.run(["sh", str(source / STEPS), *args], cwd=cwd, env=env, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]

    step("dependency-wheels", str(work / "wheels/deps"), cwd=source, env=build)
    step("app-wheel", str(work / "wheels/app"), cwd=source, env=build)
    runtime = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    runtime["PYTHON"] = sys._base_executable
    step("install", str(work / "venv"), str(work / "wheels/deps"), str(work / "wheels/app"), cwd=source, env=runtime)
    return work / "venv"


def test_the_venv_holds_the_runtime_pins_and_the_service_only(image_venv):
    listed = subprocess.run(
        [str(image_venv / "bin/python"), "-m", "pip", "list", "--format=freeze"], capture_output=True, text=True
    ).stdout.split()
    pins = [line for line in (ROOT / "requirements.txt").read_text().splitlines() if "==" in line]
    names = {line.split("==")[0].lower().replace("_", "-") for line in listed}
    assert {pin.split("==")[0].lower().replace("_", "-") for pin in pins} | {
        "pip",
        "setuptools",
        "shanghai-mahjong-scoring",
    } == names  # pip and setuptools: the venv seed
    probe = "import importlib.util as u; print([m for m in ('bench', 'tests', 'pytest') if u.find_spec(m)])"
    found = subprocess.run([str(image_venv / "bin/python"), "-c", probe], capture_output=True, text=True, cwd="/")
    assert found.stdout.strip() == "[]"


def test_the_installed_server_serves_two_workers_and_answers_shmj_health(image_venv, tmp_path):
    port, metrics = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    command = [str(image_venv / "bin/shmj-server"), "--port", str(port), "--metrics-port", str(metrics)]
    command += ["--workers", "2", "--shutdown-delay-s", "0", "--multiproc-dir", str(tmp_path / "metrics")]
    command += ["--http-port", "0"]  # the HTTP face is not what this test is about
    with open(tmp_path / "server.log", "w") as log:
        server = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_serving(f"127.0.0.1:{port}", server)
        health = subprocess.run(
            [str(image_venv / "bin/shmj"), "health", "--target", f"127.0.0.1:{port}"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
        )
        assert (health.returncode, health.stdout) == (0, f"127.0.0.1:{port} (server): SERVING\n")
        score = subprocess.run(
            [
                str(image_venv / "bin/shmj"),
                "score",
                "111m 555m 999p EEE 77s",
                "--win",
                "7s",
                "--target",
                f"127.0.0.1:{port}",
            ],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
        )
        assert score.returncode == 0, score.stderr
        assert "Seat deltas  +24  -8  -8  -8" in score.stdout
    finally:
        server.terminate()
        assert server.wait(timeout=30) == 0

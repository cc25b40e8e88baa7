"""The container image: hadolint and checkov find nothing, the build context leaves out what the
image must not carry, and, with no Docker engine here, the Dockerfile's own build and install
steps (deploy/image/steps.sh) make a venv from the wheels alone that serves and answers health:
with rules_core's hot path compiled where gcc is (as in the image's build stage), and as pure
Python where it is not."""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import urllib.request
from pathlib import Path

import pytest

from batch import native
from compile_core import HOT_PATH
from rules_core.compiled import STAMP, compiled_file, source_file
from server.data_files import DATA_FILES
from server.explorer.vocabulary import vocabulary
from tests.deploy.tools import DEPLOY, ROOT, tool
from tests.server.conftest import free_port, wait_serving
from tests.server.conftest import server as grpc_server  # noqa: F401  (the session server, as grpc_server)

DOCKERFILE = DEPLOY / "Dockerfile"
STEPS = "deploy/image/steps.sh"
CONTEXT = {"requirements.txt", "requirements-build.txt", "pyproject.toml", "setup.py", "compile_core.py", STEPS}
# The image's build stage has gcc; a machine without it builds the pure-Python wheel only.
BUILDS = ["compiled", "pure"] if shutil.which("gcc") else ["pure"]
NO_GCC = pytest.mark.skipif("compiled" not in BUILDS, reason="no gcc: the wheel cannot be compiled here")
# The image's processes run in the image's environment, not this one's: no venv, no source
# path, and no SHMJ_PURE_PYTHON (which a developer may set to run the suite on the source).
IMAGE_ENV = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "SHMJ_PURE_PYTHON")}
# the .proto files, and every package the wheel carries but the stubs it generates (pyproject.toml)
PACKAGES = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
CONTEXT_FOLDERS = {"proto"} | {package.rstrip("*") for package in PACKAGES} - {"mahjong"}


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
    assert _healthcheck_command()[:2] == ["sh", "-c"] and "exec shmj health " in _healthcheck_command()[2]
    build, runtime = text.split(" AS runtime")
    assert not re.search(r"^COPY (?!--from=build)", runtime, flags=re.M)  # nothing from the context
    # the compiler in the build stage alone, pinned; the runtime refuses a build not compiled
    assert re.findall(r"apt-get install -y --no-install-recommends (.+) \\$", build, flags=re.M) == [
        "build-essential=12.9"
    ]
    assert "apt-get" not in runtime
    assert re.search(r"steps\.sh expect-build /opt/shmj/venv compiled", runtime)


def _healthcheck_command() -> list[str]:
    (command,) = re.findall(r"^HEALTHCHECK .*\n\s+CMD (\[.*\])$", DOCKERFILE.read_text(), flags=re.M)
    return json.loads(command)


@pytest.mark.parametrize("asked", ["SHMJ_PORT", "SHMJ_HEALTH_PORT", "SHMJ_PORT, SHMJ_HEALTH_PORT=0"])
def test_the_healthcheck_asks_the_health_port_when_there_is_one_and_the_grpc_port_otherwise(grpc_server, asked):  # noqa: F811
    """Its command run as the image runs it; SHMJ_HEALTH_PORT=0 is no health port (OPERATIONS.md), so the
    gRPC port is asked then too, where the command asked 127.0.0.1:0."""
    port = grpc_server.address.rsplit(":", 1)[1]
    settings = {"SHMJ_PORT": {"SHMJ_PORT": port}, "SHMJ_HEALTH_PORT": {"SHMJ_HEALTH_PORT": port, "SHMJ_PORT": "1"}}
    env = settings.get(asked, {"SHMJ_PORT": port, "SHMJ_HEALTH_PORT": "0"})
    path = f"{ROOT / '.venv/bin'}:/usr/bin:/bin"
    ended = subprocess.run(
        _healthcheck_command(), env={"PATH": path, **env}, capture_output=True, text=True, timeout=60
    )
    assert (ended.returncode, ended.stdout) == (0, f"127.0.0.1:{port} (the server 服务器): serving 服务中 (SERVING)\n")


def test_the_build_context_is_the_sources_and_pins_only():
    files = context_files()
    top = {path if path in CONTEXT else path.split("/")[0] for path in files}
    assert top == CONTEXT | CONTEXT_FOLDERS
    assert not [path for path in files if path.startswith(("tests/", "bench/", "gen/", ".venv/"))]
    copied = re.findall(r"^COPY (?!--from)(.+) \S+$", DOCKERFILE.read_text(), flags=re.M)
    for source in " ".join(copied).split():
        assert source in CONTEXT or source in CONTEXT_FOLDERS, source


def build_interpreter(work: Path) -> Path:
    """An interpreter like the image's build stage: the build tools at the project's pins (the dev
    venv's installed packages, to save installing them again), but not the source tree, which the
    dev venv's editable install and generated-code path (.pth files, not read from a folder a .pth
    names) would put on every import path and so hide what the wheel's build lacks."""
    venv = work / "build-python"
    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python3*/site-packages")
    (site / "dev-venv-packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin" / "python"


@pytest.fixture(scope="module")
def image_venvs(tmp_path_factory) -> dict[str, Path]:
    """The two stages' steps: wheels built from a copy of the build context, then a fresh venv
    (from the base interpreter, not the project's) installed from those wheels with no index.
    Twice: with gcc on the PATH, as in the image's build stage, and without any C compiler.
    The venvs by the build of rules_core they should run: "compiled" and "pure" (BUILDS)."""
    work = tmp_path_factory.mktemp("image")
    source = work / "src"
    for path in context_files():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / path, source / path)
    build = {**IMAGE_ENV, "PYTHON": str(build_interpreter(work))}
    no_compiler = work / "bin-without-gcc"  # the commands app-wheel needs beside the interpreter
    no_compiler.mkdir()
    for command in ("mkdir", "rm"):
        (no_compiler / command).symlink_to(shutil.which(command))
    runtime = {**IMAGE_ENV, "PYTHON": sys._base_executable}

    def step(*args: str, env: dict) -> str:
        result = subprocess.run(
            ["/bin/sh", str(source / STEPS), *args], cwd=source, env=env, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
        return result.stdout

    step("dependency-wheels", str(work / "wheels/deps"), env=build)
    venvs = {}
    for built in BUILDS:
        env = build if built == "compiled" else {**build, "PATH": str(no_compiler)}
        step("app-wheel", str(work / "wheels" / built), env=env)
        venvs[built] = work / "venv" / built
        step("install", str(venvs[built]), str(work / "wheels/deps"), str(work / "wheels" / built), env=runtime)
    return venvs


@pytest.fixture(scope="module")
def image_venv(image_venvs) -> Path:
    """The image's venv: its rules_core compiled (where gcc is)."""
    return image_venvs[BUILDS[0]]


def wheel_files(venv: Path) -> list[str]:
    """What the service's wheel installed into `venv`, as its RECORD lists it."""
    (record,) = venv.glob("lib/python3*/site-packages/shanghai_mahjong_scoring-*.dist-info/RECORD")
    return [line.split(",")[0] for line in record.read_text().splitlines()]


@NO_GCC
def test_the_wheel_carries_the_compiled_hot_path_where_gcc_is_and_the_source_where_not(image_venvs):
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    compiled = [path for path in wheel_files(image_venvs["compiled"]) if path.endswith(".so")]
    native_modules = [compiled_file(f"batch.native.{name}") for name in native.sources()]  # batch/native/*.c
    assert sorted(compiled) == sorted(
        [f"rules_core__mypyc{suffix}"] + [compiled_file(module) for module in HOT_PATH] + native_modules
    )
    assert f"rules_core/{STAMP}" in wheel_files(image_venvs["compiled"])
    pure = wheel_files(image_venvs["pure"])
    assert [path for path in pure if path.endswith(".so") or path.endswith(STAMP)] == []
    for built, venv in image_venvs.items():
        assert {source_file(module) for module in HOT_PATH} <= set(wheel_files(venv))  # the one source
        result = subprocess.run(
            ["/bin/sh", str(ROOT / STEPS), "expect-build", str(venv), built],
            capture_output=True,
            text=True,
            env=IMAGE_ENV,
        )
        assert (result.returncode, result.stdout) == (0, f"rules_core: {built}\n")
    wrong = subprocess.run(
        ["/bin/sh", str(ROOT / STEPS), "expect-build", str(image_venvs["pure"]), "compiled"],
        capture_output=True,
        text=True,
        env=IMAGE_ENV,
    )
    assert (wrong.returncode, wrong.stdout) == (1, "rules_core: pure\n")


def test_the_image_writes_advices_suit_table_with_the_search_it_installed():
    runtime = DOCKERFILE.read_text().split(" AS runtime")[1]
    assert re.search(
        r"steps\.sh install-app /opt/shmj/venv app && .*steps\.sh suit-table /opt/shmj/venv", runtime, flags=re.S
    )


@NO_GCC
def test_the_suit_table_step_writes_the_table_the_installed_rules_core_reads(image_venv):
    (site,) = image_venv.glob("lib/python3*/site-packages")
    table = site / "rules_core" / "unmelded_suits.bin"
    table.unlink(missing_ok=True)
    result = subprocess.run(
        ["/bin/sh", str(ROOT / STEPS), "suit-table", str(image_venv)], capture_output=True, text=True, env=IMAGE_ENV
    )
    assert (result.returncode, result.stdout) == (0, f"405350 suits written to {table}\n"), result.stderr[-2000:]
    read = subprocess.run(
        [
            str(image_venv / "bin/python"),
            "-c",
            "from rules_core import unmelded_suits; print(unmelded_suits.records() is not None)",
        ],
        capture_output=True,
        text=True,
        env=IMAGE_ENV,
        cwd="/",
    )
    assert read.stdout == "True\n", read.stderr[-2000:]


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
    found = subprocess.run(
        [str(image_venv / "bin/python"), "-c", probe], capture_output=True, text=True, cwd="/", env=IMAGE_ENV
    )
    assert found.stdout.strip() == "[]"


def processes_running_the_compiled_core(server: int) -> list[int]:
    """The server's process and its descendants that have the compiled hot path's library loaded."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:  # the fields after the command's closing parenthesis: state, then the parent's id
            parents[int(stat.parent.name)] = int(stat.read_text().rpartition(")")[2].split()[1])
        except (OSError, ValueError):  # a process that ended meanwhile
            continue
    family, grown = {server}, True
    while grown:
        children = {pid for pid, parent in parents.items() if parent in family} - family
        family |= children
        grown = bool(children)
    running = []
    for pid in sorted(family):
        try:
            if "/rules_core__mypyc" in Path(f"/proc/{pid}/maps").read_text():
                running.append(pid)
        except OSError:
            continue
    return running


@pytest.mark.parametrize("built", [pytest.param("compiled", marks=NO_GCC), "pure"])
def test_the_installed_server_serves_two_workers_and_answers_shmj_health(image_venvs, built, tmp_path):
    image_venv = image_venvs[built]
    port, metrics, http = free_port(), free_port(), free_port()
    env = IMAGE_ENV
    command = [str(image_venv / "bin/shmj-server"), "--port", str(port), "--metrics-port", str(metrics)]
    command += ["--workers", "2", "--shutdown-delay-s", "0", "--multiproc-dir", str(tmp_path / "metrics")]
    command += ["--http-port", str(http)]  # its explorer reads the package's data files
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
        assert (health.returncode, health.stdout) == (
            0,
            f"127.0.0.1:{port} (the server 服务器): serving 服务中 (SERVING)\n",
        )
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
        assert "Seat deltas 输赢  +24  -8  -8  -8" in score.stdout
        # the explorer's words: the .proto comments, from the descriptor set the wheel carries
        with urllib.request.urlopen(f"http://127.0.0.1:{http}/explorer/vocabulary.json", timeout=10) as answer:
            assert json.load(answer) == vocabulary()
        # the server's process and its two workers run the compiled hot path where the wheel has it
        running = processes_running_the_compiled_core(server.pid)
        assert (len(running), server.pid in running) == {"compiled": (3, True), "pure": (0, False)}[built]
    finally:
        server.terminate()
        assert server.wait(timeout=30) == 0


@pytest.mark.parametrize("what", list(DATA_FILES))
def test_a_server_whose_package_lacks_a_data_file_names_it_and_starts_no_worker(image_venvs, what, tmp_path):
    """Checked once by the supervisor: no worker starts only to die reading it, again and again."""
    venv = image_venvs["pure"]
    probe = f"from server.data_files import DATA_FILES; print(DATA_FILES[{what!r}])"
    where = subprocess.run(
        [str(venv / "bin/python"), "-c", probe], cwd="/", env=IMAGE_ENV, capture_output=True, text=True
    )
    installed = Path(where.stdout.strip())
    assert installed.is_relative_to(venv), where.stdout + where.stderr
    aside = installed.rename(installed.with_name(installed.name + ".aside"))
    try:
        command = [str(venv / "bin/shmj-server"), "--port", str(free_port()), "--metrics-port", "0"]
        command += ["--multiproc-dir", str(tmp_path / "metrics")]
        result = subprocess.run(command, cwd=tmp_path, env=IMAGE_ENV, capture_output=True, text=True, timeout=60)
    finally:
        aside.rename(installed)
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert result.returncode == 1
    assert [(line["event"], line["missing"]) for line in lines if line["level"] == "error"] == [
        ("data files missing; not starting", [f"{installed} ({what})"])
    ]
    assert "started" not in [line["event"] for line in lines]

"""`make test` installs the Debian packages of .ci/debian-packages that the machine lacks
(.ci/install_debian_packages.py): it reads the list, needs no apt when nothing is missing, and
says exactly what to install when it cannot install it itself."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.debian_tools import PACKAGE_OF, debian_tool, missing_message

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci/install_debian_packages.py"
ABSENT = "shmj-no-such-package"  # a well-formed name no machine has installed


def _installer():
    spec = importlib.util.spec_from_file_location("install_debian_packages", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


installer = _installer()


@pytest.fixture
def folder():
    """A folder any user may read: the lists and PATHs of these runs."""
    path = Path(tempfile.mkdtemp(prefix="debian-packages-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path)


def package_list(folder: Path, *packages: str) -> Path:
    path = folder / "packages"
    path.write_text("# a comment line\n\n" + "".join(f"{package}  # why\n" for package in packages))
    path.chmod(0o644)
    return path


def path_with(folder: Path, *programs: str) -> str:
    """A PATH holding only these programs (symbolic links to the machine's)."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    for program in programs:
        (bin_dir / program).symlink_to(shutil.which(program))
    return str(bin_dir)


def run(*args: str, path: str | None = None, python: str = sys.executable, user: str | None = None, **env: str):
    """The installer as a command; ``user`` runs it as that uid (and gid) when this is root."""
    environment = {k: v for k, v in os.environ.items() if k != installer.SKIP_VARIABLE} | env
    if path is not None:
        environment["PATH"] = path
    command = [python, str(SCRIPT), *args]
    if user and os.geteuid() == 0:
        command = [shutil.which("setpriv"), f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    return subprocess.run(command, env=environment, capture_output=True, text=True, timeout=60)


def test_the_committed_list_is_read_package_by_package():
    assert installer.read_list((ROOT / ".ci/debian-packages").read_text()) == [
        "python3.11-venv",
        "curl",
        "protobuf-compiler-grpc",
        "prometheus",
        "chromium",
        "poppler-utils",
        "fonts-wqy-microhei",
        "gcc",
        "libc6-dev",
        "nodejs",
        "npm",
        "openjdk-17-jdk-headless",
        "protobuf-compiler",
        "protobuf-compiler-grpc-java-plugin",
        "libgrpc-java",
        "libprotobuf-java",
        "libgoogle-common-protos-java",
        "libguava-java",
        "libperfmark-java",
        "libnetty-java",
        "libgeronimo-annotation-1.3-spec-java",
        "liberror-prone-java",
        "golang-go",
        "protoc-gen-go",
        "protoc-gen-go-grpc",
        "golang-google-grpc-dev",
        "golang-google-genproto-dev",
        "golang-google-protobuf-dev",
        "golang-github-golang-protobuf-1-5-dev",
        "valgrind",
        "g++",
        "pkg-config",
        "libprotobuf-dev",
        "libgrpc++-dev",
    ]


def test_a_line_that_is_not_one_package_name_is_refused_with_its_line_number():
    with pytest.raises(installer.SetupError) as error:
        installer.read_list("curl  # fine\nchromium fonts-wqy-microhei  # two\n", "packages")
    assert str(error.value) == (
        "packages:2: expected one Debian package name then `# why`, got 'chromium fonts-wqy-microhei  # two'"
    )
    with pytest.raises(installer.SetupError, match=r"^packages:1: .*got 'Curl'$"):
        installer.read_list("Curl\n", "packages")


def test_a_bad_list_is_exit_2_and_one_line(folder):
    (folder / "packages").write_text("curl wget\n")
    ended = run("--list", str(folder / "packages"))
    assert (ended.returncode, ended.stdout) == (2, "")
    assert ended.stderr == (
        f"install_debian_packages: {folder}/packages:1: expected one Debian package name then `# why`, got 'curl wget'\n"
    )


def test_every_program_the_tests_take_from_debian_is_in_the_list():
    listed = set(installer.read_list((ROOT / ".ci/debian-packages").read_text()))
    assert set(PACKAGE_OF.values()) - listed == set()
    assert missing_message("promtool") == (
        "promtool is missing: install Debian package prometheus (listed in .ci/debian-packages; `make test` installs it)"
    )


def test_after_make_test_every_listed_package_is_installed():
    ended = run("--dry-run")
    count = len(installer.read_list((ROOT / ".ci/debian-packages").read_text()))
    assert (ended.returncode, ended.stdout, ended.stderr) == (
        0,
        f"Debian packages the tests use: all {count} installed\n",
        "",
    )


def test_nothing_missing_needs_neither_apt_nor_root(folder):
    """Only dpkg-query on the PATH, as an ordinary user: nothing to do, exit 0."""
    listed = package_list(folder, "make", "dpkg")
    ended = run("--list", str(listed), path=path_with(folder, "dpkg-query"), python="/usr/bin/python3", user="65534")
    assert (ended.returncode, ended.stdout, ended.stderr) == (0, "Debian packages the tests use: all 2 installed\n", "")


def test_a_name_an_installed_package_provides_counts_as_installed(folder):
    listing = subprocess.run(
        ["dpkg-query", "-W", "-f", "${db:Status-Abbrev}\t${Provides}\n"], capture_output=True, text=True, check=True
    ).stdout
    provided = sorted(
        entry.split()[0]
        for status, provides in (line.split("\t") for line in listing.splitlines())
        if status.startswith("ii")
        for entry in provides.split(",")
        if entry.strip()
    )
    assert provided, "no installed package provides another name on this machine"
    ended = run("--list", str(package_list(folder, provided[0])))
    assert (ended.returncode, ended.stdout) == (0, "Debian packages the tests use: all 1 installed\n")


def test_the_dry_run_names_what_is_missing_and_installs_nothing(folder):
    ended = run("--dry-run", "--list", str(package_list(folder, "make", ABSENT, "dpkg")))
    assert (ended.returncode, ended.stdout, ended.stderr) == (0, f"would install Debian packages: {ABSENT}\n", "")


def test_missing_packages_without_root_say_what_to_install_and_fail(folder):
    ended = run("--list", str(package_list(folder, ABSENT, "make")), python="/usr/bin/python3", user="65534")
    assert (ended.returncode, ended.stdout) == (1, "")
    assert ended.stderr == (
        f"missing Debian packages: {ABSENT}; this is not root, so install them yourself:\n"
        f"  sudo apt-get install -y --no-install-recommends {ABSENT}\n"
    )


def test_missing_packages_without_apt_say_what_to_install_and_fail(folder):
    ended = run("--list", str(package_list(folder, ABSENT)), path=path_with(folder, "dpkg-query"))
    assert (ended.returncode, ended.stdout) == (1, "")
    assert ended.stderr == (
        f"missing Debian packages: {ABSENT}; apt-get is not on the PATH, so install them yourself:\n"
        f"  sudo apt-get install -y --no-install-recommends {ABSENT}\n"
    )


def test_a_machine_without_dpkg_is_told_what_the_suite_needs(folder):
    ended = run("--list", str(package_list(folder, "curl", "chromium")), path=str(folder))
    assert (ended.returncode, ended.stdout) == (1, "")
    assert ended.stderr == (
        "not a Debian system (no dpkg-query): install the equivalents of the Debian packages\n"
        "  curl chromium\n"
        f"then run again with {installer.SKIP_VARIABLE}=1\n"
    )
    skipped = run("--list", str(folder / "packages"), path=str(folder), **{installer.SKIP_VARIABLE: "1"})
    assert (skipped.returncode, skipped.stdout) == (
        0,
        f"{installer.SKIP_VARIABLE}=1: not checking the Debian packages curl chromium\n",
    )


def test_as_root_it_says_what_it_installs_and_installs_it_with_apt_get(folder):
    """apt-get here is a stand-in that records its calls: the suite does not install packages."""
    bin_dir = Path(path_with(folder, "dpkg-query"))
    calls = folder / "calls"
    (bin_dir / "apt-get").write_text(f'#!/bin/sh\necho "$DEBIAN_FRONTEND $*" >> {calls}\n')
    (bin_dir / "apt-get").chmod(0o755)
    ended = run("--list", str(package_list(folder, "make", ABSENT)), path=str(bin_dir))
    assert (ended.returncode, ended.stdout, ended.stderr) == (0, f"installing Debian packages: {ABSENT}\n", "")
    assert calls.read_text().splitlines() == [
        "noninteractive -o DPkg::Lock::Timeout=300 update -qq",
        f"noninteractive -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends {ABSENT}",
    ]


def test_a_test_whose_program_is_missing_fails_with_one_line_naming_the_package(monkeypatch, folder):
    monkeypatch.setenv("PATH", str(folder))
    with pytest.raises(pytest.fail.Exception) as failed:
        debian_tool("chromium")
    assert str(failed.value) == (
        "chromium is missing: install Debian package chromium (listed in .ci/debian-packages; `make test` installs it)"
    )
    assert failed.value.pytrace is False

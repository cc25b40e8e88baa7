"""The Java client (clients/java) built by `make client-java` from Debian's packages, against the real server.

Its example program settles worked example 1 (seat deltas), an illegal win (its reasons), a
malformed request (the BadRequest's field paths read from the status details), a batch past its
deadline; and, started before its server, it retries UNAVAILABLE until the server answers.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from clients.client import retry_service_config
from tests.clients.compiled_clients import FAMILY_NAMES, missing_names, run_clients_md_protoc, same_code
from tests.server.conftest import ROOT, run_server

JAR = ROOT / "build/java/shmj-client.jar"
SOURCES = ROOT / "clients/java/src/com/mahjong/shanghai/client"
CLIENTS_MD = ROOT / "docs/CLIENTS.md"
EXAMPLE_OUTPUT = (
    "legal: seat_deltas [36.0, -12.0, -12.0, -12.0]\n"
    "illegal: seat 1 legal false reasons [ILLEGAL_REASON_NO_QUALIFYING_PATTERN]\n"
    "knock: value 20.0 seat_deltas [60.0, -20.0, -20.0, -20.0]\n"
    "malformed: INVALID_ARGUMENT\n"
    "  winners[0].hand.concealed: 0 meld(s) leave 14 concealed tiles, got 13\n"
    "deadline: DEADLINE_EXCEEDED\n"
)
RETRY_LINE = "retrying: UNAVAILABLE"
# A call whose deadline passed while the channel was still connecting (a loaded host) is retried too.
SLOW_CONNECT_LINE = "retrying: DEADLINE_EXCEEDED"
HOST_PORT = "expected HOST:PORT with a port from 1 to 65535, or a gRPC URI such as dns:///HOST:PORT"


@pytest.fixture(scope="module")
def java_client() -> Path:
    """`make client-java`, which names the Debian packages it lacks (.ci/debian-packages installs them)."""
    result = subprocess.run(["make", "client-java"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    if result.returncode:
        pytest.fail(f"make client-java failed:\n{result.stderr}", pytrace=False)
    return JAR


def java(*args: str, **popen) -> subprocess.Popen:
    return subprocess.Popen(["java", "-jar", str(JAR), *args], cwd=ROOT, text=True, **popen)


def test_the_java_example_settles_refuses_and_times_out_as_the_service_answers(java_client, server):
    process = java(server.address, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate(timeout=120)
    assert (process.returncode, out, err) == (0, EXAMPLE_OUTPUT, "")


def test_the_java_client_retries_unavailable_until_a_late_server_answers(java_client, tmp_path):
    # The port bound but not listening: connections to it are refused, and no other test's server takes it.
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        port, stderr = holder.getsockname()[1], tmp_path / "java-stderr.txt"
        with open(stderr, "w") as err:
            process = java(f"127.0.0.1:{port}", stdout=subprocess.PIPE, stderr=err)
        try:
            wait_for_text(stderr, RETRY_LINE, process, timeout=60)
        except BaseException:
            process.kill()
            raise
    try:
        with run_server(tmp_path, port=port):
            out, _ = process.communicate(timeout=120)
    finally:
        process.kill()
        process.wait()
    assert (process.returncode, out) == (0, EXAMPLE_OUTPUT)
    lines = set(stderr.read_text().splitlines())
    assert RETRY_LINE in lines and lines <= {RETRY_LINE, SLOW_CONNECT_LINE}


def test_the_protoc_command_of_clients_md_generates_what_the_java_build_does(java_client, tmp_path):
    """The plain protoc line for Java, run as written with Debian's tools, gives the build's code."""
    generated = run_clients_md_protoc("--java_out", tmp_path)
    names = same_code(ROOT / "build/java/gen", generated / "java", "*.java")
    assert "com/mahjong/shanghai/v1/ScoringServiceGrpc.java" in names


def test_the_java_generated_code_carries_the_rule_families_fields_and_enums(java_client):
    """Each field by its number's constant (DRAGON_FLOWERS_FIELD_NUMBER), each enum value by name."""
    names = [name.upper() + "_FIELD_NUMBER" if name.islower() else name for name in FAMILY_NAMES]
    assert missing_names(ROOT / "build/java/gen", names) == []


def test_the_java_example_without_a_target_prints_its_usage(java_client):
    process = java(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate(timeout=60)
    assert (process.returncode, out, err) == (2, "", "usage: java -jar shmj-client.jar HOST:PORT\n")


PRINT_CONFIG = """
import java.util.*;

public class PrintConfig {
    static String json(Object value) {
        List<String> parts = new ArrayList<>();
        if (value instanceof Map<?, ?> map) {
            new TreeMap<Object, Object>(map).forEach((k, v) -> parts.add(json(k) + ":" + json(v)));
            return "{" + String.join(",", parts) + "}";
        }
        if (value instanceof List<?> list) {
            list.forEach(v -> parts.add(json(v)));
            return "[" + String.join(",", parts) + "]";
        }
        return value instanceof String ? "\\"" + value + "\\"" : String.valueOf(value);
    }

    public static void main(String[] args) {
        System.out.println(json(com.mahjong.shanghai.client.ScoringClient.retryServiceConfig()));
    }
}
"""


def test_the_java_client_retries_with_the_python_clients_service_config(java_client, tmp_path):
    (tmp_path / "PrintConfig.java").write_text(PRINT_CONFIG)
    printed = subprocess.run(
        ["java", "-cp", str(JAR), str(tmp_path / "PrintConfig.java")], capture_output=True, text=True, timeout=120
    )
    assert (printed.returncode, printed.stderr) == (0, "")
    assert json.loads(printed.stdout, object_hook=seconds) == json.loads(retry_service_config(), object_hook=seconds)


def seconds(document: dict) -> dict:
    """Durations as numbers of seconds: "2s" and "2.0s" are the same backoff."""
    return {k: float(v[:-1]) if k.endswith("Backoff") else v for k, v in document.items()}


@pytest.mark.parametrize(
    ("target", "problem"),
    [
        ("", "target '': " + HOST_PORT),
        ("localhost", "target localhost: " + HOST_PORT),
        ("127.0.0.1:99999", "target 127.0.0.1:99999: " + HOST_PORT),
        ("[::1]:port", "target [::1]:port: " + HOST_PORT),
        (
            "dns:///bad name:1",
            "target dns:///bad name:1: cannot find a NameResolver for dns:///bad name:1"
            " (Illegal character in path at index 10: dns:///bad name:1)",
        ),
    ],
)
def test_a_target_that_is_not_one_is_exit_2_and_one_line(java_client, target, problem):
    process = java(target, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate(timeout=60)
    assert (process.returncode, out, err) == (2, "", f"shmj-client: {problem}\n")


def wait_for_text(path: Path, text: str, process: subprocess.Popen, timeout: float) -> None:
    """Until the process has written ``text`` to ``path``; fails if it ends or the time runs out first."""
    deadline = time.monotonic() + timeout
    while text not in path.read_text():
        assert process.poll() is None, f"ended {process.returncode} before {text!r}: {path.read_text()!r}"
        assert time.monotonic() < deadline, f"no {text!r} within {timeout} s: {path.read_text()!r}"
        time.sleep(0.05)


def test_the_java_code_of_clients_md_is_the_clients_text():
    """Every ```java block of docs/CLIENTS.md is lines of a file of clients/java, indented as a whole."""
    blocks = re.findall(r"```java\n(.*?)```", CLIENTS_MD.read_text(), flags=re.S)
    sources = [path.read_text() for path in sorted(SOURCES.glob("*.java"))]
    assert len(blocks) == 5
    for block in blocks:
        indented = {textwrap.indent(block, " " * depth) for depth in (0, 4, 8)}
        assert any(f"\n{text}" in source for text in indented for source in sources), block


def test_the_java_session_of_clients_md_prints_the_examples_output():
    (session,) = re.findall(r"```console\n(\$ apt-get install -y openjdk.*?)```", CLIENTS_MD.read_text(), flags=re.S)
    assert session.split("$ java -jar build/java/shmj-client.jar 127.0.0.1:50051\n")[1] == EXAMPLE_OUTPUT
    install = session.split("$ make client-java\n")[0].replace("\\\n", " ").split()
    assert install[:4] == ["$", "apt-get", "install", "-y"]
    assert install[4:] == list(java_build_packages()), "the packages clients/java/build.sh names, in its order"


def java_build_packages() -> dict[str, None]:
    """The Debian packages clients/java/build.sh names, in its order."""
    build = (ROOT / "clients/java/build.sh").read_text()
    return dict.fromkeys(re.findall(r'^    "\S+ ([a-z0-9.+-]+)(?: compile)?"$', build, flags=re.M))


def test_every_debian_package_the_java_build_names_is_installed_by_ci():
    listed = {line.split()[0] for line in (ROOT / ".ci/debian-packages").read_text().splitlines() if line[:1].isalnum()}
    assert len(java_build_packages()) == 11
    assert set(java_build_packages()) <= listed


def test_the_java_build_names_the_debian_packages_it_lacks(tmp_path):
    result = subprocess.run(
        ["clients/java/build.sh", str(tmp_path / "out")],
        cwd=ROOT,
        env=dict(os.environ, JAVA_JARS=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "the Java client needs Debian packages that are not installed: apt-get install -y libgrpc-java"
        " libprotobuf-java libgoogle-common-protos-java libguava-java libperfmark-java libnetty-java"
        " libgeronimo-annotation-1.3-spec-java liberror-prone-java\n"
    )
    assert not (tmp_path / "out").exists()

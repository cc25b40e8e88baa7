"""The Go and C++ clients' example programs: built by make, run against a real server.

Both print the same lines for the same answers, so one expected text checks both, and
`CompiledClientChecks` holds what every compiled client's tests check; each test module
subclasses it, naming its client, and adds its language's own checks.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.server.conftest import ROOT, free_port, run_server

SERVICE_PROTOS = sorted((ROOT / "proto/mahjong/shanghai/v1").glob("*.proto"))
EXAMPLE_OUTPUT = (
    "legal: seat 0 LEGAL PATTERN_ALL_PUNGS PATTERN_CONCEALED, value 12; seat deltas 36 -12 -12 -12\n"
    "illegal: seat 1 NOT LEGAL ILLEGAL_REASON_NO_QUALIFYING_PATTERN; seat deltas 0 0 0 0\n"
    "knock: seat 0 LEGAL PATTERN_ALL_PUNGS PATTERN_CONCEALED, value 20; seat deltas 60 -20 -20 -20\n"
    "malformed: INVALID_ARGUMENT, 2 field violations\n"
    "  winners[0].seat: must be a seat 0-3\n"
    "  winners[0].hand.concealed: 0 meld(s) leave 14 concealed tiles, got 13\n"
    "deadline: DEADLINE_EXCEEDED after 1 ms, 1000 hands in one batch\n"
)


def retry_output(late_target: str) -> str:
    return f"retry: UNAVAILABLE from {late_target}, retrying with backoff\nretry: seat deltas 36 -12 -12 -12\n"


def build(make_target: str, binary: Path) -> Path:
    """`make TARGET`: once per session; make rebuilds only what changed (cached in build/clients/)."""
    result = subprocess.run(["make", "-j2", make_target], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"make {make_target} failed:\n{result.stderr[-4000:]}"
    assert binary.is_file(), binary
    return binary


def run_example(binary: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=120)


def run_against_a_late_server(binary: Path, server, tmp_path: Path) -> tuple[int, str, str, str]:
    """The example with --late-target at a port where nothing listens until it has retried once:
    its exit code, output, error output and the late target."""
    late_target = f"127.0.0.1:{free_port()}"
    stdout, stderr = tmp_path / "stdout.txt", tmp_path / "stderr.txt"
    with open(stdout, "w") as out, open(stderr, "w") as err:
        process = subprocess.Popen(
            [str(binary), "--target", server.address, "--late-target", late_target], stdout=out, stderr=err
        )
    try:
        wait_for_text(stdout, f"retry: UNAVAILABLE from {late_target}", timeout=60)
        with run_server(tmp_path, port=int(late_target.rsplit(":", 1)[1])):
            process.wait(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, stdout.read_text(), stderr.read_text(), late_target


def wait_for_text(path: Path, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while text not in path.read_text():
        assert time.monotonic() < deadline, f"no {text!r} within {timeout} s: {path.read_text()!r}"
        time.sleep(0.05)


def buf_generate(tmp_path: Path, plugin_names: set[str]) -> Path:
    """`buf generate` with buf.gen.yaml's entries for those plugins, as written, into tmp_path."""
    template = yaml.safe_load((ROOT / "buf.gen.yaml").read_text())
    plugins = [p for p in template["plugins"] if (p.get("local") or p.get("protoc_builtin")) in plugin_names]
    assert len(plugins) == len(plugin_names)
    for plugin in plugins:
        plugin["out"] = str(tmp_path / plugin["out"])
    (tmp_path / "buf.gen.yaml").write_text(yaml.safe_dump(dict(template, plugins=plugins)))
    buf = Path(sys.executable).parent / "buf"
    result = subprocess.run([buf, "generate", "--template", tmp_path / "buf.gen.yaml"], cwd=ROOT, capture_output=True)
    assert (result.returncode, result.stderr) == (0, b"")
    return tmp_path / "out"


def same_code(built: Path, generated: Path, pattern: str, drop: str = "") -> list[str]:
    """The files under built that match pattern, by relative path, each checked to be the
    generated one's text but for what drop matches, if anything (what buf and protoc tell
    plugins differently: protoc's version, the json_name buf spells out in field comments)."""
    names = sorted(str(path.relative_to(built)) for path in built.rglob(pattern))
    assert names, built
    for name in names:
        built_text, generated_text = (built / name).read_text(), (generated / name).read_text()
        if drop:
            built_text, generated_text = re.sub(drop, "", built_text), re.sub(drop, "", generated_text)
        assert built_text == generated_text, name
    return names


def clients_md_blocks(language: str) -> list[str]:
    """The code blocks of docs/CLIENTS.md in that language (```go, ```cpp)."""
    return re.findall(rf"```{language}\n(.*?)```", (ROOT / "docs/CLIENTS.md").read_text(), flags=re.S)


def clients_md_output(command: str) -> str:
    """What docs/CLIENTS.md shows a console command printing: the lines after `$ command`."""
    (shown,) = re.findall(rf"^\$ {re.escape(command)}\n(.*?)^```", (ROOT / "docs/CLIENTS.md").read_text(), re.M | re.S)
    return shown


def clients_md_protoc_command(output_flag: str, out: Path) -> str:
    """The plain protoc command of docs/CLIENTS.md that has output_flag (--go_out), writing to out."""
    doc = (ROOT / "docs/CLIENTS.md").read_text()
    (block,) = re.findall(r"With plain protoc:\n\n```sh\n(.*?)```", doc, flags=re.S)
    (command,) = [c for c in block.replace("\\\n", " ").splitlines() if f" {output_flag}=" in c]
    return command.replace("out/", f"{out}/")


def run_clients_md_protoc(output_flag: str, tmp_path: Path) -> Path:
    """That command run as written from the repository root with Debian's tools, into tmp_path."""
    for language in ("go", "java", "cpp"):
        (tmp_path / language).mkdir()
    command = clients_md_protoc_command(output_flag, tmp_path)
    result = subprocess.run(["bash", "-c", command], cwd=ROOT, env={"PATH": "/usr/bin:/bin"}, capture_output=True)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b""), command
    return tmp_path


def toolchain_packages(language: str) -> set[str]:
    """The Debian packages clients/toolchain.sh checks for a language."""
    script = (ROOT / "clients/toolchain.sh").read_text()
    (needs,) = re.findall(rf'^{language}\) name=\S+ needs="(.*?)" ;;$', script, flags=re.M | re.S)
    return {line.rsplit(":", 1)[1] for line in needs.splitlines()}


def ci_debian_packages() -> set[str]:
    lines = (ROOT / ".ci/debian-packages").read_text().splitlines()
    return {line.split()[0] for line in lines if line[:1].isalnum()}


# What the rule families of RULES.md section 14 add to the messages and enums, by the names every
# language's generated code spells them with (a field's proto name is in each one's descriptor).
FAMILY_NAMES = (
    "dragon_flowers",
    "last_tile",
    "declared_seats",
    "pattern_kept",
    "dragons_are_flowers",
    "win_requires_declaration",
    "EVENT_KIND_DECLARE",
    "ILLEGAL_REASON_NOT_DECLARED",
    "ILLEGAL_REASON_TOO_FEW_FLOWERS",
    "LIABILITY_MODE_CONTRACT",
    "LIABILITY_MODE_BAOSANKOU",
    "PATTERN_LAST_TILE",
    "PATTERN_SEVEN_PAIRS",
)


def missing_names(generated: Path, names=FAMILY_NAMES) -> list[str]:
    """The names that no file of the generated code holds."""
    text = "".join(path.read_text(errors="replace") for path in generated.rglob("*") if path.is_file())
    return [name for name in names if name not in text]


NOT_TARGETS = ["", "not a target", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:99999", "::1:50051"]


class CompiledClientChecks:
    make_target: str  # make client-go
    example_command: str  # the example program, relative to the repository
    language: str  # clients/toolchain.sh's argument, and the code blocks' language in CLIENTS.md
    sources: list[Path]  # the client's files, which CLIENTS.md quotes
    generated: str  # where the build generates the client's code, relative to the repository
    first_missing: str  # what clients/toolchain.sh says first when nothing is installed
    missing_packages: str  # and last: every package

    @pytest.fixture(scope="class")
    @staticmethod
    def example(request) -> Path:
        return build(request.cls.make_target, ROOT / request.cls.example_command)

    def test_the_example_settles_refuses_and_times_out_as_the_service_answers(self, example, server):
        result = run_example(example, "--target", server.address)
        assert (result.returncode, result.stdout, result.stderr) == (0, EXAMPLE_OUTPUT, "")

    def test_the_generated_code_carries_the_rule_families_fields_and_enums(self, example):
        assert missing_names(ROOT / self.generated) == []

    def test_the_client_retries_unavailable_until_a_late_server_answers(self, example, server, tmp_path):
        code, out, err, late_target = run_against_a_late_server(example, server, tmp_path)
        assert (code, out, err) == (0, EXAMPLE_OUTPUT + retry_output(late_target), "")

    @pytest.mark.parametrize(
        ("flag", "target"),
        [("--target", t) for t in NOT_TARGETS] + [("--late-target", t) for t in NOT_TARGETS if t],
    )
    def test_a_target_that_is_not_one_is_refused_in_one_line(self, example, flag, target):
        result = run_example(example, flag, target)
        refusal = (
            f'{example.name}: target "{target}" is neither HOST:PORT (a port 1-65535)'
            " nor a gRPC target such as dns:///HOST:PORT\n"
        )
        assert (result.returncode, result.stdout, result.stderr) == (2, "", refusal)

    def test_a_server_that_is_not_there_is_unavailable_at_the_deadline(self, example):
        result = run_example(example, "--target", f"127.0.0.1:{free_port()}")
        assert (result.returncode, result.stderr) == (1, "")
        assert result.stdout.startswith("legal: failed: UNAVAILABLE: ") and result.stdout.count("\n") == 1

    def test_clients_md_shows_what_the_example_prints(self):
        assert clients_md_output(f"{self.example_command} --target 127.0.0.1:50051") == EXAMPLE_OUTPUT

    def test_the_code_of_clients_md_is_the_clients_text(self):
        """Every code block of the language in docs/CLIENTS.md appears verbatim in a file of the client."""
        sources = [path.read_text() for path in self.sources]
        blocks = clients_md_blocks(self.language)
        assert len(blocks) >= 4
        for block in blocks:
            assert any(block in source for source in sources), block

    def test_a_missing_toolchain_is_named_by_its_debian_packages(self, tmp_path):
        result = subprocess.run(
            ["sh", "clients/toolchain.sh", self.language],
            cwd=ROOT,
            env={"SHMJ_TOOLCHAIN_ROOT": str(tmp_path)},
            capture_output=True,
            text=True,
        )
        assert (result.returncode, result.stdout) == (1, "")
        lines = result.stderr.splitlines()
        assert (lines[0], lines[-1]) == (self.first_missing, f"missing Debian packages: {self.missing_packages}")
        assert toolchain_packages(self.language) <= ci_debian_packages()

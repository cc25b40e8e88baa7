"""The README and the guides say what the project does: every session they show prints what a
user gets, the library example runs, the flag table is complete, and following them leaves
nothing new in the clone for `git status` to list."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

import rules_core as rc
from server.config import ServerConfig
from tests.server.conftest import ROOT, free_port, server  # noqa: F401  (the real server)

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def guide(name: str) -> str:
    """The text of docs/NAME."""
    return (Path(__file__).resolve().parents[1] / "docs" / name).read_text()


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_readme_opens_with_the_two_commands():
    first_block = re.search(r"```sh\n(.*?)```", README, flags=re.S).group(1)
    assert [line.split()[:2] for line in first_block.strip().splitlines()] == [["make", "run"], ["make", "test"]]
    assert "make test" in (Path(__file__).resolve().parents[1] / ".ci/run").read_text()


def test_the_set_up_on_another_python_stops_at_once_saying_which_is_needed(tmp_path):
    """`make run` and `make test` install for Python 3.11 (the README's first requirement); a
    machine whose python3 is another stops before pip, in one line saying what to do."""
    fake = tmp_path / "python3.12"
    fake.write_text(
        f'#!/bin/sh\nexec {sys.executable} -c "import sys; sys.version_info = (3, 12, 1); exec(sys.argv[1])" "$2"\n'
    )
    fake.chmod(0o755)
    ended = subprocess.run(
        ["make", "-s", "python-version", f"PYTHON={fake}"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert ended.returncode == 2
    assert ended.stderr.splitlines()[0] == (
        f"make: Python 3.11 is needed, {fake} is 3.12: install python3.11, or name it with make PYTHON=/path/to/python3.11"
    )
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^\$\(SERVER_STAMP\): .*\| python-version$", makefile, flags=re.M)  # before the venv is made
    assert subprocess.run(["make", "-s", "python-version"], cwd=ROOT, capture_output=True).returncode == 0


def test_the_set_up_without_npm_says_what_to_install_and_that_the_node_tests_fail(tmp_path):
    """They fail, naming make install (tests/clients/test_client_node.py): the set-up said they would
    be skipped. Run with -B and no npm on the PATH, the recipe touches nothing."""
    stamp = "clients/node/node_modules/.installed"
    ended = subprocess.run(
        [shutil.which("make"), "-s", "-B", stamp],
        cwd=ROOT,
        env={"PATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (ended.returncode, ended.stderr) == (0, "")
    assert ended.stdout == (
        "npm not found: install Debian's npm and run make install again (the Node.js client's tests fail without"
        " its packages)\n"
    )


def test_library_example_runs_and_its_comments_are_true():
    namespace: dict = {}
    exec(python_blocks(guide("DEVELOPING.md"))[0], namespace)
    result = namespace["result"]
    assert str(result.winners[0].patterns) == "(<Pattern.ALL_PUNGS: 1>,)"
    assert result.winners[0].value == 12.0
    assert result.seat_deltas == (-12.0, -12.0, -12.0, 36.0)
    assert (result.next_hand.dealer_seat, result.next_hand.huangfan_count) == (3, 0)


def test_every_server_flag_is_documented():
    operations = guide("OPERATIONS.md")
    for f in fields(ServerConfig):
        flag = "--" + f.name.replace("_", "-")
        assert f"`{flag}`" in operations, flag


def test_the_flag_tables_defaults_are_the_servers():
    operations = guide("OPERATIONS.md")
    table = operations[operations.index("| flag | default | meaning |") :]
    shown = {}
    for flags, default in re.findall(r"^\| ((?:`--[a-z-]+`(?:, )?)+) \|([^|]*)\|", table, flags=re.M):
        shown.update({flag: default.strip() for flag in re.findall(r"`(--[a-z-]+)`", flags)})
    defaults = ServerConfig()
    for f in fields(ServerConfig):
        value = getattr(defaults, f.name)
        expected = f"`{str(value).lower() if isinstance(value, bool) else value}`" if value != "" else ""
        assert shown["--" + f.name.replace("_", "-")] == expected, f.name


# --- the guides' commands and client examples, run as written -------------------------------

EXAMPLES = ROOT / "examples"


def section(title: str, text: str = README) -> str:
    """The text from a heading (of level 2 or 3) to the next heading of level 2 or 3."""
    start = re.search(rf"^#{{2,3}} {re.escape(title)}\n", text, flags=re.M).start()
    following = re.search(r"\n#{2,3} ", text[start + 4 :])
    return text[start : start + 4 + following.start()] if following else text[start:]


def fenced(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


@pytest.fixture
def user_dir(tmp_path):
    """A clone as the README leaves it to the guides' commands (`scratch/` made), under git with
    the repository's .gitignore: whatever a command leaves that `git status` would list as new
    fails the test."""
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    (tmp_path / "examples").symlink_to(EXAMPLES)
    (tmp_path / "scratch").mkdir()
    shutil.copy(ROOT / ".gitignore", tmp_path / ".gitignore")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".git/info/exclude").write_text("/.venv\n/examples\n/.gitignore\n/background-*.log\n")
    yield tmp_path
    left = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=tmp_path, capture_output=True, text=True
    )
    assert left.stdout == ""


def run_console(block: str, cwd: Path, address: str | None = None) -> None:
    """Each `$ command` of a console block, checked against the lines shown under it."""
    steps = re.findall(r"^\$ (.*)\n((?:(?!\$ ).*\n)*)", block, flags=re.M)
    assert steps
    for command, expected in steps:
        if address:
            command = command.replace("127.0.0.1:50051", address)
        result = subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, (command, result.stderr)
        assert result.stdout == expected, command


def test_sample_data_commands_run_as_written(user_dir):
    (block,) = fenced(section("Sample data and request files", guide("CLI.md")), "console")
    run_console(block, user_dir)
    (line,) = (user_dir / "scratch/my-hands.jsonl").read_text().splitlines()
    assert json.loads(line)["profile"] == "lezi"


def test_replay_session_runs_as_written(user_dir):
    (block,) = fenced(section("Replaying hand records (牌谱)", guide("CLI.md")), "console")
    run_console(block, user_dir)


def test_sample_data_covers_every_profile_and_outcome():
    requests = [json.loads(line) for line in (EXAMPLES / "requests.jsonl").read_text().splitlines()]
    pairs = {(r["profile"], r["outcome"]) for r in requests}
    outcomes = {f"OUTCOME_{o.name}" for o in rc.Outcome}
    built_in = ("classic", "sankou", "lezi", "qiaoma", "qiaoma_lezi", "qinghunpeng")  # lezi alone has an abandon rule
    assert pairs == {(p, o) for p in built_in for o in outcomes if o != "OUTCOME_ABANDON" or p == "lezi"}
    answers = [rc.settle_json(r) for r in requests]
    assert len(requests) == 37 and len({r["requestId"] for r in requests}) == 37
    not_legal = [a["requestId"] for a in answers if any(not w["legal"] for w in a["winners"])]
    assert not_legal == [
        "rules-example-6-not-legal",
        "rules-example-7-lezi-not-legal",
        "rules-example-19-not-legal",
        "qiaoma-eight-flowers-not-legal",  # RULES.md 14.10.2: no 八花 under qiaoma
        "qiaoma-not-declared-not-legal",
        "qiaoma_lezi-no-flowers-on-a-discard-not-legal",
        "qinghunpeng-no-pattern-not-legal",
    ]
    for name in ("settle-request.json", "check-win-request.json", "list-waits-request.json"):
        assert json.loads((EXAMPLES / name).read_text())["profile"] == "classic", name


def test_rescore_commands_run_as_written(user_dir, server):  # noqa: F811  (the fixture)
    (block,) = fenced(section("On one machine: `shmj rescore`", guide("BATCH.md")), "sh")
    lines = [line.split("  #")[0].strip() for line in block.strip().splitlines()]
    for line in lines:
        command = line.replace("127.0.0.1:50051", server.address) + " --no-progress"
        result = subprocess.run(["bash", "-c", command], cwd=user_dir, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, (command, result.stderr)
    for name in ("local.jsonl", "settled.jsonl", "lezi.jsonl"):
        assert len((user_dir / "scratch" / name).read_text().splitlines()) == 35, name  # examples/hands.jsonl
    local, settled = ((user_dir / "scratch" / n).read_text() for n in ("local.jsonl", "settled.jsonl"))
    assert local == settled


# --- the example session at the top, against a server started as `make run` starts it ---------


def example_session() -> list[tuple[str, str]]:
    """The (command, lines shown under it) pairs of the README's first console block."""
    start = README.index("## An example session\n")
    (block,) = fenced(README[start : README.index("\n## ", start + 1)], "console")
    return re.findall(r"^\$ (.*)\n((?:(?!\$ ).*\n)*)", block, flags=re.M)


def test_the_example_session_prints_what_the_readme_shows(tmp_path):
    """`make run &`'s log lines have the events and fields shown (the rest elided as `...`); each
    later command prints exactly its lines against a fresh two-worker server, the metrics counting
    the three calls before them."""
    from tests.server.conftest import run_server

    steps = example_session()
    assert [command for command, _ in steps][0] == "make run &"
    assert steps[-1][0].startswith("kill %1")
    with run_server(tmp_path, workers=2, health_check=False) as running:
        _assert_logged_as_shown(running.log(), steps[0][1])
        (metrics_port,) = re.findall(r":(\d+)/metrics", running.metrics_url)
        for command, expected in steps[1:-1]:
            command = command.replace("127.0.0.1:9464", f"127.0.0.1:{metrics_port}")
            if command.startswith(".venv/bin/shmj "):
                command += f" --target {running.address}"
            result = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=60)
            assert result.stdout + result.stderr == expected.rstrip("\n") + "\n", command
            assert result.returncode == (2 if "INVALID_ARGUMENT" in expected else 0), command
    # `kill %1`: run_server's SIGTERM, waited for; the supervisor's last line says how the workers ended
    assert running.process.returncode == 0
    _assert_logged_as_shown(running.log(), steps[-1][1])
    assert json.loads(running.log().splitlines()[-1]) | {"pid": 0, "timestamp": ""} == {
        "exitcodes": [0, 0],
        "event": "stopped",
        "level": "info",
        "pid": 0,
        "timestamp": "",
    }


def _assert_logged_as_shown(log: str, shown_lines: str) -> None:
    """Each line shown (`{"field": value, ..., ...}`) is a logged line of its event, with those fields."""
    logged = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    assert shown_lines.strip()
    for shown in shown_lines.strip().splitlines():
        fields_shown = set(re.findall(r'"(\w+)": ', shown))
        (event,) = re.findall(r'"event": "([^"]+)"', shown)
        assert any(line["event"] == event and fields_shown <= set(line) for line in logged), shown


def test_the_field_violations_session_of_clients_md_is_a_step_of_the_example_session():
    """docs/CLIENTS.md shows the same command; the example session's test runs it."""
    clients_md = (ROOT / "docs/CLIENTS.md").read_text()
    (block,) = fenced(clients_md[clients_md.index("## Reading the field violations") :], "console")[:1]
    ((command, shown),) = re.findall(r"^\$ (.*)\n((?:(?!\$ ).*\n)*)", block, flags=re.M)
    assert (command, shown.rstrip("\n")) in [(c, s.rstrip("\n")) for c, s in example_session()]


def test_the_load_testing_command_runs_as_written_at_a_gentler_rate(user_dir, server):  # noqa: F811  (the fixture)
    (block,) = fenced(section("Load testing", guide("CLI.md")), "sh")
    command = " ".join(block.replace("\\\n", " ").split())
    assert "--rate 1000 --duration 15" in command
    command = command.replace("--rate 1000 --duration 15", "--rate 100 --duration 1")
    result = subprocess.run(
        ["bash", "-c", command.replace("127.0.0.1:50051", server.address)],
        cwd=user_dir,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads((user_dir / "scratch/loadtest.json").read_text())
    assert (report["sent"], report["completed"], report["errors_by_code"]) == (100, 100, {})
    assert set(report["latency_ms"]) >= {"p50", "p90", "p99", "max"} and len(report["by_rpc"]) == 4
    assert (user_dir / "scratch/loadtest.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_layout_names_every_folder_of_the_repository():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    folders = {name.split("/")[0] for name in tracked if "/" in name}
    developing = guide("DEVELOPING.md")
    layout = developing[developing.index("## Layout\n") : developing.index("## The rules library")]
    named = {cell.split("/")[0] for cell in re.findall(r"^\| `([^`]+)` \|", layout, flags=re.M)}
    assert sorted(folders - named) == []


def test_the_dask_session_prints_what_the_readme_shows(user_dir):
    """The Dask session as written: a scheduler, `dask worker ... --nworkers 2`, the two
    rescore jobs and the `ls`, each command's output (stderr and stdout, as a terminal shows
    them) equal to the README's. Only the ports (free ones, for a shared machine) and the
    time a job took differ; nothing else may."""
    (block,) = fenced(section("A Dask session, with Parquet and rule-change reports", guide("BATCH.md")), "console")
    scheduler, dashboard = free_port(), free_port()
    block = block.replace("--port 8786", f"--port {scheduler} --dashboard-address 127.0.0.1:{dashboard}")
    block = block.replace(":8786", f":{scheduler}").replace(":8787/", f":{dashboard}/")
    steps = re.findall(r"^\$ ((?:.*\\\n)*.*)\n((?:(?!\$ ).*\n)*)", block, flags=re.M)
    assert [command.split()[0] for command, _ in steps] == [".venv/bin/dask"] * 2 + [".venv/bin/shmj"] * 2 + ["ls"]
    took = re.compile(r" in \d+(\.\d+)? s \(\d[\d,]*/s\)")
    background = []
    try:
        for command, expected in steps:
            if command.endswith("&"):
                log = open(user_dir / f"background-{len(background)}.log", "wb")  # noqa: SIM115  (closed below)
                background.append(
                    (
                        subprocess.Popen(
                            ["bash", "-c", command[:-1]],
                            cwd=user_dir,
                            stdout=log,
                            stderr=subprocess.STDOUT,
                            start_new_session=True,
                        ),
                        log,
                    )
                )
                if len(background) == 2:
                    from tests.clients.test_batch_dask import wait_for_workers

                    wait_for_workers(f"tcp://127.0.0.1:{scheduler}", 2)
                continue
            result = subprocess.run(["bash", "-c", command], cwd=user_dir, capture_output=True, text=True, timeout=300)
            assert result.returncode == 0, (command, result.stderr)
            shown, wanted = took.sub(" in T", result.stderr + result.stdout), took.sub(" in T", expected)
            if command.startswith("ls "):  # a terminal's ls prints in columns, a pipe's a name a line
                shown, wanted = shown.split(), wanted.split()
            assert shown == wanted, command
    finally:
        for process, log in reversed(background):
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            log.close()

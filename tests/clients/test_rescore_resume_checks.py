"""`shmj rescore`: a signal that comes once every line is written stops nothing (a hostile
tester's finding: SIGTERM after the last line was written gave exit 143 and `"complete": false`);
the input's line at a resumed output's last line is found as the input's lines are counted."""

from __future__ import annotations

import json
import os
import random
import signal
from concurrent.futures import ProcessPoolExecutor

import pytest

from batch import lines as batch_lines
from batch.lines import InputState
from clients import rescore
from rules_core.random_hands import generate_requests
from tests.clients.test_cli_errors import run
from tests.clients.test_rescore import request_line

TOTAL = 40


def summary_path(output):
    return output.with_name(output.name + ".summary.json")


def summary_of(output):
    return json.loads(summary_path(output).read_text())


def ids_of(path) -> list:
    return [json.loads(line).get("requestId") for line in path.read_text().splitlines()]


@pytest.fixture
def source(tmp_path):
    """Forty requests, ids r0 ... r39."""
    path = tmp_path / "in.jsonl"
    path.write_text("".join(request_line(r) + "\n" for r in generate_requests(TOTAL, 7)))
    return path


def rescore_args(source, output, *more) -> list[str]:
    return ["rescore", str(source), "-o", str(output), "--workers", "1", "--no-progress", *more]


def test_the_line_looked_up_is_found_in_the_same_pass_as_the_count(tmp_path, monkeypatch):
    """The input's line at the output's last line is found while its lines are counted (a resume
    reads the input once before it settles), whatever the blocks' bounds; one longer than any
    request is not read."""
    from batch.lines import count_lines_and_line

    monkeypatch.setattr(batch_lines, "BLOCK", 7)
    monkeypatch.setattr(batch_lines, "MAX_LINE_BYTES", 5)  # a longer line is not looked at: None
    chooser = random.Random(5)
    path = tmp_path / "lines.txt"
    for _ in range(200):
        data = b"".join(chooser.choice([b"\n", b"ab\n", b"abcdefghij\n", b"x"]) for _ in range(chooser.randrange(12)))
        path.write_bytes(data)
        lines = data.split(b"\n")
        if data.endswith(b"\n") or not data:
            lines.pop()
        for number in range(1, len(lines) + 2):
            expected = lines[number - 1] if number <= len(lines) and len(lines[number - 1]) <= 5 else None
            assert count_lines_and_line(path, len(data), number) == (len(lines), expected), (data, number)


# --- a signal once every line is written stops nothing ----------------------------------------


def send_sigterm() -> None:
    os.kill(os.getpid(), signal.SIGTERM)


def signal_when(monkeypatch, moment: str, total: int) -> None:
    """SIGTERM to this process at ``moment`` of the job."""
    sent = []

    def once() -> None:
        if not sent:
            sent.append(True)
            send_sigterm()

    if moment in ("as the last line is written", "as a line before the last is written"):
        add = rescore.Summary.add
        at = total if moment == "as the last line is written" else 10

        def added(summary, counts):
            add(summary, counts)
            if summary.lines == at:
                once()

        monkeypatch.setattr(rescore.Summary, "add", added)
    elif moment == "as the pool shuts down":
        shutdown = ProcessPoolExecutor.shutdown
        monkeypatch.setattr(ProcessPoolExecutor, "shutdown", lambda pool, *a, **k: once() or shutdown(pool, *a, **k))
    else:  # as the input is looked at again
        check = InputState.check
        monkeypatch.setattr(InputState, "check", lambda state, path: once() or check(state, path))


@pytest.mark.parametrize(
    ("workers", "moment"),
    [
        ("1", "as the last line is written"),
        ("1", "as the input is looked at again"),
        ("2", "as the last line is written"),
        ("2", "as the pool shuts down"),
        ("2", "as the input is looked at again"),
    ],
)
def test_a_signal_once_every_line_is_written_stops_nothing(workers, moment, source, tmp_path, monkeypatch, capsys):
    """The tester's `--local --workers 2` job: SIGTERM after its last line was written gave exit
    143, "terminated after line 4000; run again with --resume" and `"complete": false`. Every
    line written, the job is done: exit 0, complete, nothing stopped (as `--dask` says)."""
    output = tmp_path / "out.jsonl"
    signal_when(monkeypatch, moment, TOTAL)
    command = ["rescore", str(source), "-o", str(output), "--local", "--workers", workers, "--chunk", "10"]
    code, err = run([*command, "--no-progress"], capsys)
    assert code == 0, err
    assert err.startswith(f"{TOTAL} lines this run"), err
    summary = summary_of(output)
    assert (summary["lines"], summary["input_lines"], summary["complete"], summary["stopped"]) == (
        TOTAL,
        TOTAL,
        True,
        None,
    )
    assert summary["settled"] + summary["rejected"] == TOTAL
    assert ids_of(output) == [f"r{n}" for n in range(TOTAL)]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_signal_with_lines_still_to_write_still_stops_the_job(workers, source, tmp_path, monkeypatch, capsys):
    output = tmp_path / "out.jsonl"
    signal_when(monkeypatch, "as a line before the last is written", TOTAL)
    command = ["rescore", str(source), "-o", str(output), "--local", "--workers", workers, "--chunk", "10"]
    code, err = run([*command, "--no-progress"], capsys)
    written = len(output.read_text().splitlines())
    assert (code, err) == (143, f"shmj rescore: terminated after line {written}; run again with --resume to continue\n")
    assert 10 <= written < TOTAL
    summary = summary_of(output)
    assert (summary["lines"], summary["complete"], summary["stopped"]) == (written, False, "terminated")

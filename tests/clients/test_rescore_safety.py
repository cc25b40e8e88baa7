"""`shmj rescore` never loses data: the output is never the input, Ctrl-C leaves a job that
resumes, and the summary counts the whole output across every resume (issue 8)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from clients.cli import main
from generators.random_hands import generate_requests
from tests.clients.test_cli_errors import run
from tests.clients.test_rescore import mixed_file, request_line, summary_of
from tests.server.conftest import ROOT


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "hands.jsonl"
    mixed_file(path)
    return path


@pytest.mark.parametrize("link", ["same path", "symbolic link", "hard link", "other spelling"])
def test_the_output_is_never_the_input(link, source, tmp_path, capsys):
    before = source.read_bytes()
    output = {
        "same path": source,
        "symbolic link": tmp_path / "symlink.jsonl",
        "hard link": tmp_path / "hardlink.jsonl",
        "other spelling": tmp_path / "." / ".." / tmp_path.name / "hands.jsonl",
    }[link]
    if link == "symbolic link":
        output.symlink_to(source)
    if link == "hard link":
        os.link(source, output)
    code, err = run(["rescore", str(source), "-o", str(output), "--local", "--force", "--no-progress"], capsys)
    assert (code, err) == (2, f"shmj: the output {output} is the input file {source}; choose another -o\n")
    assert source.read_bytes() == before
    assert not (tmp_path / f"{output}.summary.json").exists()


@pytest.mark.parametrize("resume", [[], ["--resume"]])
def test_the_summary_is_never_the_input_or_the_output(resume, source, tmp_path, capsys):
    before = source.read_bytes()
    output = tmp_path / "out.jsonl"
    for summary, name in ((source, "input file"), (output, "output")):
        argv = ["rescore", str(source), "-o", str(output), "--summary", str(summary), "--local", "--no-progress"]
        assert run([*argv, *resume], capsys) == (2, f"shmj: --summary {summary} is the {name}; choose another\n")
    assert source.read_bytes() == before and not output.exists()


def test_the_input_must_be_a_file(tmp_path, capsys):
    output = tmp_path / "out.jsonl"
    assert run(["rescore", str(tmp_path / "none.jsonl"), "-o", str(output), "--local"], capsys) == (
        2,
        f"shmj: no such input file: {tmp_path / 'none.jsonl'}\n",
    )
    assert run(["rescore", str(tmp_path), "-o", str(output), "--local"], capsys) == (
        2,
        f"shmj: the input {tmp_path} is a directory, not a JSON Lines file\n",
    )
    assert not output.exists()


def test_the_output_cannot_be_a_directory(source, tmp_path, capsys):
    folder = tmp_path / "folder"
    folder.mkdir()
    assert run(["rescore", str(source), "-o", str(folder), "--local", "--force"], capsys) == (
        2,
        f"shmj: the output {folder} is a directory; -o names the JSON Lines file to write\n",
    )


def test_resume_refuses_an_output_longer_than_the_input(source, tmp_path, capsys):
    output = tmp_path / "out.jsonl"
    output.write_text("{}\n" * 9)
    assert run(["rescore", str(source), "-o", str(output), "--local", "--resume", "--no-progress"], capsys) == (
        2,
        f"shmj: {output} has 9 lines but {source} only 8: it is not this input's output\n",
    )
    assert output.read_text() == "{}\n" * 9


WHOLE_FILE = {"lines": 8, "input_lines": 8, "complete": True, "settled": 3, "rejected": 5, "legal_wins": 2}


def test_the_summary_counts_every_segment_of_a_resumed_job(source, tmp_path, capsys):
    output, first_part = tmp_path / "out.jsonl", tmp_path / "first.jsonl"
    lines = source.read_text().splitlines(keepends=True)
    first_part.write_text("".join(lines[:3]))
    # A job that stopped after line 3 (its summary on disk), then resumed on the whole input.
    assert main(["rescore", str(first_part), "-o", str(output), "--local", "--no-progress"]) == 0
    assert summary_of(output)["lines"] == 3
    assert main(["rescore", str(source), "-o", str(output), "--local", "--resume", "--no-progress"]) == 0
    summary = summary_of(output)
    assert {key: summary[key] for key in WHOLE_FILE} == WHOLE_FILE
    assert (summary["illegal_wins"], summary["lines_this_run"], summary["skipped_by_resume"]) == (1, 5, 3)
    # Resuming a finished job changes nothing and says so.
    assert main(["rescore", str(source), "-o", str(output), "--local", "--resume", "--no-progress"]) == 0
    again = summary_of(output)
    assert {key: again[key] for key in WHOLE_FILE} == WHOLE_FILE
    assert (again["lines_this_run"], again["skipped_by_resume"]) == (0, 8)
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("0 lines this run 本次行数 in ")
    assert (
        "; the output holds all 8 lines 行 输出共有: 3 lines settled 已结算行, 5 rejected 被拒行;"
        " their claimed wins 所报胡牌: 2 legal 合法, 1 not legal 不合法; summary 摘要 in "
    ) in last


def test_without_a_summary_the_earlier_lines_are_counted_from_the_output(source, tmp_path):
    """A job killed outright writes no summary; the resumed one reads the counts off the output."""
    full, partial = tmp_path / "full.jsonl", tmp_path / "partial.jsonl"
    assert main(["rescore", str(source), "-o", str(full), "--local", "--no-progress"]) == 0
    partial.write_text("".join(full.read_text().splitlines(keepends=True)[:5]))
    assert main(["rescore", str(source), "-o", str(partial), "--local", "--resume", "--no-progress"]) == 0
    summary = summary_of(partial)
    assert {key: summary[key] for key in WHOLE_FILE} == WHOLE_FILE
    assert (summary["lines_this_run"], summary["skipped_by_resume"]) == (3, 5)


@pytest.mark.parametrize("workers", ["1", "2"])  # settled in the process the signal stops, and by a pool
@pytest.mark.parametrize(
    ("signum", "code", "reason"), [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")]
)
def test_ctrl_c_or_sigterm_writes_the_summary_says_how_to_resume_and_exits_128_plus_the_signal(
    tmp_path, signum, code, reason, workers
):
    """Ctrl-C, and SIGTERM (issue 8: it wrote no summary), sent to the whole process group as a
    terminal or a service manager does: the workers finish their chunk, the coordinator writes
    (at --workers 1 it settles the chunks itself, and writes the one under way whole first)."""
    source, output = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    total = 30_000  # far more than is written before the signal lands, even on a loaded machine
    requests = generate_requests(total, 5)
    source.write_text("".join(request_line(r) + "\n" for r in requests))
    command = [sys.executable, "-m", "clients.cli", "rescore", str(source), "--local", "--workers", workers]
    command += ["--chunk", "100", "--no-progress"]
    process = subprocess.Popen(
        [*command, "-o", str(output)], cwd=ROOT, start_new_session=True, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not output.exists() or output.stat().st_size < 50_000):
        time.sleep(0.02)
    os.killpg(process.pid, signum)  # what Ctrl-C does: the whole foreground group
    _, err = process.communicate(timeout=60)
    assert process.returncode == code, err
    written = output.read_text().count("\n")
    assert 0 < written < total
    assert err == f"shmj rescore: {reason} after line {written}; run again with --resume to continue\n"
    summary = summary_of(output)
    assert (summary["lines"], summary["lines_this_run"], summary["stopped"]) == (written, written, reason)
    assert summary["input_lines"] == total  # counted once the job stopped: it read only some
    assert summary["settled"] + summary["rejected"] == written
    assert subprocess.run([*command, "-o", str(output), "--resume"], cwd=ROOT).returncode == 0
    rows = [json.loads(line) for line in output.read_text().splitlines()]
    ids = [row.get("requestId") or row.get("request_id") for row in rows]  # error lines included
    assert ids == [r.request_id for r in requests]  # every line once, in order
    summary = summary_of(output)
    assert (summary["lines"], summary["complete"], summary["stopped"]) == (total, True, None)
    assert summary["settled"] + summary["rejected"] == total


def test_a_line_too_long_for_any_request_is_an_error_line_not_read_whole(tmp_path):
    source, output = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    lines = mixed_file(source)
    huge = '{"requestId": "' + "x" * (3 << 20) + '"}'  # 3 MiB, read in 1 MiB pieces
    source.write_text("\n".join([lines[0], huge, lines[0]]) + "\n")
    assert main(["rescore", str(source), "-o", str(output), "--local", "--no-progress"]) == 0
    rows = [json.loads(line) for line in output.read_text().splitlines()]
    assert len(rows) == 3 and rows[0] == rows[2] and rows[0]["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert rows[1]["error"]["message"] == "line 2: longer than 1,048,576 bytes, more than any request"
    assert output.stat().st_size < 10_000

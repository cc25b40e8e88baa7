"""`shmj rescore --resume` goes on only with its own job's output, and a signal that comes once
every line is written stops nothing (a hostile tester's findings: another input's output, or
one settled under other rules, was resumed with exit 0; SIGTERM after the last line was written
gave exit 143 and `"complete": false`)."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
from concurrent.futures import ProcessPoolExecutor

import pytest

from batch import lines as batch_lines
from batch.lines import InputState
from clients import rescore, rescore_resume
from clients.cli import main
from generators.random_hands import generate_requests
from tests.clients.test_cli_errors import run
from tests.clients.test_house_profiles_cli import CLUB_A
from tests.clients.test_rescore import request_line, summary_of, summary_path
from tests.server.conftest import ROOT

HANDS = ROOT / "examples" / "hands.jsonl"  # 35 lines, ids ex-1 ... and the abandons
TOTAL = 40
ADVICE = "use a new output, or run without --resume (and with --force) to start over"


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


# --- the output resumed must be this job's ----------------------------------------------------


@pytest.mark.parametrize(("with_its_summary", "kept"), [(False, 35), (True, 35), (False, 1)])
def test_resume_refuses_another_inputs_output_and_leaves_it_untouched(with_its_summary, kept, source, tmp_path, capsys):
    """The tester's `cp OTHER_OUTPUT.jsonl OUT.jsonl`: lines 1-27 answered another input's
    requests and the job went on, exit 0. Its summary (same settings) or none (a job killed
    outright writes none): the last complete line's request id is checked either way, and a torn
    last line is left as it was."""
    other, output = tmp_path / "other.jsonl", tmp_path / "out.jsonl"
    assert main(rescore_args(HANDS, other, "--local")) == 0
    output.write_text("".join(other.read_text().splitlines(keepends=True)[:kept]))
    if with_its_summary:
        shutil.copy(summary_path(other), summary_path(output))
    with open(output, "ab") as file:
        file.write(b'{"requestId": "torn')
    before = output.read_bytes()
    last = json.loads(HANDS.read_text().splitlines()[kept - 1])["requestId"]
    capsys.readouterr()
    assert run([*rescore_args(source, output, "--local"), "--resume"], capsys) == (
        2,
        f"shmj: {output} is not this input's output: line {kept} answers {last}, "
        f"the input's line {kept} is r{kept - 1}; {ADVICE}\n",
    )
    assert output.read_bytes() == before
    assert summary_path(output).exists() == with_its_summary


def test_resume_notices_lines_put_before_the_input(source, tmp_path, capsys):
    """Lines prepended to the input shift every line: the output's last line no longer answers
    the input's line at its place."""
    output = tmp_path / "out.jsonl"
    assert main(rescore_args(source, output, "--local")) == 0
    before = output.read_bytes(), summary_path(output).read_bytes()
    added = [request_line(r._replace(request_id=f"new-{n}")) for n, r in enumerate(generate_requests(2, 8))]
    source.write_text("\n".join(added) + "\n" + source.read_text())
    capsys.readouterr()
    assert run([*rescore_args(source, output, "--local"), "--resume"], capsys) == (
        2,
        f"shmj: {output} is not this input's output: line 40 answers r39, the input's line 40 is r37; {ADVICE}\n",
    )
    assert (output.read_bytes(), summary_path(output).read_bytes()) == before


def house_dir(tmp_path, name: str, base: int):
    directory = tmp_path / name
    directory.mkdir()
    (directory / "club-a.yaml").write_text(CLUB_A.replace("ordinaryBase: 3", f"ordinaryBase: {base}"))
    return str(directory)


SETTINGS = {
    "profile": (["--local", "--profile", "classic"], ["--local", "--profile", "lezi"]),
    "overrides": (["--local", "--override", "ordinary_base=3"], ["--local", "--override", "ordinary_base=5"]),
    "house": (
        ["--local", "--profile", "shanghai-club-a", "--profiles-dir", "{tmp}/a"],
        ["--local", "--profile", "shanghai-club-a", "--profiles-dir", "{tmp}/b"],
    ),
    "local, target": (["--local"], ["--target", "127.0.0.1:9"]),  # refused before any call is made
}


@pytest.mark.parametrize("differ", list(SETTINGS))
def test_resume_refuses_an_output_settled_under_other_settings(differ, source, tmp_path, capsys):
    """A `--profile classic` job resumed with `--profile lezi` mixed two profiles in one output,
    exit 0 (as other overrides, house profiles or another server would). The settings that decide
    the answers are in the summary; a job resumed under others is refused in one line, its output
    and summary untouched; resumed under its own, it ends as a job run whole does."""
    house_dir(tmp_path, "a", 3)
    house_dir(tmp_path, "b", 5)
    first, then = ([arg.format(tmp=tmp_path) for arg in args] for args in SETTINGS[differ])
    output, whole, head = tmp_path / "out.jsonl", tmp_path / "whole.jsonl", tmp_path / "head.jsonl"
    head.write_text("".join(source.read_text().splitlines(keepends=True)[:3]))
    assert main(rescore_args(head, output, *first)) == 0  # a job stopped after line 3, its summary written
    before = output.read_bytes(), summary_path(output).read_bytes()
    capsys.readouterr()
    assert run([*rescore_args(source, output, *then), "--resume"], capsys) == (
        2,
        f"shmj: --resume: {output} holds another job's output ({differ} differ); {ADVICE}\n",
    )
    assert (output.read_bytes(), summary_path(output).read_bytes()) == before
    assert main([*rescore_args(source, output, *first), "--resume"]) == 0
    assert main(rescore_args(source, whole, *first)) == 0
    assert output.read_bytes() == whole.read_bytes()
    assert (summary_of(output)["complete"], summary_of(output)["skipped_by_resume"]) == (True, 3)


class Killed(BaseException):
    """The job killed outright (SIGKILL): nothing after the lines it wrote, no summary."""


def test_a_job_started_over_and_killed_leaves_no_summary_of_the_job_it_replaced(source, tmp_path, monkeypatch):
    """A classic job's summary, then `--force --profile lezi` killed after its first chunk: the
    summary left would say classic of an output that is lezi, and refuse the right resume (or
    take a classic one). A job that starts an output anew removes the old summary first."""
    output, whole = tmp_path / "out.jsonl", tmp_path / "whole.jsonl"
    assert main(rescore_args(source, output, "--local", "--profile", "classic")) == 0
    real = rescore.numbered_chunks

    def dying(*args):
        chunks = real(*args)
        yield next(chunks)
        raise Killed

    monkeypatch.setattr(rescore, "numbered_chunks", dying)
    with pytest.raises(Killed):
        main(rescore_args(source, output, "--local", "--profile", "lezi", "--force", "--chunk", "3"))
    monkeypatch.undo()
    assert len(output.read_text().splitlines()) == 3 and not summary_path(output).exists()
    assert main(rescore_args(source, output, "--local", "--profile", "lezi", "--resume")) == 0
    assert main(rescore_args(source, whole, "--local", "--profile", "lezi")) == 0
    assert output.read_bytes() == whole.read_bytes()


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


def test_the_outputs_last_line_is_read_back_from_its_end(tmp_path, monkeypatch):
    """Only the output's last complete line is read for its request id, across blocks; one longer
    than any answer is not read."""
    path = tmp_path / "out.jsonl"
    monkeypatch.setattr(rescore_resume, "LONGEST_ANSWER", 300_000)
    long, longer = b"x" * 200_000, b"y" * 400_000
    for data, last in [
        (b"a\n" + long + b"\n", long),
        (long + b"\n", long),
        (b"abc\n", b"abc"),
        (b"\n", b""),
        (b"a\n\n", b""),
        (b"a\n" + longer + b"\n", None),
    ]:
        path.write_bytes(data)
        assert rescore_resume.last_line(path, len(data)) == last


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

"""`shmj rescore`: order kept, nothing lost, bad lines explained, interruptions resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from google.protobuf.json_format import MessageToDict

import convert
import rules_core as rc
from batch import native
from batch.local import answer_output
from batch.records import new_counts, output_line
from clients import rescore_workers
from clients.cli import main
from convert.json_write import settle_response_dict
from generators.random_hands import generate_requests
from tests.server.conftest import ROOT, run_server
from tests.worked_examples import WORKED_EXAMPLES


def request_line(request) -> str:
    return json.dumps(MessageToDict(convert.settle_request_message(request)), ensure_ascii=False)


def mixed_file(path):
    """Valid, illegal and malformed lines, in a known order."""
    legal = request_line(WORKED_EXAMPLES[0][1])  # example 1: +36
    illegal = request_line(WORKED_EXAMPLES[5][1])  # example 6: not legal
    lines = [
        legal,
        "{not json",
        illegal,
        "",
        '{"requestId": "bad-profile", "profile": "Classic", "outcome": "OUTCOME_EXHAUSTIVE_DRAW"}',
        '{"requestId": "bad-field", "profile": "classic", "outcome": "OUTCOME_EXHAUSTIVE_DRAW", "colour": 1}',
        "[1, 2]",
        legal,
    ]
    path.write_text("\n".join(lines) + "\n")
    return lines


def read_jsonl(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def summary_path(output):
    """Where `shmj rescore --local` writes the summary of ``output`` (no --summary given)."""
    return output.with_name(output.name + ".summary.json")


def summary_of(output) -> dict:
    return json.loads(summary_path(output).read_text())


def check_mixed_output(out):
    rows = read_jsonl(out)
    assert len(rows) == 8
    assert rows[0]["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert rows[1]["error"]["code"] == "INVALID_ARGUMENT" and "line 2: not valid JSON" in rows[1]["error"]["message"]
    assert rows[1]["requestId"] == ""
    assert rows[2]["winners"][0]["illegalReasons"] == ["ILLEGAL_REASON_NO_QUALIFYING_PATTERN"]
    assert "line 4: empty line" in rows[3]["error"]["message"]
    assert rows[4]["requestId"] == "bad-profile"
    assert rows[4]["error"]["fieldViolations"][0]["field"] == "profile"
    assert rows[5]["requestId"] == "bad-field"
    assert "colour" in json.dumps(rows[5]["error"])
    assert "expected a JSON object" in rows[6]["error"]["message"]
    assert rows[7] == rows[0]
    return rows


@pytest.mark.parametrize("workers", ["1", "2"])  # in this process, and in a pool
def test_local_rescore_keeps_every_line_in_order(tmp_path, workers):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    mixed_file(source)
    assert (
        main(["rescore", str(source), "-o", str(out), "--local", "--workers", workers, "--chunk", "3", "--no-progress"])
        == 0
    )
    check_mixed_output(out)
    summary = json.loads((tmp_path / "out.jsonl.summary.json").read_text())
    assert (summary["lines"], summary["settled"], summary["rejected"]) == (8, 3, 5)
    assert (summary["legal_wins"], summary["illegal_wins"]) == (2, 1)


@pytest.mark.parametrize("workers", ["1", "2"])  # a pool either way: its worker waits on the server
def test_rescore_against_the_server_matches_local(tmp_path, server, workers):
    source = tmp_path / "in.jsonl"
    mixed_file(source)
    local, remote = tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    assert main(["rescore", str(source), "-o", str(local), "--local", "--no-progress"]) == 0
    assert (
        main(
            [
                "rescore",
                str(source),
                "-o",
                str(remote),
                "--target",
                server.address,
                "--workers",
                workers,
                "--chunk",
                "2",
                "--no-progress",
            ]
        )
        == 0
    )
    check_mixed_output(remote)
    assert remote.read_text() == local.read_text()  # error lines included


def test_rescore_under_another_profile(tmp_path):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text(request_line(WORKED_EXAMPLES[0][1]) + "\n")
    assert (
        main(
            [
                "rescore",
                str(source),
                "-o",
                str(out),
                "--local",
                "--profile",
                "lezi",
                "--override",
                "ordinary_base=4",
                "--no-progress",
            ]
        )
        == 0
    )
    (row,) = read_jsonl(out)
    assert row["profile"] == "lezi"
    assert row["seatDeltas"] == [21.0, -7.0, -7.0, -7.0]  # 4 + 3 花, no 番 in lezi


def test_existing_output_needs_resume_or_force(tmp_path, capsys):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    mixed_file(source)
    out.write_text("")
    assert main(["rescore", str(source), "-o", str(out), "--local", "--no-progress"]) == 2
    assert "--resume" in capsys.readouterr().err


def test_resume_after_a_torn_write(tmp_path):
    source, full, partial = tmp_path / "in.jsonl", tmp_path / "full.jsonl", tmp_path / "partial.jsonl"
    mixed_file(source)
    assert main(["rescore", str(source), "-o", str(full), "--local", "--no-progress"]) == 0
    lines = full.read_text().splitlines(keepends=True)
    partial.write_text("".join(lines[:3]) + lines[3][:10])  # stopped in the middle of line 4
    assert main(["rescore", str(source), "-o", str(partial), "--local", "--resume", "--no-progress"]) == 0
    assert partial.read_text() == full.read_text()
    summary = json.loads((tmp_path / "partial.jsonl.summary.json").read_text())
    assert (summary["skipped_by_resume"], summary["lines_this_run"], summary["lines"]) == (3, 5, 8)


def no_process_left(group: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    os.killpg(group, signal.SIGKILL)
    return False


@pytest.mark.parametrize("workers", ["1", "2"])  # settled in the killed process itself, and by its pool
def test_resume_after_the_process_is_killed(tmp_path, workers):
    source, full, killed = tmp_path / "in.jsonl", tmp_path / "full.jsonl", tmp_path / "killed.jsonl"
    source.write_text("".join(request_line(r) + "\n" for r in generate_requests(30_000, 8)))
    command = [
        sys.executable,
        "-m",
        "clients.cli",
        "rescore",
        str(source),
        "--local",
        "--workers",
        workers,
        "--chunk",
        "200",
        "--no-progress",
    ]
    process = subprocess.Popen([*command, "-o", str(killed)], cwd=ROOT, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not killed.exists() or killed.stat().st_size < 200_000):
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)  # the coordinating process only, as the OOM killer would
    process.wait()
    assert no_process_left(process.pid), "the worker processes outlived the killed job"
    written = len(killed.read_text().splitlines())
    assert 0 < written < 30_000
    assert subprocess.run([*command, "-o", str(killed), "--resume"], cwd=ROOT).returncode == 0
    assert subprocess.run([*command, "-o", str(full)], cwd=ROOT).returncode == 0
    assert killed.read_text() == full.read_text()
    assert len(full.read_text().splitlines()) == 30_000


def test_a_server_that_goes_away_stops_the_job_for_a_resume(tmp_path, capsys):
    source, out, full = tmp_path / "in.jsonl", tmp_path / "out.jsonl", tmp_path / "full.jsonl"
    source.write_text("".join(request_line(r) + "\n" for r in generate_requests(200, 2)))
    with run_server(tmp_path) as server:
        address = server.address
    # The server is gone: nothing can be settled, nothing is written, the job says how to go on.
    assert main(["rescore", str(source), "-o", str(out), "--target", address, "--timeout", "2", "--no-progress"]) == 1
    assert capsys.readouterr().err == (
        f"shmj rescore: stopped after line 0: UNAVAILABLE: {address} refuses the connection (Connection refused): "
        "start the server (make run), or name it with --target or SHMJ_TARGET; run again with --resume to continue\n"
    )  # the words of every shmj command, not gRPC's failed to connect to all addresses
    assert out.read_text() == ""
    with run_server(tmp_path, port=int(address.rsplit(":", 1)[1])) as server:
        assert (
            main(["rescore", str(source), "-o", str(out), "--target", server.address, "--resume", "--no-progress"]) == 0
        )
    assert main(["rescore", str(source), "-o", str(full), "--local", "--no-progress"]) == 0
    assert out.read_text() == full.read_text()


def _failing_on_discard_wins(real, is_discard):
    def buggy(request, *more):  # fails on line 3, the only discard win of the mixed file
        if is_discard(request):
            raise ZeroDivisionError("a bug")
        return real(request, *more)

    return buggy


def check_only_line_3_lost(source):
    block, written, counts = rescore_workers.settle_chunk((1, source.read_bytes().splitlines()))
    rows = [json.loads(line) for line in block.splitlines()]
    assert len(rows) == written == 8
    assert rows[2]["error"]["code"] == "INTERNAL" and "ZeroDivisionError" in rows[2]["error"]["message"]
    assert rows[0]["seatDeltas"] == rows[7]["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert (counts["settled"], counts["rejected"]) == (2, 6)


def test_a_bug_on_one_line_costs_that_line_only(tmp_path, monkeypatch):
    import rules_core

    source = tmp_path / "in.jsonl"
    mixed_file(source)
    buggy = _failing_on_discard_wins(rules_core.settle, lambda r: r.outcome == rc.Outcome.DISCARD)
    monkeypatch.setattr(rules_core, "settle", buggy)
    monkeypatch.setattr(rescore_workers, "settings", {"local": True, "profile": None, "overrides": {}})
    check_only_line_3_lost(source)


def test_a_response_with_an_enum_number_unknown_here_is_written_by_protobuf():
    message = convert.settle_response(rc.settle(WORKED_EXAMPLES[0][1]))
    message.winners[0].patterns.append(999)  # a pattern of a newer server
    row = rescore_workers.response_answer(message)
    assert row["winners"][0]["patterns"] == ["PATTERN_ALL_PUNGS", "PATTERN_CONCEALED", 999]
    assert row["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]


def test_a_servers_response_is_written_as_the_local_answer_by_the_native_writer():
    writer = native.load("json_answer")
    for example in WORKED_EXAMPLES:
        result = rc.settle(example[1])
        answer = rescore_workers.response_answer(convert.settle_response(result))
        assert answer == result
        line = output_line(settle_response_dict(result))
        assert answer_output(answer, new_counts()) == line
        if writer is not None:  # not declined: the converted result is as the core builds its own
            assert writer.settle_line(answer) == line


def test_against_a_server_a_bug_converting_one_line_costs_that_line_only(tmp_path, monkeypatch, server):
    from clients.client import ScoringClient

    source = tmp_path / "in.jsonl"
    mixed_file(source)
    buggy = _failing_on_discard_wins(convert.settle_request_message, lambda r: r.outcome == rc.Outcome.DISCARD)
    monkeypatch.setattr(convert, "settle_request_message", buggy)
    with ScoringClient(server.address) as client:
        monkeypatch.setattr(
            rescore_workers, "settings", {"local": False, "profile": None, "overrides": {}, "client": client}
        )
        check_only_line_3_lost(source)

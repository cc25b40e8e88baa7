"""`shmj rescore` reads its input as bytes split on `\\n` alone (issue 21, finding 9): a CR is
JSON whitespace, invalid UTF-8 is an error record for its line, there is one output line per
input line whatever the bytes, and an input that changes while it is read is reported, never
called complete."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

from clients.cli import main
from generators.random_hands import generate_requests
from tests.clients.test_rescore import mixed_file, read_jsonl, request_line, summary_of
from tests.server.conftest import ROOT


def rescore(source, output, *more) -> int:
    return main(["rescore", str(source), "-o", str(output), "--local", "--workers", "1", "--no-progress", *more])


def test_a_carriage_return_inside_a_line_is_whitespace_not_a_line_break(tmp_path):
    source, output = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    legal, _, illegal, *_ = mixed_file(tmp_path / "mixed.jsonl")
    with_cr = legal.replace('", "', '",\r "', 1)
    assert "\r" in with_cr
    source.write_bytes(f"{with_cr}\n{illegal}\r\n{legal}\n".encode())
    assert rescore(source, output) == 0
    rows = read_jsonl(output)
    assert len(rows) == 3
    assert rows[0]["seatDeltas"] == rows[2]["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert rows[1]["winners"][0]["illegalReasons"] == ["ILLEGAL_REASON_NO_QUALIFYING_PATTERN"]
    assert summary_of(output)["complete"] is True


def test_invalid_utf8_is_an_error_record_for_its_line(tmp_path):
    source, output = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    legal = mixed_file(tmp_path / "mixed.jsonl")[0]
    bad = '{"requestId": "ID-\udcff\udcfe", "profile": "classic"}'.encode("utf-8", "surrogateescape")
    source.write_bytes(legal.encode() + b"\n" + bad + b"\n" + legal.encode() + b"\n")
    assert rescore(source, output) == 0
    rows = read_jsonl(output)
    assert len(rows) == 3
    assert rows[1] == {
        "requestId": "",
        "error": {
            "code": "INVALID_ARGUMENT",
            "message": "line 2: not valid UTF-8 (byte 0xff at column 19)",
            "fieldViolations": [],
        },
    }
    assert rows[0] == rows[2] and rows[0]["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert (summary_of(output)["settled"], summary_of(output)["rejected"]) == (2, 1)


def test_a_binary_file_gives_one_output_line_per_input_line(tmp_path):
    source, output = tmp_path / "in.bin.jsonl", tmp_path / "out.jsonl"
    data = random.Random(21).randbytes(256 * 1024)
    source.write_bytes(data)
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    assert rescore(source, output) == 0
    rows = read_jsonl(output)
    assert len(rows) == lines
    assert all(row["error"]["message"].startswith(f"line {n}: ") for n, row in enumerate(rows, start=1))
    summary = summary_of(output)
    assert (summary["lines"], summary["input_lines"], summary["rejected"], summary["complete"]) == (
        lines,
        lines,
        lines,
        True,
    )


def test_a_last_line_without_a_newline_is_settled(tmp_path):
    source, output = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    legal = mixed_file(tmp_path / "mixed.jsonl")[0]
    source.write_text(f"{legal}\n{legal}")
    assert rescore(source, output) == 0
    assert [row["seatDeltas"] for row in read_jsonl(output)] == [[36.0, -12.0, -12.0, -12.0]] * 2
    assert summary_of(output)["complete"] is True


def test_an_input_that_changes_while_it_is_read_is_reported_not_complete(tmp_path):
    """A line appended while the job runs (a log still being written): the job settles what
    the file held when it started, says the input changed and exits 1; --resume then settles
    the rest, and the output is that of the finished file."""
    source, output, full = tmp_path / "in.jsonl", tmp_path / "out.jsonl", tmp_path / "full.jsonl"
    total = 30_000  # far more than is written before the append lands, even on a loaded machine
    lines = [request_line(r) + "\n" for r in generate_requests(total + 1, 23)]
    source.write_text("".join(lines[:total]))
    command = [sys.executable, "-m", "clients.cli", "rescore", str(source), "--local", "--workers", "1"]
    command += ["--chunk", "100", "--no-progress"]
    process = subprocess.Popen([*command, "-o", str(output)], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not output.exists() or output.stat().st_size < 50_000):
        time.sleep(0.02)
    with open(source, "a") as file:
        file.write(lines[total][:40])  # half a line: the writer is still at it
    _, err = process.communicate(timeout=120)
    assert process.returncode == 1, err
    assert err == (
        f"shmj rescore: stopped after line {total}: the input changed while it was read "
        "(its size or modification time); run again with --resume to continue\n"
    )
    summary = summary_of(output)
    assert (summary["lines"], summary["input_lines"], summary["complete"]) == (total, total, False)
    assert summary["stopped"] == "the input changed while it was read (its size or modification time)"
    with open(source, "a") as file:
        file.write(lines[total][40:])
    assert subprocess.run([*command, "-o", str(output), "--resume"], cwd=ROOT).returncode == 0
    assert subprocess.run([*command, "-o", str(full)], cwd=ROOT).returncode == 0
    assert output.read_text() == full.read_text()
    assert len(full.read_text().splitlines()) == total + 1


def test_a_parquet_input_without_dask_is_refused_in_one_line(tmp_path, capsys):
    """Issue 23: `--local` read a Parquet file as JSON Lines and wrote an error per row, exit 0."""
    import shutil

    from tests.clients.test_cli_errors import run
    from tests.server.conftest import ROOT

    disguised = tmp_path / "hands.jsonl"
    shutil.copy(ROOT / "examples" / "hands.parquet", disguised)  # Parquet by its bytes, whatever its name
    for source in (ROOT / "examples" / "hands.parquet", disguised):
        output = tmp_path / "out.jsonl"
        code, err = run(["rescore", str(source), "-o", str(output), "--local", "--no-progress"], capsys)
        assert (code, err) == (
            2,
            f"shmj: {source} is a Parquet file: Parquet needs --dask (--dask local:1 runs on this machine)\n",
        )
        assert not output.exists()


def test_parquet_output_or_several_inputs_without_dask_are_refused_in_one_line(tmp_path, capsys):
    from tests.clients.test_cli_errors import run
    from tests.server.conftest import ROOT

    source, output = ROOT / "examples" / "hands.jsonl", tmp_path / "out.parquet"
    for extra, said in (
        (["--format", "parquet"], "--format parquet needs --dask"),
        ([str(source)], "2 inputs need --dask"),
    ):
        code, err = run(["rescore", str(source), *extra, "-o", str(output), "--local", "--no-progress"], capsys)
        assert (code, err) == (2, f"shmj: {said} (--dask local:1 runs on this machine)\n")
        assert not output.exists()


def test_lines_the_fast_decoder_refuses_are_read_again_and_explained(tmp_path):
    """msgspec reads the usual line; what it refuses is read by the standard library's reader,
    which explains a fault (naming the line) or reads what only it takes. No line stops the job."""
    source, output = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    legal = mixed_file(tmp_path / "mixed.jsonl")[0]
    lone = '{"requestId": "\\ud800", "profile": "classic", "outcome": "OUTCOME_EXHAUSTIVE_DRAW"}'
    source.write_text("\n".join([legal, "[" * 100_000, lone, '{"requestId": "n", "huangfanCount": NaN}', legal]) + "\n")
    assert rescore(source, output) == 0
    text = output.read_bytes().decode("utf-8")  # the output is UTF-8 whatever the ids
    rows = [json.loads(line) for line in text.splitlines()]
    assert len(rows) == 5 and rows[0] == rows[4] and rows[0]["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert rows[1]["error"]["message"] == "line 2: not valid JSON: nested deeper than 64 levels"
    deep = '{"requestId": "d", "overrides": ' + "[" * 70 + "]" * 70 + "}"  # msgspec would take it
    deep_output = tmp_path / "deep.jsonl"
    source.write_text(deep + "\n")
    assert rescore(source, deep_output) == 0
    assert read_jsonl(deep_output)[0]["error"]["message"] == "line 1: not valid JSON: nested deeper than 64 levels"
    # a lone surrogate is read, and refused as every face refuses it (no protobuf string holds one),
    # the line's id echoed escaped
    assert rows[2]["requestId"] == "\ud800" and rows[2]["error"]["fieldViolations"] == [
        {"field": "request_id", "description": "'\\ud800' holds a lone surrogate, which no UTF-8 text can hold"}
    ]
    assert rows[3]["requestId"] == "n"
    assert rows[3]["error"]["fieldViolations"] == [
        {"field": "huangfan_count", "description": "expected a whole number, got NaN"}
    ]

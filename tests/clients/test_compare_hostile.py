"""`shmj rescore --compare PREVIOUS` against earlier results no careful user keeps: a line that
cannot be read costs that line alone, in --local and on a cluster (left out of the join, counted,
the first named by file and line); a file that cannot be read at all is refused in one line
before the job writes anything. Never a traceback, never a file's bytes in a message."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.clients.test_cli_errors import run
from tests.clients.test_rescore import summary_of
from tests.server.conftest import ROOT

HANDS = str(ROOT / "examples" / "hands.jsonl")
LOCAL = ["--local", "--no-progress", "--workers", "1"]
BAD_UTF8 = b'{"requestId": "ex-1", "profile": "\xff\xfe classic"}'
NO_FOOTER = "is not a Parquet file that can be read (Parquet magic bytes not found in footer"  # Arrow's words
NOT_UTF8 = f"not UTF-8 text (byte {BAD_UTF8.index(0xFF)})"  # no byte of the line itself


@pytest.fixture(scope="module")
def earlier(tmp_path_factory):
    """This version's results of the example hands: every record matches, none changed."""
    path = tmp_path_factory.mktemp("earlier") / "before.jsonl"
    from clients.cli import main

    assert main(["rescore", HANDS, "-o", str(path), *LOCAL]) == 0
    return path


def with_bad_lines(earlier, path):
    """The earlier results with four lines no run wrote after the third: not UTF-8, not JSON, not
    an object, no request id."""
    lines = earlier.read_bytes().splitlines(keepends=True)
    bad = [BAD_UTF8 + b"\n", b'{"requestId": "ex-2", \n', b'["ex-3"]\n', b'{"winners": []}\n']
    path.write_bytes(b"".join(lines[:3] + bad + lines[3:]))
    return path


def test_a_line_that_cannot_be_read_costs_that_line_only_locally(earlier, tmp_path, capsys):
    previous = with_bad_lines(earlier, tmp_path / "bad.jsonl")
    output = tmp_path / "out.jsonl"
    code, err = run(["rescore", HANDS, "-o", str(output), *LOCAL, "--compare", str(previous)], capsys)
    assert code == 0, err
    changes = summary_of(output)["changes"]
    assert (changes["records"], changes["matched"], changes["unmatched"], changes["changed"]) == (35, 35, 0, 0)
    assert changes["earlier_unreadable"] == 4
    assert changes["first_unreadable"] == {"file": str(previous), "line": 4, "why": NOT_UTF8}
    assert "Traceback" not in err and "\\xff" not in err and "\ufffd" not in err
    assert err.splitlines()[-1] == (
        f"  4 earlier line(s) unreadable, left out 无法读取的旧结果行; first 首个: {previous} line 4: {NOT_UTF8}"
    )


def test_a_line_that_cannot_be_read_costs_that_line_only_on_a_cluster(earlier, tmp_path, capsys):
    """It cost the whole job: every part failed, blamed on its input file, with the bytes of the
    earlier results in the message, and --resume failed the same way."""
    previous = with_bad_lines(earlier, tmp_path / "bad.jsonl")
    local, cluster = tmp_path / "local.jsonl", tmp_path / "cluster"
    assert run(["rescore", HANDS, "-o", str(local), *LOCAL, "--compare", str(previous)], capsys)[0] == 0
    argv = ["rescore", HANDS, "-o", str(cluster), "--dask", "local:1", "--no-progress", "--compare", str(previous)]
    code, err = run(argv, capsys)
    assert code == 0, err
    summary = json.loads((cluster / "summary.json").read_text())
    assert summary["failed_parts"] == [] and summary["changes"] == summary_of(local)["changes"]
    assert summary["changes"]["earlier_unreadable"] == 4
    assert err.splitlines()[-1] == (
        f"  4 earlier line(s) unreadable, left out 无法读取的旧结果行; first 首个: {previous} line 4: {NOT_UTF8}"
    )
    assert "Traceback" not in err and "\\xff" not in err and "failed" not in err
    assert run([*argv, "--resume"], capsys)[0] == 0  # every part done: the report is made again, whole
    assert json.loads((cluster / "summary.json").read_text())["changes"] == summary["changes"]


def earlier_parquet(earlier, path, **options):
    """The earlier results as Parquet, as --dask --format parquet writes them (.proto names)."""
    rows = [json.loads(line) for line in earlier.read_text().splitlines()]
    columns = {"request_id": [r.get("requestId") for r in rows], "seat_deltas": [r.get("seatDeltas") for r in rows]}
    pq.write_table(pa.table(columns), path, **options)
    return path


def unreadable_file(earlier, tmp_path, what: str):
    """An earlier-results file that cannot be read at all, and what the refusal says of it."""
    path = tmp_path / ("missing.jsonl" if what == "missing" else "before.parquet")
    if what == "cut short":
        whole = earlier_parquet(earlier, path).read_bytes()
        path.write_bytes(whole[: len(whole) // 2])
        return path, f"shmj: --compare: {path} {NO_FOOTER}"
    if what == "not Parquet":
        path.write_bytes(earlier.read_bytes())
        return path, f"shmj: --compare: {path} {NO_FOOTER}"
    if what == "no request id column":
        pq.write_table(pa.table({"winners": [None]}), path)
        return path, f"shmj: --compare: {path} has no request_id column: not the results of a rescore\n"
    return path, f"shmj: --compare: no such input: {path}\n"


@pytest.mark.parametrize("what", ["cut short", "not Parquet", "no request id column", "missing"])
def test_earlier_results_that_cannot_be_read_at_all_are_refused_before_a_local_job(earlier, tmp_path, capsys, what):
    previous, said = unreadable_file(earlier, tmp_path, what)
    output = tmp_path / "out.jsonl"
    code, err = run(["rescore", HANDS, "-o", str(output), *LOCAL, "--compare", str(previous)], capsys)
    assert (code, err[: len(said)], err.count("\n")) == (2, said, 1)
    assert list(tmp_path.iterdir()) == ([] if what == "missing" else [previous])  # nothing written


@pytest.mark.parametrize("what", ["cut short", "not Parquet", "no request id column", "missing"])
def test_earlier_results_that_cannot_be_read_at_all_are_refused_before_a_cluster_job(earlier, tmp_path, capsys, what):
    """Refused before the cluster is started or anything written: the earlier results were
    read on the workers once the job had begun."""
    previous, said = unreadable_file(earlier, tmp_path, what)
    output = tmp_path / "cluster"
    argv = ["rescore", HANDS, "-o", str(output), "--dask", "local:1", "--no-progress", "--compare", str(previous)]
    code, err = run(argv, capsys)
    assert (code, err[: len(said)], err.count("\n")) == (2, said, 1)
    assert not output.exists()


def with_a_bad_row_group(earlier, path):
    """The earlier results as Parquet in row groups of 10, the second one's pages overwritten:
    its footer reads, its rows 11 to 20 do not."""
    chunk = pq.ParquetFile(earlier_parquet(earlier, path, row_group_size=10)).metadata.row_group(1).column(0)
    start = chunk.dictionary_page_offset or chunk.data_page_offset
    data = bytearray(path.read_bytes())
    data[start : start + chunk.total_compressed_size] = b"\xab" * chunk.total_compressed_size
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("where", [LOCAL, ["--dask", "local:1", "--no-progress"]], ids=["local", "cluster"])
def test_a_row_group_that_cannot_be_read_costs_its_rows_only(earlier, tmp_path, capsys, where):
    """Its footer intact, the file passed the check; reading it stopped the job (a traceback, or
    every part failed) once the output was written."""
    previous = with_a_bad_row_group(earlier, tmp_path / "before.parquet")
    output = tmp_path / ("out.jsonl" if where is LOCAL else "cluster")
    code, err = run(["rescore", HANDS, "-o", str(output), *where, "--compare", str(previous)], capsys)
    assert code == 0, err
    summary = summary_of(output) if where is LOCAL else json.loads((output / "summary.json").read_text())
    changes = summary["changes"]
    assert (changes["records"], changes["matched"], changes["unmatched"]) == (35, 25, 10)
    assert changes["earlier_unreadable"] == 10
    first = changes["first_unreadable"]
    assert (first["file"], first["line"]) == (str(previous), 11)
    assert first["why"].startswith("row group 1 cannot be read (Couldn't deserialize thrift")
    assert f"first 首个: {previous} row 11: row group 1 cannot be read (" in err.splitlines()[-1]


def test_a_failed_part_is_said_in_one_short_line_without_the_bytes_it_could_not_read():
    """The finding's failed part was said by ``repr``: a UnicodeDecodeError's holds every byte
    it was decoding (8 KB of the earlier results, on stderr and in summary.json)."""
    from batch.dask_job import failure_said

    error = UnicodeDecodeError("utf-8", b'{"requestId": "ex-1"}' * 400 + b"\xff", 8400, 8401, "invalid start byte")
    assert failure_said(error) == (
        "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 8400: invalid start byte"
    )
    said = failure_said(OSError("Couldn't deserialize thrift\n" + "page header failed " * 50))
    assert said.startswith("OSError: Couldn't deserialize thrift page header failed") and len(said) <= 300
    assert "\n" not in said


def test_the_output_may_not_be_the_earlier_results_it_is_compared_with(earlier, tmp_path, capsys):
    """Found from outside: `--local --force -o X --compare X` overwrote the earlier results, then
    compared the new output with itself ("0 of 27 matched records changed")."""
    copy = tmp_path / "before.jsonl"
    copy.write_bytes(earlier.read_bytes())
    code, err = run(["rescore", HANDS, "-o", str(copy), "--force", "--compare", str(copy), *LOCAL], capsys)
    assert (code, err) == (
        2,
        f"shmj: the output {copy} is the --compare file, the earlier results it is to be compared with; "
        "choose another -o\n",
    )
    assert copy.read_bytes() == earlier.read_bytes()

"""`shmj rescore --dask` and what it is given to read and write: an input that changed before
--resume, hidden directories in a searched directory, Parquet under a JSON Lines name, Parquet
that cannot be read, and -o naming a file. Each is found before the job writes anything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clients.test_batch_dask import EXAMPLES, parts, rescore, scheduler  # noqa: F401  (the cluster, shared)


def hands(count: int, first: int = 0) -> str:
    """``count`` lines of examples/hands.jsonl over and over, each with a request id of its own."""
    examples = (EXAMPLES / "hands.jsonl").read_text().splitlines()
    lines = []
    for number in range(first, first + count):
        request = json.loads(examples[number % len(examples)])
        request["requestId"] = f"hand-{number}"
        lines.append(json.dumps(request, separators=(",", ":")) + "\n")
    return "".join(lines)


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` and its bytes: what a refused run must leave as it was."""
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("where", ["appended", "inserted at the front"])
def test_resume_refuses_an_input_that_changed_since_the_job_began(tmp_path, scheduler, capsys, where):  # noqa: F811
    """Finding 1: lines added to the input after a job began were nowhere in its output (or
    its parts held lines twice), yet --resume said the job was complete."""
    source, out = tmp_path / "in.jsonl", tmp_path / "out"
    source.write_text(hands(3000))
    then = source.stat().st_size
    arguments = ["-o", out, "--dask", scheduler, "--block-size", 0.3, "--no-progress"]
    assert rescore(source, *arguments) == 0
    written = snapshot(out)
    more = hands(1000, first=3000)
    source.write_text(source.read_text() + more if where == "appended" else more + source.read_text())
    now = source.stat().st_size
    capsys.readouterr()
    assert rescore(source, *arguments, "--resume") == 2
    assert capsys.readouterr().err == (
        f"shmj: --resume: the input {source} has changed since the job in {out} began "
        f"({then} bytes then, {now} now); use a new directory or --force\n"
    )
    assert snapshot(out) == written  # nothing written
    assert rescore(source, *arguments, "--force") == 0
    assert json.loads((out / "summary.json").read_text())["records"] == 4000


def test_resume_goes_on_from_a_job_record_of_an_earlier_release(tmp_path, scheduler):  # noqa: F811
    """A job record written before input sizes were recorded names the inputs only: --resume
    still finishes the job it describes."""
    source, out = tmp_path / "in.jsonl", tmp_path / "out"
    source.write_text(hands(1000))
    arguments = ["-o", out, "--dask", scheduler, "--block-size", 0.1, "--no-progress"]
    assert rescore(source, *arguments) == 0
    full = parts(out)
    record = json.loads((out / "_job.json").read_text())
    (out / "_job.json").write_text(json.dumps({k: v for k, v in record.items() if k != "input_bytes"}))
    (out / "part-00001.jsonl").unlink()
    assert rescore(source, *arguments, "--resume") == 0
    assert parts(out) == full
    assert json.loads((out / "_job.json").read_text()) == record  # recorded from now on


def test_names_starting_with_an_underscore_or_a_dot_are_skipped_at_any_depth(tmp_path, scheduler):  # noqa: F811
    """Finding 2: only the directory's own files were skipped by name, so the staging and
    statistics directories Spark and Hadoop leave in a lake (``_temporary/0/``, ``.spark-staging/``,
    ``_stats/``) were read as input: 108 records where the lake holds 27."""
    lake = tmp_path / "lake"
    text = (EXAMPLES / "hands.jsonl").read_text()
    for name in ("hands.jsonl", "2026/01/part-1.jsonl", "_temporary/0/part-1.jsonl", ".spark-staging/part-1.jsonl"):
        (lake / name).parent.mkdir(parents=True, exist_ok=True)
        (lake / name).write_text(text)
    (lake / "_stats").mkdir()
    (lake / "_stats" / "s.jsonl").write_text(text)
    arguments = ["--dask", scheduler, "--no-progress"]
    assert rescore(lake, "-o", tmp_path / "out", *arguments) == 0
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["inputs"] == [str(lake / "2026/01/part-1.jsonl"), str(lake / "hands.jsonl")]
    assert summary["records"] == 70  # twice the 35 hands
    # a file, or a directory, named by the user is read whatever its name
    assert rescore(lake / "_temporary", lake / "_stats/s.jsonl", "-o", tmp_path / "named", *arguments) == 0
    summary = json.loads((tmp_path / "named" / "summary.json").read_text())
    assert summary["inputs"] == [str(lake / "_temporary/0/part-1.jsonl"), str(lake / "_stats/s.jsonl")]


def test_parquet_is_read_as_parquet_whatever_its_name(tmp_path, scheduler):  # noqa: F811
    """Finding 3: a Parquet file named .jsonl was cut into lines of text, 74 error records and
    exit 0, where --local recognises Parquet by its first bytes (and refuses it)."""
    misnamed = tmp_path / "hands.jsonl"
    misnamed.write_bytes((EXAMPLES / "hands.parquet").read_bytes())
    arguments = ["--dask", scheduler, "--no-progress"]
    assert rescore(EXAMPLES / "hands.parquet", "-o", tmp_path / "parquet", *arguments) == 0
    assert rescore(misnamed, "-o", tmp_path / "misnamed", *arguments) == 0
    assert parts(tmp_path / "misnamed") == parts(tmp_path / "parquet")
    summary = json.loads((tmp_path / "misnamed" / "summary.json").read_text())
    assert (summary["records"], summary["rejected"]) == (35, 1)


PARQUET = (EXAMPLES / "hands.parquet").read_bytes()


@pytest.mark.parametrize(
    ("name", "data", "why"),
    [
        ("half.parquet", PARQUET[: len(PARQUET) // 2], "Parquet magic bytes not found in footer"),
        ("half.jsonl", PARQUET[: len(PARQUET) // 2], "Parquet magic bytes not found in footer"),
        ("empty.parquet", b"", "Parquet file size is 0 bytes"),
        ("text.parquet", (EXAMPLES / "hands.jsonl").read_bytes(), "Parquet magic bytes not found in footer"),
    ],
)
def test_a_parquet_file_that_cannot_be_read_is_refused_before_the_job_starts(tmp_path, capsys, name, data, why):
    """Finding 4: a Parquet file cut short, empty, or text named .parquet ended the command with
    pyarrow's ArrowInvalid and a full traceback, exit 1."""
    bad, out = tmp_path / name, tmp_path / "out"
    bad.write_bytes(data)
    assert rescore(EXAMPLES / "hands.jsonl", bad, "-o", out, "--dask", "local:1", "--no-progress") == 2
    err = capsys.readouterr().err
    assert err.startswith(f"shmj: {bad}: not a readable Parquet file ({why}") and err.count("\n") == 1, err
    assert not out.exists()


@pytest.mark.parametrize("flag", [None, "--force", "--resume"])
def test_an_output_that_is_a_file_is_refused_and_left_alone(tmp_path, capsys, flag):
    """Finding 5: -o naming a file was "not empty: --resume ... --force", and with --force the
    job failed on "victim.jsonl/_stats: Not a directory", exit 1."""
    victim = tmp_path / "victim.jsonl"
    victim.write_text("precious\n")
    arguments = ["--dask", "local:1", "--no-progress", *([flag] if flag else [])]
    assert rescore(EXAMPLES / "hands.jsonl", "-o", victim, *arguments) == 2
    assert capsys.readouterr().err == (
        f"shmj: -o {victim} is a file: --dask writes a directory of part files; name a directory\n"
    )
    assert victim.read_text() == "precious\n"

"""`shmj review -o OUTDIR --dask` on a real cluster (a `dask scheduler` and two `dask worker`
processes on loopback, as tests/clients/test_batch_dask.py starts them): the part files hold
exactly the lines `--local` writes, bad lines included, `summary.json` the same counts, and
`--resume` redoes only a part that is missing."""

from __future__ import annotations

import json

from clients.cli import main
from tests.clients.test_batch_dask import parts, scheduler  # noqa: F401  (the cluster)
from tests.clients.test_rescore import summary_of
from tests.clients.test_review_batch import (  # noqa: F401  (fixtures)
    SEATS_WITH_RATES,
    expected_output,
    records,
    simulated,
    source,
)
from tests.server.conftest import ROOT

COUNTS = ("records", "reviewed", "failed", "discards", "agreements", "backward", "dead_discards", "passes")


def review(*args) -> int:
    return main(["review", *map(str, args), "--no-progress"])


def test_the_cluster_writes_the_lines_and_counts_of_local(source, records, tmp_path, scheduler, capsys):  # noqa: F811
    local, cluster = tmp_path / "local.jsonl", tmp_path / "cluster"
    assert review(source, "-o", local, "--local") == 0
    capsys.readouterr()
    # ranges of 5 kB: several parts, lines cut across range ends, error lines numbered in the file
    assert review(source, "-o", cluster, "--dask", scheduler, "--block-size", 0.005) == 0
    err = capsys.readouterr().err
    part_files = sorted(cluster.glob("part-*.jsonl"))
    assert len(part_files) == -(-source.stat().st_size // 5242) > 3
    assert parts(cluster).encode() == local.read_bytes() == expected_output(records)
    summary = json.loads((cluster / "summary.json").read_text())
    expected = summary_of(local)
    assert [summary[key] for key in COUNTS] == [10, 7, 3, 127, 72, 14, 2, 1]
    assert [summary[key] for key in COUNTS] == [expected[key] for key in COUNTS]
    assert (summary["agreement_rate"], summary["seats"]) == (0.5669, SEATS_WITH_RATES)
    assert summary["engine_versions"] == expected["engine_versions"]
    assert summary["profile_digests"] == expected["profile_digests"]
    assert (summary["job"], summary["parts_complete"], summary["failed_parts"]) == ("review", len(part_files), [])
    assert ": 7 records reviewed 已复盘, 3 failed 失败; 127 discards 打牌: 72 among the best 最佳打法" in err
    assert err.endswith(f"; {len(part_files)} of {len(part_files)} parts 分块 in {cluster}\n")


def test_resume_redoes_the_part_that_is_missing_and_refuses_a_rescore(source, records, tmp_path, scheduler, capsys):  # noqa: F811
    cluster = tmp_path / "cluster"
    assert review(source, "-o", cluster, "--dask", scheduler, "--block-size", 0.005) == 0
    second = [p for p in sorted(cluster.glob("part-*.jsonl")) if p.read_text()][1]
    lines = len(second.read_text().splitlines())
    second.unlink()
    assert review(source, "-o", cluster, "--dask", scheduler, "--block-size", 0.005, "--resume") == 0
    assert parts(cluster).encode() == expected_output(records)
    summary = json.loads((cluster / "summary.json").read_text())
    assert (summary["records_this_run"], summary["skipped_by_resume"]) == (lines, 10 - lines)
    assert [summary[key] for key in COUNTS] == [10, 7, 3, 127, 72, 14, 2, 1]
    capsys.readouterr()
    rescoring = ["rescore", str(source), "-o", str(cluster), "--dask", scheduler, "--block-size", "0.005", "--resume"]
    assert main([*rescoring, "--no-progress"]) == 2
    assert capsys.readouterr().err == (
        f"shmj: --resume: {cluster} holds another job's output (job differ); use a new directory or --force\n"
    )


def test_a_relative_output_is_the_clients_whatever_the_workers_directory(source, tmp_path, scheduler, monkeypatch):  # noqa: F811
    """Found running BATCH.md's `-o scratch/reviewed` against workers started elsewhere: the
    inputs were made absolute on the client, the output not, so each worker wrote its part under
    its own directory (or failed to), and the job failed. A rescore the same."""
    monkeypatch.chdir(tmp_path)
    hands = ROOT / "examples/hands.jsonl"
    assert main(["rescore", str(hands), "-o", "rescored", "--dask", scheduler, "--no-progress"]) == 0
    assert main(["rescore", str(hands), "-o", "local.jsonl", "--local", "--no-progress"]) == 0
    assert parts(tmp_path / "rescored") == (tmp_path / "local.jsonl").read_text()
    assert review("records.jsonl", "-o", "reviewed", "--dask", scheduler) == 0
    assert parts(tmp_path / "reviewed").encode() == expected_output(simulated())

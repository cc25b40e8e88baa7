"""A Dask task's Parquet part (``batch.dask_job.settle_part``) built row by row in turn
(``batch.arrow.settled_in_turn``), each answer counted as it is appended: its part file and its
statistics are, byte for byte and count for count, the usual path's (every answer of a batch
kept, counted, then written), under a job's profile too; a batch whose result the builder
declines is settled again by the usual path and counted once, not twice."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from batch import arrow_results, dask_job
from batch.arrow_results import NATIVE
from batch.arrow_schema import REQUEST, record_batch
from batch.parts import expand_inputs, plan_partitions
from tests.batch.test_arrow_results import GENERATED, MALFORMED
from tests.batch.test_native_arrow_in_turn import DecliningAt

pytestmark = [
    pytest.mark.native,
    pytest.mark.skipif(NATIVE is None, reason="batch/native/arrow_results.c is not built (make install)"),
]

ROWS = (GENERATED + MALFORMED) * 6  # 2,500 and more: two batches of CHUNK_ROWS and a part of one


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    path = tmp_path_factory.mktemp("in") / "in.parquet"
    pq.write_table(pa.Table.from_batches([record_batch(REQUEST, ROWS)]), path, row_group_size=900)
    return path


def run_task(source, out, profile=None) -> tuple[bytes, dict]:
    """The one partition's part file and statistics (its seconds left out)."""
    (out / "_stats").mkdir(parents=True)
    partition = plan_partitions(expand_inputs([str(source)]), 1 << 30)[0]
    job = {"output": str(out), "format": "parquet", "profile": profile, "overrides": {}, "topic": "test"}
    stats = dask_job.settle_part(partition, job, None)
    name = partition.name("parquet")
    written = json.loads((out / "_stats" / f"{name}.json").read_text())
    assert written == stats
    del stats["seconds"]
    return (out / name).read_bytes(), stats


def usual_task(source, out, monkeypatch, profile=None) -> tuple[bytes, dict]:
    """The task with no batch built in turn: every answer kept, counted, then written."""
    with monkeypatch.context() as patch:
        patch.setattr(dask_job, "settled_in_turn", lambda *arguments: None)
        return run_task(source, out, profile)


@pytest.mark.parametrize("profile", [None, "sankou"])
def test_a_part_built_in_turn_is_the_usual_part_byte_for_byte(tmp_path, monkeypatch, source, profile):
    built = []
    real = dask_job.settled_in_turn
    monkeypatch.setattr(dask_job, "settled_in_turn", lambda *arguments: built.append(real(*arguments)) or built[-1])
    part, stats = run_task(source, tmp_path / "in-turn", profile)
    assert len(built) == 2 and all(batch is not None for batch in built)  # each batch built in turn
    assert (part, stats) == usual_task(source, tmp_path / "usual", monkeypatch, profile)
    assert stats["records"] == len(ROWS) and stats["rejected"] > 0 and stats["legal_wins"] > 0


def test_a_batch_the_builder_declines_is_counted_once(tmp_path, monkeypatch, source):
    """Declined at row 7 of each batch: the rows before it were counted, then the batch settled
    again by the usual path; the counts of the declined try are let go."""
    expected = usual_task(source, tmp_path / "usual", monkeypatch)
    declining = DecliningAt(7)
    monkeypatch.setattr(arrow_results, "NATIVE", declining)
    assert run_task(source, tmp_path / "declined") == expected
    assert declining.declined == 2  # each batch declined once, in turn

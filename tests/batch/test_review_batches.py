"""A Dask task's review of a batch (``batch.dask_job``): a JSON Lines partition's lines, a Parquet
JSON column of records (string or binary), each answered as `shmj review -o --local` answers the
same line; a row of the nested form is a SettleRequest, no hand record, and its error says so."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq

from batch.dask_job import _review_batch
from batch.job_kinds import REVIEW
from batch.records import output_line
from batch.reviews import NO_EVENTS, review_lines
from rules_core import review_record_json
from tests.server.conftest import ROOT

RECORDS = (ROOT / "examples/records.jsonl").read_text().splitlines()[:3]


class Part:
    """A part file's writer, holding what is written."""

    def __init__(self):
        self.written = b""

    def write_lines(self, block: bytes) -> None:
        self.written += block


def reviewed(batch, number: int = 1) -> tuple[bytes, dict]:
    part, counts = Part(), REVIEW.new_counts()
    assert _review_batch(batch, number, {"house": []}, counts, part) == len(part.written.splitlines())
    return part.written, counts


def test_a_json_column_is_reviewed_as_lines_are():
    lines = [*RECORDS, "not json"]
    expected = b"".join(map(output_line, review_lines([line.encode() for line in lines], 7)))
    assert json.loads(expected.splitlines()[3])["error"]["message"].startswith("line 10: not valid JSON")
    for kind in (pa.string(), pa.binary()):
        values = [line if kind == pa.string() else line.encode() for line in lines]
        written, counts = reviewed(pa.record_batch([pa.array(values, kind)], names=["record"]), 7)
        assert written == expected
        assert (counts["records"], counts["reviewed"], counts["failed"]) == (4, 3, 1)
    assert expected.splitlines()[0] + b"\n" == output_line(review_record_json(json.loads(RECORDS[0])))


def test_a_nested_row_is_no_hand_record():
    (batch,) = pq.read_table(ROOT / "examples/hands.parquet").slice(0, 2).to_batches()
    written, counts = reviewed(batch)
    rows = [json.loads(line) for line in written.splitlines()]
    assert [row["error"]["fieldViolations"] for row in rows] == [[{"field": "events", "description": NO_EVENTS}]] * 2
    assert [row["requestId"] for row in rows] == batch.column("request_id").to_pylist()
    assert (counts["records"], counts["failed"]) == (2, 2)

"""A string not UTF-8 in a Parquet file (Parquet does not check its strings, nor does pyarrow
when it reads them) costs its row only, in either input form, natively read or not: the other
rows settle as they would alone, and the bad row's error record names the row and its column,
as a JSON line's does. It raised UnicodeDecodeError for the whole batch, from the native reader's
twin and from the row reader alike."""

from __future__ import annotations

import io

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from batch import arrow_results
from batch.arrow import BYTES_FROM_ROWS, settle_record_batch
from tests.server.conftest import ROOT

pytestmark = pytest.mark.native
HANDS = pq.read_table(ROOT / "examples" / "hands.parquet").slice(0, 3).combine_chunks().to_batches()[0]


@pytest.fixture(params=["native", "python"])
def path(request, monkeypatch):
    """Each writer: native where it is built, and the Python twin."""
    if request.param == "python":
        monkeypatch.setattr(arrow_results, "NATIVE", None)
    return request.param


def _int32s(values) -> pa.Buffer:
    return pa.py_buffer(np.array(values, np.int32).tobytes())


def through_parquet(batch: pa.RecordBatch) -> pa.RecordBatch:
    sink = io.BytesIO()
    pq.write_table(pa.Table.from_batches([batch]), sink)
    return pq.read_table(io.BytesIO(sink.getvalue())).combine_chunks().to_batches()[0]


def with_bad_string(batch: pa.RecordBatch, name: str, row: int) -> pa.RecordBatch:
    """``batch`` with the string column ``name``'s value at ``row`` made b"\\xff" + itself."""
    values = [v.encode() for v in batch.column(name).to_pylist()]
    values[row] = b"\xff" + values[row]
    offsets = np.cumsum([0, *map(len, values)])
    bad = pa.Array.from_buffers(pa.string(), len(values), [None, _int32s(offsets), pa.py_buffer(b"".join(values))])
    columns = [bad if n == name else c for n, c in zip(batch.schema.names, batch.columns, strict=True)]
    return through_parquet(pa.RecordBatch.from_arrays(columns, schema=batch.schema))


def rows_alone(batch: pa.RecordBatch, rows: list[int]) -> list[dict]:
    return [settle_record_batch(batch.slice(row, 1)).to_pylist()[0] for row in rows]


@pytest.mark.parametrize("name", ["outcome", "request_id", "profile"])
def test_a_nested_row_with_a_string_not_utf8_is_an_error_naming_it_and_the_rest_settle(path, name):
    out = settle_record_batch(with_bad_string(HANDS, name, 1), first_number=10).to_pylist()
    assert [out[0], out[2]] == rows_alone(HANDS, [0, 2])
    assert out[1]["error"]["message"] == f"row 11: {name} holds a string not valid UTF-8 (byte 0xff)"
    assert out[1]["error"]["code"] == "INVALID_ARGUMENT"
    assert out[1]["request_id"] == ("" if name == "request_id" else HANDS.column("request_id")[1].as_py())


@pytest.mark.parametrize("name", ["outcome", "request_id", "profile"])
def test_a_batch_whose_strings_are_checked_as_bytes_names_the_row_not_utf8_alike(path, name):
    """From ``BYTES_FROM_ROWS`` rows the columnar path checks its strings as bytes only: its
    reader meets the string not UTF-8 and leaves the batch to the usual path, which names it."""
    many = pa.Table.from_batches([HANDS] * (BYTES_FROM_ROWS // len(HANDS) + 1)).combine_chunks().to_batches()[0]
    last = len(many) - 1
    out = settle_record_batch(with_bad_string(many, name, last - 1), first_number=1).to_pylist()
    assert out[last - 1]["error"]["message"] == f"row {last}: {name} holds a string not valid UTF-8 (byte 0xff)"
    assert [out[0], out[last]] == rows_alone(many, [0, last])


def test_a_json_string_column_with_a_line_not_utf8_names_that_line(path):
    lines = pa.record_batch([_json_lines()], ["json"])
    out = settle_record_batch(with_bad_string(lines, "json", 1), first_number=4).to_pylist()
    assert out[1]["error"]["message"] == "line 5: not valid UTF-8 (byte 0xff at column 1)"
    assert [out[0], out[2]] == rows_alone(lines, [0, 2])


def _json_lines() -> pa.Array:
    text = (ROOT / "examples" / "hands.jsonl").read_text().splitlines()[:3]
    return pa.array(text, pa.string())

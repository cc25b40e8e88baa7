"""An Arrow batch handed over in memory whose buffers are malformed (a string's end offset before
its start, which pyarrow's cheap validation passes) costs its row only, in either input form: the
row's error record names the row, its column and what Arrow says is wrong, and the other rows
settle as they would alone. Reading such a row raised SystemError for the whole batch."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from batch.arrow import REQUEST_BYTES, settle_record_batch
from batch.arrow_soundness import bytes_types, sound
from tests.batch.test_arrow_bad_utf8 import HANDS, _json_lines, path, rows_alone  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.native, pytest.mark.usefixtures("path")]  # each writer: native where built, and Python
# Three strings whose offsets run 0, 6, 5, 11 over "hand-a-hand": the first is "hand-a", the last
# "a-hand", and the middle one ends before it starts.
BACKWARDS = "Offset invariant failure: non-monotonic offset at slot 1: 5 < 6"


def backwards_strings() -> pa.Array:
    offsets = pa.py_buffer(np.array([0, 6, 5, 11], np.int32).tobytes())
    array = pa.Array.from_buffers(pa.string(), 3, [None, offsets, pa.py_buffer(b"hand-a-hand")])
    array.validate()  # the cheap check passes it
    return array


def with_column(batch: pa.RecordBatch, name: str, column: pa.Array) -> pa.RecordBatch:
    columns = [column if n == name else c for n, c in zip(batch.schema.names, batch.columns, strict=True)]
    return pa.RecordBatch.from_arrays(columns, schema=batch.schema)


def test_a_nested_row_with_backwards_offsets_is_an_error_naming_its_column():
    bad = with_column(HANDS, "request_id", backwards_strings())
    good = with_column(HANDS, "request_id", pa.array(["hand-a", "", "a-hand"]))
    out = settle_record_batch(bad, first_number=10).to_pylist()
    assert [out[0], out[2]] == rows_alone(good, [0, 2])
    assert out[1]["error"]["message"] == f"row 11: request_id is malformed Arrow data ({BACKWARDS})"
    assert out[1]["error"]["code"] == "INVALID_ARGUMENT"
    assert out[1]["request_id"] == ""


def test_a_malformed_row_in_another_column_keeps_its_request_id():
    bad = with_column(HANDS, "profile", backwards_strings())
    out = settle_record_batch(bad, first_number=1).to_pylist()
    assert out[1]["error"]["message"] == f"row 2: profile is malformed Arrow data ({BACKWARDS})"
    assert out[1]["request_id"] == HANDS.column("request_id")[1].as_py()


@pytest.mark.parametrize("kind", [pa.string(), pa.binary()])
def test_a_json_line_with_backwards_offsets_is_an_error_naming_that_line(kind):
    lines = _json_lines().to_pylist()
    text = f"{lines[0]} {lines[2]}".encode()  # line 4 ends, and line 6 starts, with the blank
    ends = [0, len(lines[0]) + 1, len(lines[0]), len(text)]
    column = pa.Array.from_buffers(
        kind, 3, [None, pa.py_buffer(np.array(ends, np.int32).tobytes()), pa.py_buffer(text)]
    )
    out = settle_record_batch(pa.record_batch([column], ["json"]), first_number=4).to_pylist()
    slot = f"non-monotonic offset at slot 1: {ends[2]} < {ends[1]}"
    assert out[1]["error"]["message"] == f"line 5: json is malformed Arrow data (Offset invariant failure: {slot})"
    assert [out[0], out[2]] == rows_alone(pa.record_batch([_json_lines()], ["json"]), [0, 2])


def test_strings_checked_as_bytes_pass_a_string_not_utf8_but_not_a_malformed_one():
    """The columnar path checks its request columns' strings as bytes (its reader refuses a
    string not UTF-8 as it decodes it): backwards offsets still fail, in a nested column too,
    and a column of another type than the usual one is not sound, so the usual path takes it."""
    ids = pa.array([b"hand-\xff", b"", b"x"], pa.binary()).cast(pa.string(), safe=False)
    not_utf8 = with_column(HANDS, "request_id", ids)
    assert not sound(not_utf8) and sound(not_utf8, REQUEST_BYTES)
    assert not sound(with_column(HANDS, "request_id", backwards_strings()), REQUEST_BYTES)
    nested = pa.record_batch(
        [pa.ListArray.from_arrays(pa.array([0, 1, 3], pa.int32()), backwards_strings())], ["tiles"]
    )
    assert not sound(nested, bytes_types(nested.schema))
    assert not sound(pa.record_batch([pa.array([1, 2])], ["request_id"]), REQUEST_BYTES)
    assert sound(HANDS, REQUEST_BYTES) and sound(HANDS)

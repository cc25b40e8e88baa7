"""A nested batch settled and written in turn (``batch.arrow.settled_in_turn``): each row's
answer appended to the native ``Builder`` of ``batch/native/arrow_results.c`` as it is made,
then dropped. The builder's buffers are ``result_buffers``' for the same answers, byte for byte;
the batch is the one the usual path gives (every answer kept, then written), for generated,
malformed and hand-made batches, under a job's profile too; a result the builder declines
leaves the batch to the usual path, settled again, with the same batch; no builder leaks."""

from __future__ import annotations

import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from batch import arrow, arrow_results
from batch.arrow import settle_answers, settle_arrow_batch
from batch.arrow_results import NATIVE, answers_batch, buffers_batch, python_answers_batch
from batch.arrow_schema import REQUEST, record_batch
from tests.batch.memory import UNDER_ASAN, least_growth
from tests.batch.test_arrow_results import EXAMPLES, GENERATED, MALFORMED, uses_section_14_fields
from tests.batch.test_native_arrow_results import HALVES, ONE_RESULT, RESULTS, SURPRISES, same_values
from tests.batch.test_readers_agree import BASES, SETTINGS, requests

pytestmark = [
    pytest.mark.native,
    pytest.mark.skipif(NATIVE is None, reason="batch/native/arrow_results.c is not built (make install)"),
]


def built(answers, capacity: int = 0):
    """The answers appended one by one, then finished."""
    builder = NATIVE.Builder(capacity)
    assert all(builder.append(answer) for answer in answers)
    assert builder.rows == len(answers)
    return builder.finish()


def usual(batch, profile=None) -> pa.RecordBatch:
    """The batch as the usual path makes it: every answer kept, then written."""
    return answers_batch(settle_answers(batch, profile=profile))


def in_turn(batch, profile=None) -> pa.RecordBatch:
    results = arrow.settled_in_turn(batch, profile, None)
    assert results is not None, "the batch was not settled in turn"
    results.validate(full=True)
    return results


@pytest.mark.parametrize("capacity", [0, 1, 5000])
def test_a_builder_writes_the_buffers_result_buffers_writes(capacity):
    """Whatever room it starts with: its buffers grow as the rows come."""
    answers = settle_answers(record_batch(REQUEST, GENERATED + MALFORMED))
    for batch in (RESULTS, HALVES, answers, []):
        assert built(batch, capacity) == NATIVE.result_buffers(batch)
    assert same_values(buffers_batch(built(RESULTS, capacity), len(RESULTS)), python_answers_batch(RESULTS))


@pytest.mark.parametrize("name", ["a seat past int32", "winners as a list", "a result of nine fields"])
def test_a_declined_answer_ends_the_builder(name):
    builder = NATIVE.Builder(4)
    assert builder.append(ONE_RESULT) is True
    assert builder.append(SURPRISES[name](ONE_RESULT)) is False
    assert builder.append(ONE_RESULT) is False
    assert builder.rows == 1
    assert builder.finish() is None


def test_a_builder_is_finished_once():
    builder = NATIVE.Builder()
    assert builder.append(ONE_RESULT)
    assert builder.finish() == NATIVE.result_buffers([ONE_RESULT])
    assert builder.finish() is None
    assert builder.append(ONE_RESULT) is False


@pytest.mark.parametrize("capacity", [-1, 1_000_001, 2**62])
def test_a_capacity_out_of_its_bounds_is_refused_naming_it(capacity):
    with pytest.raises(ValueError, match=f"Builder: capacity must be 0 to 1000000 rows, not {capacity}"):
        NATIVE.Builder(capacity)


def test_generated_and_malformed_rows_in_turn_are_the_usual_batch():
    batch = record_batch(REQUEST, GENERATED + MALFORMED)
    for profile in (None, "classic", "sankou", "lezi"):
        assert in_turn(batch, profile).equals(usual(batch, profile))
    assert settle_arrow_batch(batch).equals(usual(batch))


def test_the_examples_and_a_table_in_turn():
    """Every row of the examples is settled in turn, the 6 that use a section 14 field among them
    (the columnar reader reads those fields)."""
    table = pq.read_table(EXAMPLES / "hands.parquet")
    assert sum(map(uses_section_14_fields, table.to_pylist())) == 6
    settled = arrow.settled_in_turn(table, None, None)
    assert settled is not None
    assert settled.equals(usual(table))
    assert in_turn(table).equals(usual(table))
    assert settle_arrow_batch(table).equals(pa.Table.from_batches([usual(table)]))


def test_rows_the_reader_leaves_to_the_bounded_reader_give_the_usual_batch():
    """An id of 100 characters (it may be over 256 bytes in UTF-8: the columnar reader leaves
    it): the bounded reader answers such a row as a response dict, which the builder declines, so
    the batch is settled again by the usual path, as every answer's dict (``result_batch``)."""
    rows = [dict(BASES[i], requestId=f"{i}-" + "x" * 98) if i % 3 == 1 else BASES[i] for i in range(12)]
    batch = record_batch(REQUEST, rows)
    assert [request is None for request in arrow.read_requests(batch)] == [False, True, False] * 4
    for profile in (None, "sankou"):
        assert arrow.settled_in_turn(batch, profile, None) is None
        results = settle_arrow_batch(batch, profile=profile)
        assert results.equals(usual(batch, profile))
        assert results.column("request_id").to_pylist() == [row["requestId"] for row in rows]


def test_an_invalid_row_left_to_the_bounded_reader_is_its_error_row_in_turn():
    """A tile name the columnar reader does not know: the bounded reader's error record, in its place."""
    rows = [dict(BASES[i]) for i in range(6)]
    rows[2]["winners"] = [dict(rows[2]["winners"][0], hand=dict(rows[2]["winners"][0]["hand"], winningTile="TILE_M0"))]
    batch = record_batch(REQUEST, rows)
    assert [request is None for request in arrow.read_requests(batch)] == [False, False, True, False, False, False]
    for profile in (None, "lezi"):
        results = in_turn(batch, profile)
        assert results.equals(usual(batch, profile))
        assert results.column("error").is_valid().to_pylist() == [False, False, True, False, False, False]


def test_no_in_turn_batch_for_overrides_a_json_column_or_without_the_builder(monkeypatch):
    batch = record_batch(REQUEST, GENERATED[:4])
    assert arrow.settled_in_turn(batch, None, {"ordinary_base": 3}) is None
    assert arrow.settled_in_turn(pa.record_batch([pa.array(["{}"])], names=["json"]), None, None) is None
    monkeypatch.setattr(arrow_results, "NATIVE", None)
    assert arrow.settled_in_turn(batch, None, None) is None
    assert settle_arrow_batch(batch).equals(usual(batch))


class DecliningAt:
    """The real module, whose builders are handed at row ``row`` a result they decline (a seat
    past int32) in place of the real one: as a result rules_core does not write would be."""

    def __init__(self, row: int):
        self.row = row
        self.LAYOUT = NATIVE.LAYOUT
        self.result_buffers = NATIVE.result_buffers
        self.declined = 0

    def Builder(self, capacity):  # noqa: N802 - the module's name for it
        real = NATIVE.Builder(capacity)
        declining = self

        class Handed:
            rows = 0

            def append(self, answer):
                if real.rows == declining.row:
                    declining.declined += 1
                    answer = SURPRISES["a seat past int32"](ONE_RESULT)
                return real.append(answer)

            def finish(self):
                return real.finish()

        return Handed()


@pytest.mark.parametrize("row", [0, 7, 19])
def test_a_result_the_builder_declines_leaves_the_batch_to_the_usual_path(monkeypatch, row):
    batch = record_batch(REQUEST, GENERATED[:20] + MALFORMED)
    expected = usual(batch)
    declining = DecliningAt(row)
    monkeypatch.setattr(arrow_results, "NATIVE", declining)
    assert arrow.settled_in_turn(batch, None, None) is None
    assert declining.declined == 1
    assert settle_arrow_batch(batch).equals(expected)
    assert declining.declined == 2


@SETTINGS
@given(st.lists(requests(), min_size=1, max_size=4))
def test_generated_batches_in_turn_are_the_usual_batch(data):
    try:
        batch = record_batch(REQUEST, data)
    except (pa.ArrowInvalid, pa.ArrowTypeError, AttributeError, TypeError, ValueError, OverflowError):
        return  # not rows the nested schema can hold
    results = arrow.settled_in_turn(batch, None, None)
    expected = usual(batch)
    if results is not None:
        results.validate(full=True)
        assert same_values(results, expected)
    assert same_values(settle_arrow_batch(batch), expected)


def test_no_blocks_are_left_allocated_by_builders_finished_declined_or_dropped():
    """CPython's allocated blocks after 300 rounds are those after the first 20 (and the int
    holding that count); the process grows by less than 4 MB (not under AddressSanitizer)."""
    good = RESULTS[:100]
    odd = SURPRISES["a seat past int32"](ONE_RESULT)

    def rounds(count):
        for _ in range(count):
            built(good, 10)
            declined = NATIVE.Builder(50)
            for answer in [*good[:20], odd, *good[:5]]:
                declined.append(answer)
            declined.finish()
            dropped = NATIVE.Builder()
            dropped.append(ONE_RESULT)
            del dropped

    rounds(20)
    before = sys.getallocatedblocks()
    rounds(300)
    assert sys.getallocatedblocks() - before <= 1
    if not UNDER_ASAN:
        assert least_growth(lambda: rounds(300), 4 << 20) < 4 << 20

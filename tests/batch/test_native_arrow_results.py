"""The result columns written in C (``batch/native/arrow_results.c``) are the batch Arrow's
conversion gives (``python_answers_batch``) and the answer dicts gave (``result_batch``): the
same schema and every value, for the examples, generated results of every profile, overrides,
odd floats, error rows with reasons and metadata, batches of 0, 1 and 2,000 rows. Wherever a
result holds what rules_core does not write, the C declines and the Python path answers; no
input crashes it or leaks."""

from __future__ import annotations

import copy
import json
import math
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_core as rc
from batch.arrow import settle_answers
from batch.arrow_buffers import _roles
from batch.arrow_results import (
    CORE_TYPE,
    ENUM_NAMES,
    NATIVE,
    WRITTEN_COLUMNS,
    WRITTEN_LAYOUT,
    answers_batch,
    native_answers_batch,
    python_answers_batch,
)
from batch.arrow_schema import REQUEST, RESULT_SCHEMA, record_batch
from batch.local import answer_record
from convert import json_write
from convert.json_write import error_record
from generators.random_hands import generate_requests
from rules_core.results import NextHand, Payment, SettleResult, ValueItem, WinnerResult, new
from tests.batch.memory import UNDER_ASAN, least_growth
from tests.batch.native_imports import import_error
from tests.batch.test_arrow_results import (
    EXAMPLES,
    GENERATED,
    MALFORMED,
    json_column,
    old_batch,
    uses_section_14_fields,
)
from tests.batch.test_readers_agree import paths

pytestmark = [
    pytest.mark.native,
    pytest.mark.skipif(NATIVE is None, reason="batch/native/arrow_results.c is not built (make install)"),
]

# Core overrides that give shares of a half: amounts and deltas off the integers.
HALF_SHARES = {"self_draw_share": 2.5, "discard_share": 1.5, "ordinary_base": 3}


def settled(requests, overrides=None) -> list:
    """rules_core's answers as ``batch.local.settle_answer`` gives them: a result or an error record."""
    answers = []
    for request in requests:
        if overrides:
            request = request._replace(overrides=overrides)
        try:
            answers.append(rc.settle(request))
        except rc.InvalidRequest as error:
            answers.append(error_record(request.request_id, "INVALID_ARGUMENT", str(error), error.violations))
    return answers


RESULTS = settled(generate_requests(600, seed=41))
HALVES = settled(generate_requests(300, seed=43), HALF_SHARES)
ONE_RESULT = next(a for a in RESULTS if isinstance(a, SettleResult) and a.winners and a.winners[0].items)


def same_values(a: pa.RecordBatch, b: pa.RecordBatch) -> bool:
    """Equal batches, a NaN equal to a NaN and -0.0 apart from 0.0 (repr tells both)."""
    return a.schema == b.schema and repr(a.to_pylist()) == repr(b.to_pylist())


def assert_native_answers(answers: list) -> pa.RecordBatch:
    """The C writes the batch (it does not decline), equal to the Python path's and to the
    answer dicts' batch, and a valid one."""
    native = native_answers_batch(answers)
    assert native is not None, "the native writer declined"
    native.validate(full=True)
    python = python_answers_batch(answers)
    assert native.schema == python.schema == RESULT_SCHEMA
    assert native.equals(python)
    assert native.equals(old_batch(answers))
    assert native.to_pylist() == python.to_pylist()
    assert answers_batch(answers).equals(native)
    return native


def test_its_buffers_are_the_schema_columns_in_array_buffers_order():
    assert NATIVE.LAYOUT == WRITTEN_LAYOUT
    assert WRITTEN_LAYOUT[:3] == ("request_id/validity", "request_id/offsets", "request_id/data")
    assert "winners.item.items.item.kind/values" in WRITTEN_LAYOUT  # an enum: its member's number
    assert WRITTEN_LAYOUT[-3:] == tuple(f"error.metadata.item.value/{role}" for role in ("validity", "offsets", "data"))
    for field in WRITTEN_COLUMNS:
        array = pa.array([], field.type)
        assert len(array.buffers()) == sum(
            1 for place in WRITTEN_LAYOUT if place.split(".")[0].split("/")[0] == field.name
        )
    for kind in (pa.string(), pa.int32(), pa.float64(), pa.bool_(), pa.list_(pa.int32()), CORE_TYPE):
        assert len(_roles(kind)) == kind.num_buffers


def parsed(line: str):
    """A line's JSON object, or None where it is not one."""
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def test_the_examples():
    """Every example, those using a section 14 field among them (read by the fast readers, so
    answered as results the native writer writes)."""
    lines = (EXAMPLES / "hands.jsonl").read_text().splitlines()
    lines += (EXAMPLES / "requests-with-errors.jsonl").read_text().splitlines()
    lines += (EXAMPLES / "requests.jsonl").read_text().splitlines()
    family = [line for line in lines if '"' in line and uses_section_14_fields(parsed(line))]
    written = [line for line in family if NATIVE.result_buffers(settle_answers(json_column([line]))) is not None]
    assert (len(family), len(written)) == (13, 13)  # 12 settled, one refused with an error
    lines += ["", "{not json", "[1]", '{"requestId": "no-hand", "winners": [{"seat": 1}]}']
    batch = assert_native_answers(settle_answers(json_column(lines)))
    assert batch.column("error").null_count == 34 + 1 + 37
    table = pq.read_table(EXAMPLES / "hands.parquet")
    assert sum(map(uses_section_14_fields, table.to_pylist())) == 6
    assert_native_answers(settle_answers(table))


def test_generated_results_of_every_profile_and_half_shares():
    assert {a.profile for a in RESULTS if isinstance(a, SettleResult)} == {"classic", "sankou", "lezi"}
    assert {a.profile for a in HALVES if isinstance(a, SettleResult)} == {"classic", "sankou", "lezi"}
    batch = assert_native_answers(RESULTS)
    assert 0 < batch.column("error").null_count < len(RESULTS)
    halves = assert_native_answers(HALVES)
    payments = halves.column("payments").to_pylist()
    assert any(payment["amount"] % 1 == 0.5 for row in payments for payment in row)


def test_generated_and_malformed_requests_with_reasons_and_metadata():
    answers = settle_answers(record_batch(REQUEST, GENERATED + MALFORMED))
    batch = assert_native_answers(answers)
    errors = [row["error"] for row in batch.to_pylist()[-5:]]
    assert errors[2]["reason"] == "PROFILE_DIGEST_MISMATCH"
    assert [entry["key"] for entry in errors[2]["metadata"]] == ["expected", "actual"]
    assert errors[0]["reason"] == "" and errors[0]["metadata"] == []


def test_odd_floats_are_written_as_arrow_converts_them():
    odd = (0.1 + 0.2, -0.0, math.inf, -math.inf, 5e-324)
    payments = tuple(Payment(0, 1, amount, ONE_RESULT.payments[0].reason) for amount in odd)
    result = ONE_RESULT._replace(payments=payments, seat_deltas=(math.nan, 1e308, -0.0, 2.0**53))
    native = native_answers_batch([result])
    assert same_values(native, python_answers_batch([result]))
    row = native.to_pylist()[0]
    assert [p["amount"] for p in row["payments"]] == list(odd)
    assert math.isnan(row["seat_deltas"][0]) and math.copysign(1, row["seat_deltas"][2]) == -1


def test_an_int_a_double_holds_exactly_is_written_where_a_double_is():
    """rules_core writes a contribution as an int; Arrow takes ints up to 2**53 as doubles."""
    item = ONE_RESULT.winners[0].items[0]
    assert isinstance(item.contribution, int)
    winner = ONE_RESULT.winners[0]._replace(items=(item._replace(contribution=2**53), item._replace(contribution=-7)))
    assert_native_answers([ONE_RESULT._replace(winners=(winner,))])


@pytest.mark.parametrize("size", [0, 1, 2000])
def test_batches_of_answers_only_errors_only_or_mixed(size):
    answers = [a for a in RESULTS * 4 if isinstance(a, SettleResult)][:size]
    errors = [error_record(f"e{i}", "INVALID_ARGUMENT", "bad", []) for i in range(size)]
    errors[:1] = [{"error": {"code": "INTERNAL", "message": "no request id", "fieldViolations": []}}][:size]
    mixed = [a if i % 3 else e for i, (a, e) in enumerate(zip(answers, errors, strict=True))]
    for batch in (answers, errors, mixed):
        assert len(batch) == size
        assert assert_native_answers(batch).num_rows == size
    if size:
        assert native_answers_batch(errors).column("request_id").to_pylist()[0] is None


def test_a_record_of_another_shape_declines_the_batch_as_the_python_path_does():
    records = (EXAMPLES / "records.jsonl").read_text().splitlines()[:3]
    answers = settle_answers(json_column([*records, *map(json.dumps, GENERATED[:3])]))
    assert "settlement" in answers[0]
    assert native_answers_batch(answers) is None
    assert answers_batch(answers).equals(old_batch(answers))
    odd_error = {"requestId": "odd", "error": {"code": "INTERNAL", "message": "no violations"}}
    assert native_answers_batch([odd_error, *RESULTS[:5]]) is None
    assert answers_batch([odd_error]).to_pylist()[0]["error"]["field_violations"] is None


def _winner(**fields) -> WinnerResult:
    return ONE_RESULT.winners[0]._replace(**fields)


def _item(**fields) -> ValueItem:
    return ONE_RESULT.winners[0].items[0]._replace(**fields)


# Each a result holding what rules_core never writes there: the C declines it.
SURPRISES = {
    "winners as a list": lambda r: r._replace(winners=list(r.winners)),
    "seat_deltas as a list": lambda r: r._replace(seat_deltas=list(r.seat_deltas)),
    "a seat as a float": lambda r: r._replace(winners=(_winner(seat=1.0),)),
    "a seat as a bool": lambda r: r._replace(winners=(_winner(seat=True),)),
    "a seat past int32": lambda r: r._replace(winners=(_winner(seat=2**31),)),
    "flowers below int32": lambda r: r._replace(winners=(_winner(flowers=-(2**31) - 1),)),
    "a count past int64": lambda r: r._replace(winners=(_winner(items=(_item(count=10**30),)),)),
    "legal as an int": lambda r: r._replace(winners=(_winner(legal=1),)),
    "a contribution past 2**53": lambda r: r._replace(winners=(_winner(items=(_item(contribution=2**53 + 1),)),)),
    "a value as a str": lambda r: r._replace(winners=(_winner(value="1"),)),
    "a unit outside its table": lambda r: r._replace(unit=9),
    "a negative unit": lambda r: r._replace(unit=-1),
    "a pattern with no name (0)": lambda r: r._replace(winners=(_winner(patterns=(0,)),)),
    "an item kind as a str": lambda r: r._replace(winners=(_winner(items=(_item(kind="FAN"),)),)),
    "a reason past its table": lambda r: r._replace(payments=(r.payments[0]._replace(reason=99),)),
    "a request id of None": lambda r: r._replace(request_id=None),
    "a request id as bytes": lambda r: r._replace(request_id=b"r1"),
    "a code with a lone surrogate": lambda r: r._replace(winners=(_winner(items=(_item(code="\ud800"),)),)),
    "a next hand as a plain tuple": lambda r: r._replace(next_hand=(1, 0)),
    "a value item of two fields": lambda r: r._replace(winners=(_winner(items=(new(ValueItem, (1, "x")),)),)),
    "a payment where an item is": lambda r: r._replace(winners=(_winner(items=(r.payments[0],)),)),
    "a result of a subclass": lambda r: type("Sub", (SettleResult,), {})(*r),
    "a result of nine fields": lambda r: new(SettleResult, tuple(r)[:9]),
    "a next hand of three fields": lambda r: r._replace(next_hand=new(NextHand, (1, 0, 0))),
}


@pytest.mark.parametrize("name", SURPRISES)
def test_a_value_rules_core_does_not_write_declines_the_batch(name):
    odd = SURPRISES[name](ONE_RESULT)
    assert NATIVE.result_buffers([ONE_RESULT, odd]) is None
    assert native_answers_batch([ONE_RESULT, odd]) is None


def test_answers_not_in_a_list_or_tuple_and_odd_records_decline():
    assert NATIVE.result_buffers(iter(RESULTS[:3])) is None
    assert NATIVE.result_buffers([ONE_RESULT, "a line"]) is None
    assert NATIVE.result_buffers(tuple(RESULTS[:3])) is not None


class Key(str):
    """A key that is a str, but not exactly one: comparing it could run Python code."""


PLAIN_ERROR = error_record("r1", "INVALID_ARGUMENT", "bad seat", [rc.FieldViolation("winners[0].seat", "0-3")])


def _error(**fields) -> dict:
    return {**PLAIN_ERROR, "error": {**PLAIN_ERROR["error"], **fields}}


# Each an error record of another shape than error_record writes, or with values Arrow would
# not take as they are: the C declines it (the Python path sends the first kind to result_batch).
ODD_RECORDS = {
    "another key": {**PLAIN_ERROR, "settlement": {}},
    "a key of a str subclass": {Key("requestId"): "r1", "error": PLAIN_ERROR["error"]},
    "no error": {"requestId": "r1"},
    "an error of a list": {"requestId": "r1", "error": []},
    "no field violations": {"requestId": "r1", "error": {"code": "INTERNAL", "message": "m"}},
    "another key in the error": _error(details=[]),
    "violations as a tuple": _error(fieldViolations=()),
    "a violation as a str": _error(fieldViolations=["seat"]),
    "a violation with another key": _error(fieldViolations=[{"field": "a", "description": "b", "x": 1}]),
    "a violation with no description": _error(fieldViolations=[{"field": "a"}]),
    "a code of None": _error(code=None),
    "a message as bytes": _error(message=b"m"),
    "a reason of None": _error(reason=None),
    "metadata as a list": _error(metadata=[("a", "b")]),
    "a metadata value as an int": _error(metadata={"expected": 1}),
    "a request id as an int": {**PLAIN_ERROR, "requestId": 7},
}


@pytest.mark.parametrize("name", ODD_RECORDS)
def test_an_error_record_of_another_shape_declines_the_batch(name):
    assert NATIVE.result_buffers([ONE_RESULT, PLAIN_ERROR, ODD_RECORDS[name]]) is None
    assert NATIVE.result_buffers([ONE_RESULT, PLAIN_ERROR]) is not None


MISMATCH = _error(reason="PROFILE_DIGEST_MISMATCH", metadata={"expected": "sha256:1", "actual": "名"})


def test_an_error_with_reason_and_metadata_and_one_with_neither():
    batch = assert_native_answers([PLAIN_ERROR, ONE_RESULT, MISMATCH, {"error": PLAIN_ERROR["error"]}])
    errors = batch.column("error").to_pylist()
    assert errors[0]["reason"] == "" and errors[0]["metadata"] == [] and errors[1] is None
    assert errors[2]["metadata"] == [{"key": "expected", "value": "sha256:1"}, {"key": "actual", "value": "名"}]
    assert errors[0]["field_violations"] == [{"field": "winners[0].seat", "description": "0-3"}]
    assert batch.column("request_id").to_pylist()[3] is None


def test_the_enum_tables_it_checks_are_the_names_the_batch_takes():
    for table, enum in (
        ("UNITS", "Unit"),
        ("PATTERNS", "Pattern"),
        ("ILLEGAL_REASONS", "IllegalReason"),
        ("ITEM_KINDS", "ItemKind"),
        ("PAYMENT_REASONS", "PaymentReason"),
        ("PENALTY_REASONS", "PenaltyReason"),
    ):
        names = ENUM_NAMES[enum].to_pylist()
        assert len(getattr(json_write, table)) == len(names)
        assert [n or None for n in getattr(json_write, table)][1:] == names[1:]


RESULT_MODULES = "import rules_core.results, convert.json_write\n"


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ("rules_core.results.Payment._fields = ('from_seat', 'to_seat', 'reason', 'amount')", "Payment._fields"),
        ("rules_core.results.NextHand._fields = ('dealer_seat',)", "NextHand._fields"),
        ("convert.json_write.PATTERNS = convert.json_write.PATTERNS[:-1]", "json_write.PATTERNS has 17 names"),
        ("convert.json_write.ITEM_KINDS = [*convert.json_write.ITEM_KINDS, 'X']", "json_write.ITEM_KINDS has 10"),
        ("convert.json_write.UNITS = ('', 'UNIT_FLOWER', 'UNIT_POINT')", "json_write.UNITS is not a list"),
    ],
)
def test_at_import_it_checks_the_fields_and_tables_it_relies_on(change, named):
    error = import_error("arrow_results", RESULT_MODULES + change)
    assert error and named in error, error


def test_an_unchanged_module_loads_in_a_fresh_process():
    assert import_error("arrow_results", RESULT_MODULES) == ""


# What a fuzzed result holds in place of a value.
ODD_VALUES = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 9, 2**31, -(2**31) - 1, 2**53 + 1, 10**30, 1.5, -0.0, math.nan]),
    st.sampled_from(["", "x", "\ud800", "名", (), [], {}, (1,), b"x"]),
    st.integers(min_value=-(2**40), max_value=2**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
)


def _replaced(value, path: list[int], odd):
    """``value`` with the item at ``path`` (indices into nested tuples) replaced by ``odd``,
    each tuple remade as its own type (a named tuple by ``tuple.__new__``)."""
    if not path:
        return odd
    items = list(value)
    items[path[0]] = _replaced(items[path[0]], path[1:], odd)
    return new(type(value), items)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, tuple):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _record_replaced(record: dict, path: tuple, odd) -> dict:
    """A copy of an error record with the value at ``path`` (keys and list indices) replaced."""
    copied = copy.deepcopy(record)
    *head, last = path
    parent = copied
    for step in head:
        parent = parent[step]
    parent[last] = odd
    return copied


@st.composite
def fuzzed_answers(draw) -> list:
    """A few generated answers and error records, then up to three values somewhere in them
    replaced."""
    answers = list(draw(st.lists(st.sampled_from([*RESULTS, PLAIN_ERROR, MISMATCH]), min_size=1, max_size=6)))
    for _ in range(draw(st.integers(0, 3))):
        row = draw(st.integers(0, len(answers) - 1))
        if isinstance(answers[row], SettleResult):
            path = draw(st.sampled_from(list(_paths(answers[row]))[1:]))
            answers[row] = _replaced(answers[row], list(path), draw(ODD_VALUES))
        else:
            path = draw(st.sampled_from([p for p, _ in paths(answers[row]) if p]))
            answers[row] = _record_replaced(answers[row], path, copy.deepcopy(draw(ODD_VALUES)))
    return answers


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fuzzed_answers())
def test_fuzzed_results_are_written_as_the_python_path_writes_them_or_declined(answers):
    try:
        python = python_answers_batch(answers)
    except Exception:  # Arrow refuses it: the C must decline it
        assert native_answers_batch(answers) is None
        return
    native = native_answers_batch(answers)
    if native is not None:
        native.validate(full=True)
        assert same_values(native, python)
    assert same_values(answers_batch(answers), python)


def test_no_blocks_are_left_allocated_over_many_batches():
    """Each batch written or declined frees all it made: CPython's allocated blocks after 300
    rounds of them are those after the first 20 (and the int holding that count); the process
    grows by less than 4 MB, where the buffers kept would be 300 rounds of about 0.25 MB (not
    under AddressSanitizer, whose quarantine holds what is freed)."""
    good = RESULTS[:300]
    declined = [*RESULTS[:50], SURPRISES["a seat past int32"](ONE_RESULT)]

    def rounds(count):
        for _ in range(count):
            native_answers_batch(good)
            NATIVE.result_buffers(declined)
            NATIVE.result_buffers(good[::-1])

    rounds(20)
    before = sys.getallocatedblocks()
    rounds(300)
    assert sys.getallocatedblocks() - before <= 1
    if not UNDER_ASAN:
        assert least_growth(lambda: rounds(300), 4 << 20) < 4 << 20


def test_the_answers_keep_their_records():
    """Writing reads the answers and changes none of them (the records are answered as before)."""
    answers = settle_answers(record_batch(REQUEST, GENERATED[:20] + MALFORMED))
    before = [answer_record(a) for a in answers]
    assert_native_answers(answers)
    assert [answer_record(a) for a in answers] == before

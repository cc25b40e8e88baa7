"""The answer's JSON line written in C (``batch/native/json_answer.c``, issue 23) is byte for
byte the Python writer's, ``output_line(settle_response_dict(result))``, wherever it answers:
on the benchmark's hands, on generated requests under overrides that make odd floats, on
results made by hand with hostile strings and values; and where it is not sure it declines
(None), which the callers hand to the Python writer. Both writers are called here explicitly,
whatever the build."""

from __future__ import annotations

import math
import os
import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rules_core as rc
from batch import native, records
from batch.local import answer_output
from batch.records import count_answer, counted_result_line, new_counts, output_line, result_line
from convert.json_names import SHARE_FIELDS
from convert.json_write import (
    ILLEGAL_REASONS,
    ITEM_KINDS,
    PATTERNS,
    PAYMENT_REASONS,
    PENALTY_REASONS,
    UNITS,
    settle_response_dict,
)
from convert.profile_digest import BUILTIN_REGISTRY
from generators.random_hands import PROFILES, generate_requests
from rules_core.results import NextHand, Payment, Penalty, SettleResult, ValueItem
from rules_core.version import ENGINE_VERSION
from tests.batch.memory import UNDER_ASAN, least_growth
from tests.batch.native_imports import import_error

pytestmark = pytest.mark.native
ROOT = Path(__file__).resolve().parents[2]
json_answer = native.load("json_answer")
needs_build = pytest.mark.skipif(json_answer is None, reason="batch/native/json_answer.c is not built (make install)")


def python_line(result) -> bytes | None:
    """The Python writer's line, or None where it raises (the result no answer could come from)."""
    try:
        return output_line(settle_response_dict(result))
    except Exception:
        return None


def settled(requests) -> list[SettleResult]:
    out = []
    for request in requests:
        try:
            out.append(rc.settle(request, BUILTIN_REGISTRY))
        except (rc.InvalidRequest, rc.ProfileDigestMismatch):
            pass
    return out


BENCH_RESULTS = settled(generate_requests(2000, seed=11))  # the benchmark's hands
BASE_REQUESTS = generate_requests(300, seed=29)


def a_result(**changes) -> SettleResult:
    """A settled result of the benchmark's hands with a winner, an item and a payment, changed."""
    result = next(r for r in BENCH_RESULTS if r.winners and r.winners[0].items and r.payments)
    return result._replace(**changes)


# --- the benchmark's hands and generated requests -----------------------------------------


@needs_build
def test_every_answer_of_the_benchmark_hands_is_the_python_writers_bytes():
    assert len(BENCH_RESULTS) > 1800
    assert {r.profile for r in BENCH_RESULTS} == set(PROFILES)
    for result in BENCH_RESULTS:
        assert json_answer.settle_line(result) == python_line(result), result.request_id


ODD_SHARES = st.one_of(
    st.sampled_from([1 / 3, 2 / 3, 0.1, 0.7, 1e-7, 1e-5, 123456.789, 1e15 + 0.5, 2.0**53 + 2, 1e16, 1e21, 1e300]),
    st.sampled_from([5e-324, 2.2250738585072014e-308, 0.0, -0.0, 1, 3, 10**6]),
    st.floats(min_value=0, max_value=1e12, allow_nan=False),
    st.floats(min_value=0, allow_nan=False, allow_infinity=False),
)


@needs_build
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    base=st.sampled_from(BASE_REQUESTS),
    profile=st.sampled_from(PROFILES),
    shares=st.dictionaries(st.sampled_from(SHARE_FIELDS), ODD_SHARES, max_size=4),
)
def test_generated_requests_under_odd_share_overrides_give_the_python_writers_bytes(base, profile, shares):
    try:
        result = rc.settle(base._replace(profile=profile, overrides=shares or None), BUILTIN_REGISTRY)
    except (rc.InvalidRequest, rc.ProfileDigestMismatch):
        assume(False)
    line = json_answer.settle_line(result)
    if all(math.isfinite(x) for x in result.seat_deltas):
        assert line is not None
    assert line is None or line == python_line(result)


# --- floats: msgspec's digits and exponent form --------------------------------------------


def with_deltas(*deltas) -> SettleResult:
    return a_result(seat_deltas=tuple(deltas))


@needs_build
@pytest.mark.parametrize(
    "value, text",
    [
        (1.0, b"1.0"),
        (-0.0, b"-0.0"),
        (0.0, b"0.0"),
        (1 / 3, b"0.3333333333333333"),
        (1e15, b"1000000000000000.0"),
        (2.0**53, b"9007199254740992.0"),
        (1e16, b"1e16"),
        (1.5e16, b"1.5e16"),
        (1234567890123456.8, b"1234567890123456.8"),
        (1e-5, b"0.00001"),
        (1.234e-5, b"0.00001234"),
        (1e-6, b"1e-6"),
        (2.5e-7, b"2.5e-7"),
        (1e300, b"1e300"),
        (-1.7976931348623157e308, b"-1.7976931348623157e308"),
        (5e-324, b"5e-324"),
        (7, b"7.0"),  # an int in a float field: written as float(7)
        (10**20, b"1e20"),
    ],
)
def test_a_float_is_written_as_msgspec_writes_it(value, text):
    line = json_answer.settle_line(with_deltas(value, 0.0, 0.0, 0.0))
    assert line == python_line(with_deltas(value, 0.0, 0.0, 0.0))
    assert b'"seatDeltas":[' + text + b",0.0,0.0,0.0]" in line


@needs_build
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 10**400])
def test_a_float_msgspec_would_write_as_null_or_python_cannot_convert_is_declined(value):
    assert json_answer.settle_line(with_deltas(value, 0.0, 0.0, 0.0)) is None


@needs_build
def test_random_doubles_of_every_exponent_are_written_as_msgspec_writes_them():
    rng = random.Random(5)
    for _ in range(5000):
        values = [struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(4)]
        values = [v if math.isfinite(v) else 1.5 for v in values]
        result = with_deltas(*values)
        assert json_answer.settle_line(result) == python_line(result), values


@needs_build
@settings(max_examples=2000, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=4, max_size=4))
def test_any_finite_float_is_written_as_msgspec_writes_it(values):
    result = with_deltas(*values)
    assert json_answer.settle_line(result) == python_line(result)


# --- strings: UTF-8 raw, msgspec's escapes; what UTF-8 cannot hold is declined ------------

HOSTILE = [
    'quote " and backslash \\ and slash /',
    "".join(chr(c) for c in range(0x20)) + "\x7f",
    "line\nbreak\ttab\rreturn\bbell\fform",
    "清一色 FULL_FLUSH é \u2028\u2029 \U0001f004",
    "",
    "\\u0000 already escaped",
    '"' * 9 + "\\" * 9,
]


@needs_build
@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_request_ids_and_profile_names_are_escaped_as_msgspec_escapes_them(text):
    for result in (a_result(request_id=text), a_result(profile=text), a_result(profile_digest=text)):
        line = json_answer.settle_line(result)
        assert line is not None
        assert line == python_line(result)


@needs_build
def test_hostile_pattern_names_are_escaped_too():
    result = a_result()
    winner = result.winners[0]
    item = winner.items[0]._replace(name_zh=HOSTILE[1] + "杠开", name_en=HOSTILE[0], code=HOSTILE[2])
    changed = result._replace(winners=(winner._replace(items=(item,)), *result.winners[1:]))
    assert json_answer.settle_line(changed) == python_line(changed)


@needs_build
@pytest.mark.parametrize("text", ["\ud800", "a\udfffb", "清\udc80"])
def test_a_lone_surrogate_is_declined_and_the_python_writer_escapes_its_line(text):
    result = a_result(request_id=text)
    assert json_answer.settle_line(result) is None
    assert result_line(result) == python_line(result)
    assert result_line(result).isascii()  # json.dumps's escaped line, as output_line writes it


@needs_build
@settings(max_examples=500, deadline=None)
@given(st.text(st.characters(codec=None, exclude_categories=()), max_size=40))
def test_any_string_is_written_as_msgspec_writes_it_or_declined_when_utf8_cannot_hold_it(text):
    result = a_result(request_id=text, profile=text[::-1])
    line = json_answer.settle_line(result)
    try:
        text.encode()
    except UnicodeEncodeError:
        assert line is None
    else:
        assert line == python_line(result)


# --- values not as the core builds them: declined ------------------------------------------


def first_winner(**changes) -> SettleResult:
    result = a_result()
    return result._replace(winners=(result.winners[0]._replace(**changes), *result.winners[1:]))


def first_item(**changes) -> SettleResult:
    winner = a_result().winners[0]
    return first_winner(items=(winner.items[0]._replace(**changes), *winner.items[1:]))


@needs_build
@pytest.mark.parametrize(
    "result",
    [
        pytest.param(a_result(unit=len(UNITS)), id="a unit past its table"),
        pytest.param(a_result(unit=-1), id="a negative unit, which the list index takes from the end"),
        pytest.param(first_winner(patterns=(len(PATTERNS),)), id="a pattern past its table"),
        pytest.param(first_winner(illegal_reasons=(0,)), id="an illegal reason at its table's hole"),
        pytest.param(first_item(kind=len(ITEM_KINDS) + 5), id="an item kind past its table"),
        pytest.param(first_winner(seat=True), id="a bool for an int"),
        pytest.param(first_winner(seat=2**63), id="an int beyond int64"),
        pytest.param(first_winner(legal=1), id="an int for a bool"),
        pytest.param(first_winner(patterns=list(a_result().winners[0].patterns)), id="a list for a tuple"),
        pytest.param(a_result(request_id=None), id="None for a string"),
        pytest.param(a_result(request_id=b"id"), id="bytes for a string"),
        pytest.param(first_item(contribution="1"), id="a str for a float"),
        pytest.param(a_result(next_hand=(0, 0)), id="a plain tuple for NextHand"),
        pytest.param(tuple.__new__(SettleResult, tuple(a_result())[:9]), id="a SettleResult of nine fields"),
        pytest.param(tuple(a_result()), id="a plain tuple for the result"),
        pytest.param(a_result(payments=(a_result().payments[0][:3],)), id="a Payment cut to a plain tuple"),
    ],
)
def test_a_value_not_as_the_core_builds_it_is_declined(result):
    assert json_answer.settle_line(result) is None


@needs_build
def test_next_hand_is_absent_when_none_and_the_engine_version_is_rules_cores():
    result = a_result(next_hand=None)
    line = json_answer.settle_line(result)
    assert b'"nextHand"' not in line
    assert line == python_line(result)
    with_next = a_result(next_hand=NextHand(3, 2))
    assert b',"nextHand":{"dealerSeat":3,"huangfanCount":2},"penalties":' in json_answer.settle_line(with_next)
    assert line.endswith(f',"engineVersion":"{ENGINE_VERSION}","profileDigest":"{result.profile_digest}"}}\n'.encode())


@needs_build
def test_every_enum_name_and_a_penalty_are_written_from_json_writes_tables():
    winner = a_result().winners[0]
    items = tuple(ValueItem(kind, f"C{kind}", "名", "name", 1.5, 2) for kind, n in enumerate(ITEM_KINDS) if n)
    patterns = tuple(p for p, n in enumerate(PATTERNS) if n)
    reasons = tuple(r for r, n in enumerate(ILLEGAL_REASONS) if n)
    winners = (winner._replace(items=items, patterns=patterns, illegal_reasons=reasons),)
    payments = tuple(Payment(0, 1, 2.5, r) for r, n in enumerate(PAYMENT_REASONS) if n)
    penalties = tuple(Penalty(2, 8.0, r) for r, n in enumerate(PENALTY_REASONS) if n)
    for unit in (u for u, n in enumerate(UNITS) if n):
        result = a_result(unit=unit, winners=winners, payments=payments, penalties=penalties)
        assert json_answer.settle_line(result) == python_line(result)


# --- hostile results: whatever is put in a field, the twin's bytes or None ---------------

ANY_VALUE = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 1, 2**63, -(2**63) - 1, 10**400, math.nan, math.inf, -0.0]),
    st.sampled_from([b"x", "\ud800", "ok", (), [], {}, (1,), object(), 1.5, 2**53 + 1]),
    st.integers(),
    st.floats(),
    st.text(st.characters(codec=None, exclude_categories=()), max_size=8),
    st.lists(st.integers(-2, 40), max_size=3).map(tuple),
)


def replaced(value, path: list[int], new):
    """``value`` with the element at ``path`` (indices into nested tuples) replaced by ``new``,
    each tuple rebuilt as its own class."""
    if not path:
        return new
    items = list(value)
    items[path[0]] = replaced(items[path[0]], path[1:], new)
    return tuple.__new__(type(value), items)


def at(value, path: list[int]):
    for index in path:
        value = value[index]
    return value


def tuple_paths(value, prefix=()):
    yield list(prefix)
    if isinstance(value, tuple):
        for index, item in enumerate(value):
            yield from tuple_paths(item, (*prefix, index))


@needs_build
@settings(max_examples=1500, deadline=None)
@given(base=st.sampled_from(BENCH_RESULTS[:200]), data=st.data())
def test_a_result_with_any_value_anywhere_gives_the_twins_bytes_or_none(base, data):
    """Up to three changes: a value anywhere replaced, or a tuple anywhere (the result itself
    too) cut short or lengthened, kept of its class."""
    result = base
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(tuple_paths(result))))
        old = at(result, path)
        if isinstance(old, tuple) and data.draw(st.booleans()):
            cut = data.draw(st.integers(0, len(old) + 1))
            new = tuple.__new__(type(old), (*tuple(old)[:cut], *([0] * (cut - len(old)))))
        elif path:
            new = data.draw(ANY_VALUE)
        else:
            continue
        result = replaced(result, path, new)
    line = json_answer.settle_line(result)
    assert line is None or line == python_line(result)
    native_counts, python_counts = new_counts(), new_counts()
    counted = json_answer.counted_line(result, native_counts)
    assert counted == line
    if counted is None:
        assert native_counts == new_counts()
    else:
        count_answer(python_counts, result)
        assert native_counts == python_counts


# --- the counts ----------------------------------------------------------------------------


@needs_build
def test_counted_lines_add_to_the_counts_as_count_answer_does():
    sample = [*BENCH_RESULTS, a_result(profile_digest=""), a_result(winners=()), a_result(profile="house")]
    native_counts, python_counts = new_counts(), new_counts()
    for result in sample:
        assert json_answer.counted_line(result, native_counts) == python_line(result)
        count_answer(python_counts, result)
    assert native_counts == python_counts
    assert native_counts["legal_wins"] > 0 and native_counts["illegal_wins"] > 0
    assert "house" in native_counts["profile_digests"].values()  # the last profile of its digest


@needs_build
@pytest.mark.parametrize(
    "counts",
    [
        pytest.param({k: v for k, v in new_counts().items() if k != "settled"}, id="no settled count"),
        pytest.param({**new_counts(), "legal_wins": 0.0}, id="a float count"),
        pytest.param({**new_counts(), "engine_versions": []}, id="a list for a table"),
        pytest.param({**new_counts(), "engine_versions": {ENGINE_VERSION: "1"}}, id="a str for an engine's answers"),
        pytest.param(list(new_counts().items()), id="not a dict"),
    ],
)
def test_counts_not_as_new_counts_makes_them_are_declined_unchanged(counts):
    before = repr(counts)
    assert json_answer.counted_line(a_result(), counts) is None
    assert repr(counts) == before


@needs_build
def test_counts_the_python_counts_refuse_raise_as_they_do():
    counts = {k: v for k, v in new_counts().items() if k != "settled"}
    with pytest.raises(KeyError, match="settled"):
        counted_result_line(counts, a_result())


@needs_build
def test_a_declined_result_leaves_the_counts_to_count_answer():
    native_counts, python_counts = new_counts(), new_counts()
    result = a_result(request_id="\ud800")
    assert json_answer.counted_line(result, native_counts) is None
    assert native_counts == new_counts()
    assert counted_result_line(native_counts, result) == python_line(result)
    count_answer(python_counts, result)
    assert native_counts == python_counts


# --- where the callers take it --------------------------------------------------------------


@needs_build
def test_the_callers_lines_are_the_python_writers_with_or_without_the_native_writer(monkeypatch):
    sample = [*BENCH_RESULTS[:300], a_result(request_id="\ud800"), with_deltas(math.nan, 0.0, 0.0, 0.0)]
    native_counts, python_counts = new_counts(), new_counts()
    with_native = [answer_output(r, native_counts) for r in sample]
    monkeypatch.setattr(records, "_write_native", None)  # as under SHMJ_PURE_PYTHON=1
    monkeypatch.setattr(records, "_count_native", None)
    without = [answer_output(r, python_counts) for r in sample]
    assert with_native == without == [output_line(settle_response_dict(r)) for r in sample]
    assert native_counts == python_counts


def test_the_pure_python_build_takes_no_native_writer():
    code = "from batch import records; print(records._write_native)"
    env = {**os.environ, "SHMJ_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout == "None\n"


# --- the import check ----------------------------------------------------------------------

PATCHED_TYPES = "import collections\nimport rules_core.results as results, convert.json_write as json_write\n"


@needs_build
@pytest.mark.parametrize(
    "patch, message",
    [
        (
            "results.Payment = collections.namedtuple('Payment', 'to_seat from_seat amount reason')",
            "json_answer: rules_core.results.Payment._fields is ('to_seat', 'from_seat', 'amount', 'reason'), "
            "the writer reads ('from_seat', 'to_seat', 'amount', 'reason')",
        ),
        ("results.NextHand = int", "json_answer: rules_core.results.NextHand is not a named tuple"),
        (
            "json_write.PATTERNS = tuple(json_write.PATTERNS)",
            "json_answer: convert.json_write.PATTERNS is not a list",
        ),
        ("json_write.UNITS[1] = 1", "json_answer: convert.json_write.UNITS[1] is not a str"),
        (
            "import rules_core.version; rules_core.version.ENGINE_VERSION = 1",
            "json_answer: rules_core.version.ENGINE_VERSION is not a str",
        ),
    ],
)
def test_the_module_refuses_to_load_when_a_type_or_table_is_not_as_it_reads_them(patch, message):
    assert import_error("json_answer", PATCHED_TYPES + patch) == message


# --- no leak ---------------------------------------------------------------------------------


@needs_build
def test_many_lines_written_and_declined_leak_nothing():
    sample = [
        *BENCH_RESULTS[:200],
        a_result(request_id="\ud800"),
        first_winner(seat=True),
        with_deltas(math.inf, 0.0, 0.0, 0.0),
    ]
    write, counted = json_answer.settle_line, json_answer.counted_line
    counts, odd_counts = new_counts(), {**new_counts(), "settled": 0.5}

    def run(times: int) -> None:
        for _ in range(times):
            for result in sample:
                write(result)
                counted(result, counts)
                counted(result, odd_counts)

    run(50)  # warm-up: the UTF-8 forms CPython keeps beside non-ASCII strings, free lists
    blocks = sys.getallocatedblocks()
    run(500)  # 304,500 calls: a block leaked in one call of 10,000 would be 30
    assert sys.getallocatedblocks() - blocks <= 10  # the interpreter's free lists and caches settling
    if not UNDER_ASAN:
        assert least_growth(lambda: run(500), 1 << 20) < 1 << 20

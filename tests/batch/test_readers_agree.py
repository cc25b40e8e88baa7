"""The readers of each wire form agree (issue 23): generated requests, valid and malformed, read
from proto3 JSON by the native reader (C, ``batch.native.json_request``), by the fast reader
(msgspec, ``batch.fast_requests``) and by the bounded reader (``convert.json_read``), compact
and spaced, from the proto message (``convert``) and from an Arrow row, give equal
core values, and equal records (answers or violations) once settled. An Arrow batch is read
row by row (msgspec) and column by column (``batch.arrow_columns``) alike."""

from __future__ import annotations

import copy
import json
import random

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.json_format import MessageToDict, ParseDict, ParseError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
import rules_core as rc
from batch import native
from batch.arrow import request_rows, settle_records
from batch.arrow_columns import read_requests
from batch.arrow_schema import REQUEST, record_batch
from batch.fast_requests import read_json_request, read_row_request
from batch.local import settle_request
from batch.records import read_line
from convert.json_form import message_dict
from convert.json_read import read_settle_request
from generators.random_hands import generate_requests

# Generated requests, every other one as protobuf's MessageToDict writes it (a field at its
# default left out), the rest as this product writes JSON (every field printed, `message_dict`).
BASES = [
    (message_dict if index % 2 else MessageToDict)(convert.settle_request_message(r))
    for index, r in enumerate(generate_requests(200, seed=23))
]

# What a malformed or unusual line holds in place of a value: out of range, of the wrong type,
# an unknown or unspecified enum name, an enum number, a number in a string, null.
ODD_VALUES = st.one_of(
    st.sampled_from([None, True, "", "5", 5.0, -1, 9, 2**31, -(2**31) - 1, 10**30, "TILE_UNSPECIFIED", "TILE_Z9"]),
    st.sampled_from(["OUTCOME_DISCARD", "MELD_KIND_PUNG", "TILE_M1", "FLOWER_PLUM", 1, 3, [], {}, ["TILE_M1"] * 15]),
    st.integers(min_value=-(2**40), max_value=2**40),
    st.text(max_size=5),
)

# Values a proto message can hold where a request has them (a number within int32, an enum
# name of the field's own type or none), which the proto reader must then judge as the JSON one.
HOLDABLE_VALUES = st.one_of(
    st.integers(min_value=-(2**31), max_value=2**31 - 1),
    st.sampled_from([-1, 0, 4, 9, 35, 36, 1000, "TILE_UNSPECIFIED", "FLOWER_UNSPECIFIED", "OUTCOME_UNSPECIFIED"]),
)


def paths(value, prefix=()):
    """Every place in a JSON value: (path, the value there)."""
    yield prefix, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def snake(key: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in key)


@st.composite
def requests(draw, values=ODD_VALUES) -> dict:
    """A generated request, then up to three changes: a value replaced (by one of ``values``),
    a key spelt in snake_case, an unknown key added, a list item dropped."""
    data = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    for _ in range(draw(st.integers(0, 3))):
        places = [(p, v) for p, v in paths(data) if p]
        path, _ = draw(st.sampled_from(places))
        *head, last = path
        parent = data
        for step in head:
            parent = parent[step]
        change = draw(st.sampled_from(["value", "snake", "unknown", "drop"]))
        if change == "value":
            # a copy: the strategy hands out the same [] and {} each time, which a later change
            # would otherwise mutate for every example after (or nest into itself)
            parent[last] = copy.deepcopy(draw(values))
        elif change == "snake" and isinstance(last, str):
            parent[snake(last)] = parent.pop(last)
        elif change == "unknown" and isinstance(parent, dict):
            parent["colour"] = 1
        elif change == "drop" and isinstance(parent, list):
            parent.pop(last)
    return data


def bounded(data: dict):
    """The bounded reader's reading: a core value, or its violations."""
    try:
        return read_settle_request(data)
    except rc.InvalidRequest as error:
        return error.violations


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NATIVE_JSON = native.load("json_request")
WHITESPACE = " \t\r\n"


def spaced(value, rng: random.Random) -> str:
    """``value`` as JSON text with whitespace drawn by ``rng`` around every token."""

    def gap() -> str:
        return "".join(rng.choice(WHITESPACE) for _ in range(rng.choice([0, 0, 1, 2])))

    if isinstance(value, dict):
        items = [f"{gap()}{json.dumps(k)}{gap()}:{gap()}{spaced(v, rng)}{gap()}" for k, v in value.items()]
        return "{" + ",".join(items) + gap() + "}"
    if isinstance(value, list):
        return "[" + ",".join(f"{gap()}{spaced(v, rng)}{gap()}" for v in value) + gap() + "]"
    return json.dumps(value, ensure_ascii=False)


@SETTINGS
@given(requests())
def test_the_fast_json_reader_reads_what_the_bounded_one_reads_or_leaves_it_to_it(data):
    line = json.dumps(data, ensure_ascii=False).encode()
    fast = read_json_request(line)
    if fast is not None:
        assert fast == bounded(data)
    request, error = read_line(1, line, None, {})
    assert error is None
    assert settle_request(request) == settle_request(json.loads(line))  # the same record, whichever reader


@pytest.mark.native
@pytest.mark.skipif(NATIVE_JSON is None, reason="batch.native.json_request not built")
@SETTINGS
@given(requests(), st.randoms(use_true_random=False), st.booleans())
def test_the_native_json_reader_reads_what_the_others_read_or_declines(data, rng, compact):
    """Where the native reader answers, its request is msgspec's and the bounded reader's; and it
    declines no usual line (one the bounded reader reads, ASCII, that msgspec reads)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) if compact else spaced(data, rng)
    line = text.encode()
    answer = NATIVE_JSON.read(line)
    fast = read_json_request(line)
    if answer is not None:
        assert answer == fast == bounded(data)
        assert NATIVE_JSON.read(text) == answer
    elif fast is not None and line.isascii() and b"\\" not in line:
        raise AssertionError(f"declined a usual line: {line!r}")


def all_fields(descriptor=pb.SettleRequest.DESCRIPTOR) -> list:
    """Every field of a SettleRequest, at any depth."""
    fields = list(descriptor.fields)
    for field in descriptor.fields:
        if field.message_type is not None and field.message_type is not descriptor:
            fields += all_fields(field.message_type)
    return fields


def names_of(fields) -> set[str]:
    return {name for field in fields for name in (field.name, field.json_name)}


BOOL_FIELDS = names_of(f for f in all_fields() if f.type == FieldDescriptor.TYPE_BOOL)
ENUM_FIELDS = names_of(f for f in all_fields() if f.type == FieldDescriptor.TYPE_ENUM)
REPEATED_FIELDS = names_of(f for f in all_fields() if f.is_repeated)
MESSAGE_FIELDS = names_of(f for f in all_fields() if f.message_type is not None)


def beyond_proto3_json(path: tuple, value) -> bool:
    """What protobuf's Python ParseDict takes and proto3 JSON does not: true or false for a
    number or an enum (a bool is an int in Python), a float, a number in a string or a number
    beyond int32 for an enum, a string or a list as a message (an empty one reads as empty)."""
    name = next(step for step in reversed(path) if isinstance(step, str))
    if isinstance(value, bool):
        return name not in BOOL_FIELDS
    if name in MESSAGE_FIELDS and isinstance(value, (str, list)):
        return not (isinstance(value, list) and isinstance(path[-1], str) and name in REPEATED_FIELDS)
    if name in ENUM_FIELDS:
        if isinstance(value, int):
            return not -(2**31) <= value < 2**31
        return isinstance(value, float) or (isinstance(value, str) and value.strip().lstrip("-").isdigit())
    return False


def settled(reading):
    """What a caller gets of a reading: the settlement, or the violations that refuse it."""
    if not isinstance(reading, rc.SettleRequest):
        return reading
    try:
        return rc.settle(reading)
    except rc.InvalidRequest as error:
        return error.violations


@SETTINGS
@given(st.one_of(requests(), requests(HOLDABLE_VALUES)))
def test_the_proto_reading_is_the_json_reading(data):
    """The same request, or the same violations, naming the same fields."""
    if any(beyond_proto3_json(path, value) for path, value in paths(data) if path):
        return  # a message, where the JSON reader rightly refuses the line
    try:
        message = ParseDict(data, pb.SettleRequest())
    except (ParseError, ValueError, TypeError):
        return  # not a message protobuf can hold: nothing to compare
    json_reading = bounded(data)
    try:
        proto_reading = convert.settle_request(message)
    except rc.InvalidRequest as error:
        proto_reading = error.violations
    if isinstance(proto_reading, rc.SettleRequest) and isinstance(json_reading, rc.SettleRequest):
        assert proto_reading == json_reading
    else:  # the proto readers leave a meld's tile count to validation, which names it as the JSON reader does
        assert settled(proto_reading) == settled(json_reading)


@SETTINGS
@given(requests())
def test_an_arrow_row_settles_as_its_json_line(data):
    """Where the JSON reads (a column the schema lacks, as ``colour``, cannot be in a row)."""
    if not isinstance(bounded(data), rc.SettleRequest):
        return
    line = json.dumps(data, ensure_ascii=False)
    try:
        batch = record_batch(REQUEST, [data])
    except (pa.ArrowInvalid, pa.ArrowTypeError, AttributeError, TypeError, ValueError, OverflowError):
        return  # not a row the nested schema can hold
    (row,) = request_rows(batch)
    if _split_into_a_list(data, row):
        return  # Arrow took a string (a hand in notation, which JSON reads) as a list of characters
    fast = read_row_request(row)
    if fast is not None:
        assert fast == bounded(dict(row))
    columnar = read_requests(batch)
    if columnar is not None and columnar[0] is not None:
        assert columnar[0] == bounded(dict(row))
    nested = settle_records(batch)
    assert nested == settle_records(pa.record_batch([pa.array([line])], names=["json"]))


def _split_into_a_list(given, held) -> bool:
    """Whether a string of ``given`` is a list in ``held``, the row Arrow made of it."""
    if isinstance(given, str):
        return isinstance(held, list)
    if isinstance(given, dict) and isinstance(held, dict):
        return any(_split_into_a_list(value, held.get(key)) for key, value in given.items())
    if isinstance(given, list) and isinstance(held, list):
        return any(_split_into_a_list(g, h) for g, h in zip(given, held, strict=False))
    return False


def as_the_nested_form_means_it(row: dict) -> dict:
    """An Arrow row as JSON, where a null item of a list of names is the unspecified name: in
    the nested form nulls are proto3 defaults (docs/BATCH.md), where JSON has no null in a list."""

    def meant(value, key=None):
        if isinstance(value, dict):
            return {k: meant(v, k) for k, v in value.items()}
        if isinstance(value, list):
            unspecified = "FLOWER_UNSPECIFIED" if key == "flowers" else "TILE_UNSPECIFIED"
            return [unspecified if item is None else meant(item) for item in value]
        return value

    return meant(row)


def test_a_null_in_an_arrow_list_is_its_default_whichever_reader_reads_the_row():
    """A null tile is the unspecified tile, a null meld an empty one, read column by column or
    row by row, as a job with overrides reads every row."""
    good = record_batch(REQUEST, [next(b for b in BASES if b.get("winners") and b["winners"][0]["hand"].get("melds"))])
    (row,) = request_rows(good)
    row["winners"][0]["hand"]["concealed"][0] = None
    row["winners"][0]["hand"]["melds"][0] = None
    violations = [
        {"field": "winners[0].hand.concealed[0]", "description": "must be a specified tile"},
        {"field": "winners[0].hand.melds[0].kind", "description": "must be specified"},
    ]
    (record,) = settle_records(pa.RecordBatch.from_pylist([row], schema=good.schema))
    assert record["error"]["fieldViolations"] == violations
    (record,) = settle_records(pa.RecordBatch.from_pylist([row], schema=good.schema), overrides={"ordinary_base": 3})
    assert record["error"]["fieldViolations"] == violations


@SETTINGS
@given(requests())
def test_an_arrow_row_valid_or_malformed_gives_the_record_of_its_json_line(data):
    """The same answer or the same violations, naming the same fields: what the nested schema
    holds of a generated request, read from its columns and from its JSON line."""
    try:
        batch = record_batch(REQUEST, [data])
    except (pa.ArrowInvalid, pa.ArrowTypeError, AttributeError, TypeError, ValueError, OverflowError):
        return  # not a row the nested schema can hold
    (row,) = request_rows(batch)
    line = json.dumps(as_the_nested_form_means_it(dict(row)), ensure_ascii=False)
    assert settle_records(batch) == settle_records(pa.record_batch([pa.array([line])], names=["json"]))


def test_the_columnar_reader_reads_every_row_of_a_batch_and_of_its_slices():
    batch = record_batch(REQUEST, BASES)
    expected = [bounded(data) for data in BASES]
    assert read_requests(batch) == expected
    assert read_requests(batch.slice(37, 50)) == expected[37:87]
    odd = [dict(BASES[0], outcome="OUTCOME_NONE"), BASES[1], dict(BASES[2], requestId="x" * 300)]
    assert read_requests(record_batch(REQUEST, odd)) == [None, expected[1], None]  # left to the bounded reader


def test_a_null_list_that_spans_items_reads_as_empty_as_the_row_reader_reads_it():
    """Arrow lets a null list's offsets span items of the child array: the columnar reader,
    which cuts lists at Arrow's offsets where a column has no null, takes a null list as empty,
    as the row reader (which never sees those items) does, and the rows after it keep theirs."""
    won = [data for data in BASES if data.get("winners")][:6]
    batch = record_batch(REQUEST, won)
    winners = batch.column("winners")
    assert pc.min(winners.value_lengths()).as_py() > 0  # every row has a winner to hide
    mask = pa.array([False, True, False, True, False, False])
    hidden = pa.ListArray.from_arrays(winners.offsets, winners.values, mask=mask)
    batch = batch.set_column(batch.schema.get_field_index("winners"), "winners", hidden)
    expected = [bounded(data) for data in won]
    for row in (1, 3):
        expected[row] = expected[row]._replace(winners=())
    assert read_requests(batch) == [read_row_request(row) for row in request_rows(batch)] == expected
    assert read_requests(batch.slice(1, 4)) == expected[1:5]


def test_a_row_left_to_the_bounded_reader_leaves_the_rest_of_its_batch_read_as_before():
    """Each kind of row the columnar reader leaves alone (an unknown name at every depth, a list
    over its bound), among usual rows: those are None, every other row its bounded reading."""
    meld_row = next(i for i, b in enumerate(BASES) if b.get("winners") and b["winners"][0]["hand"].get("melds"))

    def changed(index, change):
        data = copy.deepcopy(BASES[index])
        change(data)
        return data

    def first_hand(data):
        return data["winners"][0]["hand"]

    odd = [
        changed(meld_row, lambda d: first_hand(d)["melds"][0].update(kind="MELD_KIND_TRIPLE")),
        changed(meld_row, lambda d: first_hand(d)["melds"][0]["tiles"].__setitem__(0, "TILE_Z9")),
        changed(meld_row, lambda d: first_hand(d).update(concealed=["TILE_M1"] * 15)),
        changed(meld_row, lambda d: first_hand(d).update(winningTile="TILE_M0")),
        changed(meld_row, lambda d: first_hand(d).update(flowers=["FLOWER_ROSE"])),
        changed(meld_row, lambda d: d["winners"][0].update(passedTiles=["TILE_P0"])),
        changed(meld_row, lambda d: first_hand(d).update(melds=first_hand(d)["melds"] * 5)),
        changed(0, lambda d: d.update(liabilities=[{"claimerSeat": 1, "sourceSeat": 2, "claims": 3}] * 49)),
    ]
    rows = [row for pair in zip(BASES[: len(odd)], odd, strict=True) for row in pair]
    read = read_requests(record_batch(REQUEST, rows))
    assert read[1::2] == [None] * len(odd)
    assert read[0::2] == [bounded(data) for data in BASES[: len(odd)]]
    assert read_requests(record_batch(REQUEST, rows[0::2])) == read[0::2]


def test_a_jobs_profile_settles_the_rows_of_either_reader_alike():
    """``rescore --profile``: a row the columnar reader reads and one it leaves to the bounded
    reader (an id of 100 characters, which may be over 256 bytes in UTF-8: it is not) are both
    settled under the job's profile, as their JSON lines are."""
    rows = [dict(BASES[i], requestId=f"{i}-" + "x" * 98) if i % 2 else BASES[i] for i in range(6)]
    batch = record_batch(REQUEST, rows)
    assert [request is None for request in read_requests(batch)] == [False, True] * 3
    lines = pa.record_batch([pa.array([json.dumps(row) for row in rows])], names=["json"])
    for profile in ("classic", "lezi", "sankou"):
        nested = settle_records(batch, profile=profile)
        assert nested == settle_records(lines, profile=profile)
        assert [record.get("profile") for record in nested] == [profile] * len(rows)

"""The native reader of a nested Arrow batch (batch/native/arrow_requests.c) reads what its
Python twin (``arrow_columns.read_requests_in_python``) reads: the same core values, of the same
types, the same rows left to the bounded reader (None), the same batches refused whole (None);
it declines (NotImplemented) a batch whose buffers lie, and never crashes, reads outside a
buffer or leaks on one. `make fuzz-native` runs these against its sanitized build."""

from __future__ import annotations

import copy
import gc
import sys

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from batch import native
from batch.arrow_columns import natively_readable, read_requests, read_requests_in_python
from batch.arrow_schema import REQUEST, REQUEST_SCHEMA, record_batch
from rules_core.requests import Hand, LiabilityRelation, Meld, SettleRequest, Winner
from rules_core.tiles import Tile
from tests.batch.memory import UNDER_ASAN, least_growth
from tests.batch.native_imports import import_error
from tests.batch.test_readers_agree import BASES, requests

pytestmark = pytest.mark.native

READER = native.load("arrow_requests")
needs_build = pytest.mark.skipif(READER is None, reason="batch/native/arrow_requests.c is not built")


def native_read(batch: pa.RecordBatch):
    return READER.read_requests(*batch.__arrow_c_array__())


def same_values(a, b) -> bool:
    """Equal, and of the same types at every depth (a Hand is not a plain tuple)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(same_values(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def assert_reads_as_python(batch: pa.RecordBatch) -> None:
    python = read_requests_in_python(batch)
    read = native_read(batch)
    assert read is not NotImplemented
    assert same_values(read, python)


def rows_batch(rows: list[dict], schema: pa.Schema = REQUEST_SCHEMA) -> pa.RecordBatch:
    return pa.RecordBatch.from_pylist(rows, schema=schema)


BATCH = record_batch(REQUEST, BASES)
ROWS = BATCH.to_pylist()
WITH_MELDS = next(row for row in ROWS if row["winners"] and row["winners"][0]["hand"]["melds"])


def changed(row: dict, change) -> dict:
    row = copy.deepcopy(row)
    change(row)
    return row


@needs_build
def test_the_generated_batch_and_every_slice_of_it_read_as_in_python():
    assert_reads_as_python(BATCH)
    for start, length in [(0, 0), (0, 1), (1, 1), (37, 50), (199, 1), (150, 50), (200, 0)]:
        assert_reads_as_python(BATCH.slice(start, length))


@needs_build
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(requests(), min_size=1, max_size=8), st.integers(0, 7), st.integers(0, 8))
def test_generated_requests_valid_and_malformed_read_as_in_python(data, start, length):
    try:
        batch = record_batch(REQUEST, data)
    except (pa.ArrowInvalid, pa.ArrowTypeError, AttributeError, TypeError, ValueError, OverflowError):
        return  # not rows the nested schema can hold
    assert_reads_as_python(batch)
    assert_reads_as_python(batch.slice(start, length))


NULL_EVERYWHERE = [
    {},  # every column null
    {"winners": [None]},
    {"winners": [{"seat": None, "hand": None, "passed_tiles": None, "replacement_draw": None}]},
    {"winners": [{"hand": {"concealed": None, "winning_tile": None, "melds": None, "flowers": None}}]},
    {"winners": [{"hand": {"concealed": ["TILE_M1", None], "melds": [None], "flowers": [None]}}]},
    {"winners": [{"hand": {"melds": [{"kind": None, "tiles": [None, "TILE_P2"], "from_seat": None}]}}]},
    {"winners": [{"passed_tiles": [None], "first_go_around": None}]},
    {"dice": None, "liabilities": [None, {"claimer_seat": None, "source_seat": 2, "claims": None}]},
    {"dice": {"first": None, "second": 3}, "outcome": None, "request_id": None, "profile": None},
]


@needs_build
def test_a_null_at_every_level_reads_as_absent():
    batch = rows_batch(NULL_EVERYWHERE)
    assert_reads_as_python(batch)
    read = native_read(batch)
    assert read[0] == SettleRequest(profile="", outcome=None)
    assert read[1].winners == (Winner(seat=0, hand=Hand(concealed=())),)
    assert read[4].winners[0].hand == Hand(concealed=(Tile.M1, None), melds=(Meld(None, ()),), flowers=(None,))
    assert read[5].winners[0].hand.melds == (Meld(kind=None, tiles=(None, Tile.P2), from_seat=0),)
    assert [r.dice for r in read] == [None] * 8 + [(0, 3)]
    assert read[7].liabilities == (LiabilityRelation(0, 0, 0), LiabilityRelation(0, 2, 0))
    assert_reads_as_python(batch.slice(3, 4))


@needs_build
def test_rows_left_to_the_bounded_reader_are_none_and_the_rest_read():
    odd = [
        changed(WITH_MELDS, lambda r: r["winners"][0]["hand"]["melds"][0].update(kind="MELD_KIND_TRIPLE")),
        changed(WITH_MELDS, lambda r: r["winners"][0]["hand"]["concealed"].extend(["TILE_M1"] * 15)),
        changed(WITH_MELDS, lambda r: r["winners"][0]["hand"].update(winning_tile="TILE_M0")),
        changed(WITH_MELDS, lambda r: r["winners"][0].update(passed_tiles=["TILE_P0"])),
        changed(WITH_MELDS, lambda r: r.update(winners=r["winners"] * 5)),
        changed(ROWS[0], lambda r: r.update(liabilities=[{"claimer_seat": 1, "source_seat": 2, "claims": 3}] * 49)),
        changed(ROWS[0], lambda r: r.update(outcome="OUTCOME_NONE")),
        changed(ROWS[0], lambda r: r.update(request_id="x" * 65)),  # 65 characters may be 260 bytes
        changed(ROWS[0], lambda r: r.update(request_id="x" * 64)),
    ]
    rows = [row for pair in zip(ROWS[: len(odd)], odd, strict=True) for row in pair]
    batch = rows_batch(rows)
    assert_reads_as_python(batch)
    read = native_read(batch)
    assert read[1::2] == [None] * (len(odd) - 1) + [read_requests_in_python(batch)[-1]]
    assert read[-1].request_id == "x" * 64


@needs_build
def test_children_with_offsets_of_their_own_read_as_in_python():
    """Arrays built from slices: each child has its own offset, beside its parent's."""

    def offset(array: pa.Array, pad: int = 3) -> pa.Array:
        return pa.concat_arrays([array.slice(0, min(pad, len(array))), array]).slice(min(pad, len(array)))

    columns = []
    for field, column in zip(BATCH.schema, BATCH.columns, strict=True):
        if pa.types.is_struct(field.type):
            column = pa.StructArray.from_arrays(
                [offset(child) for child in column.flatten()], fields=list(field.type), mask=column.is_null()
            )
        elif pa.types.is_list(field.type):
            column = pa.ListArray.from_arrays(column.offsets, offset(column.values), mask=column.is_null())
        columns.append(offset(column, 5))
    batch = pa.RecordBatch.from_arrays(columns, schema=BATCH.schema)
    assert native_read(batch) == read_requests_in_python(batch) == read_requests_in_python(BATCH)
    assert_reads_as_python(batch.slice(11, 40))


@needs_build
@pytest.mark.parametrize(
    "name, schema_change",
    [
        ("columns missing and reordered", lambda s: pa.schema([s.field("winners"), s.field("request_id")])),
        ("a list item named otherwise", lambda s: s.set(s.get_field_index("liabilities"), _renamed_items(s))),
        ("an unknown column", lambda s: s.append(pa.field("colour", pa.int32()))),
        (
            "a column of another width",
            lambda s: s.set(s.get_field_index("dealer_seat"), pa.field("dealer_seat", pa.int64())),
        ),
        ("a large string", lambda s: s.set(0, pa.field("request_id", pa.large_string()))),
        ("a large list", lambda s: s.set(s.get_field_index("winners"), _large_winners(s))),
        ("a child not nullable", lambda s: s.set(s.get_field_index("dice"), _strict_dice())),
    ],
)
def test_a_schema_reads_or_is_refused_as_in_python(name, schema_change):
    schema = schema_change(REQUEST_SCHEMA)
    rows = [{k: v for k, v in row.items() if k in schema.names} for row in ROWS[:20]]
    batch = rows_batch(rows, schema)
    assert native_read(batch) == read_requests_in_python(batch)
    assert (native_read(batch) is None) == (
        name not in ("columns missing and reordered", "a list item named otherwise")
    )


def _renamed_items(schema: pa.Schema) -> pa.Field:
    return pa.field("liabilities", pa.list_(pa.field("element", schema.field("liabilities").type.value_type)))


def _large_winners(schema: pa.Schema) -> pa.Field:
    return pa.field("winners", pa.large_list(schema.field("winners").type.value_type))


def _strict_dice() -> pa.Field:
    return pa.field("dice", pa.struct([pa.field("first", pa.int32(), nullable=False), pa.field("second", pa.int32())]))


@needs_build
def test_a_name_with_a_nul_byte_is_refused_as_in_python():
    """The C Data Interface cuts a name at a NUL byte (``first\\0x`` reads as ``first``), so the
    caller checks the columns' types by pyarrow's equality before it asks the native reader."""
    dice = pa.struct([pa.field("first\0x", pa.int32()), pa.field("second", pa.int32())])
    batch = pa.RecordBatch.from_arrays([pa.array([{"first\0x": 1, "second": 2}], dice)], names=["dice"])
    assert native_read(batch) == [SettleRequest(profile="", outcome=None, dice=(1, 2))]  # what C sees
    assert read_requests(batch) is None is read_requests_in_python(batch)


def _ipc_bytes(batch: pa.RecordBatch) -> bytes:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    return sink.getvalue().to_pybytes()


IPC = _ipc_bytes(BATCH.slice(3, 6))


@needs_build
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(IPC) - 1), st.integers(0, 255)), min_size=1, max_size=6))
def test_random_bytes_in_a_batch_never_crash_and_read_as_python_where_it_is_valid(changes):
    """A batch's Arrow IPC bytes (its schema, buffers and lengths), some of them replaced."""
    data = bytearray(IPC)
    for at, value in changes:
        data[at] = value
    try:
        batch = pa.ipc.open_stream(bytes(data)).read_next_batch()
        batch.validate()
    except (pa.ArrowException, OSError, ValueError):
        return  # refused by Arrow itself, or buffers shorter than their lengths: not read natively
    except StopIteration:
        return  # a byte changed so that the stream ends before its batch: nothing to read
    read = native_read(batch)
    assert read is NotImplemented or read is None or isinstance(read, list)
    try:
        batch.validate(full=True)
    except pa.ArrowInvalid:
        return  # the twin is not called on a batch that lies: it may read outside its buffers
    if len(batch):
        assert same_values(outcome(read_requests, batch), outcome(read_requests_in_python, batch))


def outcome(read, batch):
    """What ``read`` gives, or the type of what it raises (a name not UTF-8: pyarrow cannot say it)."""
    try:
        return read(batch)
    except UnicodeDecodeError as error:
        return type(error)


def test_a_batch_whose_buffers_are_shorter_than_its_lengths_is_not_read_natively():
    """Three bytes of the batch's IPC stream changed (found by the test above, before the caller
    checked this): a string column of 618,475,290,629 values in 24 bytes. The C Data Interface
    gives no buffer's size, so the caller has pyarrow check them before the native reader runs."""
    data = bytearray(IPC)
    for at, value in ((8516, 144), (8706, 107), (9404, 68)):
        data[at] = value
    batch = pa.ipc.open_stream(bytes(data)).read_next_batch()
    with pytest.raises(pa.ArrowInvalid, match="too small"):
        batch.validate()
    assert not natively_readable(batch)
    assert natively_readable(BATCH)


@needs_build
def test_a_dictionary_encoded_column_is_refused_as_in_python():
    columns = [
        c.dictionary_encode() if f.name == "outcome" else c for f, c in zip(BATCH.schema, BATCH.columns, strict=True)
    ]
    batch = pa.RecordBatch.from_arrays(columns, names=BATCH.schema.names)
    assert native_read(batch) is None
    assert read_requests_in_python(batch) is None


@needs_build
def test_overrides_in_any_row_refuse_the_batch_and_overrides_null_everywhere_do_not():
    rows = copy.deepcopy(ROWS[:5])
    assert_reads_as_python(rows_batch(rows))  # the overrides column null in every row
    rows[3]["overrides"] = {"name": "house"}
    batch = rows_batch(rows)
    assert native_read(batch) is None
    assert read_requests_in_python(batch) is None
    assert_reads_as_python(batch.slice(0, 3))  # the slice without it


@needs_build
def test_a_column_twice_is_read_from_its_last_as_in_python():
    batch = pa.RecordBatch.from_arrays(
        [BATCH.column("request_id"), pa.array(["second"] * len(BATCH))], names=["request_id", "request_id"]
    )
    assert_reads_as_python(batch)
    assert {r.request_id for r in native_read(batch)} == {"second"}


@needs_build
def test_an_extension_type_is_declined_and_read_by_python():
    class Seat(pa.ExtensionType):
        def __init__(self):
            super().__init__(pa.int32(), "shmj.seat")

        def __arrow_ext_serialize__(self):
            return b""

        @classmethod
        def __arrow_ext_deserialize__(cls, storage_type, serialized):
            return cls()

    column = pa.ExtensionArray.from_storage(Seat(), BATCH.column("dealer_seat"))
    batch = pa.RecordBatch.from_arrays([column], names=["dealer_seat"])
    assert native_read(batch) is NotImplemented
    assert read_requests(batch) is None is read_requests_in_python(batch)


def _int32s(values) -> pa.Buffer:
    return pa.py_buffer(np.array(values, np.int32).tobytes())


def _batch_of(name: str, column: pa.Array) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([column], names=[name])


LYING = {
    "string offsets going back": lambda: _batch_of(
        "request_id", pa.Array.from_buffers(pa.string(), 2, [None, _int32s([0, 5, 3]), pa.py_buffer(b"abcdef")])
    ),
    "a string offset past the last": lambda: _batch_of(
        "profile", pa.Array.from_buffers(pa.string(), 2, [None, _int32s([0, 900, 3]), pa.py_buffer(b"abc")])
    ),
    "an enum name offset going back": lambda: _batch_of(
        "outcome", pa.Array.from_buffers(pa.string(), 2, [None, _int32s([0, 4, 2]), pa.py_buffer(b"abcd")])
    ),
    "list offsets going back": lambda: _batch_of(
        "liabilities",
        pa.Array.from_buffers(
            REQUEST_SCHEMA.field("liabilities").type,
            2,
            [None, _int32s([0, 3, 1])],
            children=[BATCH.column("liabilities").values.slice(0, 3)],
        ),
    ),
    "a list offset past its items": lambda: _batch_of(
        "liabilities",
        pa.Array.from_buffers(
            REQUEST_SCHEMA.field("liabilities").type,
            2,
            [None, _int32s([0, 700, 1])],
            children=[BATCH.column("liabilities").values.slice(0, 1)],
        ),
    ),
    "a request id not UTF-8": lambda: _batch_of(
        "request_id", pa.Array.from_buffers(pa.string(), 1, [None, _int32s([0, 2]), pa.py_buffer(b"\xff\xfe")])
    ),
}


@needs_build
@pytest.mark.parametrize("name", LYING)
def test_a_batch_whose_buffers_lie_is_declined(name):
    assert native_read(LYING[name]()) is NotImplemented


@needs_build
def test_an_array_of_other_types_than_its_schema_says_is_declined():
    """Capsules that disagree (the schema of one batch, the array of another): no read past a
    buffer, whatever the array holds."""
    schema, _ = BATCH.__arrow_c_array__()
    others = [
        pa.RecordBatch.from_arrays([pa.array([1, 2], pa.int64())] * len(BATCH.schema), names=BATCH.schema.names),
        pa.RecordBatch.from_arrays([pa.array(["a", "b"])] * len(BATCH.schema), names=BATCH.schema.names),
        BATCH.slice(0, 2).select([0, 1]),
    ]
    for other in others:
        _, array = other.__arrow_c_array__()
        assert READER.read_requests(schema, array) is NotImplemented


@needs_build
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_offsets_never_crash_and_read_as_python_where_the_batch_is_valid(data):
    """An offsets buffer of a list or string column somewhere in the batch, its bytes mutated."""
    batch = BATCH.slice(data.draw(st.integers(0, 20)), data.draw(st.integers(0, 12)))
    name = data.draw(st.sampled_from(["request_id", "outcome", "winners", "liabilities", "profile"]))
    column = batch.column(name)
    offsets = bytearray(column.buffers()[1].to_pybytes())
    for _ in range(data.draw(st.integers(1, 4))):
        if offsets:
            offsets[data.draw(st.integers(0, len(offsets) - 1))] = data.draw(st.integers(0, 255))
    buffers = [column.buffers()[0], pa.py_buffer(bytes(offsets)), *column.buffers()[2:]]
    children = [column.values] if pa.types.is_list(column.type) else None
    try:
        lying = pa.Array.from_buffers(
            column.type, len(column), buffers[: 2 if children else 3], offset=column.offset, children=children
        )
    except (pa.ArrowInvalid, ValueError):
        return  # refused by Arrow itself
    crafted = pa.RecordBatch.from_arrays(
        [lying if n == name else c for n, c in zip(batch.schema.names, batch.columns, strict=True)],
        schema=batch.schema,
    )
    read = native_read(crafted)
    assert read is NotImplemented or isinstance(read, list)
    try:
        crafted.validate(full=True)
    except pa.ArrowInvalid:
        return
    if len(crafted) == 0:
        # Arrow validates no offset of an empty list column, and flattening one whose offset is
        # past its items aborts the process (a failed check in pyarrow): the twin is not called
        assert read == []
    elif read is not NotImplemented:
        assert same_values(read, read_requests_in_python(crafted))


@needs_build
def test_reading_leaks_nothing():
    """Every way a read ends (rows read, rows left to the bounded reader, a batch refused, one
    declined mid-way by a lying offset or a string not UTF-8), 300 times over after a warm-up:
    no block more than the measurement's own, and RSS within 1 MB."""
    odd = [changed(WITH_MELDS, lambda r: r["winners"][0]["hand"]["melds"][0].update(kind="X")), ROWS[1]]
    batches = [
        BATCH,
        BATCH.slice(5, 30),
        rows_batch([*odd, changed(ROWS[2], lambda r: r.update(request_id="x" * 80)), *NULL_EVERYWHERE]),
        rows_batch([dict(ROWS[0], overrides={"name": "house"})]),
        LYING["a list offset past its items"](),
        LYING["a request id not UTF-8"](),
    ]
    capsules = [b.__arrow_c_array__() for b in batches]

    def read_all():
        for schema, array in capsules:
            READER.read_requests(schema, array)

    def rounds(count: int) -> None:
        for _ in range(count):
            read_all()

    rounds(20)
    gc.collect()
    blocks = sys.getallocatedblocks()
    rounds(300)
    gc.collect()
    assert sys.getallocatedblocks() - blocks <= 2  # the count's own int: a leak a call would be 300
    if not UNDER_ASAN:
        assert least_growth(lambda: rounds(300), 1 << 20) < 1 << 20


STRUCTS = "import batch.request_structs as structs\n"


@needs_build
@pytest.mark.parametrize(
    "change, named",
    [
        ("structs.TILES = {{f'TILE_{{i}}': None for i in range(100)}}", "batch.request_structs.TILES"),
        ("structs.OUTCOMES = [1, 2]", "batch.request_structs.OUTCOMES"),
        (
            "import collections, rules_core.requests as r; "
            "r.Hand = collections.namedtuple('Hand', 'concealed winning_tile flowers melds')",
            "rules_core.requests.Hand._fields is ('concealed', 'winning_tile', 'flowers', 'melds')",
        ),
        (
            "import rules_core.validation as v; v.MAX_LENGTHS = {{**v.MAX_LENGTHS}}; del v.MAX_LENGTHS['melds']",
            "MAX_LENGTHS has no bound melds",
        ),
        (
            "import pyarrow as pa, batch.arrow_schema as s; s.REQUEST_SCHEMA = s.REQUEST_SCHEMA.remove(0)",
            "REQUEST_SCHEMA has no field request_id of SettleRequest",
        ),
    ],
)
def test_the_module_checks_what_it_relies_on_at_import(change, named):
    assert named in import_error("arrow_requests", STRUCTS + change.format())


def test_the_caller_reads_natively_where_built_and_in_python_alike():
    """``read_requests``, whichever path it takes, answers what the Python twin answers."""
    assert read_requests(BATCH) == read_requests_in_python(BATCH)
    assert read_requests(LYING["a list offset past its items"]().slice(0, 0)) == []
    assert [r is None for r in read_requests(rows_batch([ROWS[0], dict(ROWS[1], outcome="X")]))] == [False, True]

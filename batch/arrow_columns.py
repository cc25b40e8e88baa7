"""A nested Arrow batch of requests read column by column into rules_core's values, with no dict
per row: each leaf column becomes one Python list, enum names become core members by table
look-ups over a whole column, and the rows are assembled from the lists by their offsets.
Compiled with mypyc on the hot path (``compile_core.HOT_PATH``), its loops run in C.

This reads the usual form only, as ``fast_requests`` does: the columns of ``REQUEST_SCHEMA``
with their types, no ``overrides``, nulls read as absent (a null scalar is its default, a null
list empty, a null message absent). A batch of another shape is refused whole (None), a row the
bounded reader must judge (an unknown enum name, a list over its bound, a long request id) is
None in the list; either way those rows go the row-by-row way (``arrow.settle_records``).
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

# Typed as Any where they are not installed: the server's install compiles this module too
# (`make install-server`) without the batch packages, which only a batch job imports it with.
import numpy as np  # type: ignore[import-not-found, unused-ignore]
import pyarrow as pa  # type: ignore[import-untyped, import-not-found, unused-ignore]  # no stubs are published
import pyarrow.compute as pc  # type: ignore[import-untyped, import-not-found, unused-ignore]

from batch.arrow_schema import REQUEST_SCHEMA
from batch.fast_requests import FLOWERS, MELD_KINDS, OUTCOMES, TILES
from batch.request_structs import READ_FIELDS
from convert.unread import defaults_after
from rules_core.requests import Dice, Hand, LiabilityRelation, Meld, SettleRequest, Winner
from rules_core.validation import MAX_LENGTHS, MAX_REQUEST_ID_BYTES

BAD = object()  # an enum name the tables lack: the bounded reader's to explain


class Unread(Exception):
    """A column this reader does not read holds a value: the batch is the row reader's."""


def _read_only(columns: dict[str, Column], read: tuple[str, ...]) -> dict[str, Column]:
    """``columns``, or Unread if one this reader does not read (a field added to the .proto
    since, say) holds a value: no field is dropped."""
    for name, column in columns.items():
        if name not in read and column.holds_values():
            raise Unread(name)
    return columns


_TYPES = {field.name: field.type for field in REQUEST_SCHEMA}
# The request's columns read here, as the msgspec reader reads them, and ``overrides`` (checked
# null); any other holding a value sends the batch to the row reader.
REQUEST_COLUMNS = (*READ_FIELDS["SettleRequest"], "overrides")
new = tuple.__new__  # a named tuple from its fields' tuple, without its Python-level __new__


_INDEX_IN = pc.get_function("index_in")  # called with its options made once, not per column


class Names:
    """An enum's table of names (a proto name, or None, to its core member) as Arrow and NumPy
    read it: the names and, last, a null as ``index_in``'s value set (a null matched as a value,
    ``skip_nulls=False``), and the members in the same order with, last, the member of a null,
    which a NumPy ``take`` of those indices picks, in C."""

    def __init__(self, members_of: dict):
        self.members_of = members_of
        names = [name for name in members_of if name is not None]
        value_set = pa.array([*names, None], pa.string())
        self.options = pc.SetLookupOptions(value_set=value_set, skip_nulls=False)
        self.members = np.array([*map(members_of.__getitem__, names), members_of.get(None, BAD)], object)


TILE_NAMES, FLOWER_NAMES, MELD_KIND_NAMES, OUTCOME_NAMES = map(Names, (TILES, FLOWERS, MELD_KINDS, OUTCOMES))


class Column:
    """One column of a struct array (its slice, with the struct's nulls), read as Python lists.

    The usual batch is read with no Python code per value: this module is compiled with mypyc
    (``compile_core.HOT_PATH``). An enum column's names are found in its table by Arrow
    (``index_in``) and their members taken by NumPy; lists are slices of their items' tuple cut
    at Arrow's offsets; named tuples are built by ``tuple.__new__``. A column that holds a BAD
    value, or a list over its bound, is read row by row instead, each reader saying which with
    its ``clean`` flag."""

    def __init__(self, array: Any, size: int):  # a pyarrow Array, or None: the column is absent
        self.array, self.size = array, size

    def values(self, default) -> list:
        """Each row's value, ``default`` where it is null. Numbers and booleans by NumPy (whose
        ``tolist`` is quicker than Arrow's ``to_pylist``), strings by Arrow."""
        array = self.array
        if array is None:
            return [default] * self.size
        if array.null_count:
            array = array.fill_null(default)
        if pa.types.is_string(array.type):
            return array.to_pylist()
        return array.to_numpy(zero_copy_only=False).tolist()

    def texts(self, default: str) -> list:
        """Each row's string, ``default`` where it is null, for a column of few distinct strings
        (the profile): each made once and shared by the rows that hold it, so that no row pays
        for a string of its own, and settle's look-up of it finds its hash already computed."""
        array = self.array
        if array is None:
            return [default] * self.size
        if array.null_count:
            array = array.fill_null(default)
        encoded = array.dictionary_encode()
        distinct = np.array(encoded.dictionary.to_pylist(), object)
        return distinct[encoded.indices.to_numpy()].tolist()

    def members(self, table: Names) -> tuple[list, bool]:
        """(the member of each name, whether none is BAD): names the table lacks are BAD."""
        if self.array is None:
            return [None] * self.size, True
        indices = _INDEX_IN.call([self.array], table.options)  # a null: the index of the set's null
        if indices.null_count:  # a name the table lacks
            return self._members_or_bad(table.members_of)
        return table.members[indices.to_numpy()].tolist(), True

    def _members_or_bad(self, table: dict) -> tuple[list, bool]:
        encoded = self.array.dictionary_encode()
        lookup = [table.get(name, BAD) for name in encoded.dictionary.to_pylist()]
        indices = encoded.indices
        if indices.null_count:
            lookup.append(table.get(None, BAD))
            indices = indices.fill_null(len(lookup) - 1)
        return list(map(lookup.__getitem__, indices.to_pylist())), False

    def valid(self) -> list:
        return [False] * self.size if self.array is None else self.array.is_valid().to_pylist()

    def fields(self, read: tuple[str, ...]) -> dict[str, Column]:
        """The columns of a struct column, by name: those of ``read`` (the fields this reader
        reads); Unread if any other holds a value."""
        if self.array is None:
            return {}
        children = self.array.flatten()
        return _read_only(
            {field.name: Column(child, self.size) for field, child in zip(self.array.type, children, strict=True)},
            read,
        )

    def holds_values(self) -> bool:
        """Whether any row holds a value other than null or the proto3 default (false, 0, "",
        an empty list), which a reader of the field would read."""
        array = self.array
        if array is None or array.null_count == len(array):
            return False
        kind = array.type
        if pa.types.is_list(kind):
            return bool(pc.sum(pc.list_value_length(array)).as_py())
        if pa.types.is_boolean(kind):
            return bool(pc.any(array).as_py())
        if pa.types.is_integer(kind):
            return bool(pc.any(pc.not_equal(array, 0)).as_py())
        if pa.types.is_string(kind):
            return bool(pc.any(pc.greater(pc.utf8_length(array), 0)).as_py())
        return True  # a message, or another type: present, so read it elsewhere

    def get(self, fields: dict[str, Column], name: str) -> Column:
        """The field ``name`` of ``fields`` (this column's), absent if the struct lacks it."""
        return fields.get(name) or Column(None, self.size)

    def lists(self) -> tuple[list[int], Column]:
        """(the offset of each list's first item and one past the last, the column of the items) of a
        list column: a null list is empty. Without nulls the offsets are Arrow's own, shifted to
        start at 0 (in NumPy, in C)."""
        array = self.array
        if array is None:
            return [0] * (self.size + 1), Column(None, 0)
        if array.null_count:  # a null list may hide items: its length is taken as 0
            counts = array.value_lengths().fill_null(0).to_numpy()
            offsets = [0, *counts.cumsum().tolist()]
            return offsets, Column(array.flatten(), offsets[-1])
        raw = array.offsets.to_numpy()
        first = int(raw[0])
        offsets = (raw - first).tolist() if first else raw.tolist()
        return offsets, Column(array.values.slice(first, offsets[-1]), offsets[-1])  # no compute call


def _slices(offsets: list[int], items: list, limit: int, clean: bool) -> tuple[list, bool]:
    """(the tuple of each list, whether none is BAD): BAD for a list over ``limit`` or holding
    a BAD item. A list is a slice of the items' tuple (a loop mypyc compiles to C)."""
    size = len(offsets) - 1
    if offsets[size] == offsets[0]:  # every list empty
        return [()] * size, clean
    whole = tuple(items)
    lists: list = [None] * size
    longest = 0
    start = offsets[0]
    for row in range(size):
        end = offsets[row + 1]
        if end - start > longest:
            longest = end - start
        lists[row] = whole[start:end]
        start = end
    if clean and longest <= limit:
        return lists, True
    out = [BAD if len(part) > limit or BAD in part else part for part in lists]
    return out, BAD not in out


def _names(column: Column, table: Names, limit: int) -> tuple[list, bool]:
    """A list-of-names column as a tuple of members per list."""
    offsets, items = column.lists()
    members, clean = items.members(table)
    return _slices(offsets, members, limit, clean)


def _build(kind: Any, columns: tuple[Any, ...], clean: bool) -> tuple[list, bool]:
    """(a ``kind`` per row from the columns of its first fields, whether none is BAD): BAD where
    any field is. The fields after those given (none of their columns holds a value:
    `_read_only`) take their defaults."""
    size = len(columns[0])
    rest = tuple(repeat(default, size) for default in defaults_after(kind, kind._fields[len(columns) - 1]))
    rows = zip(*columns, *rest, strict=True)
    if clean:
        return list(map(new, repeat(kind), rows)), True
    out = [BAD if BAD in row else new(kind, row) for row in rows]
    return out, BAD not in out


def _melds(column: Column) -> tuple[list, bool]:
    offsets, items = column.lists()
    f = items.fields(READ_FIELDS["Meld"])
    kinds, kinds_clean = items.get(f, "kind").members(MELD_KIND_NAMES)
    tiles, tiles_clean = _names(items.get(f, "tiles"), TILE_NAMES, MAX_LENGTHS["tiles"])
    melds, clean = _build(Meld, (kinds, tiles, items.get(f, "from_seat").values(0)), kinds_clean and tiles_clean)
    return _slices(offsets, melds, MAX_LENGTHS["melds"], clean)


def _hands(column: Column) -> tuple[list, bool]:
    f = column.fields(READ_FIELDS["Hand"])
    concealed, concealed_clean = _names(column.get(f, "concealed"), TILE_NAMES, MAX_LENGTHS["concealed"])
    winning, winning_clean = column.get(f, "winning_tile").members(TILE_NAMES)
    melds, melds_clean = _melds(column.get(f, "melds"))
    flowers, flowers_clean = _names(column.get(f, "flowers"), FLOWER_NAMES, MAX_LENGTHS["flowers"])
    dragons, dragons_clean = _names(column.get(f, "dragon_flowers"), TILE_NAMES, MAX_LENGTHS["dragon_flowers"])
    clean = concealed_clean and winning_clean and melds_clean and flowers_clean and dragons_clean
    return _build(Hand, (concealed, winning, melds, flowers, dragons), clean)


def _winners(column: Column) -> tuple[list, bool]:
    offsets, items = column.lists()
    f = items.fields(READ_FIELDS["Winner"])
    hands, hands_clean = _hands(items.get(f, "hand"))
    passed, passed_clean = _names(items.get(f, "passed_tiles"), TILE_NAMES, MAX_LENGTHS["passed_tiles"])
    fields = (
        items.get(f, "seat").values(0),
        hands,
        passed,
        items.get(f, "replacement_draw").values(False),
        items.get(f, "first_go_around").values(False),
        items.get(f, "last_tile").values(False),
    )
    winners, clean = _build(Winner, fields, hands_clean and passed_clean)
    return _slices(offsets, winners, MAX_LENGTHS["winners"], clean)


def _liabilities(column: Column) -> tuple[list, bool]:
    offsets, items = column.lists()
    f = items.fields(READ_FIELDS["LiabilityRelation"])
    seats_and_claims = tuple(items.get(f, name).values(0) for name in ("claimer_seat", "source_seat", "claims"))
    fields = (*seats_and_claims, items.get(f, "pattern_kept").values(False))
    relations, _ = _build(LiabilityRelation, fields, True)
    return _slices(offsets, relations, MAX_LENGTHS["liabilities"], True)


def _seats(column: Column, limit: int) -> tuple[list, bool]:
    """A list-of-seats column as a tuple of numbers per list; BAD for a list over ``limit`` or
    holding a null (the bounded reader's to name)."""
    offsets, items = column.lists()
    array = items.array
    if array is None or not array.null_count:
        return _slices(offsets, items.values(0), limit, True)
    seats = [BAD if seat is None else seat for seat in array.to_pylist()]
    return _slices(offsets, seats, limit, False)


def _dice(column: Column) -> list:
    """A throw per row, None where the dice are null: only the rows thrown are built."""
    f = column.fields(READ_FIELDS["Dice"])
    array = column.array
    if array is None or array.null_count == column.size:
        return [None] * column.size
    firsts, seconds = column.get(f, "first").values(0), column.get(f, "second").values(0)
    if array.null_count == 0:
        return _build(Dice, (firsts, seconds), True)[0]
    rest = defaults_after(Dice, "second")
    rows = zip(column.valid(), firsts, seconds, strict=True)
    return [new(Dice, (first, second, *rest)) if ok else None for ok, first, second in rows]


def usual_columns(schema: pa.Schema) -> bool:
    """Whether each column is one of ``REQUEST_SCHEMA``'s, of its type (about 6 µs a batch)."""
    return not any(_TYPES.get(field.name) != field.type for field in schema)


def read_requests(batch: pa.RecordBatch) -> list[SettleRequest | None] | None:
    """The core request of each row (None for a row the bounded reader must judge), or None for
    a batch not of the usual shape. The one columnar reader: a reader in C paid less than a
    quarter of the Arrow path's CPU (docs/DEVELOPING.md, "Who reads and writes each form")."""
    schema = batch.schema
    if not usual_columns(schema):
        return None  # an unknown column, or a known one of another type: the row reader names it
    size = batch.num_rows
    top = Column(None, size)
    try:
        columns = {name: Column(array, size) for name, array in zip(schema.names, batch.columns, strict=True)}
        columns = _read_only(columns, REQUEST_COLUMNS)
        overrides = top.get(columns, "overrides").array
        if overrides is not None and overrides.null_count < size:
            return None  # requests with overrides: the bounded reader's
        ids = top.get(columns, "request_id").values("")
        outcomes, outcomes_clean = top.get(columns, "outcome").members(OUTCOME_NAMES)
        winners, winners_clean = _winners(top.get(columns, "winners"))
        liabilities, liabilities_clean = _liabilities(top.get(columns, "liabilities"))
        declared, declared_clean = _seats(top.get(columns, "declared_seats"), MAX_LENGTHS["declared_seats"])
        fields = (
            top.get(columns, "profile").texts(""),
            outcomes,
            winners,
            top.get(columns, "dealer_seat").values(0),
            _dice(top.get(columns, "dice")),
            top.get(columns, "huangfan_count").values(0),
            top.get(columns, "discarder_seat").values(0),
            liabilities,
            top.get(columns, "abandoning_seat").values(0),
            repeat(None, size),  # no overrides
            ids,
            top.get(columns, "profile_digest").values(""),
            declared,
        )
        long_ids = max(map(len, ids), default=0) * 4 > MAX_REQUEST_ID_BYTES
        clean = outcomes_clean and winners_clean and liabilities_clean and declared_clean and not long_ids
        requests, clean = _build(SettleRequest, fields, clean)
    except Unread:
        return None  # a value in a column not read here (a field added since): the row reader reads it
    if clean and not long_ids:
        return requests
    if long_ids:  # an id that may be over its bound in UTF-8: the bounded reader measures it
        requests = [BAD if len(i) * 4 > MAX_REQUEST_ID_BYTES else r for i, r in zip(ids, requests, strict=True)]
    return [None if request is BAD else request for request in requests]

"""A nested Arrow batch of requests read column by column into rules_core's values, with no dict
per row: each leaf column becomes one Python list (in C), enum names become core members by
table look-ups over a whole column, and the rows are assembled from the lists by their offsets.

This reads the usual form only, as ``fast_requests`` does: the columns of ``REQUEST_SCHEMA``
with their types, no ``overrides``, nulls read as absent (a null scalar is its default, a null
list empty, a null message absent). A batch of another shape is refused whole (None), a row the
bounded reader must judge (an unknown enum name, a list over its bound, a long request id) is
None in the list; either way those rows go the row-by-row way (``arrow.settle_records``).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import accumulate, islice, repeat

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from batch.arrow_schema import REQUEST_SCHEMA
from batch.fast_requests import FLOWERS, MELD_KINDS, OUTCOMES, TILES
from rules_core.requests import Dice, Hand, LiabilityRelation, Meld, SettleRequest, Winner
from rules_core.validation import MAX_LENGTHS, MAX_REQUEST_ID_BYTES

BAD = object()  # an enum name the tables lack: the bounded reader's to explain
_TYPES = {field.name: field.type for field in REQUEST_SCHEMA}
new = tuple.__new__  # a named tuple from its fields' tuple, without its Python-level __new__


class Names:
    """An enum's table of names (a proto name, or None, to its core member) as Arrow and NumPy
    read it: the names as ``pc.index_in``'s value set, and the members in the same order with,
    last, the member of a null, which a NumPy ``take`` of those indices picks, in C."""

    def __init__(self, members_of: dict):
        self.members_of = members_of
        names = [name for name in members_of if name is not None]
        self.names = pa.array(names, pa.string())
        self.members = np.array([*map(members_of.__getitem__, names), members_of.get(None, BAD)], object)


TILE_NAMES, FLOWER_NAMES, MELD_KIND_NAMES, OUTCOME_NAMES = map(Names, (TILES, FLOWERS, MELD_KINDS, OUTCOMES))


class Column:
    """One column of a struct array (its slice, with the struct's nulls), read as Python lists.

    The usual batch is read with no Python code per value: an enum column is dictionary-encoded
    by Arrow and its indices mapped to the members of the few names it holds, lists are cut
    from their items by ``islice`` and named tuples built by ``tuple.__new__``, all through
    ``map`` (in C). A column that holds a BAD value, or a list over its bound, is read row by
    row instead, each reader saying which with its ``clean`` flag."""

    def __init__(self, array: pa.Array | None, size: int):
        self.array, self.size = array, size

    def values(self, default) -> list:
        if self.array is None:
            return [default] * self.size
        values = self.array.to_pylist()
        return [default if v is None else v for v in values] if self.array.null_count else values

    def members(self, table: Names) -> tuple[list, bool]:
        """(the member of each name, whether none is BAD): names the table lacks are BAD."""
        if self.array is None:
            return [None] * self.size, True
        indices = pc.index_in(self.array, value_set=table.names)
        if indices.null_count != self.array.null_count:  # a name the table lacks
            return self._members_or_bad(table.members_of)
        if indices.null_count:
            indices = indices.fill_null(len(table.names))  # a null: the table's member of None
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

    def fields(self) -> dict[str, Column]:
        """The columns of a struct column, by name."""
        if self.array is None:
            return {}
        children = self.array.flatten()
        return {field.name: Column(child, self.size) for field, child in zip(self.array.type, children, strict=True)}

    def get(self, fields: dict[str, Column], name: str) -> Column:
        """The field ``name`` of ``fields`` (this column's), absent if the struct lacks it."""
        return fields.get(name) or Column(None, self.size)

    def lists(self) -> tuple[list[int], Column]:
        """(the offset of each list's first item and one past the last, the column of the items) of a
        list column: a null list is empty."""
        if self.array is None:
            return [0] * (self.size + 1), Column(None, 0)
        lengths = self.array.value_lengths()
        counts = lengths.fill_null(0).to_pylist() if lengths.null_count else lengths.to_pylist()
        offsets = list(accumulate(counts, initial=0))
        return offsets, Column(self.array.flatten(), offsets[-1])


def _slices(offsets: list[int], items: list, limit: int, clean: bool) -> tuple[list, bool]:
    """(the tuple of each list, whether none is BAD): BAD for a list over ``limit`` or holding
    a BAD item. A list is a slice of the items' tuple, in C."""
    whole = tuple(items)
    lists = list(map(whole.__getitem__, map(slice, offsets, islice(offsets, 1, None))))
    if clean and max(map(len, lists), default=0) <= limit:
        return lists, True
    out = [BAD if len(part) > limit or BAD in part else part for part in lists]
    return out, BAD not in out


def _names(column: Column, table: Names, limit: int) -> tuple[list, bool]:
    """A list-of-names column as a tuple of members per list."""
    offsets, items = column.lists()
    members, clean = items.members(table)
    return _slices(offsets, members, limit, clean)


def _build(kind: type, columns: tuple[Iterable, ...], clean: bool) -> tuple[list, bool]:
    """(a ``kind`` per row from the columns of its fields, whether none is BAD): BAD where any
    field is."""
    rows = zip(*columns, strict=True)
    if clean:
        return list(map(new, repeat(kind), rows)), True
    out = [BAD if BAD in row else new(kind, row) for row in rows]
    return out, BAD not in out


def _melds(column: Column) -> tuple[list, bool]:
    offsets, items = column.lists()
    f = items.fields()
    kinds, kinds_clean = items.get(f, "kind").members(MELD_KIND_NAMES)
    tiles, tiles_clean = _names(items.get(f, "tiles"), TILE_NAMES, MAX_LENGTHS["tiles"])
    melds, clean = _build(Meld, (kinds, tiles, items.get(f, "from_seat").values(0)), kinds_clean and tiles_clean)
    return _slices(offsets, melds, MAX_LENGTHS["melds"], clean)


def _hands(column: Column) -> tuple[list, bool]:
    f = column.fields()
    concealed, concealed_clean = _names(column.get(f, "concealed"), TILE_NAMES, MAX_LENGTHS["concealed"])
    winning, winning_clean = column.get(f, "winning_tile").members(TILE_NAMES)
    melds, melds_clean = _melds(column.get(f, "melds"))
    flowers, flowers_clean = _names(column.get(f, "flowers"), FLOWER_NAMES, MAX_LENGTHS["flowers"])
    dragons, dragons_clean = _names(column.get(f, "dragon_flowers"), TILE_NAMES, MAX_LENGTHS["dragon_flowers"])
    clean = concealed_clean and winning_clean and melds_clean and flowers_clean and dragons_clean
    return _build(Hand, (concealed, winning, melds, flowers, dragons), clean)


def _winners(column: Column) -> tuple[list, bool]:
    offsets, items = column.lists()
    f = items.fields()
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
    f = items.fields()
    fields = tuple(items.get(f, name).values(0) for name in ("claimer_seat", "source_seat", "claims"))
    relations, _ = _build(LiabilityRelation, (*fields, items.get(f, "pattern_kept").values(False)), True)
    return _slices(offsets, relations, MAX_LENGTHS["liabilities"], True)


def _seats(column: Column, limit: int) -> tuple[list, bool]:
    """A list-of-seats column (``declared_seats``) as a tuple per row, a null seat 0 (its proto3
    default, as the row readers read it); a list over ``limit`` is BAD, for the bounded reader
    to name (a seat out of range is the settlement's to name)."""
    offsets, items = column.lists()
    return _slices(offsets, items.values(0), limit, True)


def _dice(column: Column) -> list:
    f = column.fields()
    dice, _ = _build(Dice, (column.get(f, "first").values(0), column.get(f, "second").values(0)), True)
    if column.array is not None and column.array.null_count == 0:
        return dice
    return [throw if ok else None for ok, throw in zip(column.valid(), dice, strict=True)]


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
    columns = {name: Column(array, size) for name, array in zip(schema.names, batch.columns, strict=True)}
    overrides = top.get(columns, "overrides").array
    if overrides is not None and overrides.null_count < size:
        return None  # requests with overrides: the bounded reader's
    ids = top.get(columns, "request_id").values("")
    outcomes, outcomes_clean = top.get(columns, "outcome").members(OUTCOME_NAMES)
    winners, winners_clean = _winners(top.get(columns, "winners"))
    liabilities, liabilities_clean = _liabilities(top.get(columns, "liabilities"))
    declared, declared_clean = _seats(top.get(columns, "declared_seats"), MAX_LENGTHS["declared_seats"])
    fields = (
        top.get(columns, "profile").values(""),
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
    if clean and not long_ids:
        return requests
    if long_ids:  # an id that may be over its bound in UTF-8: the bounded reader measures it
        requests = [BAD if len(i) * 4 > MAX_REQUEST_ID_BYTES else r for i, r in zip(ids, requests, strict=True)]
    return [None if request is BAD else request for request in requests]

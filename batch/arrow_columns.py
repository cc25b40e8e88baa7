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

from itertools import pairwise, repeat

import pyarrow as pa

from batch.arrow_schema import REQUEST_SCHEMA
from batch.fast_requests import FLOWERS, MELD_KINDS, OUTCOMES, TILES
from rules_core.requests import Dice, Hand, LiabilityRelation, Meld, SettleRequest, Winner
from rules_core.validation import MAX_LENGTHS, MAX_REQUEST_ID_BYTES

BAD = object()  # an enum name the tables lack: the bounded reader's to explain
_TYPES = {field.name: field.type for field in REQUEST_SCHEMA}


class _Refused(Exception):
    """The batch is not of the usual shape."""


class Column:
    """One column of a struct array (its slice, with the struct's nulls), read as Python lists."""

    def __init__(self, array: pa.Array | None, size: int):
        self.array, self.size = array, size

    def values(self, default) -> list:
        if self.array is None:
            return [default] * self.size
        values = self.array.to_pylist()
        return [default if v is None else v for v in values] if self.array.null_count else values

    def members(self, table: dict) -> list:
        if self.array is None:
            return [None] * self.size
        return list(map(table.get, self.array.to_pylist(), repeat(BAD)))

    def valid(self) -> list:
        return [False] * self.size if self.array is None else self.array.is_valid().to_pylist()

    def fields(self) -> dict[str, Column]:
        """The columns of a struct column, by name."""
        if self.array is None:
            return {}
        children = self.array.flatten()
        return {field.name: Column(child, self.size) for field, child in zip(self.array.type, children, strict=True)}

    def lists(self) -> tuple[list[int], Column]:
        """(offsets, the column of the items) of a list column: a null list is empty."""
        if self.array is None:
            return [0] * (self.size + 1), Column(None, 0)
        lengths = self.array.value_lengths()
        counts = lengths.fill_null(0).to_pylist() if lengths.null_count else lengths.to_pylist()
        offsets = [0] * (self.size + 1)
        total = 0
        for index, count in enumerate(counts, start=1):
            total += count
            offsets[index] = total
        return offsets, Column(self.array.flatten(), total)


def _slices(offsets: list[int], items: list, limit: int) -> list:
    """The tuple of each list, or BAD for a list over ``limit`` or holding a BAD item."""
    out = []
    for start, stop in pairwise(offsets):
        part = tuple(items[start:stop])
        out.append(BAD if stop - start > limit or BAD in part else part)
    return out


def _names(column: Column, table: dict, limit: int) -> list:
    """A list-of-names column as a tuple of members per list."""
    offsets, items = column.lists()
    return _slices(offsets, items.members(table), limit)


def _melds(column: Column) -> list:
    offsets, items = column.lists()
    f = items.fields()
    get = lambda name: f.get(name, Column(None, items.size))  # noqa: E731
    kinds = get("kind").members(MELD_KINDS)
    tiles = _names(get("tiles"), TILES, MAX_LENGTHS["tiles"])
    seats = get("from_seat").values(0)
    melds = [
        BAD if kind is BAD or t is BAD else Meld(kind, t, seat)
        for kind, t, seat in zip(kinds, tiles, seats, strict=True)
    ]
    return _slices(offsets, melds, MAX_LENGTHS["melds"])


def _hands(column: Column) -> list:
    f = column.fields()
    get = lambda name: f.get(name, Column(None, column.size))  # noqa: E731
    concealed = _names(get("concealed"), TILES, MAX_LENGTHS["concealed"])
    winning = get("winning_tile").members(TILES)
    melds = _melds(get("melds"))
    flowers = _names(get("flowers"), FLOWERS, MAX_LENGTHS["flowers"])
    return [
        BAD if BAD in (c, w, m, fl) else Hand(c, w, m, fl)
        for c, w, m, fl in zip(concealed, winning, melds, flowers, strict=True)
    ]


def _winners(column: Column) -> list:
    offsets, items = column.lists()
    f = items.fields()
    get = lambda name: f.get(name, Column(None, items.size))  # noqa: E731
    seats = get("seat").values(0)
    hands = _hands(get("hand"))
    passed = _names(get("passed_tiles"), TILES, MAX_LENGTHS["passed_tiles"])
    replacement = get("replacement_draw").values(False)
    first = get("first_go_around").values(False)
    winners = [
        BAD if h is BAD or p is BAD else Winner(s, h, p, r, g)
        for s, h, p, r, g in zip(seats, hands, passed, replacement, first, strict=True)
    ]
    return _slices(offsets, winners, MAX_LENGTHS["winners"])


def _liabilities(column: Column) -> list:
    offsets, items = column.lists()
    f = items.fields()
    get = lambda name: f.get(name, Column(None, items.size))  # noqa: E731
    relations = list(
        map(LiabilityRelation, get("claimer_seat").values(0), get("source_seat").values(0), get("claims").values(0))
    )
    return _slices(offsets, relations, MAX_LENGTHS["liabilities"])


def _dice(column: Column) -> list:
    f = column.fields()
    firsts = f.get("first", Column(None, column.size)).values(0)
    seconds = f.get("second", Column(None, column.size)).values(0)
    return [Dice(a, b) if ok else None for ok, a, b in zip(column.valid(), firsts, seconds, strict=True)]


def read_requests(batch: pa.RecordBatch) -> list[SettleRequest | None] | None:
    """The core request of each row (None for a row the bounded reader must judge), or None for
    a batch not of the usual shape."""
    schema = batch.schema
    if any(_TYPES.get(field.name) != field.type for field in schema):
        return None  # an unknown column, or a known one of another type: the row reader names it
    size = batch.num_rows
    columns = {name: Column(array, size) for name, array in zip(schema.names, batch.columns, strict=True)}
    get = lambda name: columns.get(name, Column(None, size))  # noqa: E731
    if get("overrides").array is not None and get("overrides").array.null_count < size:
        return None  # requests with overrides: the bounded reader's
    ids = get("request_id").values("")
    rows = zip(
        ids,
        get("profile").values(""),
        get("outcome").members(OUTCOMES),
        _winners(get("winners")),
        get("dealer_seat").values(0),
        _dice(get("dice")),
        get("huangfan_count").values(0),
        get("discarder_seat").values(0),
        _liabilities(get("liabilities")),
        get("abandoning_seat").values(0),
        get("profile_digest").values(""),
        strict=True,
    )
    return [
        None
        if BAD in (outcome, winners, liabilities) or len(request_id) * 4 > MAX_REQUEST_ID_BYTES
        else SettleRequest(
            profile, outcome, winners, dealer, dice, huangfan, discarder, liabilities, abandoning, None, request_id, pin
        )
        for request_id, profile, outcome, winners, dealer, dice, huangfan, discarder, liabilities, abandoning, pin in rows
    ]

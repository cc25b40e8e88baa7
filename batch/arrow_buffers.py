"""Arrow arrays put together from buffers a native writer filled (``batch.native.arrow_results``).

A writer hands each column's buffers as one flat sequence, in the order pyarrow's
``Array.buffers()`` lists a nested array's: an array's own buffers (validity, then offsets,
values or UTF-8 data), then each child's, depth first; None where the array has no such buffer.
``layout`` names those places for a type, so that a writer's own list of them can be checked
against the schema; ``assembled`` makes the array by its ``Plan`` (the type walked once, not
each batch), one ``from_buffers`` call for each array of the type (a few dozen a batch), reading
nothing row by row.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import NamedTuple

import pyarrow as pa


def _roles(kind: pa.DataType) -> tuple[str, ...]:
    """The buffers an array of ``kind`` has, in ``Array.buffers()``'s order."""
    if pa.types.is_string(kind):
        return ("validity", "offsets", "data")
    if pa.types.is_list(kind):
        return ("validity", "offsets")
    if pa.types.is_struct(kind):
        return ("validity",)
    return ("validity", "values")


def _children(kind: pa.DataType) -> list[pa.Field]:
    if pa.types.is_list(kind):
        return [kind.value_field]
    if pa.types.is_struct(kind):
        return list(kind)
    return []


def layout(name: str, kind: pa.DataType) -> Iterator[str]:
    """Each buffer of a column ``name`` of ``kind`` as ``path/role``, children's paths dotted
    (``winners.item.seat/values``)."""
    yield from (f"{name}/{role}" for role in _roles(kind))
    for child in _children(kind):
        yield from layout(f"{name}.{child.name}", child.type)


def _last_offset(offsets: bytearray) -> int:
    return int.from_bytes(offsets[-4:], sys.byteorder, signed=True)


class Plan(NamedTuple):
    """How an array is put together from its buffers: its type, how many buffers of its own it
    has, its children's plans, and what is done to it once made (``then``: None, or a function
    of the array, e.g. an enum's names taken by its numbers)."""

    kind: pa.DataType
    roles: int
    children: tuple[Plan, ...]
    is_list: bool
    then: Callable[[pa.Array], pa.Array] | None


def plan(kind: pa.DataType, children: tuple[Plan, ...] | None = None, then=None) -> Plan:
    """The plan of an array of ``kind``; its children's are those of its type unless given."""
    if children is None:
        children = tuple(plan(child.type) for child in _children(kind))
    return Plan(kind, len(_roles(kind)), children, pa.types.is_list(kind), then)


def assembled(how: Plan, length: int, buffers: Iterator[bytearray | None]) -> pa.Array:
    """The array ``how`` plans, of ``length``, whose buffers come next from ``buffers``."""
    own = [next(buffers) for _ in range(how.roles)]
    children = None
    if how.is_list:
        children = [assembled(how.children[0], _last_offset(own[1]), buffers)]  # type: ignore[arg-type]
    elif how.children:
        children = [assembled(child, length, buffers) for child in how.children]
    wrapped = [None if buffer is None else pa.py_buffer(buffer) for buffer in own]
    array = pa.Array.from_buffers(how.kind, length, wrapped, children=children)
    return array if how.then is None else how.then(array)

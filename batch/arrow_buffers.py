"""Arrow arrays put together from buffers a native writer filled (``batch.native.arrow_results``).

A writer hands each column's buffers as one flat sequence, in the order pyarrow's
``Array.buffers()`` lists a nested array's: an array's own buffers (validity, then offsets,
values or UTF-8 data), then each child's, depth first; None where the array has no such buffer.
``layout`` names those places for a type, so that a writer's own list of them can be checked
against the schema; ``assembled`` makes the array, one ``from_buffers`` call for each array of
the type (a few dozen a batch), reading nothing row by row.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

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


def assembled(kind: pa.DataType, length: int, buffers: Iterator[bytearray | None]) -> pa.Array:
    """The array of ``kind`` and ``length`` whose buffers come next from ``buffers``."""
    own = [next(buffers) for _ in _roles(kind)]
    children = None
    if pa.types.is_list(kind):
        children = [assembled(kind.value_type, _last_offset(own[1]), buffers)]  # type: ignore[arg-type]
    elif pa.types.is_struct(kind):
        children = [assembled(field.type, length, buffers) for field in kind]
    wrapped = [None if buffer is None else pa.py_buffer(buffer) for buffer in own]
    return pa.Array.from_buffers(kind, length, wrapped, children=children)

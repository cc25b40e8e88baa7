"""Which rows of an in-memory Arrow batch have buffers that cannot be read, found before anything
reads them.

pyarrow's cheap ``validate()`` checks each buffer's size and the first and last offsets of each
list and string, but not the offsets between: a string whose end offset is before its start
passes it, and reading that row then raises ``SystemError`` (or reads another row's bytes). A
batch from Parquet or IPC is built by Arrow and sound; a batch handed over in memory (Spark's
``mapInArrow``, Ray, the C Data Interface) may be anything. ``validate(full=True)`` checks every
offset (about 0.1 µs a row); where it fails, each row is checked alone, so that a malformed row
costs that row only and its error names its column.

A string not UTF-8 is not a malformed buffer: the readers name the row, the column and the byte
(Parquet does not check its strings), so it is left to them here.
"""

from __future__ import annotations

import pyarrow as pa


def sound(batch: pa.RecordBatch, as_bytes: dict[str, pa.DataType] | None = None) -> bool:
    """Whether every buffer of ``batch`` is as Arrow's format says (strings UTF-8 included).

    ``as_bytes`` (`bytes_types`): the columns, by name, whose strings are checked as bytes only,
    for a reader that decodes each string it reads and refuses one not UTF-8 itself (the UTF-8
    check is most of the cost). Such a column is viewed as its type with each string binary,
    the same buffers; a column that cannot be so viewed (another type) is not sound."""
    try:
        if as_bytes is None:
            batch.validate(full=True)
            return True
        batch.validate()  # the columns' lengths
        for name, column in zip(batch.schema.names, batch.columns, strict=True):
            kind = as_bytes.get(name)
            (column if kind is None else column.view(kind)).validate(full=True)
    except pa.ArrowInvalid:
        return False
    return True


def bytes_types(schema: pa.Schema) -> dict[str, pa.DataType]:
    """Each column's type with every string in it as binary (``sound``'s ``as_bytes``)."""
    return {field.name: _as_bytes(field.type) for field in schema}


def _as_bytes(kind: pa.DataType) -> pa.DataType:
    if pa.types.is_string(kind):
        return pa.binary()
    if pa.types.is_list(kind):
        return pa.list_(kind.value_field.with_type(_as_bytes(kind.value_type)))
    if pa.types.is_struct(kind):
        return pa.struct([field.with_type(_as_bytes(field.type)) for field in kind])
    return kind


def malformed_rows(batch: pa.RecordBatch) -> dict[int, str]:
    """Each row (0-based) that has a column whose buffers are malformed there, with the first
    such column named and what Arrow says is wrong; empty for a sound batch."""
    if sound(batch):
        return {}
    faults: dict[int, str] = {}
    for name, column in zip(batch.schema.names, batch.columns, strict=True):
        for row in range(len(column)):
            if row not in faults:
                said = malformed(name, column.slice(row, 1))
                if said is not None:
                    faults[row] = said
    return faults


def malformed(name: str, array: pa.Array) -> str | None:
    """What is wrong with column ``name``'s buffers in ``array`` (a row of it, as a rule), or None."""
    problem = _problem(array)
    return None if problem is None else f"{name} is malformed Arrow data ({problem})"


def _problem(array: pa.Array) -> str | None:
    try:
        array.validate(full=True)
    except pa.ArrowInvalid as error:
        text = str(error)
        return None if "UTF8" in text else text  # a string not UTF-8: the readers name its byte
    return None

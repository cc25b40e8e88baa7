"""What a faster reader gives the fields of a core value it does not read: their defaults.

A faster reader (``batch.fast_requests``, ``batch.arrow_columns``, ``convert.proto_bytes``)
builds a core NamedTuple from the tuple of its fields, in order, reading the first few and
declining any input that carries one of the rest. Those rest take the core type's defaults,
appended by `defaults_after`: a field added at the end of a core type (with its default, as
every field after the first few must have) needs no edit in such a reader.
"""

from __future__ import annotations

from typing import Any


def defaults_after(kind: Any, last_read: str) -> tuple:
    """The defaults of the fields of the NamedTuple ``kind`` after ``last_read``, in order."""
    names = kind._fields[kind._fields.index(last_read) + 1 :]
    missing = [name for name in names if name not in kind._field_defaults]
    if missing:
        raise TypeError(f"{kind.__name__}: {missing} have no default, so each faster reader must read them")
    return tuple(kind._field_defaults[name] for name in names)

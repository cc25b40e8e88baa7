"""What a faster reader makes of the fields of a core value it does not read: their defaults.

A faster reader (``batch.fast_requests``, ``batch/native/json_request.c``, ``batch.arrow_columns``,
``convert.proto_bytes``) builds a core NamedTuple from the tuple of its fields, in order, reading
the first few and declining any input that carries one of the rest at a value other than its
proto3 default. Those rest take the core type's defaults, appended by `defaults_after`: a field
added at the end of a core type (with its default, as every field after the first few must have)
needs no edit in such a reader.

This product writes every field of a request in its JSON, defaults included (`convert.json_form`,
`convert.json_write`): ``"lastTile": false`` and ``[]`` for an empty list. A JSON reader that does
not read a field takes it at its default, in the forms `json_default` names, and declines any
other value; `unread_json_fields` derives the fields and their forms from the descriptors, for
the native reader (which loads them at import) as for the msgspec structs.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Any

from google.protobuf import descriptor_pool
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from mahjong.shanghai.v1 import settlement_pb2  # noqa: F401  (its messages, in the pool, by name)


def defaults_after(kind: Any, last_read: str) -> tuple:
    """The defaults of the fields of the NamedTuple ``kind`` after ``last_read``, in order."""
    names = kind._fields[kind._fields.index(last_read) + 1 :]
    missing = [name for name in names if name not in kind._field_defaults]
    if missing:
        raise TypeError(f"{kind.__name__}: {missing} have no default, so each faster reader must read them")
    return tuple(kind._field_defaults[name] for name in names)


class JsonDefault(IntEnum):
    """How a field at its proto3 default may stand in proto3 JSON, besides null (which any field
    may be): what a reader that does not read the field takes there. The numbers are the native
    reader's too (batch/native/json_request.c)."""

    NULL_ONLY = 0  # a field with presence (a message, an ``optional`` scalar): any value is one
    EMPTY_LIST = 1  # a repeated field: []
    EMPTY_OBJECT = 2  # a map: {}
    FALSE = 3  # a bool: false
    ZERO = 4  # a number: 0 (as a JSON number)
    EMPTY_TEXT = 5  # a string or bytes: ""
    ENUM_ZERO = 6  # an enum: its zero value, by name or as 0


_SCALARS = {
    FieldDescriptor.CPPTYPE_BOOL: JsonDefault.FALSE,
    FieldDescriptor.CPPTYPE_STRING: JsonDefault.EMPTY_TEXT,
    FieldDescriptor.CPPTYPE_ENUM: JsonDefault.ENUM_ZERO,
}


def json_default(field: FieldDescriptor) -> JsonDefault:
    """How ``field`` at its proto3 default may stand in proto3 JSON."""
    if field.is_repeated:
        is_map = field.message_type is not None and field.message_type.GetOptions().map_entry
        return JsonDefault.EMPTY_OBJECT if is_map else JsonDefault.EMPTY_LIST
    if field.has_presence:
        return JsonDefault.NULL_ONLY
    return _SCALARS.get(field.cpp_type, JsonDefault.ZERO)


def enum_zero(field: FieldDescriptor) -> str:
    """The name of the zero value of a singular enum field ("" for any other field)."""
    return field.enum_type.values_by_number[0].name if json_default(field) == JsonDefault.ENUM_ZERO else ""


def unread_json_fields(message: str | Descriptor, read: Iterable[str]) -> tuple[tuple[str, int, str], ...]:
    """(JSON name, its `JsonDefault`, its enum's zero name or "") of each field of ``message`` (a
    descriptor, or its full name) whose JSON name is not in ``read``, in the descriptor's order:
    the fields a reader of ``read`` takes at their default and declines otherwise. ImportError
    when a name of ``read`` is no field's JSON name (the reader is not the message's)."""
    descriptor = descriptor_pool.Default().FindMessageTypeByName(message) if isinstance(message, str) else message
    read = tuple(read)
    unknown = sorted(set(read) - {field.json_name for field in descriptor.fields})
    if unknown:
        raise ImportError(f"{descriptor.full_name} has no field of JSON name {unknown}")
    return tuple(
        (field.json_name, int(json_default(field)), enum_zero(field))
        for field in descriptor.fields
        if field.json_name not in read
    )

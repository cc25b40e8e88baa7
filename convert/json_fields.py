"""Where a proto3 JSON object that protobuf's parser refuses goes wrong, field by field.

`json_format.ParseDict` stops at the first fault with a message of its own ("Message type
... has no field named ..."). `json_violations` walks the object against the message's
descriptor instead and names every faulty field by its path of proto field names with list
indexes (`winner.hand.concealed[3]`, `bogusKey`), as the violations of a malformed request
are named everywhere else; the value of each field is checked by protobuf's own parser, one
field at a time, so what is accepted is exactly what `ParseDict` accepts.
"""

from __future__ import annotations

import re
from typing import Any

from google.protobuf import json_format, message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from rules_core.errors import FieldViolation, bounded, excerpt

_PARSE_PREFIX = "Failed to parse "
_WHERE = re.compile(r" at [\w.\[\]]+\.$")
MAX_KEY_CHARS = 100  # an unknown key as its path shows it


def json_violations(descriptor: Descriptor, data: dict, path: str = "") -> list[FieldViolation]:
    """Every field of ``data`` (a JSON object of the message ``descriptor``) that protobuf
    cannot read, with what is wrong."""
    violations: list[FieldViolation] = []
    _walk(descriptor, data, path, violations)
    return violations


def _walk(descriptor: Descriptor, data: dict, path: str, violations: list[FieldViolation]) -> None:
    fields = _fields(descriptor)
    for key, value in data.items():
        field = fields.get(key)
        if field is None:
            violations.append(FieldViolation(_join(path, bounded(str(key), MAX_KEY_CHARS)), "unknown field"))
            continue
        where = _join(path, field.name)
        if _is_plain_message(field) and value is not None:
            if field.is_repeated and isinstance(value, list):
                for index, item in enumerate(value):
                    _walk_value(field, item, f"{where}[{index}]", violations)
                continue
            if not field.is_repeated:
                _walk_value(field, value, where, violations)
                continue
        if field.is_repeated and isinstance(value, list) and not _is_map(field):
            for index, item in enumerate(value):  # each entry alone, so that its index is named
                problem = _refused(descriptor, key, [item])
                if problem is not None:
                    violations.append(FieldViolation(f"{where}[{index}]", problem))
            continue
        problem = _refused(descriptor, key, value)
        if problem is not None:
            violations.append(FieldViolation(where, problem))


def _walk_value(field: FieldDescriptor, value: Any, where: str, violations: list[FieldViolation]) -> None:
    if isinstance(value, dict):
        _walk(field.message_type, value, where, violations)
    else:
        violations.append(FieldViolation(where, f"expected a JSON object, got {excerpt(value)}"))


def _is_plain_message(field: FieldDescriptor) -> bool:
    """A field holding one of this product's messages (not a map, not a well-known type with
    a JSON form of its own), whose keys are walked."""
    if field.type != FieldDescriptor.TYPE_MESSAGE:
        return False
    return not _is_map(field) and not field.message_type.full_name.startswith("google.protobuf.")


def _is_map(field: FieldDescriptor) -> bool:
    return field.type == FieldDescriptor.TYPE_MESSAGE and field.message_type.GetOptions().map_entry


def _refused(descriptor: Descriptor, key: str, value: Any) -> str | None:
    """Why protobuf refuses ``value`` for the field ``key`` alone, or None."""
    try:
        json_format.ParseDict({key: value}, message_factory.GetMessageClass(descriptor)())
    except Exception as error:  # ParseError, and TypeError or ValueError for some shapes
        return _plain(str(error))
    return None


def _plain(message: str) -> str:
    """protobuf's message without its "Failed to parse x field: " prefixes and " at
    Message.field[0]" suffix (the path says where)."""
    while message.startswith(_PARSE_PREFIX):
        _, sep, rest = message[len(_PARSE_PREFIX) :].partition(" field: ")
        if not sep:
            break
        message = rest
    return _WHERE.sub(".", message)


def _fields(descriptor: Descriptor) -> dict[str, FieldDescriptor]:
    """A message's fields by JSON name and by proto name, as proto3 JSON accepts both."""
    found = {f.json_name: f for f in descriptor.fields}
    found.update(descriptor.fields_by_name)
    return found


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name

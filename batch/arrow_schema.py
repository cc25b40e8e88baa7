"""The Arrow schemas of requests and results, derived from the protobuf descriptors.

The one place the columnar form of the wire contract is decided, so it follows the .proto
files by itself:

- a message is a struct, a repeated field a list, an enum its value's name (a string), each
  scalar its Arrow type of the same width; column names are the .proto field names
  (``request_id``, ``seat_deltas``), as Spark, DuckDB and pandas users spell them;
- a scalar missing from a JSON record is its proto3 default (0, false, ""), except a field
  with presence (``optional``, as in the partial profile of ``overrides``), which stays null;
  a message missing from a record is null (no ``next_hand``: no legal win), a repeated field
  an empty list.

``row(descriptor)`` turns a record in the proto3 JSON mapping (lowerCamelCase or .proto
names, enum names or numbers) into a row of that schema; ``json_record`` turns a row back.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pyarrow as pa
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from mahjong.shanghai.v1 import settlement_pb2

F = FieldDescriptor
_SCALARS = {
    F.TYPE_BOOL: pa.bool_(),
    F.TYPE_STRING: pa.string(),
    F.TYPE_BYTES: pa.binary(),
    F.TYPE_DOUBLE: pa.float64(),
    F.TYPE_FLOAT: pa.float32(),
    F.TYPE_INT32: pa.int32(),
    F.TYPE_SINT32: pa.int32(),
    F.TYPE_SFIXED32: pa.int32(),
    F.TYPE_UINT32: pa.uint32(),
    F.TYPE_FIXED32: pa.uint32(),
    F.TYPE_INT64: pa.int64(),
    F.TYPE_SINT64: pa.int64(),
    F.TYPE_SFIXED64: pa.int64(),
    F.TYPE_UINT64: pa.uint64(),
    F.TYPE_FIXED64: pa.uint64(),
}
_DEFAULTS = {F.TYPE_BOOL: False, F.TYPE_STRING: "", F.TYPE_BYTES: b""}

REQUEST = settlement_pb2.SettleRequest.DESCRIPTOR
RESULT = settlement_pb2.SettleResponse.DESCRIPTOR


def _repeated(field: FieldDescriptor) -> bool:
    return field.is_repeated


def _field_type(field: FieldDescriptor, json_names: bool = False) -> pa.DataType:
    if field.type == F.TYPE_MESSAGE:
        item = struct_type(field.message_type, json_names)
    elif field.type == F.TYPE_ENUM:
        item = pa.string()
    else:
        item = _SCALARS[field.type]
    return pa.list_(item) if _repeated(field) else item


@cache
def struct_type(descriptor: Descriptor, json_names: bool = False) -> pa.StructType:
    """The message as a struct; with ``json_names``, the same layout under its lowerCamelCase
    JSON names (what ``result_batch`` builds from, then views under the .proto names)."""
    return pa.struct(
        [pa.field(f.json_name if json_names else f.name, _field_type(f, json_names)) for f in descriptor.fields]
    )


@cache
def schema(descriptor: Descriptor) -> pa.Schema:
    """The schema whose columns are the message's fields: ``schema(RESULT)``, ``schema(REQUEST)``."""
    return pa.schema(list(struct_type(descriptor)))


REQUEST_SCHEMA = schema(REQUEST)
RESULT_SCHEMA = schema(RESULT)


def _map_entries(value):
    """A proto3 JSON map (an object) as the list of key/value structs its column holds."""
    return [{"key": k, "value": v} for k, v in value.items()] if isinstance(value, dict) else value


def _is_map(field: FieldDescriptor) -> bool:
    return field.type == F.TYPE_MESSAGE and field.message_type.GetOptions().map_entry


def _item_reader(field: FieldDescriptor) -> Callable | None:
    """How one item of the field (its value, if not repeated) is read from JSON, when it is not
    taken as it is: an enum number as its name, a message as its row."""
    if field.type == F.TYPE_ENUM:
        names = {value.number: value.name for value in field.enum_type.values}

        def enum_name(value):
            return names.get(value, str(value)) if isinstance(value, int) else value

        return enum_name
    if field.type == F.TYPE_MESSAGE:
        return row(field.message_type)
    return None


def _reader(field: FieldDescriptor) -> Callable | None:
    """How the field's whole value is read from JSON, when it is not taken as it is: a map
    (an object) as its entries, a list item by item, anything else as its item."""
    if _is_map(field):
        return _map_entries
    read = _item_reader(field)
    if read is None or not _repeated(field):
        return read

    def items(value):
        return [read(item) for item in value] if isinstance(value, list) else value

    return items


@cache
def row(descriptor: Descriptor) -> Callable[[dict], dict]:
    """A function turning one proto3 JSON record of ``descriptor`` into a row of its schema."""
    plan = []
    for field in descriptor.fields:
        if _repeated(field) or field.type == F.TYPE_MESSAGE or field.has_presence:
            default = None
        elif field.type == F.TYPE_ENUM:
            default = field.enum_type.values_by_number[0].name
        else:
            default = _DEFAULTS.get(field.type, 0)
        plan.append((field.name, field.json_name, _repeated(field), default, _reader(field)))

    def convert(data: dict) -> dict:
        out = {}
        for name, json_name, repeated, default, read in plan:
            value = data.get(json_name)
            if value is None:
                value = data.get(name)
            if value is None:
                out[name] = [] if repeated else default
            else:
                out[name] = value if read is None else read(value)
        return out

    return convert


def record_batch(descriptor: Descriptor, records: list[dict]) -> pa.RecordBatch:
    """A RecordBatch of ``schema(descriptor)`` from proto3 JSON records."""
    convert = row(descriptor)
    return pa.RecordBatch.from_pylist([convert(r) for r in records], schema=schema(descriptor))


def _error_row(absent: dict, record: dict) -> dict:
    """An error record as a result row under the JSON names: the answer's fields at their
    defaults, and the error's ``reason`` and ``metadata`` (an ErrorInfo's) as ``row`` gives them."""
    error = record["error"]
    filled = {"reason": "", **error, "metadata": _map_entries(error.get("metadata", {}))}
    return {**absent, **record, "error": filled}


@cache
def _absent_from_errors() -> dict:
    """What an error record lacks of a result row: each field without presence at its proto3
    default, as ``row`` gives it."""
    convert = row(RESULT)
    return {
        field.json_name: value
        for field, value in zip(RESULT.fields, convert({}).values(), strict=True)
        if value is not None and field.json_name not in ("requestId", "error")
    }


def result_batch(records: list[dict]) -> pa.RecordBatch:
    """``record_batch(RESULT, records)`` for the records rules_core writes (``settle_json``
    answers, every field printed, and error records), four times faster: Arrow builds the
    columns straight from the lowerCamelCase records, and the batch is then viewed, without a
    copy, under the .proto names (same layout, other names). Only an error record needs
    filling in, with the defaults ``row`` would give."""
    if not records:
        return pa.RecordBatch.from_pylist([], schema=RESULT_SCHEMA)
    absent = _absent_from_errors()
    rows = [_error_row(absent, r) if "error" in r else r for r in records]
    json_named = struct_type(RESULT, json_names=True)
    batch = pa.RecordBatch.from_pylist(rows, schema=pa.schema(list(json_named)))
    columns = pa.StructArray.from_arrays(batch.columns, fields=list(json_named))
    return pa.RecordBatch.from_struct_array(columns.view(struct_type(RESULT)))


def json_record(value, descriptor: Descriptor | None = None):
    """A row read back from Arrow as a proto3 JSON record (.proto names, which every proto3
    JSON reader accepts): nulls dropped, at every depth; given the row's message (``RESULT``),
    a map's key/value structs become the JSON object proto3 writes for a map."""
    if isinstance(value, dict):
        fields = descriptor.fields_by_name if descriptor is not None else {}
        out = {}
        for key, item in value.items():
            if item is None:
                continue
            field = fields.get(key)
            if field is not None and _is_map(field):
                out[key] = {entry["key"]: entry["value"] for entry in item}
            else:
                out[key] = json_record(item, field.message_type if field is not None else None)
        return out
    if isinstance(value, list):
        return [json_record(v, descriptor) for v in value]
    return value

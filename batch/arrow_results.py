"""Result columns built straight from rules_core's results: no answer dict per row, no row
building.

Arrow converts a batch's results, named tuples nested as their messages are, in one call
(``pa.array``, in C) under the result's schema with its enums as their members' numbers; each
enum column then becomes its names by a ``take`` from the array of the names, and the error
rows' ``error`` column, built from those rows alone, is spread over the batch by another. The
batch is ``arrow_schema.result_batch``'s (schema and values) for the same answers, which
tests/batch/test_arrow_results.py holds; an error record of the usual shape is a row whose
answer fields are their defaults, and any other record (a hand record's answer) sends the
whole batch to ``result_batch``.

Native first: where ``batch/native/arrow_results.c`` is built, it writes the columns of
``CORE_TYPE`` and the engine version straight into Arrow's buffers, which ``batch.arrow_buffers``
puts together, and the enums are named by the same ``take``; where it declines (anything but
the results rules_core makes), the batch is Arrow's conversion, ``python_answers_batch``, which
tests hold it equal to.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from itertools import chain, compress, repeat
from operator import not_
from typing import cast

import pyarrow as pa
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from batch import native
from batch.arrow_buffers import Plan, assembled, layout, plan
from batch.arrow_schema import RESULT, RESULT_SCHEMA, result_batch
from convert.json_names import PATTERN, UNIT
from convert.json_write import settle_response_dict
from rules_core.patterns import IllegalReason
from rules_core.results import ItemKind, PaymentReason, PenaltyReason, SettleResult
from rules_core.version import ENGINE_VERSION

F = FieldDescriptor
_ERROR_KEYS = frozenset(("requestId", "error"))
_ERROR_FIELDS = frozenset(("code", "message", "fieldViolations", "reason", "metadata"))
_ERROR_NEEDS = frozenset(("code", "message", "fieldViolations"))


def _names(enum: type[IntEnum], name_of, unspecified: str | None = None) -> pa.Array:
    """The proto names of an enum's members at their core values, ``unspecified`` at 0."""
    names: list[str | None] = [unspecified] * (max(enum) + 1)
    for member in enum:
        names[member] = name_of(member)
    return pa.array(names, pa.string())


# The names of each enum of the result by its core member's value (an error row's unit is 0).
ENUM_NAMES = {
    "Unit": _names(UNIT.core, UNIT.name_of.__getitem__, UNIT.unspecified),
    "Pattern": _names(PATTERN.core, PATTERN.name_of.__getitem__),
    "IllegalReason": _names(IllegalReason, lambda r: f"ILLEGAL_REASON_{r.name}"),
    "ItemKind": _names(ItemKind, lambda k: f"ITEM_KIND_{k.name}"),
    "PaymentReason": _names(PaymentReason, lambda r: f"PAYMENT_REASON_{r.name}"),
    "PenaltyReason": _names(PenaltyReason, lambda r: f"PENALTY_REASON_{r.name}"),
}


def _message_of(field: FieldDescriptor) -> Descriptor | None:
    """The message of a field holding one (or a list of them) that has an enum at some depth."""
    message = field.message_type if field.type == F.TYPE_MESSAGE else None
    if message is None or not any(f.type == F.TYPE_ENUM or _message_of(f) for f in message.fields):
        return None
    return message


def _core_type(field: FieldDescriptor, kind: pa.DataType) -> pa.DataType:
    """The field's Arrow type (``kind``) with each enum as the number of its core member."""
    item = kind.value_type if field.is_repeated else kind
    message = _message_of(field)
    if field.type == F.TYPE_ENUM:
        item = pa.int32()
    elif message is not None:
        item = pa.struct([pa.field(f.name, _core_type(f, item.field(f.name).type)) for f in message.fields])
    return pa.list_(item) if field.is_repeated else item


# What Arrow converts the results under: SettleResult's fields in its order (its nested named
# tuples have their messages' fields in order), enums as numbers.
CORE_TYPE = pa.struct(
    [
        pa.field(name, _core_type(RESULT.fields_by_name[name], RESULT_SCHEMA.field(name).type))
        for name in SettleResult._fields
    ]
)


def _named(array: pa.Array, field: FieldDescriptor, kind: pa.DataType) -> pa.Array:
    """A column converted under ``CORE_TYPE`` as its schema's ``kind``: enum numbers as names."""
    if field.enum_type is not None:
        names = ENUM_NAMES[field.enum_type.name]
        if field.is_repeated:
            return pa.ListArray.from_arrays(array.offsets, names.take(array.values), type=kind)
        return names.take(array)
    message = _message_of(field)
    if message is None:
        return array
    if field.is_repeated:
        return pa.ListArray.from_arrays(array.offsets, _message(array.values, message, kind.value_type), type=kind)
    return _message(array, message, kind)


def _message(array: pa.StructArray, message: Descriptor, kind: pa.StructType) -> pa.StructArray:
    children = [_named(array.field(f.name), f, kind.field(f.name).type) for f in message.fields]
    mask = array.is_null() if array.null_count else None
    return pa.StructArray.from_arrays(children, fields=list(kind), mask=mask)


def _is_plain_error(record: dict) -> bool:
    """An error record as ``convert.json_write.error_record`` writes it."""
    error = record.get("error")
    return (
        record.keys() <= _ERROR_KEYS
        and isinstance(error, dict)
        and _ERROR_NEEDS <= error.keys() <= _ERROR_FIELDS
        and isinstance(error.get("metadata", {}), dict)
        and isinstance(error["fieldViolations"], list)
        and all(isinstance(v, dict) for v in error["fieldViolations"])
    )


def _as_result(record: dict) -> SettleResult:
    """An error record's row as a result: every answer field at its default (unit 0, unspecified)."""
    return SettleResult(record.get("requestId"), "", 0, (), (), (), None, (), 0, "")  # type: ignore[arg-type]


def _errors(errors: list[dict], rows: list[int], size: int) -> pa.Array:
    """The error column: null for an answer; an error's ``reason`` "" and ``metadata`` empty
    when it has none, as ``result_batch`` fills them in."""
    kind = RESULT_SCHEMA.field("error").type
    if not rows:
        return pa.nulls(size, kind)
    entries = [
        (e["code"], e["message"], e["fieldViolations"], e.get("reason", ""), list(e.get("metadata", {}).items()))
        for e in errors
    ]
    at: list[int | None] = [None] * size
    for index, row in enumerate(rows):
        at[row] = index
    return pa.array(entries, kind).take(pa.array(at, pa.int32()))


def _error_rows(answers: Sequence[SettleResult | dict]) -> tuple[list[int], list[dict]] | None:
    """The rows of the error records and the records, or None when one has another shape."""
    error_rows = list(compress(range(len(answers)), map(not_, map(isinstance, answers, repeat(SettleResult)))))
    errors = cast(list[dict], [answers[row] for row in error_rows])
    return (error_rows, errors) if all(map(_is_plain_error, errors)) else None


def _general(answers: Sequence[SettleResult | dict]) -> pa.RecordBatch:
    return result_batch([a if isinstance(a, dict) else settle_response_dict(a) for a in answers])


def python_answers_batch(answers: Sequence[SettleResult | dict]) -> pa.RecordBatch:
    """The RecordBatch of ``RESULT_SCHEMA`` of answers as ``batch.local.settle_answer`` gives
    them (core results and error records), equal to ``result_batch`` of their records."""
    size = len(answers)
    found = _error_rows(answers)
    if found is None:  # a record of another shape: the general path
        return _general(answers)
    error_rows, errors = found
    results = list(answers)
    for row, record in zip(error_rows, errors, strict=True):
        results[row] = _as_result(record)
    core = pa.array(results, CORE_TYPE)
    arrays = {
        name: _named(core.field(name), RESULT.fields_by_name[name], RESULT_SCHEMA.field(name).type)
        for name in SettleResult._fields
    }
    arrays["error"] = _errors([e["error"] for e in errors], error_rows, size)
    versions = [ENGINE_VERSION] * size
    for row in error_rows:
        versions[row] = ""
    arrays["engine_version"] = pa.array(versions, pa.string())
    return pa.RecordBatch.from_arrays([arrays[name] for name in RESULT_SCHEMA.names], schema=RESULT_SCHEMA)


# What the native writer's buffers hold, in order: the core's columns, enums as numbers, the
# engine version and the error.
WRITTEN_COLUMNS = [*CORE_TYPE, RESULT_SCHEMA.field("engine_version"), RESULT_SCHEMA.field("error")]
WRITTEN_LAYOUT = tuple(chain.from_iterable(layout(field.name, field.type) for field in WRITTEN_COLUMNS))
NATIVE = native.load("arrow_results")
if NATIVE is not None and NATIVE.LAYOUT != WRITTEN_LAYOUT:  # a build of another schema
    NATIVE = None


def native_answers_batch(answers: Sequence[SettleResult | dict], module=NATIVE) -> pa.RecordBatch | None:
    """``python_answers_batch``'s batch written by the native module, or None where it is not
    built or declines (a record of another shape, a value of a type rules_core does not write)."""
    buffers = module.result_buffers(answers) if module is not None else None
    return None if buffers is None else buffers_batch(buffers, len(answers))


def _plan(field: FieldDescriptor, kind: pa.DataType) -> Plan:
    """The plan of a column the writer fills under ``CORE_TYPE`` (enums as numbers) as the
    schema's ``kind``: each enum named by a ``take`` as it is put together, each array made once."""
    if field.enum_type is not None:
        names = plan(pa.int32(), then=ENUM_NAMES[field.enum_type.name].take)
        return plan(kind, children=(names,)) if field.is_repeated else names
    message = _message_of(field)
    if message is None:
        return plan(kind)
    item = kind.value_type if field.is_repeated else kind
    struct = plan(item, children=tuple(_plan(f, item.field(f.name).type) for f in message.fields))
    return plan(kind, children=(struct,)) if field.is_repeated else struct


# Each written column's name and plan, in the writer's order.
WRITTEN_PLANS = tuple(
    (field.name, _plan(RESULT.fields_by_name[field.name], RESULT_SCHEMA.field(field.name).type))
    if field.name in SettleResult._fields
    else (field.name, plan(field.type))
    for field in WRITTEN_COLUMNS
)


def buffers_batch(buffers: tuple, size: int) -> pa.RecordBatch:
    """The batch of ``size`` rows whose buffers the native writer filled (``result_buffers``,
    or a ``Builder``'s ``finish``), its enums named."""
    each = iter(buffers)
    arrays = {name: assembled(how, size, each) for name, how in WRITTEN_PLANS}
    return pa.RecordBatch.from_arrays([arrays[name] for name in RESULT_SCHEMA.names], schema=RESULT_SCHEMA)


def answers_batch(answers: Sequence[SettleResult | dict]) -> pa.RecordBatch:
    """The RecordBatch of ``RESULT_SCHEMA`` of answers as ``batch.local.settle_answer`` gives
    them (core results and error records), equal to ``result_batch`` of their records: written
    natively where it can be, by Arrow's conversion where not."""
    batch = native_answers_batch(answers) if NATIVE is not None else None
    return python_answers_batch(answers) if batch is None else batch

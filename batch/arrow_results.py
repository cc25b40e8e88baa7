"""Result columns built straight from rules_core's results, column by column: no answer dict
per row, no row building.

A batch's results are turned inside out by ``zip(*rows)`` (in C): one tuple per field of
``SettleResult``, then of the winners, items, payments and penalties flattened over the batch,
each becoming one Arrow array; a list column is its flattened items and the offsets of its
lengths, an enum column a ``take`` from the array of its names by the members' numbers. The
batch is ``arrow_schema.result_batch``'s (schema and values) for the same answers, which
tests/batch/test_arrow_results.py holds; an error record of the usual shape is a row whose
answer fields are their defaults, and any other record (a hand record's answer) sends the
whole batch to ``result_batch``.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from itertools import accumulate, chain

import pyarrow as pa

from batch.arrow_schema import RESULT_SCHEMA, result_batch
from rules_core.json_names import PATTERN, UNIT
from rules_core.json_write import settle_response_dict
from rules_core.patterns import IllegalReason
from rules_core.results import ItemKind, PaymentReason, PenaltyReason, SettleResult
from rules_core.version import ENGINE_VERSION

_INT, _FLOAT, _BOOL, _STRING = pa.int32(), pa.float64(), pa.bool_(), pa.string()
_ERROR_KEYS = frozenset(("requestId", "error"))
_ERROR_FIELDS = frozenset(("code", "message", "fieldViolations", "reason", "metadata"))
_ERROR_NEEDS = frozenset(("code", "message", "fieldViolations"))
_NO_NEXT_HAND = (None, None)


def _names(enum: type[IntEnum], name_of) -> pa.Array:
    """The proto names of an enum's members, at their numbers: ``_names(...).take(members)``."""
    names: list[str | None] = [None] * (max(enum) + 1)
    for member in enum:
        names[member] = name_of(member)
    return pa.array(names, _STRING)


UNIT_NAMES = pa.array([UNIT.unspecified, *_names(UNIT.core, UNIT.name_of.__getitem__).to_pylist()[1:]])
PATTERN_NAMES = _names(PATTERN.core, PATTERN.name_of.__getitem__)
ILLEGAL_REASON_NAMES = _names(IllegalReason, lambda r: f"ILLEGAL_REASON_{r.name}")
ITEM_KIND_NAMES = _names(ItemKind, lambda k: f"ITEM_KIND_{k.name}")
PAYMENT_REASON_NAMES = _names(PaymentReason, lambda r: f"PAYMENT_REASON_{r.name}")
PENALTY_REASON_NAMES = _names(PenaltyReason, lambda r: f"PENALTY_REASON_{r.name}")


def _fields(rows: Sequence[tuple], width: int) -> list[tuple]:
    """The rows of named tuples turned into one tuple per field."""
    return list(zip(*rows, strict=True)) if rows else [()] * width


def _flat(lists: Sequence[tuple]) -> list:
    return list(chain.from_iterable(lists))


def _named(names: pa.Array, members: Sequence[IntEnum]) -> pa.Array:
    return names.take(pa.array(members, pa.int32()))


def _list(lists: Sequence[Sequence], items: pa.Array, kind: pa.ListType) -> pa.ListArray:
    """A list column from its items flattened and the lengths of its lists."""
    offsets = pa.array([0, *accumulate(map(len, lists))], _INT)
    return pa.ListArray.from_arrays(offsets, items, type=kind)


def _struct(kind: pa.StructType, arrays: dict[str, pa.Array], mask: pa.Array | None = None) -> pa.StructArray:
    return pa.StructArray.from_arrays([arrays[field.name] for field in kind], fields=list(kind), mask=mask)


def _items(items: list, kind: pa.StructType) -> pa.StructArray:
    kinds, codes, names_zh, names_en, contributions, counts = _fields(items, 6)
    arrays = {
        "kind": _named(ITEM_KIND_NAMES, kinds),
        "code": pa.array(codes, _STRING),
        "name_zh": pa.array(names_zh, _STRING),
        "name_en": pa.array(names_en, _STRING),
        "contribution": pa.array(contributions, _FLOAT),
        "count": pa.array(counts, _INT),
    }
    return _struct(kind, arrays)


def _winners(winner_lists: Sequence[tuple], kind: pa.ListType) -> pa.ListArray:
    item = kind.value_type
    seats, legal, reasons, patterns, flowers, items, base_values, values = _fields(_flat(winner_lists), 8)
    arrays = {
        "seat": pa.array(seats, _INT),
        "legal": pa.array(legal, _BOOL),
        "illegal_reasons": _list(
            reasons, _named(ILLEGAL_REASON_NAMES, _flat(reasons)), item.field("illegal_reasons").type
        ),
        "patterns": _list(patterns, _named(PATTERN_NAMES, _flat(patterns)), item.field("patterns").type),
        "flowers": pa.array(flowers, _INT),
        "items": _list(items, _items(_flat(items), item.field("items").type.value_type), item.field("items").type),
        "base_value": pa.array(base_values, _FLOAT),
        "value": pa.array(values, _FLOAT),
    }
    return _list(winner_lists, _struct(item, arrays), kind)


def _payments(payment_lists: Sequence[tuple], kind: pa.ListType) -> pa.ListArray:
    from_seats, to_seats, amounts, reasons = _fields(_flat(payment_lists), 4)
    arrays = {
        "from_seat": pa.array(from_seats, _INT),
        "to_seat": pa.array(to_seats, _INT),
        "amount": pa.array(amounts, _FLOAT),
        "reason": _named(PAYMENT_REASON_NAMES, reasons),
    }
    return _list(payment_lists, _struct(kind.value_type, arrays), kind)


def _penalties(penalty_lists: Sequence[tuple], kind: pa.ListType) -> pa.ListArray:
    seats, amounts, reasons = _fields(_flat(penalty_lists), 3)
    arrays = {
        "seat": pa.array(seats, _INT),
        "amount": pa.array(amounts, _FLOAT),
        "reason": _named(PENALTY_REASON_NAMES, reasons),
    }
    return _list(penalty_lists, _struct(kind.value_type, arrays), kind)


def _next_hands(next_hands: Sequence[tuple | None], kind: pa.StructType) -> pa.StructArray:
    absent = [hand is None for hand in next_hands]
    dealers, huangfan = _fields([hand or _NO_NEXT_HAND for hand in next_hands], 2)
    arrays = {"dealer_seat": pa.array(dealers, _INT), "huangfan_count": pa.array(huangfan, _INT)}
    return _struct(kind, arrays, pa.array(absent, _BOOL))


def _errors(errors: Sequence[dict | None], kind: pa.StructType) -> pa.Array:
    """The error column: null for an answer; an error's ``reason`` "" and ``metadata`` empty
    when it has none, as ``result_batch`` fills them in."""
    if all(error is None for error in errors):
        return pa.nulls(len(errors), kind)
    codes, messages, violations, reasons, metadata = [], [], [], [], []
    for error in errors:
        error = error or {}
        codes.append(error.get("code"))
        messages.append(error.get("message"))
        violations.append(error.get("fieldViolations", ()))
        reasons.append(error.get("reason", ""))
        metadata.append(tuple((error.get("metadata") or {}).items()))
    flat_violations = _flat(violations)
    violation_type = kind.field("field_violations").type
    violation_arrays = {
        "field": pa.array([v.get("field") for v in flat_violations], _STRING),
        "description": pa.array([v.get("description") for v in flat_violations], _STRING),
    }
    keys, values = _fields(_flat(metadata), 2)
    metadata_type = kind.field("metadata").type
    arrays = {
        "code": pa.array(codes, _STRING),
        "message": pa.array(messages, _STRING),
        "field_violations": _list(violations, _struct(violation_type.value_type, violation_arrays), violation_type),
        "reason": pa.array(reasons, _STRING),
        "metadata": _list(
            metadata,
            _struct(metadata_type.value_type, {"key": pa.array(keys, _STRING), "value": pa.array(values, _STRING)}),
            metadata_type,
        ),
    }
    return _struct(kind, arrays, pa.array([error is None for error in errors], _BOOL))


def _is_plain_error(record: dict) -> bool:
    """An error record as ``rules_core.json_write.error_record`` writes it."""
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


def answers_batch(answers: Sequence[SettleResult | dict]) -> pa.RecordBatch:
    """The RecordBatch of ``RESULT_SCHEMA`` of answers as ``batch.local.settle_answer`` gives
    them (core results and error records), equal to ``result_batch`` of their records."""
    results: list[SettleResult] = []
    errors: list[dict | None] = []
    for answer in answers:
        if isinstance(answer, SettleResult):
            results.append(answer)
            errors.append(None)
        elif _is_plain_error(answer):
            results.append(_as_result(answer))
            errors.append(answer["error"])
        else:  # a record of another shape: the general path, for the whole batch
            return result_batch([a if isinstance(a, dict) else settle_response_dict(a) for a in answers])
    ids, profiles, units, winners, payments, deltas, next_hands, penalties, huangfan, digests = _fields(results, 10)
    kind = {field.name: field.type for field in RESULT_SCHEMA}
    arrays = {
        "request_id": pa.array(ids, _STRING),
        "profile": pa.array(profiles, _STRING),
        "unit": _named(UNIT_NAMES, units),
        "winners": _winners(winners, kind["winners"]),
        "payments": _payments(payments, kind["payments"]),
        "seat_deltas": _list(deltas, pa.array(_flat(deltas), _FLOAT), kind["seat_deltas"]),
        "next_hand": _next_hands(next_hands, kind["next_hand"]),
        "penalties": _penalties(penalties, kind["penalties"]),
        "huangfan_after_dice": pa.array(huangfan, _INT),
        "error": _errors(errors, kind["error"]),
        "engine_version": pa.array([ENGINE_VERSION if e is None else "" for e in errors], _STRING),
        "profile_digest": pa.array(digests, _STRING),
    }
    return pa.RecordBatch.from_arrays([arrays[name] for name in RESULT_SCHEMA.names], schema=RESULT_SCHEMA)

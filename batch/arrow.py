"""The core of batch rescoring: a RecordBatch of requests in, a RecordBatch of results out.

This is the one piece a distributed engine calls: Dask here (``shmj rescore --dask``), Spark
from ``mapInArrow`` (docs/BATCH.md has the example, which tests/batch/test_spark.py runs).

Requests come in either of two forms:

- the nested schema of ``SettleRequest`` (``arrow_schema.REQUEST_SCHEMA``: columns named as
  the .proto fields, enums as names; missing columns and nulls are proto3 defaults), or
- a single string column holding each request in the proto3 JSON mapping (a JSON Lines file
  is read this way, one line a row).

Each row yields exactly one result row, in order: the SettleResponse, or an error record
(``request_id`` and ``error``: code, message, field violations), the same record ``shmj
rescore --local`` writes for that line. A bad row costs that row only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pyarrow as pa

import rules_core as rc
from batch import arrow_results
from batch.arrow_columns import read_requests
from batch.arrow_results import answers_batch, buffers_batch
from batch.arrow_schema import REQUEST_SCHEMA
from batch.arrow_soundness import bytes_types, malformed, malformed_rows, sound
from batch.collector import collector_paused
from batch.fast_requests import read_row_request
from batch.local import answer_record, line_answers, settle_answer
from batch.records import count_any, error_line, with_rules
from convert.profile_digest import BUILTIN_REGISTRY
from profile_files import registry_of
from rules_core.requests import SettleRequest
from rules_core.results import SettleResult


def is_json_column(schema: pa.Schema) -> bool:
    """One string (or binary: UTF-8 bytes) column: requests in proto3 JSON, whatever its name."""
    kind = schema[0].type if len(schema) == 1 else None
    return kind is not None and (
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or pa.types.is_binary(kind)
        or pa.types.is_large_binary(kind)
    )


def settle_records(
    batch: pa.RecordBatch | pa.Table,
    first_number: int = 1,
    profile: str | None = None,
    overrides: dict | None = None,
    house: list | None = None,
) -> list[dict]:
    """The result of each row as a proto3 JSON record. ``first_number`` is the line (row)
    number of the first row in its file, which error messages name. ``house``: house profile
    documents shipped with the job (`profile_files.shippable`)."""
    return list(map(answer_record, settle_answers(batch, first_number, profile, overrides, house)))


def settle_answers(
    batch: pa.RecordBatch | pa.Table | list[bytes | None],
    first_number: int = 1,
    profile: str | None = None,
    overrides: dict | None = None,
    house: list | None = None,
) -> list[SettleResult | dict]:
    """The answer of each row as ``batch.local.settle_answer`` gives it: rules_core's result,
    or a record (an error, a hand record's answer); the arguments as ``settle_records``'s. A
    list is a JSON Lines partition's lines (``batch.parts.read_partition``: None for a line too
    long to read), read as --local reads its lines."""
    overrides = overrides or {}
    profiles = registry_of(house) if house else None
    if isinstance(batch, list):
        return line_answers(enumerate(batch, start=first_number), profile, overrides, profiles)
    if is_json_column(batch.schema):
        return _json_answers(batch, first_number, profile, overrides, profiles)
    batch = _one_batch(batch)
    if sound(batch):  # a malformed buffer read raised SystemError (`batch.arrow_soundness`)
        try:
            return _nested_answers(batch, profile, overrides, profiles)
        except UnicodeDecodeError:  # a string not UTF-8 (Parquet does not check them): row by row
            pass
    return [_row_answer(batch, row, first_number, profile, overrides, profiles) for row in range(batch.num_rows)]


def _json_answers(
    batch: pa.RecordBatch | pa.Table, first_number: int, profile: str | None, overrides: dict, profiles
) -> list:
    """The answers of a JSON column's lines; a line whose buffers are malformed is an error
    record naming it, its bytes never read."""
    column = batch.column(0)
    faults = malformed_rows(batch)
    if faults:
        column = [None if row in faults else _json_lines(column.slice(row, 1))[0] for row in range(len(column))]
    else:
        column = _json_lines(column)
    answers = line_answers(enumerate((line or "" for line in column), start=first_number), profile, overrides, profiles)
    for row, problem in faults.items():
        answers[row] = error_line(None, f"line {first_number + row}: {problem}")
    return answers


def _nested_answers(batch: pa.RecordBatch, profile: str | None, overrides: dict, profiles) -> list:
    columnar = None if overrides else read_requests(batch)
    if columnar is None:
        return [settle_answer(_row_request(row, profile, overrides), profiles) for row in request_rows(batch)]
    return _settle_read(batch, columnar, profile, profiles)


def _json_lines(column: pa.Array | pa.ChunkedArray) -> list:
    """A JSON column's lines; as bytes where a string column holds one not UTF-8 (Parquet does
    not check them), which the line reader refuses, naming its line, as a binary column's."""
    try:
        return column.to_pylist()
    except UnicodeDecodeError:
        return column.cast(pa.large_binary() if pa.types.is_large_string(column.type) else pa.binary()).to_pylist()


def _row_answer(batch: pa.RecordBatch, row: int, first_number: int, profile: str | None, overrides: dict, profiles):
    """The answer of one row of the batch alone: an error record naming the row and its column
    where a string of it is not UTF-8 or its buffers are malformed (its request id echoed where
    that one is readable)."""
    one = batch.slice(row, 1)
    values: dict = {}
    bad = None
    for name, column in zip(one.schema.names, one.columns, strict=True):
        problem = malformed(name, column)
        if problem is not None:
            values[name] = None
            bad = bad or f"row {first_number + row}: {problem}"
            continue
        try:
            values[name] = column.to_pylist()[0]
        except UnicodeDecodeError as error:
            values[name] = None
            byte = error.object[error.start]
            bad = bad or f"row {first_number + row}: {name} holds a string not valid UTF-8 (byte 0x{byte:02x})"
    if bad is None:
        return _nested_answers(one, profile, overrides, profiles)[0]
    request_id = values.get("request_id")
    return error_line(request_id if isinstance(request_id, str) else None, bad)


def _settle_read(
    batch: pa.RecordBatch, requests: list[SettleRequest | None], profile: str | None, profiles
) -> list[SettleResult | dict]:
    """The answers to the requests the columnar reader read: rules_core's ``settle`` in a loop of
    its own, no call around it per row; an invalid request's error record as ``settle_answer``
    writes it. A row the reader left to the bounded reader (None), and a request ``settle``
    fails in any other way, is then answered by ``settle_answer`` (``settle`` is pure: it fails
    again, now with the record of why)."""
    if profile:
        requests = [request and request._replace(profile=profile) for request in requests]
    registry = BUILTIN_REGISTRY if profiles is None else profiles
    settle = rc.settle
    answers: list = []
    append = answers.append
    for request in requests:
        if request is None:
            append(None)
            continue
        try:
            append(settle(request, registry))
        except rc.InvalidRequest as error:
            append(error_line(request.request_id, str(error), error.violations))
        except Exception:  # answered below, one row at a time
            append(None)
    for index in [index for index, answer in enumerate(answers) if answer is None]:
        answers[index] = settle_answer(_columnar_request(batch, index, requests[index], profile), profiles)
    return answers


def settled_in_turn(
    batch: pa.RecordBatch | pa.Table, profile: str | None, overrides: dict | None, counts: dict | None = None
):
    """The result batch of a nested batch with each row settled and written in turn: its result
    appended to the native ``Builder`` as soon as it is made, and dropped, so that settle's next
    result is made in memory still in the cache (a batch's 2,000 results kept until its columns
    were built cost settle a fifth more). None where this cannot be done or the builder declines
    a result; ``settle`` is pure, so the caller settles the batch again by the usual path.
    ``counts`` (`new_counts`-like, the batch's own) counts each answer as it is appended: the
    caller merges them only when a batch comes back, as a declined one is settled again."""
    module = arrow_results.NATIVE
    if module is None or overrides or is_json_column(batch.schema):
        return None
    batch = _one_batch(batch)
    as_bytes = REQUEST_BYTES if batch.num_rows >= BYTES_FROM_ROWS else None
    if not sound(batch, as_bytes):  # malformed buffers: the usual path names the row
        return None
    try:
        requests = read_requests(batch)
        if requests is None:
            return None
        builder = module.Builder(len(requests))
        append = builder.append if counts is None else _counted(builder.append, counts)
        written = _settle_into(append, batch, requests, profile)
    except UnicodeDecodeError:  # a string not UTF-8 (Parquet does not check them): the usual path
        return None
    buffers = builder.finish() if written else None
    return None if buffers is None else buffers_batch(buffers, len(requests))


# The request columns checked as bytes: the columnar reader refuses a string not UTF-8 as it
# decodes it (UnicodeDecodeError), and the usual path then names the row. In a batch of fewer
# rows the views cost more (about 80 µs a batch) than the UTF-8 check they spare.
REQUEST_BYTES = bytes_types(REQUEST_SCHEMA)
BYTES_FROM_ROWS = 512


def _counted(append, counts: dict):
    """``append`` that first counts each answer into ``counts``."""

    def counted_append(answer) -> bool:
        count_any(counts, answer)
        return append(answer)

    return counted_append


def _settle_into(append, batch: pa.RecordBatch, requests: list[SettleRequest | None], profile: str | None) -> bool:
    """Each request's answer, as ``_settle_read`` gives it, handed to ``append`` in turn; False
    as soon as ``append`` declines one. Each request is dropped from ``requests`` as it is
    settled, so that its objects are freed while settle's reading of them is still in the
    cache, not all at the batch's end (2,000 requests hold about 2 MB: more than a core's cache)."""
    settle = rc.settle
    registry = BUILTIN_REGISTRY
    for index, request in enumerate(requests):
        requests[index] = None
        try:
            if request is None:
                raise LookupError  # left to the bounded reader: answered below
            answer = settle(request._replace(profile=profile) if profile else request, registry)
        except rc.InvalidRequest as error:
            answer = error_line(request.request_id, str(error), error.violations)
        except Exception:  # a row the columnar reader left, or settle failed otherwise: one row at a time
            answer = settle_answer(_columnar_request(batch, index, request, profile), None)
        if not append(answer):
            return False
    return True


def _one_batch(batch: pa.RecordBatch | pa.Table) -> pa.RecordBatch:
    if isinstance(batch, pa.RecordBatch):
        return batch
    batches = batch.combine_chunks().to_batches()
    return batches[0] if batches else pa.RecordBatch.from_pylist([], schema=batch.schema)


def _columnar_request(batch: pa.RecordBatch, index: int, request: SettleRequest | None, profile: str | None):
    """A row read by the columnar reader; one it left to the bounded reader, as a row."""
    if request is None:
        return _row_request(request_rows(batch.slice(index, 1))[0], profile, {})
    return request._replace(profile=profile) if profile else request


def _row_request(row: dict, profile: str | None, overrides: dict) -> SettleRequest | dict:
    """A row in the usual form as a core value (``fast_requests``); any other row as it is, for
    the bounded reader, which takes .proto names and reads a null as absent."""
    if not overrides:
        request = read_row_request(row)
        if request is not None:
            return request._replace(profile=profile) if profile else request
    return with_rules(nulls_as_defaults(row), profile, overrides)


def _message_lists(fields) -> frozenset[str]:
    """The names of the list fields of messages, at any depth of the nested form."""
    names: set[str] = set()
    for field in fields:
        kind = field.type
        if pa.types.is_list(kind):
            if pa.types.is_struct(kind.value_type):
                names.add(field.name)
                names |= _message_lists(kind.value_type)
        elif pa.types.is_struct(kind):
            names |= _message_lists(kind)
    return frozenset(names)


MESSAGE_LISTS = _message_lists(REQUEST_SCHEMA)  # winners, melds, liabilities


def nulls_as_defaults(row: dict) -> dict:
    """``row`` with each null item of a list as the columnar readers read it, a proto3 default
    (docs/BATCH.md): an empty message in a list of messages, 0 (the unspecified name) in a list
    of names, which the bounded reader then judges as such. JSON has no null in a list, but an
    Arrow list may."""

    def meant(value, name: str):
        if isinstance(value, dict):
            return {key: meant(item, key) for key, item in value.items()}
        if isinstance(value, list):
            default = {} if name in MESSAGE_LISTS else 0
            return [default if item is None else meant(item, name) for item in value]
        return value

    return meant(row, "")


def request_rows(batch: pa.RecordBatch | pa.Table) -> list[dict]:
    """The rows of a nested batch as dicts, converted column by column (a fifth quicker than
    ``to_pylist``); a column null in every row (``overrides``, as a rule) is left out of them,
    which is what a null means to the reader: absent."""
    columns = [
        (name, column)
        for name, column in zip(batch.schema.names, batch.columns, strict=True)
        if column.null_count < len(column)
    ]
    if not columns:
        return [{} for _ in range(batch.num_rows)]
    names = [name for name, _ in columns]
    return [dict(zip(names, values, strict=True)) for values in zip(*(c.to_pylist() for _, c in columns), strict=True)]


def settle_arrow_batch(
    batch: pa.RecordBatch | pa.Table, first_number: int = 1, profile: str | None = None, overrides: dict | None = None
) -> pa.RecordBatch | pa.Table:
    """Settle a RecordBatch (or Table) of requests into one of results (``RESULT_SCHEMA``):
    Ray Data's ``map_batches`` form."""
    with collector_paused():
        results = settled_in_turn(batch, profile, overrides)
        if results is None:
            results = answers_batch(settle_answers(batch, first_number, profile, overrides))
    return pa.Table.from_batches([results]) if isinstance(batch, pa.Table) else results


def settle_arrow_batches(
    batches: Iterable[pa.RecordBatch], profile: str | None = None, overrides: dict | None = None
) -> Iterator[pa.RecordBatch]:
    """Spark's ``mapInArrow`` form: an iterator of request batches to one of result batches."""
    for batch in batches:
        yield settle_arrow_batch(batch, profile=profile, overrides=overrides)


# The names of earlier releases (`clients.batch.arrow_settle`), which Spark and Ray jobs call.
settle_record_batch = settle_arrow_batch
settle_record_batches = settle_arrow_batches

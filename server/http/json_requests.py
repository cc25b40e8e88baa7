"""A Connect JSON body read into the rpc's request message, or the failure that says which
fields are wrong (`server.errors`).

Every rpc's faults are named by their path of proto field names, as a gRPC call's are:
the wire layer's JSON reader names them for `Settle`, `CheckWin`, `ListWaits`, `SettleRecord`,
`ReviewRecord` and `Advise` (with its own words for each value), `convert.json_fields` for the
other rpcs. In `SettleBatch`, as over gRPC, a request
that cannot be read is that entry's error, not a failed call: the entry is settled as an
empty request, and its result is replaced with the error (`BatchEntryErrors`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from google.protobuf import json_format
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
from convert.advice import advise_request_message
from convert.advice_json import read_advise_request
from convert.json_fields import json_violations
from convert.json_names import camel
from convert.json_read import (
    read_check_win_request,
    read_list_waits_request,
    read_settle_record_request,
    read_settle_request,
)
from convert.json_text import JsonTextError, KeyGivenTwice
from rules_core.advice_validation import MAX_SEEN
from rules_core.errors import FieldViolation, InvalidRequest, bounded
from rules_core.validation import MAX_LENGTHS, request_id_violation
from server import errors
from server.http.json_steps import Limits, NotAnObject, TooLong, TooManyEntries, UnreadJson, read_in_steps

# The rpcs whose bodies rules_core reads, not protobuf: protobuf's parser takes more than the
# proto3 JSON mapping (an enum number in a string, in full-width digits, or as 2.0), which
# rules_core, `shmj replay` and `shmj rescore` refuse, and less (a hand in the notation of
# RULES.md section 2); a request or a hand record is read as they read it, and its message made
# from what was read (about twice as fast as ParseDict: `python -m bench.http_json_bodies`).
_READ_BY_RULES_CORE = {
    "Settle": lambda data: convert.settle_request_message(read_settle_request(data)),
    "SettleRecord": lambda data: convert.settle_record_request_message(read_settle_record_request(data)),
    "CheckWin": lambda data: convert.check_win_request_message(read_check_win_request(data)),
    "ListWaits": lambda data: convert.list_waits_request_message(read_list_waits_request(data)),
    "ReviewRecord": lambda data: convert.settle_record_request_message(read_settle_record_request(data)),
    "Advise": lambda data: advise_request_message(read_advise_request(data)),
}
_REQUESTS = "requests"  # SettleBatchRequest's one field, in JSON and proto spelling alike
MAX_PARSE_MESSAGE_CHARS = 200
# A large body's top-level lists, at most as long as a request's (`rules_core.validation`, and
# an AdviseRequest's `seen`), by both their names: a longer one is refused before the rest of
# its elements are read.
_REQUEST_LIMITS = Limits(
    {name: limit for key, limit in {**MAX_LENGTHS, "seen": MAX_SEEN}.items() for name in (key, camel(key))}
)


class Refused(Exception):
    """The body is not a request of the rpc; ``failure`` says why."""

    def __init__(self, failure: errors.Failure):
        super().__init__(failure.message)
        self.failure = failure


@dataclass
class BatchEntryErrors:
    """The entries of a SettleBatch that could not be read, by index: each result is this error."""

    by_index: dict[int, errors.Failure] = field(default_factory=dict)

    def apply(self, response: svc.SettleBatchResponse) -> None:
        for index, failure in self.by_index.items():
            result = response.results[index]
            request_id = result.request_id
            result.Clear()
            result.request_id = request_id
            failure.fill_settle_error(result.error)


def read_request(
    method_name: str, request_class: type, body: bytes, max_batch_size: int
) -> tuple[object, BatchEntryErrors]:
    """The request message of a JSON body, and the batch entries it holds that cannot be read.
    A batch of more than ``max_batch_size`` entries is refused before any entry is read."""
    batch = method_name == "SettleBatch"
    limits = Limits({_REQUESTS: max_batch_size}, unread=_REQUESTS) if batch else _REQUEST_LIMITS
    try:
        data = _read_body(body, limits, batch)
    except KeyGivenTwice as error:  # refused as a field given under both of its names is
        raise Refused(_violation(error.path, "given twice")) from None
    except JsonTextError as error:  # not JSON, or nested too deep (an over-long integer is read)
        raise Refused(errors.malformed_body(f"the body is not JSON: {error}")) from None
    except TooManyEntries as found:  # a large body's list, refused unread past its limit
        if batch and found.path == _REQUESTS:
            raise Refused(errors.batch_too_large(None, max_batch_size)) from None
        raise Refused(_violation(found.path, f"at most {found.limit} entries, got more")) from None
    except TooLong as found:
        raise Refused(_violation(found.path, found.description)) from None
    except NotAnObject as found:
        data = found
    if not isinstance(data, dict):
        name = request_class.DESCRIPTOR.full_name
        kind = data.kind if isinstance(data, NotAnObject) else _json_kind(data)
        raise Refused(errors.malformed_body(f"the body must be a JSON object (a {name}), got {kind}"))
    if batch:
        return _read_batch(data, request_class, max_batch_size)
    read = _READ_BY_RULES_CORE.get(method_name)
    if read is not None:
        return _read_or_refused(read, data), BatchEntryErrors()
    request = request_class()
    try:
        json_format.ParseDict(data, request)
    except Exception as error:  # ParseError, and TypeError or ValueError for some shapes
        raise Refused(errors.invalid_request(_violations(request_class, data, error))) from None
    return request, BatchEntryErrors()


def _read_body(body: bytes, limits: Limits, batch: bool):
    """read_json's value of the body, in steps when large (json_steps). A batch entry that gives a
    key twice costs that entry only: the body is then read again with its entries apart."""
    if not body:
        return {}
    try:
        return read_in_steps(body, limits)
    except KeyGivenTwice as error:
        if not (batch and error.path.startswith(f"{_REQUESTS}[")):
            raise
    return read_in_steps(body, limits, whole_below=0)


def _violation(path: str, description: str) -> errors.Failure:
    return errors.invalid_request(InvalidRequest([FieldViolation(path, description)]))


def _read_or_refused(read, data: dict):
    """What rules_core's ``read`` makes of the body, or Refused with the fields it names."""
    try:
        return read(data)
    except InvalidRequest as found:
        raise Refused(errors.invalid_request(found)) from None


def _violations(request_class: type, data: dict, error: Exception) -> InvalidRequest:
    found = json_violations(request_class.DESCRIPTOR, data) if isinstance(data, dict) else []
    if not found:  # protobuf refuses what no field alone shows: its own words, bounded
        found = [FieldViolation("request", bounded(str(error), MAX_PARSE_MESSAGE_CHARS))]
    return InvalidRequest(found)


def _read_batch(
    data: dict, request_class: type, max_batch_size: int
) -> tuple[svc.SettleBatchRequest, BatchEntryErrors]:
    """A SettleBatchRequest whose entries are read as Settle bodies are, each unreadable one
    empty (its request id kept) with its error, or Refused when what is wrong is outside the
    entries, or when they are more than ``max_batch_size`` (then none is read)."""
    entries = data.get(_REQUESTS, [])
    others = {key: value for key, value in data.items() if key != _REQUESTS}
    outside = json_violations(request_class.DESCRIPTOR, others)
    if not isinstance(entries, list):
        outside.append(
            FieldViolation(_REQUESTS, f"expected a list of SettleRequest objects, got {_json_kind(entries)}")
        )
    if outside:
        raise Refused(errors.invalid_request(InvalidRequest(outside)))
    if len(entries) > max_batch_size:
        raise Refused(errors.batch_too_large(len(entries), max_batch_size))
    request, found = request_class(), BatchEntryErrors()
    read_entry = _READ_BY_RULES_CORE["Settle"]
    for index, entry in enumerate(entries):
        try:
            if isinstance(entry, UnreadJson):  # a large batch's entries are read one at a time
                entry = _entry_value(entry, index)
            if not isinstance(entry, dict):
                raise InvalidRequest(
                    [FieldViolation("request", f"expected a SettleRequest object, got {_json_kind(entry)}")]
                )
            request.requests.append(read_entry(entry))
        except InvalidRequest as fault:  # that entry's error, named as a Settle body's faults are
            request.requests.add().request_id = _request_id(entry)
            found.by_index[index] = errors.invalid_request(fault)
    return request, found


def _entry_value(entry: UnreadJson, index: int):
    """An entry's value, or Refused as a body nested too deep, or giving a key twice, is."""
    try:
        return entry.read()
    except KeyGivenTwice as twice:  # that entry's fault, as an unknown field in it is
        raise InvalidRequest([FieldViolation(twice.path, "given twice")]) from None
    except JsonTextError as error:
        raise Refused(errors.malformed_body(f"the body is not JSON: {error}")) from None


def _request_id(entry) -> str:
    """The request id an unreadable entry's error echoes, when it has a readable one."""
    if not isinstance(entry, dict):
        return ""
    value = entry.get("requestId", entry.get("request_id"))
    if not isinstance(value, str) or request_id_violation(value) or not _utf8(value):
        return ""
    return value


def _utf8(text: str) -> bool:
    """Whether a protobuf string can hold ``text`` (not one with a lone surrogate: JSON can escape one)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _json_kind(value) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(type(value), "a number")

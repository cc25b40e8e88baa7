"""One input line read into a request, and the records and counts a batch writes.

``read_line`` is the one reader of a JSON Lines line (or a row of a JSON string column), for
``--local``, ``--target``, Dask, Spark and Ray alike: its bytes decoded (invalid UTF-8 is an
error naming the line and column), parsed, and re-settled under the job's rules. Every line
yields one record: the answer, or an error record naming the line.

A line with ``events`` is a hand record (RULES.md section 13, a ``SettleRecordRequest``): the
usual-form reader leaves it to the bounded reader (it knows no ``events``), and ``is_record``
tells it apart once parsed; its record is the ``SettleRecordResponse``, and the counts add the
records whose recorded deltas differ from their settlement (``mismatched_records``: a game
server's wrong payouts, found in bulk).
"""

from __future__ import annotations

import json

import msgspec

from batch import native
from batch.fast_requests import read_json_request
from batch.lines import MAX_LINE_BYTES
from convert.json_names import camel
from convert.json_read import kind_of
from convert.json_text import MAX_DEPTH, JsonTextError, KeyGivenTwice, read_json
from convert.json_write import error_record, settle_response_dict
from rules_core.errors import FieldViolation
from rules_core.requests import SettleRequest
from rules_core.results import SettleResult
from rules_core.version import ENGINE_VERSION

COUNTED = ("settled", "rejected", "legal_wins", "illegal_wins", "mismatched_records")
# The line read in C (batch/native/json_request.c) where it is built; what it declines goes to
# the msgspec reader (fast_requests), and what that declines to the bounded reader.
_NATIVE_JSON = native.load("json_request")
_read_native = _NATIVE_JSON.read if _NATIVE_JSON is not None else None
_decode = msgspec.json.Decoder().decode
_encode = msgspec.json.Encoder().encode
# A core result's line written in C (batch/native/json_answer.c) where it is built; what it
# declines goes to the answer dict and msgspec (output_line).
_NATIVE_ANSWER = native.load("json_answer")
_write_native = _NATIVE_ANSWER.settle_line if _NATIVE_ANSWER is not None else None
_count_native = _NATIVE_ANSWER.counted_line if _NATIVE_ANSWER is not None else None


def error_line(
    request_id, message: str, violations=(), code: str = "INVALID_ARGUMENT", reason: str = "", metadata=None
) -> dict:
    """An error record: ``{"requestId", "error": {"code", "message", "fieldViolations"}}``, and
    the ErrorInfo's ``reason`` and ``metadata`` when there are any."""
    return error_record(request_id, code, message, violations, reason, metadata)


def is_record(request) -> bool:
    """Whether a line read is a hand record (a JSON object with ``events``)."""
    return isinstance(request, dict) and "events" in request


def request_id_of(data) -> str | None:
    if isinstance(data, SettleRequest):
        return data.request_id
    if isinstance(data, dict):
        value = data.get("requestId", data.get("request_id"))
        return value if isinstance(value, str) else None
    return None


def read_line(
    number: int, line: bytes | str | None, profile: str | None, overrides: dict, usual_form: bool = True
) -> tuple[SettleRequest | dict | None, dict | None]:
    """(request, None) or (None, error record) for input line ``number``: its bytes, or its
    text (a string column); None is a line too long to read. The request is a core value when
    the line is in the usual form (``fast_requests``), else the line's JSON object, which the
    bounded reader reads when it is settled. The usual form is read in C where the native module
    is built (``batch.native.json_request``), else, or where that declines, by msgspec.
    ``usual_form`` False: always the JSON object (a job that takes hand records only)."""
    if line is None:
        return None, error_line(None, f"line {number}: longer than {MAX_LINE_BYTES:,} bytes, more than any request")
    if number == 1:
        line = _without_byte_order_mark(line)
    if usual_form and not overrides:
        if _read_native is not None:
            request = _read_native(line, profile)  # the job's profile put in by the reader
            if request is not None:
                return request, None
        request = read_json_request(line)
        if request is not None and _keys_once(line):
            return (request._replace(profile=profile) if profile else request), None
    try:
        if _brackets(line) > MAX_DEPTH:  # may nest deeper than the bounded reader takes: let it judge
            raise RecursionError
        data = _decode(line)  # the usual line: msgspec, in C, about half json.loads's cost
        if not _keys_once(line, data):
            raise RecursionError  # the bounded reader names the key given twice
    except (msgspec.MsgspecError, UnicodeDecodeError, RecursionError):
        data, error = _read_refused(number, line)
        if error is not None:
            return None, error
    if not isinstance(data, dict):
        return None, error_line(None, f"line {number}: expected a JSON object, got {kind_of(data)}")
    return with_rules(data, profile, overrides), None


def _keys_once(line: bytes | str, data=None) -> bool:
    """Whether no object of a line msgspec read gives a key twice (msgspec keeps the last value,
    where the native reader declines such a line and the bounded reader refuses it). Each key
    is followed by a colon, and the values written out again keep the colons of their strings:
    so the colons are as many as the line's only when no key and no value was dropped. An
    escaped colon (``\\u003a``), which the writing spells as a colon, leaves the judgement to
    the bounded reader. About 3 µs a line; only a line the native reader did not read pays it."""
    escapes = (b"\\u003a", b"\\u003A") if isinstance(line, bytes) else ("\\u003a", "\\u003A")
    if escapes[0] in line or escapes[1] in line:
        return False
    if data is None:
        try:
            data = _decode(line)
        except (msgspec.MsgspecError, UnicodeDecodeError, RecursionError):
            return False
    colons = line.count(b":") if isinstance(line, bytes) else line.count(":")
    return colons == _encode(data).count(b":")


def _without_byte_order_mark(line: bytes | str) -> bytes | str:
    """A file's first line without the UTF-8 byte order mark an editor may have saved it with
    (RFC 8259 lets a reader ignore it), as `shmj replay` and the HTTP face read it."""
    if isinstance(line, bytes):
        return line.removeprefix(b"\xef\xbb\xbf")
    return line.removeprefix("\ufeff")


def _brackets(line: bytes | str) -> int:
    """Opening brackets of a line: at least its depth of nesting."""
    return line.count(b"[") + line.count(b"{") if isinstance(line, bytes) else line.count("[") + line.count("{")


def _read_refused(number: int, line: bytes | str) -> tuple[object, dict | None]:
    """A line the fast decoder refused (or that may nest too deep), read again by the bounded
    reader (``convert.json_text``) to say what is wrong with it, naming the line, or to read
    what only that reader takes: an integer of any length (refused later, naming its field),
    NaN, an escaped lone surrogate."""
    try:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
    except UnicodeDecodeError as error:
        byte = line[error.start]
        return None, error_line(None, f"line {number}: not valid UTF-8 (byte 0x{byte:02x} at column {error.start + 1})")
    if not text.strip():
        return None, error_line(None, f"line {number}: empty line")
    try:
        return read_json(text), None
    except KeyGivenTwice as error:  # named as a field given under both of its names is
        violation = FieldViolation(error.path, "given twice")
        return None, error_line(None, f"{violation.field}: {violation.description}", [violation])
    except JsonTextError as error:  # an over-long integer is read: the request's check names its field
        return None, error_line(None, f"line {number}: not valid JSON: {error}")


def with_rules(data: dict, profile: str | None, overrides: dict) -> dict:
    """The request re-settled under ``profile`` and ``overrides`` (merged over its own)."""
    if profile:
        data["profile"] = profile
    if overrides:
        own = data.pop("overrides", None)
        merged = {camel(k): v for k, v in own.items()} if isinstance(own, dict) else {}
        merged.update(overrides)
        data["overrides"] = merged
    return data


# Which engine and rules the answers were computed under (API.md, versioned answers):
# answers by engine version, and the profile each digest is of.
VERSIONED = ("engine_versions", "profile_digests")


def new_counts() -> dict:
    counts: dict = dict.fromkeys(COUNTED, 0)
    counts.update((key, {}) for key in VERSIONED)
    return counts


def add_versions(into: dict, counts: dict) -> None:
    """Merge the engine versions and digests of ``counts`` into ``into`` (both `new_counts`-like;
    a count from before versioned answers has none)."""
    engines = into["engine_versions"]
    for version, answers in (counts.get("engine_versions") or {}).items():
        engines[version] = engines.get(version, 0) + answers
    into["profile_digests"].update(counts.get("profile_digests") or {})


def add_counts(into: dict, counts: dict) -> None:
    """Add the counts of ``counts`` to ``into`` (both `new_counts`-like), versions merged."""
    for key in COUNTED:
        into[key] += counts[key]
    add_versions(into, counts)


def counts_of_summary(summary: dict) -> dict | None:
    """The counts a summary holds, or None where it does not hold them whole (an earlier
    release's has no versions: none)."""
    if not all(type(summary.get(key)) is int for key in COUNTED):
        return None
    counts = {key: summary[key] for key in COUNTED}
    counts.update((key, summary[key] if isinstance(summary.get(key), dict) else {}) for key in VERSIONED)
    return counts


def count_any(counts: dict, answer) -> None:
    """Count an answer as ``batch.local.settle_answer`` gives it: a core result or a record."""
    if isinstance(answer, SettleResult):
        count_answer(counts, answer)
    else:
        count_record(counts, answer)


def count_record(counts: dict, record: dict) -> None:
    if "error" in record:
        counts["rejected"] += 1
        return
    counts["settled"] += 1
    settlement = record.get("settlement")
    if isinstance(settlement, dict):  # a hand record's answer
        if record.get("mismatchedSeats"):
            counts["mismatched_records"] += 1
        record = settlement
    version, digest = record.get("engineVersion"), record.get("profileDigest")
    if isinstance(version, str) and version:
        engines = counts["engine_versions"]
        engines[version] = engines.get(version, 0) + 1
    if isinstance(digest, str) and digest:
        counts["profile_digests"][digest] = record.get("profile", "")
    for winner in record.get("winners", []):
        counts["legal_wins" if winner.get("legal") else "illegal_wins"] += 1


def count_answer(counts: dict, result: SettleResult) -> None:
    """Add a settled answer to ``counts`` from rules_core's result, as ``count_record`` does from
    its dict."""
    counts["settled"] += 1
    engines = counts["engine_versions"]
    engines[ENGINE_VERSION] = engines.get(ENGINE_VERSION, 0) + 1
    if result.profile_digest:
        counts["profile_digests"][result.profile_digest] = result.profile
    for winner in result.winners:
        counts["legal_wins" if winner.legal else "illegal_wins"] += 1


def output_line(record: dict) -> bytes:
    """One output record as its JSON line (UTF-8), the same bytes whichever way it was settled.
    A string no UTF-8 can hold (an escaped lone surrogate, echoed from a request) is written
    escaped, the line still JSON."""
    try:
        return _encode(record) + b"\n"
    except UnicodeEncodeError:
        return json.dumps(record, separators=(",", ":")).encode() + b"\n"


def result_line(result: SettleResult) -> bytes:
    """A core result's output line: `output_line` of its answer dict, byte for byte, written
    straight from the result by ``batch/native/json_answer.c`` where it is built and sure of
    every value (else, and under ``SHMJ_PURE_PYTHON=1``, by the dict and msgspec)."""
    if _write_native is not None:
        line = _write_native(result)
        if line is not None:
            return line
    return output_line(settle_response_dict(result))


def counted_result_line(counts: dict, result: SettleResult) -> bytes:
    """`count_answer` and then `result_line`: in one call of the native writer where it is
    built (it adds to ``counts`` only when it writes the line, and declines counts that are not
    as `new_counts` makes them)."""
    if _count_native is not None:
        line = _count_native(result, counts)
        if line is not None:
            return line
    count_answer(counts, result)
    return result_line(result)

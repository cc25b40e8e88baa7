"""Settling requests in this process with rules_core: the engine of ``--local``, Dask, Spark
and Ray. A bad request, or a bug in the rules, costs that request only: it becomes an error
record."""

from __future__ import annotations

from collections.abc import Callable

import rules_core as rc
from batch.records import (
    count_record,
    counted_result_line,
    error_line,
    is_record,
    output_line,
    read_line,
    request_id_of,
)
from convert.json_write import profile_digest_mismatch_record, settle_response_dict
from convert.profile_digest import BUILTIN_REGISTRY
from rules_core.registry import ProfileRegistry
from rules_core.requests import SettleRequest
from rules_core.results import SettleResult


def settle_request(request: SettleRequest | dict, profiles: ProfileRegistry | None = None) -> dict:
    """The answer to one request (a core value, or its proto3 JSON object; a hand record's
    answer is its ``SettleRecordResponse``) as a record;
    ``profiles``: a registry with house profiles (the built-in ones when None)."""
    return answer_record(settle_answer(request, profiles))


def answer_record(answer: SettleResult | dict) -> dict:
    """An answer of `settle_answer` as its record (a core result's answer dict)."""
    return settle_response_dict(answer) if isinstance(answer, SettleResult) else answer


def answer_output(answer: SettleResult | dict, counts: dict) -> bytes:
    """An answer of `settle_answer` as its output line, added to ``counts`` (a core result's
    counts read from it, not from its dict)."""
    if isinstance(answer, SettleResult):
        return counted_result_line(counts, answer)
    count_record(counts, answer)
    return output_line(answer)


def settle_answer(request: SettleRequest | dict, profiles: ProfileRegistry | None = None) -> SettleResult | dict:
    """The answer to one request: rules_core's result for a core value, else its record (a
    JSON object's answer, or any error)."""
    registry = BUILTIN_REGISTRY if profiles is None else profiles
    try:
        if isinstance(request, SettleRequest):
            return rc.settle(request, registry)
        if is_record(request):
            return rc.settle_record_json(request, registry)
        return rc.settle_json(request, registry)
    except Exception as error:  # a bug too must cost this line only, never the job
        return failure_record(request, error)


def answered(request: SettleRequest | dict, answer: Callable[[], dict]) -> dict:
    """``answer()``, the answer to ``request``, or where it fails its error record."""
    try:
        return answer()
    except Exception as error:  # a bug too must cost this line only, never the job
        return failure_record(request, error)


def failure_record(request: SettleRequest | dict, error: Exception) -> dict:
    """The error record of a request whose answer failed: a bad request (its field violations),
    one pinned to other rule values than those in force, or a bug (``INTERNAL``)."""
    if isinstance(error, rc.InvalidRequest):
        return error_line(request_id_of(request), str(error), error.violations)
    if isinstance(error, rc.ProfileDigestMismatch):
        return profile_digest_mismatch_record(request_id_of(request), error)
    return error_line(request_id_of(request), f"internal error: {error!r}", code="INTERNAL")


def settle_lines(lines, profile: str | None, overrides: dict, profiles: ProfileRegistry | None = None) -> list[dict]:
    """The record of each (line number, line), in order."""
    return list(map(answer_record, line_answers(lines, profile, overrides, profiles)))


def line_answers(
    lines, profile: str | None, overrides: dict, profiles: ProfileRegistry | None = None
) -> list[SettleResult | dict]:
    """The answer of each (line number, line), in order, as `settle_answer` gives it."""
    out = []
    for number, line in lines:
        request, error = read_line(number, line, profile, overrides)
        out.append(error if request is None else settle_answer(request, profiles))
    return out

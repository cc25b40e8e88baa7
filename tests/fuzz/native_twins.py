"""Each native module of batch/native against its Python twin, on one JSON Lines line: the
targets of `tests.fuzz.native_guided` (atheris), and of tests/fuzz/test_native_twins.py on the
seeds. A target raises AssertionError where the two disagree; the C is otherwise free to
decline (None, NotImplemented), and the twin then answers as it always does.

- ``json_request``: the line read in C (``read``) is the msgspec reader's value
  (`batch.fast_requests.read_json_request`), also under a profile given from outside;
- ``json_answer``: the line's answer (`batch.local.settle_answer`: a result, or an error record)
  written in C (``settle_line``) is the Python writer's bytes;
- ``arrow_results``: the same answer written as a batch in C is the batch Arrow's conversion makes.
"""

from __future__ import annotations

import json

from google.protobuf.json_format import MessageToDict

import convert
from batch import native
from batch.arrow_results import native_answers_batch, python_answers_batch
from batch.fast_requests import read_json_request
from batch.local import settle_answer
from batch.records import output_line
from convert.json_form import message_dict
from convert.json_text import JsonTextError, read_json
from convert.json_write import settle_response_dict
from generators.random_hands import generate_requests
from rules_core.results import SettleResult
from tests.fuzz.hostile_text import HOSTILE_JSON


def json_seeds() -> list[bytes]:
    """The corpus to start from: JSON lines of generated requests (some malformed, as the
    generator makes them), every other one with every field printed as this product writes JSON
    (defaults included), one with melds and a non-ASCII id under overrides, and hostile texts."""
    lines = [
        json.dumps(
            (message_dict if index % 2 else MessageToDict)(convert.settle_request_message(r)), separators=(",", ":")
        ).encode()
        for index, r in enumerate(generate_requests(60, seed=7))
    ]
    odd = '{"requestId":"清一色 é","profile":"sankou","overrides":{"selfDrawShare":2.5},"outcome":"OUTCOME_SELF_DRAW"}'
    return [*lines, odd.encode(), *HOSTILE_JSON]


MODULES = {name: native.load(name) for name in ("json_request", "json_answer", "arrow_results")}


def same_values(a, b) -> bool:
    """Equal, and of the same types at every depth (a Hand is not a plain tuple)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(same_values(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _data(line: bytes):
    """The line's JSON value, or None where it is not JSON (no twin reads it then)."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def json_request(line: bytes) -> None:
    try:  # the bounded reader's JSON text: what the fuzzer's coverage sees of the line
        read_json(line)
    except JsonTextError:
        pass
    for profile in (None, "classic"):
        read = MODULES["json_request"].read(line, profile)
        if read is None:
            continue
        twin = read_json_request(line)
        if profile is not None and twin is not None:  # the job's profile, in place of the line's
            twin = twin._replace(profile=profile)
        assert same_values(read, twin), (line, profile, read, twin)


def _answer(line: bytes):
    data = _data(line)
    return settle_answer(data) if isinstance(data, dict) else None


def json_answer(line: bytes) -> None:
    answer = _answer(line)
    if not isinstance(answer, SettleResult):
        return
    written = MODULES["json_answer"].settle_line(answer)
    if written is not None:
        assert written == output_line(settle_response_dict(answer)), (line, written)


def arrow_results(line: bytes) -> None:
    answer = _answer(line)
    if answer is None:
        return
    written = native_answers_batch([answer], MODULES["arrow_results"])
    if written is not None:
        written.validate(full=True)
        twin = python_answers_batch([answer])
        assert repr(written.to_pylist()) == repr(twin.to_pylist()), (line, written, twin)


TARGETS = {"json_request": json_request, "json_answer": json_answer, "arrow_results": arrow_results}

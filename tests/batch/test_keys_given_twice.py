"""A batch line whose object gives a key twice is an error record naming the key's path, by
whichever reader reads it: the native reader declines such a line, and msgspec, which read it
next, kept the last value (a request or a hand record settled with either value, depending on
the reader); the line is now left to the bounded reader, which refuses it as it refuses a field
given under both of its names."""

from __future__ import annotations

import json

import pytest

from batch import records
from batch.records import read_line, request_id_of
from rules_core.requests import SettleRequest
from tests.server.conftest import ROOT

REQUEST = (ROOT / "examples" / "hands.jsonl").read_text().splitlines()[0]
RECORD = (ROOT / "examples" / "records.jsonl").read_text().splitlines()[0]


@pytest.fixture(params=["native", "msgspec"])
def reader(request, monkeypatch):
    """Each first reader: the native one where it is built, and msgspec's without it."""
    if request.param == "msgspec":
        monkeypatch.setattr(records, "_read_native", None)
    return request.param


def twice(line: str, key: str, first_value: str) -> bytes:
    """``line`` with ``"key": first_value`` put before the first ``"key": ...`` it holds."""
    given = line.replace(f'"{key}":', f'"{key}":{first_value},"{key}":', 1)
    assert given != line
    return given.encode()


@pytest.mark.parametrize(
    ("line", "path"),
    [
        (twice(REQUEST, "profile", '"lezi"'), "profile"),
        (twice(REQUEST, "winningTile", '"TILE_M1"'), "winners[0].hand.winningTile"),
        (twice(RECORD, "dealerSeat", "1"), "dealerSeat"),
        (twice(RECORD, "seat", "2"), "events[0].seat"),
        (twice(REQUEST, "profile", '"lezi"').replace(b'"profile":"lezi"', b'"pro\\u0066ile":"lezi"'), "profile"),
    ],
    ids=["request", "nested", "record", "record-event", "escaped"],
)
def test_a_key_given_twice_is_an_error_record_naming_it(reader, line, path):
    request, error = read_line(7, line, None, {})
    assert request is None
    assert error["error"]["message"] == f"{path}: given twice"
    assert error["error"]["fieldViolations"] == [{"field": path, "description": "given twice"}]


def test_a_colon_or_an_escape_in_a_string_is_no_key_given_twice(reader):
    """A colon or an escape in a string is read by the usual-form reader; an escaped colon
    (which could stand for a key's) is left to the bounded reader, which reads it whole."""
    data = json.loads(REQUEST)
    for request_id in ("table:7:hand:12", 'say "hi"', "caf\u00e9"):
        data["requestId"] = request_id
        request, error = read_line(7, json.dumps(data).encode(), None, {})
        assert (error, type(request), request_id_of(request)) == (None, SettleRequest, request_id)
    data["requestId"] = "table:7"
    line = json.dumps(data).replace("table:7", "table\\u003a7").encode()
    request, error = read_line(7, line, None, {})
    assert (error, type(request), request_id_of(request)) == (None, dict, "table:7")
    line = twice(REQUEST, "profile", '"lezi"').replace(b'"requestId":"', b'"requestId":"\\u003a')
    request, error = read_line(7, line, None, {})
    assert (request, error["error"]["message"]) == (None, "profile: given twice")

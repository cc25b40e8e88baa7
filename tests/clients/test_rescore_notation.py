"""A JSON Lines line whose hand is written in the notation of RULES.md section 2 is answered by
`shmj rescore --local` as `settle_json` answers it: the fast readers (msgspec's, and the native
one where it is built) leave such a line to the one bounded reader, which reads the notation."""

from __future__ import annotations

import json

import pytest
from google.protobuf.json_format import MessageToDict

import convert
from batch import native
from batch.fast_requests import read_json_request
from clients.cli import main
from rules_core import InvalidRequest, settle_json
from tests.clients.test_hostile_files import rescore_lines
from tests.worked_examples import REQUESTS

EXAMPLE_1 = {
    "requestId": "n-1",
    "profile": "classic",
    "outcome": "OUTCOME_SELF_DRAW",
    "winners": [{"seat": 0, "hand": {"concealed": "111m 555m 999p EEE 77s", "winningTile": "7s", "flowers": "1f 5f"}}],
}
EXAMPLE_9 = {
    "requestId": "n-9",
    "profile": "lezi",
    "outcome": "OUTCOME_SELF_DRAW",
    "dice": {"first": 3, "second": 3},
    "winners": [
        {
            "seat": 3,
            "hand": {"concealed": "222m 333p 999s 55m", "melds": "[EEE@2]", "winningTile": "5m", "flowers": "2f 3f 4f"},
        }
    ],
}
NOT_A_TILE = {
    "requestId": "n-bad",
    "profile": "classic",
    "outcome": "OUTCOME_SELF_DRAW",
    "winners": [{"seat": 0, "hand": {"concealed": "111m 555m x99p EEE 77s", "winningTile": "7s"}}],
}
ONLY_THE_WINNING_TILE = {  # the tiles in names, the winning tile in notation: a string where a name goes
    "profile": "classic",
    "outcome": "OUTCOME_SELF_DRAW",
    "winners": [{"seat": 0, "hand": {"concealed": ["TILE_S7", "TILE_S7"], "winningTile": "7s"}}],
}


@pytest.mark.parametrize("request_", [EXAMPLE_1, EXAMPLE_9, NOT_A_TILE, ONLY_THE_WINNING_TILE])
def test_the_fast_readers_leave_a_line_in_notation_to_the_bounded_reader(request_):
    line = json.dumps(request_).encode()
    assert read_json_request(line) is None
    reader = native.load("json_request")
    if reader is not None:
        assert reader.read(line, None) is None


def test_rescore_answers_lines_in_notation_as_settle_json_does(tmp_path):
    lines = [json.dumps(r, ensure_ascii=False) for r in (EXAMPLE_1, EXAMPLE_9, NOT_A_TILE)]
    code, rows, summary = rescore_lines(tmp_path, lines)
    assert code == 0
    assert rows[:2] == [settle_json(EXAMPLE_1), settle_json(EXAMPLE_9)]
    assert rows[0]["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert rows[1]["seatDeltas"] == [-12.0, -12.0, -12.0, 36.0]
    with pytest.raises(InvalidRequest) as raised:
        settle_json(NOT_A_TILE)
    (violation,) = raised.value.violations
    assert rows[2]["error"]["fieldViolations"] == [{"field": violation.field, "description": violation.description}]
    assert violation.field == "winners[0].hand.concealed"
    assert violation.description.startswith("bad notation at position 10 ('111m 555m ⟨x⟩99p")
    assert (summary["settled"], summary["rejected"]) == (2, 1)


def test_score_request_reads_a_file_in_notation_as_one_in_tile_names(tmp_path, capsys):
    names = dict(MessageToDict(convert.settle_request_message(REQUESTS["9"])), requestId="n-9")
    printed = []
    for request in (EXAMPLE_9, names):
        path = tmp_path / "request.json"
        path.write_text(json.dumps(request))
        assert main(["score", "--request", str(path), "--local"]) == 0
        printed.append(capsys.readouterr().out)
    assert printed[0] == printed[1]
    assert "Seat 3  legal 合法" in printed[0]

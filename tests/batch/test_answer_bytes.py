"""An answer written straight from rules_core's result (``batch.answer_bytes``) is byte for byte
the line of rules_core.settle_json's answer dict, and a rescore chunk's block is the lines the
dict writer gives, error records included (issue 23)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from google.protobuf.json_format import MessageToDict

import convert
import rules_core as rc
from batch import answer_bytes
from batch.answer_bytes import answer_line, count_answer
from batch.local import settle_request
from batch.records import count_record, new_counts, output_line, read_line
from clients import rescore_workers
from rules_core.json_write import settle_response_dict
from rules_core.random_hands import generate_requests
from rules_core.results import Payment, PaymentReason, SettleResult

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GENERATED = generate_requests(1500, seed=2023)  # some are refused: the chunk tests hold their errors


def settled(requests) -> list[tuple[rc.SettleRequest, SettleResult]]:
    """The requests the rules settle, each with its result."""
    out = []
    for request in requests:
        try:
            out.append((request, rc.settle(request)))
        except rc.InvalidRequest:
            pass
    return out


SETTLED = settled(GENERATED)


def settle_json_line(request: rc.SettleRequest) -> bytes:
    return output_line(rc.settle_json(MessageToDict(convert.settle_request_message(request))))


def test_every_generated_answer_is_the_line_of_settle_json():
    assert len(SETTLED) > 1000
    for request, result in SETTLED:
        assert answer_line(result) == settle_json_line(request), request.request_id


def test_counts_from_the_result_are_those_from_its_dict():
    from_results, from_dicts = new_counts(), new_counts()
    for _, result in SETTLED:
        count_answer(from_results, result)
        count_record(from_dicts, settle_response_dict(result))
    assert from_results == from_dicts
    assert from_results["settled"] == len(SETTLED)
    assert from_results["legal_wins"] > 0 and from_results["illegal_wins"] > 0


def test_answers_stay_the_same_when_the_tables_are_emptied_as_they_fill(monkeypatch):
    monkeypatch.setattr(answer_bytes, "MAX_PARTS", 3)
    for request, result in SETTLED[:300]:
        assert answer_line(result) == settle_json_line(request)


def test_a_negative_zero_keeps_its_sign_after_a_zero_was_written():
    zero = SettleResult("z", "classic", 1, (), (Payment(1, 0, 0.0, PaymentReason.DISCARD),), (0.0, 0.0, 0.0, 0.0), None)
    negative = zero._replace(payments=(Payment(1, 0, -0.0, PaymentReason.DISCARD),), seat_deltas=(-0.0, 0.0, 0.0, 0.0))
    for result in (zero, negative, zero, negative):
        assert answer_line(result) == output_line(settle_response_dict(result))
    assert b'"seatDeltas":[-0.0,0.0,0.0,0.0]' in answer_line(negative)


def test_a_request_id_no_utf8_can_hold_is_written_escaped_as_before():
    result = SETTLED[0][1]._replace(request_id="hand-\ud800")
    line = answer_line(result)
    assert line == output_line(settle_response_dict(result))
    assert json.loads(line)["requestId"] == "hand-\ud800"


def dict_writer_block(lines: list[bytes]) -> bytes:
    """The lines as the dict writer gives them: read_line, then settle_request's record."""
    out = []
    for number, line in enumerate(lines, start=1):
        request, error = read_line(number, line, None, {})
        out.append(output_line(error if request is None else settle_request(request)))
    return b"".join(out)


@pytest.mark.parametrize("name", ["hands.jsonl", "requests.jsonl", "requests-with-errors.jsonl", "records.jsonl"])
def test_a_rescore_chunk_of_an_example_file_is_what_the_dict_writer_gives(name, monkeypatch):
    monkeypatch.setattr(rescore_workers, "settings", {"local": True, "profile": None, "overrides": {}})
    lines = (EXAMPLES / name).read_bytes().splitlines()
    block, written, _ = rescore_workers.settle_chunk((1, lines))
    assert written == len(lines)
    assert block == dict_writer_block(lines)


def test_a_rescore_chunk_of_generated_lines_is_what_the_dict_writer_gives(monkeypatch):
    monkeypatch.setattr(rescore_workers, "settings", {"local": True, "profile": None, "overrides": {}})
    lines = [json.dumps(MessageToDict(convert.settle_request_message(r))).encode() for r in GENERATED[:500]]
    lines += [b"", b"{", b'{"requestId": "x", "outcome": "OUTCOME_NOPE"}', b"\xff", None]
    block, written, counts = rescore_workers.settle_chunk((1, lines))
    assert written == len(lines) == 505
    assert block == dict_writer_block(lines)
    assert counts["settled"] + counts["rejected"] == 505 and counts["rejected"] >= 5

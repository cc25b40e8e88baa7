"""The requests of the rule families (RULES.md section 14) read by each batch reader: the msgspec
reader (a JSON line, a nested Arrow row), the columnar reader (a nested Arrow batch) and the
bounded reader (``convert.json_read``) read the knocked seats, 海底捞月, the dragon flowers and a
kept claim alike, so a 敲麻 room's batch takes the fast path, and each request settles to the
same answer (or is refused with the same field violations) whichever reader read it."""

from __future__ import annotations

import json

import pytest

from batch.arrow import request_rows
from batch.arrow_columns import read_requests
from batch.arrow_schema import REQUEST, record_batch
from batch.fast_requests import read_json_request, read_row_request
from convert.json_read import read_settle_request
from convert.json_write import settle_request_dict
from rules_core import InvalidRequest, Outcome, SettleRequest, SettleResult, settle
from rules_core.build import claims, winner
from tests.batch.test_arrow_results import EXAMPLES, uses_section_14_fields

FAMILIES = ("qiaoma", "qiaoma_lezi", "qinghunpeng")
FILES = ("hands.jsonl", "requests.jsonl", "requests-with-errors.jsonl")


def family_lines() -> list[str]:
    found = []
    for name in FILES:
        for line in (EXAMPLES / name).read_text(encoding="utf-8").splitlines():
            try:
                request = json.loads(line)
            except ValueError:
                continue
            if isinstance(request, dict) and request.get("profile") in FAMILIES:
                found.append(line)
    return found


LINES = family_lines()


def answer(request: SettleRequest):
    """The result of settling ``request``, or the field violations it is refused with."""
    try:
        return settle(request)
    except InvalidRequest as refusal:
        return ("refused", refusal.violations)


def readings(lines: list[str]) -> dict[str, list]:
    """Each reader's request of each line (the bounded reader's for JSON objects)."""
    records = [json.loads(line) for line in lines]
    batch = record_batch(REQUEST, records)
    return {
        "bounded": [read_settle_request(record) for record in records],
        "msgspec (JSON)": [read_json_request(line.encode()) for line in lines],
        "msgspec (Arrow row)": [read_row_request(row) for row in request_rows(batch)],
        "columnar": read_requests(batch),
    }


def test_the_examples_under_the_families_are_many_and_use_every_section_14_field():
    assert len(LINES) == 27
    assert sum(uses_section_14_fields(json.loads(line)) for line in LINES) == 13
    text = "".join(LINES)
    assert all(key in text for key in ("declaredSeats", "lastTile", "dragonFlowers", "patternKept"))


def test_each_example_under_the_families_is_read_by_every_reader_alike():
    found = readings(LINES)
    bounded = found.pop("bounded")
    assert all(isinstance(request, SettleRequest) for request in bounded)
    assert found == dict.fromkeys(found, bounded)  # none declined, none misread


def test_each_example_under_the_families_gets_the_same_answer_from_every_reader():
    found = readings(LINES)
    answers = {reader: [answer(request) for request in requests] for reader, requests in found.items()}
    expected = answers.pop("bounded")
    assert sum(not isinstance(a, SettleResult) for a in expected) == 1  # the example refused, in requests-with-errors
    assert answers == dict.fromkeys(answers, expected)


# RULES.md 14.10.11 E2's hand with 海底捞月 asked of a self-draw: all four fields in one row.
E2 = winner(0, "567p 11p [WWW@2] [888p@2] [333p@2]", win="1p", dragon_flowers="C", last_tile=True)
KEPT = (claims(0, 2, 3, pattern_kept=True),)


def qiaoma(request_id: str, outcome: Outcome, winners, declared, **table) -> SettleRequest:
    return SettleRequest(
        "qiaoma", outcome, tuple(winners), request_id=request_id, declared_seats=tuple(declared), **table
    )


ROWS = {
    "every field": qiaoma("all-four", Outcome.SELF_DRAW, [E2], (0, 1), liabilities=KEPT),
    "a dragon among the tiles": qiaoma(
        "dragon-tile",
        Outcome.SELF_DRAW,
        [winner(0, "567p 11p CCC [WWW@2] [888p@2]", win="1p", dragon_flowers="F")],
        (0,),
    ),
    "a fifth dragon flower": qiaoma(
        "five-reds",
        Outcome.SELF_DRAW,
        [winner(0, "567p 11p [WWW@2] [888p@2] [333p@2]", win="1p", dragon_flowers="C C C C C")],
        (0,),
    ),
    "a declared seat out of range": qiaoma("seat-4", Outcome.SELF_DRAW, [E2], (0, 4)),
    "a declared seat repeated": qiaoma("seat-twice", Outcome.SELF_DRAW, [E2], (0, 0)),
    "the last tile on a discard": qiaoma("last-on-discard", Outcome.DISCARD, [E2], (0,), discarder_seat=1),
}


REFUSED = {
    "a dragon among the tiles": "winners[0].hand.concealed",
    "a fifth dragon flower": "winners[0].hand.dragon_flowers[4]",
    "a declared seat out of range": "declared_seats[1]",
    "a declared seat repeated": "declared_seats[1]",
    "the last tile on a discard": "winners[0].last_tile",
}


@pytest.mark.parametrize("case", ROWS)
def test_a_qiaoma_row_is_read_and_answered_alike_by_every_reader(case):
    request = ROWS[case]
    line = json.dumps(settle_request_dict(request), ensure_ascii=False)
    found = readings([line])
    assert found == dict.fromkeys(found, [request])
    expected = answer(request)
    if case == "every field":
        assert isinstance(expected, SettleResult)
    else:
        assert [violation.field for violation in expected[1]] == [REFUSED[case]]
    assert {reader: answer(requests[0]) for reader, requests in found.items()} == dict.fromkeys(found, expected)

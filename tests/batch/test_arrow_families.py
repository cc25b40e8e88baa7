"""The request fields of RULES.md section 14 (dragon flowers, 海底捞月, the knocked seats,
pattern_kept) are columns of the nested Arrow form, read as the JSON reader reads them: a Parquet
row and a JSON line of the same request give the same answer, and the answers' new items (兜底番,
无花, the 番 cap) and reasons are result columns as JSON has them. The columnar reader reads the
new columns too (tests/batch/test_every_field_is_read_or_declined.py holds every faster reader
to the bounded reader's reading)."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq

from batch.arrow import settle_answers
from batch.arrow_columns import read_requests
from batch.arrow_results import answers_batch, python_answers_batch
from batch.arrow_schema import REQUEST, record_batch
from batch.local import answer_record, line_answers
from convert.json_write import settle_request_dict
from rules_core import Outcome, SettleRequest
from rules_core.build import claims, winner

SELF, DISCARD = Outcome.SELF_DRAW, Outcome.DISCARD

# RULES.md 14.10.11 E2: 混一色 with a dragon flower; seats 0 and 2 are partners when seat 0's
# three pungs from seat 2 keep their pattern.
E2 = winner(0, "567p 11p [WWW@2] [888p@2] [333p@2]", win="1p", dragon_flowers="C")
KEPT = (claims(0, 2, 3, pattern_kept=True),)


def qiaoma(request_id, outcome, winners, declared, **table) -> SettleRequest:
    return SettleRequest(
        "qiaoma", outcome, tuple(winners), request_id=request_id, declared_seats=tuple(declared), **table
    )


# (request, the seat deltas RULES.md gives it)
CASES = [
    (qiaoma("e2-partner", DISCARD, [E2], (0, 1), discarder_seat=1, liabilities=KEPT), [12, -6, -6, 0]),
    (
        qiaoma("e2-pattern-broken", DISCARD, [E2], (0, 1), discarder_seat=1, liabilities=(claims(0, 2, 3),)),
        [6, -6, 0, 0],
    ),
    (qiaoma("e2-not-knocked", DISCARD, [E2], (1,), discarder_seat=1, liabilities=KEPT), [0, 0, 0, 0]),
    # Q5: 5 番 used as 3 (FAN_CAP), no flowers counting 10 (NO_FLOWERS).
    (
        qiaoma("q5-cap", SELF, [winner(0, "111m 333m 555m 777m 99m", win="9m", replacement_draw=True)], (0,)),
        [264, -88, -88, -88],
    ),
    # 14.8 example 19: 海底捞月 with dragon flowers under qiaoma_lezi (兜底番 item).
    (
        SettleRequest(
            "qiaoma_lezi",
            SELF,
            (
                winner(
                    0,
                    "111p 555s 77s [EEEE] [9999m@1]",
                    win="7s",
                    flowers="1f 2f 3f 4f 5f",
                    dragon_flowers="C C F F P P",
                    last_tile=True,
                ),
            ),
            dealer_seat=2,
            request_id="example-19-last-tile",
        ),
        [162, -54, -54, -54],
    ),
]
LINES = [json.dumps(settle_request_dict(request), ensure_ascii=False) for request, _ in CASES]


def parquet_batch(tmp_path, records: list[dict]) -> pa.RecordBatch:
    path = tmp_path / "hands.parquet"
    pq.write_table(pa.Table.from_batches([record_batch(REQUEST, records)]), path)
    return pq.read_table(path).combine_chunks().to_batches()[0]


def test_the_columnar_reader_reads_the_new_columns_as_the_bounded_reader_reads_them(tmp_path):
    """Every request of section 14's examples, read column by column: the request itself."""
    rows = parquet_batch(tmp_path, [json.loads(line) for line in LINES])
    assert read_requests(rows) == [request for request, _ in CASES]


def test_a_parquet_row_and_a_json_line_answer_alike(tmp_path):
    from_lines = [answer_record(a) for a in line_answers(enumerate(LINES, start=1), None, {})]
    from_rows = [answer_record(a) for a in settle_answers(parquet_batch(tmp_path, [json.loads(x) for x in LINES]))]
    assert from_rows == from_lines
    assert [record["seatDeltas"] for record in from_rows] == [deltas for _, deltas in CASES]
    assert from_rows[2]["winners"][0]["illegalReasons"] == ["ILLEGAL_REASON_NOT_DECLARED"]


def test_a_row_with_the_new_fields_and_overrides_is_read_by_the_row_reader_alike(tmp_path):
    """Overrides send a batch past the columnar reader: the row reader reads the new columns too."""
    records = [{**json.loads(line), "overrides": {"ordinaryBase": 1}} for line in LINES[:3]]
    from_rows = [answer_record(a) for a in settle_answers(parquet_batch(tmp_path, records))]
    lines = [json.dumps(r) for r in records]
    assert from_rows == [answer_record(a) for a in line_answers(enumerate(lines, start=1), None, {})]
    assert [r["seatDeltas"] for r in from_rows] == [[12, -6, -6, 0], [6, -6, 0, 0], [0, 0, 0, 0]]


def test_the_new_items_and_reasons_are_result_columns():
    answers = line_answers(enumerate(LINES, start=1), None, {})
    written = answers_batch(answers)
    assert written.equals(python_answers_batch(answers))
    rows = written.to_pylist()
    capped = [(i["kind"], i["code"], i["contribution"]) for i in rows[3]["winners"][0]["items"]]
    assert capped == [
        ("ITEM_KIND_FLOWERS", "NO_FLOWERS", 10),
        ("ITEM_KIND_BASE", "ORDINARY_BASE", 1),
        ("ITEM_KIND_FAN", "ALL_PUNGS", 1),
        ("ITEM_KIND_FAN", "FULL_FLUSH", 2),
        ("ITEM_KIND_FAN", "KONG_BLOOM", 1),
        ("ITEM_KIND_FAN", "CONCEALED", 1),
        ("ITEM_KIND_CAP", "FAN_CAP", -2),
    ]
    assert rows[3]["winners"][0]["patterns"][-1] == "PATTERN_NO_FLOWERS"
    assert rows[2]["winners"][0]["illegal_reasons"] == ["ILLEGAL_REASON_NOT_DECLARED"]
    last_tile = rows[4]["winners"][0]
    assert last_tile["patterns"] == ["PATTERN_ALL_PUNGS", "PATTERN_LAST_TILE"]
    assert ("ITEM_KIND_FAN", "BASE_FAN", 1) in [(i["kind"], i["code"], i["contribution"]) for i in last_tile["items"]]


def test_a_fifth_declared_seat_goes_to_the_bounded_reader_which_names_it(tmp_path):
    good = json.loads(LINES[0])
    records = [{**good, "declaredSeats": [0, 1, 2, 3, 0]}, good]
    rows = parquet_batch(tmp_path, records)
    answers = [answer_record(a) for a in settle_answers(rows)]
    assert answers[0]["error"]["fieldViolations"] == [
        {"field": "declared_seats", "description": "at most 4 entries, got 5"}
    ]
    assert answers[1]["seatDeltas"] == [12, -6, -6, 0]


def test_a_null_declared_seat_is_seat_0_to_every_reader(tmp_path):
    """BATCH.md: a null item of a list is its proto3 default, whichever reader reads the row."""
    rows = parquet_batch(tmp_path, [json.loads(LINES[0])])
    nulled = pa.RecordBatch.from_pylist([{**rows.to_pylist()[0], "declared_seats": [1, None]}], schema=rows.schema)
    overridden = pa.RecordBatch.from_pylist(
        [{**rows.to_pylist()[0], "declared_seats": [1, None], "overrides": {"lazi_value": 20}}], schema=rows.schema
    )  # past the columnar reader: the row readers
    answers = [answer_record(a) for a in (*settle_answers(nulled), *settle_answers(overridden))]
    assert [a["seatDeltas"] for a in answers] == [[12, -6, -6, 0]] * 2

"""The Arrow core of batch rescoring: schemas from the descriptors, one result row per request
row in either input form, the same records as `shmj rescore --local`, rule-change reports."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
from google.protobuf.json_format import ParseDict
from mahjong.shanghai.v1 import settlement_pb2 as pb

import rules_core as rc
from batch.arrow import request_rows, settle_record_batch, settle_record_batches, settle_records
from batch.arrow_schema import REQUEST_SCHEMA, RESULT, RESULT_SCHEMA, json_record, record_batch, result_batch
from clients.cli import main
from tests.server.conftest import ROOT

EXAMPLES = ROOT / "examples"


def example_lines() -> list[str]:
    return (EXAMPLES / "hands.jsonl").read_text().splitlines()


def as_message(record: dict) -> pb.SettleResponse:
    """A result record, from JSON or from Arrow, as the message it stands for."""
    return ParseDict(json_record(record, RESULT), pb.SettleResponse())


def test_the_result_schema_is_the_settle_response_message():
    assert RESULT_SCHEMA.names == [f.name for f in pb.SettleResponse.DESCRIPTOR.fields]
    assert RESULT_SCHEMA.field("seat_deltas").type == pa.list_(pa.float64())
    assert RESULT_SCHEMA.field("next_hand").type == pa.struct(
        [("dealer_seat", pa.int32()), ("huangfan_count", pa.int32())]
    )
    assert RESULT_SCHEMA.field("unit").type == pa.string()  # enums by name
    winner = RESULT_SCHEMA.field("winners").type.value_type
    assert [f.name for f in winner] == [f.name for f in pb.WinnerResult.DESCRIPTOR.fields]
    assert winner.field("patterns").type == pa.list_(pa.string())
    error = RESULT_SCHEMA.field("error").type
    assert (
        str(error)
        == "struct<code: string, message: string, field_violations: list<item: struct<field: string, description: string>>, "
        "reason: string, metadata: list<item: struct<key: string, value: string>>>"
    )
    assert REQUEST_SCHEMA.names == [f.name for f in pb.SettleRequest.DESCRIPTOR.fields]
    assert pq.read_schema(EXAMPLES / "hands.parquet") == REQUEST_SCHEMA


def test_the_sample_covers_every_profile_and_outcome_and_its_two_forms_agree():
    requests = [json.loads(line) for line in example_lines()]
    assert {r["profile"] for r in requests} == {"classic", "sankou", "lezi", "qiaoma", "qiaoma_lezi", "qinghunpeng"}
    assert {r["outcome"] for r in requests} == {f"OUTCOME_{o.name}" for o in rc.Outcome if o.value}
    nested = pq.read_table(EXAMPLES / "hands.parquet").to_pylist()
    assert [ParseDict(json_record(row), pb.SettleRequest()) for row in nested] == [
        ParseDict(r, pb.SettleRequest()) for r in requests
    ]


def test_both_input_forms_give_the_records_local_rescore_writes(tmp_path):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text((EXAMPLES / "hands.jsonl").read_text())
    assert main(["rescore", str(source), "-o", str(out), "--local", "--no-progress"]) == 0
    local = [as_message(json.loads(line)) for line in out.read_text().splitlines()]
    from_json = settle_record_batch(pa.record_batch([pa.array(example_lines())], names=["request"]))
    from_nested = settle_record_batch(pq.read_table(EXAMPLES / "hands.parquet"))
    assert from_json.schema == RESULT_SCHEMA
    assert isinstance(from_nested, pa.Table)  # Ray's map_batches form: a Table in, a Table out
    assert [as_message(r) for r in from_json.to_pylist()] == local
    assert [as_message(r) for r in from_nested.to_pylist()] == local
    assert len(local) == 35
    error = from_nested.to_pylist()[-1]
    assert error["request_id"] == "abandon-classic"
    assert error["error"]["field_violations"] == [
        {"field": "outcome", "description": "profile 'classic' has no abandon rule"}
    ]
    assert error["winners"] == [] and error["next_hand"] is None


def test_the_quick_result_batch_is_the_one_built_field_by_field():
    """``result_batch`` (Arrow builds from the JSON names, viewed under the .proto names) gives
    the very batch the general converter does: answers, errors of every kind, the defaults."""
    from google.protobuf.json_format import MessageToDict

    import convert
    from generators.random_hands import generate_requests

    lines = example_lines() + (EXAMPLES / "requests-with-errors.jsonl").read_text().splitlines()
    lines += [json.dumps(MessageToDict(convert.settle_request_message(r))) for r in generate_requests(300, seed=5)]
    lines += ["", "{not json", '{"requestId": "no-hand", "winners": [{"seat": 1}]}']
    records = settle_records(pa.record_batch([pa.array(lines, pa.string())], names=["request"]))
    assert sum("error" in r for r in records) >= 6 and sum("nextHand" in r for r in records) >= 100
    quick = result_batch(records)
    assert quick.schema == RESULT_SCHEMA
    assert quick.equals(record_batch(RESULT, records))
    error = quick.to_pylist()[-1]
    assert {k: v for k, v in error.items() if k != "error"} == {
        "request_id": "no-hand",
        "profile": "",
        "unit": "UNIT_UNSPECIFIED",
        "winners": [],
        "payments": [],
        "seat_deltas": [],
        "next_hand": None,
        "penalties": [],
        "huangfan_after_dice": 0,
        "engine_version": "",
        "profile_digest": "",
    }
    assert result_batch([]).schema == RESULT_SCHEMA and result_batch([]).num_rows == 0


def test_a_column_null_throughout_is_absent_from_the_request_rows():
    table = pq.read_table(EXAMPLES / "hands.parquet").slice(0, 3)
    assert table.column("overrides").null_count == 3
    rows = request_rows(table)
    assert rows[0] == {k: v for k, v in table.to_pylist()[0].items() if k != "overrides"}
    nothing = pa.table({"overrides": pa.nulls(2, REQUEST_SCHEMA.field("overrides").type)})
    assert request_rows(nothing) == [{}, {}]
    out = settle_record_batch(nothing).to_pylist()
    assert [r["error"]["field_violations"][0]["field"] for r in out] == ["profile", "profile"]


def test_a_bad_row_costs_that_row_only():
    rows = ["{not json", None, "[1, 2]", example_lines()[0], '{"requestId": "x", "profile": "Classic"}', "null", "7"]
    (batch,) = list(settle_record_batches([pa.record_batch([pa.array(rows, pa.string())], names=["json"])]))
    out = batch.to_pylist()
    assert [r["request_id"] for r in out] == ["", "", "", "ex-1", "x", "", ""]
    assert out[0]["error"]["message"].startswith("line 1: not valid JSON")
    assert out[1]["error"]["message"] == "line 2: empty line"
    assert out[2]["error"]["message"] == "line 3: expected a JSON object, got a list"  # JSON's words, not Python's
    assert out[3]["error"] is None and out[3]["seat_deltas"] == [36.0, -12.0, -12.0, -12.0]
    assert out[4]["error"]["field_violations"][0]["field"] == "profile"
    assert [r["error"]["message"] for r in out[5:]] == [
        "line 6: expected a JSON object, got null",
        "line 7: expected a JSON object, got 7",
    ]


def test_a_binary_column_is_read_as_utf8_lines_and_bad_bytes_name_their_row():
    rows = [example_lines()[0].encode(), b'{"requestId": "ID-\xff"}', b"\r"]
    out = settle_record_batch(pa.record_batch([pa.array(rows, pa.binary())], names=["line"]), 7).to_pylist()
    assert out[0]["error"] is None and out[0]["seat_deltas"] == [36.0, -12.0, -12.0, -12.0]
    assert (
        out[1]["request_id"] == "" and out[1]["error"]["message"] == "line 8: not valid UTF-8 (byte 0xff at column 19)"
    )
    assert out[2]["error"]["message"] == "line 9: empty line"


def test_rule_change_report_with_local(tmp_path):
    source, before, after = tmp_path / "in.jsonl", tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    source.write_text((EXAMPLES / "hands.jsonl").read_text())
    assert main(["rescore", str(source), "-o", str(before), "--local", "--no-progress"]) == 0
    # The earlier results as if written under other rules: ex-1 paid less, ex-4 was not legal,
    # ex-20 was never settled.
    rows = {r["requestId"]: r for r in map(json.loads, before.read_text().splitlines())}
    rows["ex-1"]["seatDeltas"] = [30.0, -10.0, -10.0, -10.0]
    rows["ex-1"]["winners"][0]["value"] = 10.0
    rows["ex-4"]["winners"][0]["legal"] = False
    rows["ex-4"]["seatDeltas"] = [0.0, 0.0, 0.0, 0.0]
    del rows["ex-20"]
    previous = tmp_path / "previous.jsonl"
    previous.write_text("".join(json.dumps(r) + "\n" for r in rows.values()))
    assert main(["rescore", str(source), "-o", str(after), "--local", "--compare", str(previous), "--no-progress"]) == 0
    changes = json.loads((tmp_path / "after.jsonl.summary.json").read_text())["changes"]
    assert changes == {
        "records": 35,
        "matched": 34,
        "unmatched": 1,
        "without_request_id": 0,
        "changed": 2,
        "legality_changed": 1,
        "value_changed": 1,
        "seat_deltas_changed": 2,
        "rules_changed": 0,
        "by_profile": {"classic": 2},
        "by_outcome": {"OUTCOME_DISCARD": 1, "OUTCOME_SELF_DRAW": 1},
        "by_pattern": {"PATTERN_ALL_PUNGS": 1, "PATTERN_CONCEALED": 1, "PATTERN_FULL_FLUSH": 1},
        "absolute_change_per_seat": [6.0, 22.0, 22.0, 2.0],
        "earlier_unreadable": 0,
        "first_unreadable": None,
    }
    records = [json.loads(line) for line in (tmp_path / "after.jsonl.changes.jsonl").read_text().splitlines()]
    assert [(r["requestId"], r["changed"]) for r in records] == [
        ("ex-1", ["value", "seat_deltas"]),
        ("ex-4", ["legality", "seat_deltas"]),
    ]
    assert records[0]["seatDeltaChange"] == [6.0, -2.0, -2.0, -2.0]
    assert records[1]["before"]["legal"] == [False] and records[1]["after"]["legal"] == [True]


def test_an_error_entrys_reason_and_metadata_survive_the_columns():
    """SettleError's ErrorInfo fields: the map ``metadata`` is a list of key/value structs in
    Arrow and the JSON object proto3 writes for a map when read back."""
    record = {
        "requestId": "big",
        "error": {
            "code": "INVALID_ARGUMENT",
            "message": "too large",
            "fieldViolations": [],
            "reason": "BODY_TOO_LARGE",
            "metadata": {"size": "40000", "limit": "36864"},
        },
    }
    quick = result_batch([record])
    assert quick.equals(record_batch(RESULT, [record]))
    (row,) = quick.to_pylist()
    assert row["error"]["metadata"] == [{"key": "size", "value": "40000"}, {"key": "limit", "value": "36864"}]
    back = json_record(row, RESULT)
    assert back["error"] == {
        "code": "INVALID_ARGUMENT",
        "message": "too large",
        "field_violations": [],
        "reason": "BODY_TOO_LARGE",
        "metadata": {"size": "40000", "limit": "36864"},
    }
    assert ParseDict(back, pb.SettleResponse()).error.metadata["limit"] == "36864"

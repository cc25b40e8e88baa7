"""Result columns built straight from rules_core's results (``batch.arrow_results``) are the
batch the answer dicts gave (``arrow_schema.result_batch``): the same schema and values for
answers, errors of every kind, a hand record's answer, in either input form."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
from google.protobuf.json_format import MessageToDict
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
from batch.arrow import settle_answers, settle_arrow_batch, settle_records
from batch.arrow_results import answers_batch, python_answers_batch
from batch.arrow_schema import REQUEST, RESULT_SCHEMA, record_batch, result_batch
from batch.local import answer_record
from convert.json_write import error_record
from generators.random_hands import generate_requests
from rules_core import results
from rules_core.results import SettleResult
from tests.server.conftest import ROOT

EXAMPLES = ROOT / "examples"
GENERATED = [MessageToDict(convert.settle_request_message(r)) for r in generate_requests(400, seed=31)]
# What a data lake holds beside good requests: a seat out of range, an unknown profile, a
# digest pinned to other rules, no winners, a bad tile in a meld.
MALFORMED = [
    {"requestId": "seat-9", "profile": "classic", "outcome": "OUTCOME_SELF_DRAW", "winners": [{"seat": 9}]},
    {"requestId": "no-profile", "profile": "nowhere", "outcome": "OUTCOME_SELF_DRAW"},
    {**GENERATED[0], "requestId": "pinned", "profileDigest": "sha256:" + "0" * 64},
    {"requestId": "no-winner", "profile": "lezi", "outcome": "OUTCOME_DISCARD", "discarderSeat": 2},
    {"requestId": "", "profile": "classic", "outcome": "OUTCOME_EXHAUSTIVE_DRAW", "dealerSeat": -1},
]


def json_column(lines: list[str]) -> pa.RecordBatch:
    return pa.record_batch([pa.array(lines, pa.string())], names=["request"])


def uses_section_14_fields(request: dict) -> bool:
    """Whether a request (a JSON object, or a row as Arrow gives it) holds a value in a field of
    RULES.md section 14 that the faster readers do not read (the knock, the last tile, dragon
    flowers, a kept claim): such a request is read and settled by the bounded reader's path."""

    def field(obj, name: str):
        camel = name.split("_")[0] + "".join(word.title() for word in name.split("_")[1:])
        return (obj or {}).get(camel) or (obj or {}).get(name)

    winners = field(request, "winners") or []
    return bool(
        field(request, "declared_seats")
        or any(field(w, "last_tile") or field(field(w, "hand"), "dragon_flowers") for w in winners)
        or any(field(r, "pattern_kept") for r in field(request, "liabilities") or [])
    )


def old_batch(answers: list) -> pa.RecordBatch:
    """The batch as it was built before: each answer's dict, then ``result_batch``."""
    return result_batch([answer_record(a) for a in answers])


def assert_same_batch(answers: list) -> pa.RecordBatch:
    """``answers_batch`` (native where it is built), its Python path and the answer dicts give
    one batch."""
    new, python, old = answers_batch(answers), python_answers_batch(answers), old_batch(answers)
    assert new.schema == python.schema == old.schema == RESULT_SCHEMA
    assert new.equals(old) and python.equals(old)
    assert new.to_pylist() == python.to_pylist() == old.to_pylist()
    return new


def test_the_core_results_nest_as_their_messages():
    """Arrow converts the named tuples positionally: each has its message's fields in order
    (SettleResult those of SettleResponse less ``error`` and ``engine_version``)."""
    for name in ("WinnerResult", "ValueItem", "Payment", "Penalty", "NextHand"):
        assert getattr(results, name)._fields == tuple(f.name for f in getattr(pb, name).DESCRIPTOR.fields)
    response = [f.name for f in pb.SettleResponse.DESCRIPTOR.fields]
    assert SettleResult._fields == tuple(n for n in response if n not in ("error", "engine_version"))


def test_the_examples_give_the_batch_the_answer_dicts_gave():
    lines = (EXAMPLES / "hands.jsonl").read_text().splitlines()
    lines += (EXAMPLES / "requests-with-errors.jsonl").read_text().splitlines()
    lines += (EXAMPLES / "requests.jsonl").read_text().splitlines()
    lines += ["", "{not json", "[1]", '{"requestId": "no-hand", "winners": [{"seat": 1}]}']
    answers = settle_answers(json_column(lines))
    # the hands, the good line among the errors, the requests (the 12 that say a field of RULES.md
    # section 14, dragon flowers, declared_seats, last_tile, pattern_kept, among them): all read
    # by the fast reader
    assert sum(isinstance(a, SettleResult) for a in answers) == 34 + 1 + 37
    batch = assert_same_batch(answers)
    assert batch.column("error").null_count == 34 + 1 + 37
    last = batch.to_pylist()[-1]
    assert [v["field"] for v in last["error"]["field_violations"]] == [
        "profile",
        "outcome",
        "winners[0].hand.concealed",
        "winners[0].hand.winning_tile",
    ]
    assert last["unit"] == "UNIT_UNSPECIFIED" and last["winners"] == [] and last["engine_version"] == ""
    nested = settle_answers(pq.read_table(EXAMPLES / "hands.parquet"))
    assert_same_batch(nested)


def test_generated_and_malformed_requests_in_both_forms():
    requests = GENERATED + MALFORMED
    for batch in (json_column([json.dumps(r) for r in requests]), record_batch(REQUEST, requests)):
        answers = settle_answers(batch)
        assert [a.request_id if isinstance(a, SettleResult) else a["requestId"] for a in answers] == [
            r["requestId"] for r in requests
        ]
        built = assert_same_batch(answers)
        errors = [row["error"] for row in built.to_pylist()[-5:]]
        assert [e["code"] for e in errors] == [
            "INVALID_ARGUMENT",
            "INVALID_ARGUMENT",
            "FAILED_PRECONDITION",
            "INVALID_ARGUMENT",
            "INVALID_ARGUMENT",
        ]
        assert errors[2]["reason"] == "PROFILE_DIGEST_MISMATCH"
        assert [entry["key"] for entry in errors[2]["metadata"]] == ["expected", "actual"]
        assert errors[0]["reason"] == "" and errors[0]["metadata"] == []
        assert settle_arrow_batch(batch).equals(result_batch(settle_records(batch)))


def test_a_batch_of_answers_only_errors_only_or_none():
    answers = [a for a in settle_answers(record_batch(REQUEST, GENERATED[:60])) if isinstance(a, SettleResult)]
    assert len(answers) >= 40
    assert answers_batch(answers).column("error").null_count == len(answers)
    assert_same_batch(answers)
    errors = [error_record(None, "INTERNAL", "internal error: KeyError()"), error_record("x", "INVALID_ARGUMENT", "")]
    assert_same_batch(errors)
    empty = assert_same_batch([])
    assert empty.num_rows == 0


def test_a_record_of_another_shape_takes_the_general_path_for_its_batch():
    """A hand record's answer (a SettleRecordResponse) fills the columns it shares, as before;
    so does an error record missing its violations."""
    records = (EXAMPLES / "records.jsonl").read_text().splitlines()[:3]
    answers = settle_answers(json_column([*records, json.dumps(GENERATED[1])]))
    assert "settlement" in answers[0] and isinstance(answers[-1], SettleResult)
    batch = assert_same_batch(answers)
    assert batch.column("request_id").to_pylist()[0] == json.loads(records[0])["requestId"]
    assert batch.column("profile").to_pylist()[0] is None
    odd_error = {"requestId": "odd", "error": {"code": "INTERNAL", "message": "no violations"}}
    assert answers_batch([odd_error]).to_pylist()[0]["error"]["field_violations"] is None
    assert_same_batch([odd_error, *answers])

"""`shmj rescore` with hand record lines (a JSON Lines line with `events`, RULES.md section 13):
each answered by its SettleRecordResponse, the same with --local and through a server's
SettleRecord, and the summary counting the records whose recorded deltas differ."""

from __future__ import annotations

import json

from clients.cli import main
from convert.profile_digest import profile_digest
from rules_core import BUILTIN_PROFILES, settle_json, settle_record_json
from tests.server.conftest import ROOT

EXAMPLES = ROOT / "examples"


def mixed_records(path) -> list[dict]:
    """The 23 example records and the 37 example requests interleaved, and a record whose
    event 12 discards a tile its seat does not hold."""
    records = [json.loads(line) for line in (EXAMPLES / "records.jsonl").read_text().splitlines()]
    requests = [json.loads(line) for line in (EXAMPLES / "requests.jsonl").read_text().splitlines()]
    bad = json.loads((EXAMPLES / "record.json").read_text())
    bad["requestId"] = "bad-record"
    bad["events"][12]["tile"] = "TILE_M9"
    lines = [x for pair in zip(records, requests, strict=False) for x in pair] + requests[len(records) :] + [bad]
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
    return lines


def test_record_lines_are_answered_by_their_records_locally_and_by_a_server(tmp_path, server, capsys):
    source = tmp_path / "mixed.jsonl"
    lines = mixed_records(source)
    local, remote = tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    assert main(["rescore", str(source), "-o", str(local), "--local", "--no-progress"]) == 0
    local_err = capsys.readouterr().err
    assert main(["rescore", str(source), "-o", str(remote), "--target", server.address, "--no-progress"]) == 0
    assert local.read_text() == remote.read_text()
    answers = [json.loads(line) for line in local.read_text().splitlines()]
    assert len(answers) == len(lines) == 61
    for line, answer in zip(lines[:-1], answers[:-1], strict=True):
        expected = settle_record_json(line) if "events" in line else settle_json(line)
        assert answer == expected
    assert answers[-1] == {
        "requestId": "bad-record",
        "error": {
            "code": "INVALID_ARGUMENT",
            "message": "events[12].tile: seat 0 holds no 9m",
            "fieldViolations": [{"field": "events[12].tile", "description": "seat 0 holds no 9m"}],
        },
    }
    differing = sum(1 for a in answers if a.get("mismatchedSeats"))
    assert differing == 3
    summary = json.loads((tmp_path / "local.jsonl.summary.json").read_text())
    assert (summary["settled"], summary["rejected"], summary["mismatched_records"]) == (60, 1, 3)
    assert "1 rejected 被拒行; their claimed wins 所报胡牌:" in local_err


def test_a_file_that_starts_with_a_byte_order_mark_is_read_as_shmj_replay_reads_it(tmp_path, capsys):
    """Found trying record files as a careless operator: a JSON Lines file saved with a UTF-8
    byte order mark (as Windows editors save it) lost its first record to "line 1: not valid
    JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)", Python's advice, while `shmj replay
    --line 1` read it. RFC 8259 lets a reader ignore the mark; only the file's first line has it."""
    records = (EXAMPLES / "records.jsonl").read_text().splitlines()[:2]
    source = tmp_path / "with-bom.jsonl"
    source.write_bytes(b"\xef\xbb\xbf" + "\n".join(records).encode() + b"\n")
    output = tmp_path / "out.jsonl"
    assert main(["rescore", str(source), "-o", str(output), "--local", "--no-progress"]) == 0
    answers = [json.loads(line) for line in output.read_text().splitlines()]
    assert answers == [settle_record_json(json.loads(line)) for line in records]
    assert main(["replay", str(source), "--line", "1", "--local", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == answers[0]


def pinned_to_another_digest(path) -> None:
    """A request and a hand record pinned to a digest no profile has."""
    request = json.loads((EXAMPLES / "requests.jsonl").read_text().splitlines()[0])
    record = json.loads((EXAMPLES / "records.jsonl").read_text().splitlines()[0])
    lines = [{**request, "profileDigest": "sha256:00"}, {**record, "profileDigest": "sha256:00"}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_a_line_pinned_to_another_digest_is_the_same_error_line_locally_and_by_a_server(tmp_path, server):
    """Found as a hostile client: through a server, a hand record's digest mismatch lost the
    ErrorInfo's reason and metadata that --local writes, and a request's metadata came in the
    server's order (actual, expected): the same line, two different error lines."""
    source = tmp_path / "pinned.jsonl"
    pinned_to_another_digest(source)
    local, remote = tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    assert main(["rescore", str(source), "-o", str(local), "--local", "--workers", "1", "--no-progress"]) == 0
    assert main(["rescore", str(source), "-o", str(remote), "--target", server.address, "--no-progress"]) == 0
    assert remote.read_text() == local.read_text()
    classic = profile_digest(BUILTIN_PROFILES["classic"])
    errors = [json.loads(line)["error"] for line in local.read_text().splitlines()]
    assert [(e["code"], e["reason"], e["metadata"]) for e in errors] == [
        ("FAILED_PRECONDITION", "PROFILE_DIGEST_MISMATCH", {"expected": "sha256:00", "actual": classic})
    ] * 2

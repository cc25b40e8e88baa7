"""`shmj review IN.jsonl -o OUT.jsonl` (RULES.md 15.6 in bulk): one review line per record, in
order, a bad line costing only itself, `--resume` as `shmj rescore` has it, in this process, by
worker processes or through a server's ReviewRecord, and the job's summary beside the output."""

from __future__ import annotations

import json

import pytest

from batch.records import output_line
from clients import rescore
from clients.cli import main
from convert.json_write import settle_record_request_dict
from generators.record_simulator import simulate_records
from rules_core import review_record_json
from tests.clients.test_cli_errors import run
from tests.clients.test_rescore import summary_of, summary_path
from tests.server.conftest import ROOT

NOT_JSON = '{"requestId": "torn'
A_REQUEST = (ROOT / "examples/requests.jsonl").read_text().splitlines()[0]  # classic-self-draw
NO_EVENTS = "not a hand record: no events to review (a SettleRequest is settled by `shmj rescore`)"


def simulated() -> list[dict]:
    """Hands 0-5 of seed 34 (a pass, backward steps) and hand 91 (two dead discards), as JSON."""
    records = simulate_records(92, 34)
    return [settle_record_request_dict(r) for r in (*records[:6], records[91])]


def a_record_that_cannot_have_happened(record: dict) -> dict:
    """Hand 3 with seat 0's first discard (event 13) a tile it does not hold."""
    bad = json.loads(json.dumps(record))
    bad["requestId"] = "hand-3-bad"
    bad["events"][13]["tile"] = "TILE_M9"
    return bad


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return simulated()


@pytest.fixture
def source(tmp_path, records):
    """Ten lines: three records, a line that is not JSON, a SettleRequest, a record that cannot
    have happened, then four more records."""
    lines = [json.dumps(r) for r in records[:3]]
    lines += [NOT_JSON, A_REQUEST, json.dumps(a_record_that_cannot_have_happened(records[3]))]
    lines += [json.dumps(r) for r in records[3:]]
    path = tmp_path / "records.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    return path


def expected_output(records: list[dict]) -> bytes:
    """Each record's review as `rules_core.review_record_json` gives it, the bad lines' errors."""
    reviews = [output_line(review_record_json(r)) for r in records]
    errors = [
        {
            "requestId": "",
            "error": {
                "code": "INVALID_ARGUMENT",
                "message": "line 4: not valid JSON: Unterminated string starting at (line 1, column 15)",
                "fieldViolations": [],
            },
        },
        {
            "requestId": "classic-self-draw",
            "error": {
                "code": "INVALID_ARGUMENT",
                "message": f"events: {NO_EVENTS}",
                "fieldViolations": [{"field": "events", "description": NO_EVENTS}],
            },
        },
        {
            "requestId": "hand-3-bad",
            "error": {
                "code": "INVALID_ARGUMENT",
                "message": "events[13].tile: seat 0 holds no 9m",
                "fieldViolations": [{"field": "events[13].tile", "description": "seat 0 holds no 9m"}],
            },
        },
    ]
    return b"".join([*reviews[:3], *map(output_line, errors), *reviews[3:]])


# The seven records' reviews summed up seat by seat (hand 91's seat 3 made the two dead discards,
# hand 3's seat 2 the pass).
SEATS = [
    {"seat": 0, "discards": 32, "agreements": 18, "backward": 2, "dead_discards": 0, "forced_discards": 0, "passes": 0},
    {"seat": 1, "discards": 32, "agreements": 22, "backward": 3, "dead_discards": 0, "forced_discards": 0, "passes": 0},
    {"seat": 2, "discards": 32, "agreements": 19, "backward": 6, "dead_discards": 0, "forced_discards": 0, "passes": 1},
    {"seat": 3, "discards": 31, "agreements": 13, "backward": 3, "dead_discards": 2, "forced_discards": 0, "passes": 0},
]
RATES = [0.5625, 0.6875, 0.5938, 0.4194]  # 18/32, 22/32, 19/32, 13/31
SEATS_WITH_RATES = [dict(seat, agreement_rate=rate) for seat, rate in zip(SEATS, RATES, strict=True)]


def review_args(source, output, *more) -> list[str]:
    return ["review", str(source), "-o", str(output), "--no-progress", *more]


def test_each_line_gets_its_review_or_its_error_in_order(source, records, tmp_path, capsys):
    output = tmp_path / "reviews.jsonl"
    code, err = run(review_args(source, output, "--local", "--workers", "1"), capsys)
    assert code == 0, err
    assert output.read_bytes() == expected_output(records)
    assert err.startswith("10 lines this run 本次行数 in ")
    assert err.endswith(
        "the output holds all 10 lines 行 输出共有: 7 records reviewed 已复盘, 3 failed 失败; 127 discards 打牌:"
        " 72 among the best 最佳打法 (56.7% of discards 占打牌), 14 backward 退向, 0 forced 听后摸打, 2 dead 死手打牌;"
        f" 1 passes 漏胡; summary 摘要 in {summary_path(output)}\n"
    )


def test_the_summary_adds_up_the_reviews(source, records, tmp_path):
    output = tmp_path / "reviews.jsonl"
    assert main(review_args(source, output, "--local", "--workers", "1")) == 0
    summary = summary_of(output)
    counts = {key: summary[key] for key in ("lines", "records", "reviewed", "failed", "complete", "stopped")}
    assert counts == {"lines": 10, "records": 10, "reviewed": 7, "failed": 3, "complete": True, "stopped": None}
    totals = ("discards", "agreements", "backward", "dead_discards", "forced_discards", "passes", "agreement_rate")
    assert [summary[key] for key in totals] == [127, 72, 14, 2, 0, 1, 0.5669]
    assert summary["seats"] == SEATS_WITH_RATES
    # the same numbers, summed here from the reviews the engine gives
    reviews = [review_record_json(r) for r in records]
    for seat in SEATS:
        mine = [r["seats"][seat["seat"]] for r in reviews]
        assert seat["discards"] == sum(s["discards"] for s in mine)
        assert seat["agreements"] == sum(s["agreements"] for s in mine)
        assert seat["backward"] == sum(s["backward"] for s in mine)
        assert seat["dead_discards"] == sum(s["deadDiscards"] for s in mine)
        assert seat["passes"] == sum(len(s["passes"]) for s in mine)
    assert sum(summary["engine_versions"].values()) == sum(summary["profile_digests"].values()) == 7
    assert summary["settings"] == {
        "job": "review",
        "local": True,
        "target": None,
        "profile": None,
        "overrides": {},
        "house": [],
    }


def test_worker_processes_and_a_server_write_the_same_lines(source, records, tmp_path, server):
    pooled, remote = tmp_path / "pooled.jsonl", tmp_path / "remote.jsonl"
    assert main(review_args(source, pooled, "--local", "--workers", "2", "--chunk", "3")) == 0
    assert main(review_args(source, remote, "--target", server.address, "--chunk", "4")) == 0
    assert pooled.read_bytes() == remote.read_bytes() == expected_output(records)
    assert summary_of(remote)["settings"]["target"] == server.address
    assert summary_of(remote)["discards"] == summary_of(pooled)["discards"] == 127


class Killed(BaseException):
    """The job killed outright (SIGKILL): nothing after the lines it wrote, no summary."""


def test_a_job_killed_outright_resumes_into_the_same_output(source, records, tmp_path, monkeypatch):
    output = tmp_path / "reviews.jsonl"
    real = rescore.numbered_chunks

    def dying(*args):
        chunks = real(*args)
        yield next(chunks)
        yield next(chunks)
        raise Killed

    monkeypatch.setattr(rescore, "numbered_chunks", dying)
    with pytest.raises(Killed):
        main(review_args(source, output, "--local", "--workers", "1", "--chunk", "3"))
    monkeypatch.undo()
    assert len(output.read_text().splitlines()) == 6 and not summary_path(output).exists()
    with open(output, "ab") as file:
        file.write(b'{"requestId": "hand-3", "disc')  # a torn last line: dropped
    assert main(review_args(source, output, "--local", "--resume")) == 0
    assert output.read_bytes() == expected_output(records)
    summary = summary_of(output)
    assert (summary["skipped_by_resume"], summary["lines_this_run"], summary["complete"]) == (6, 4, True)
    assert (summary["reviewed"], summary["failed"], summary["discards"], summary["agreements"]) == (7, 3, 127, 72)


def test_a_job_interrupted_resumes_with_the_counts_its_summary_kept(source, records, tmp_path, monkeypatch, capsys):
    """SIGTERM after the first chunk: the summary of those lines is written, and --resume goes
    on from it (its counts taken from it, not from the output)."""
    import os
    import signal

    output = tmp_path / "reviews.jsonl"
    add = rescore.Summary.add

    def added(summary, counts):
        add(summary, counts)
        if summary.lines == 4:
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(rescore.Summary, "add", added)
    code, err = run(review_args(source, output, "--local", "--workers", "1", "--chunk", "4"), capsys)
    monkeypatch.undo()
    assert (code, err) == (143, "shmj review: terminated after line 4; run again with --resume to continue\n")
    first = summary_of(output)
    assert (first["lines"], first["reviewed"], first["failed"], first["stopped"]) == (4, 3, 1, "terminated")
    assert main(review_args(source, output, "--local", "--workers", "1", "--resume")) == 0
    assert output.read_bytes() == expected_output(records)
    summary = summary_of(output)
    assert [summary[key] for key in ("reviewed", "failed", "discards", "agreements", "backward", "passes")] == [
        7,
        3,
        127,
        72,
        14,
        1,
    ]
    assert summary["seats"] == SEATS_WITH_RATES


def test_resume_refuses_the_output_of_a_rescore(source, tmp_path, capsys):
    output = tmp_path / "out.jsonl"
    assert run(["rescore", str(source), "-o", str(output), "--local", "--no-progress"], capsys)[0] == 0
    before = output.read_bytes()
    assert run(review_args(source, output, "--local", "--resume"), capsys) == (
        2,
        f"shmj: --resume: {output} holds another job's output (job differ); use a new output, or run without"
        " --resume (and with --force) to start over\n",
    )
    assert output.read_bytes() == before
    code, _ = run(review_args(source, output, "--local", "--force"), capsys)
    assert code == 0
    assert run(["rescore", str(source), "-o", str(output), "--local", "--no-progress", "--resume"], capsys)[0] == 2


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["-o", "OUT", "--line", "2"], "--line picks one record to print; with -o every line of the file is reviewed"),
        (["-o", "OUT", "--json"], "--json prints one review; with -o every review is a JSON line of the output"),
        (["--resume"], "--resume goes with -o OUT (a file of records reviewed into another)"),
        (["--dask", "local:1"], "--dask goes with -o OUT (a file of records reviewed into another)"),
        (["SOURCE"], "2 files given: one record is reviewed at a time, or -o OUT for a file of them"),
        (["-o", "OUT", "--format", "parquet"], None),
    ],
)
def test_flags_of_one_review_and_of_a_job_are_not_mixed(flags, said, source, tmp_path, capsys):
    flags = [str(tmp_path / "out.jsonl") if f == "OUT" else str(source) if f == "SOURCE" else f for f in flags]
    code, err = run(["review", str(source), *flags, "--local"], capsys)
    assert code == 2
    if said is None:  # a JSON Lines output only: the reviews have no Parquet columns
        assert "argument --format: invalid choice: 'parquet' (choose from 'jsonl')" in err
    else:
        assert err == f"shmj: {said}\n"
    assert not (tmp_path / "out.jsonl").exists()


def test_stdin_is_no_file_to_review_into_another(tmp_path, capsys):
    output = tmp_path / "out.jsonl"
    assert run(["review", "-", "-o", str(output), "--local"], capsys) == (
        2,
        "shmj: -o reads a file (its lines are counted, and read again by --resume), not stdin\n",
    )
    assert not output.exists()


def test_empty_lines_and_invalid_utf8_cost_their_lines_only(records, tmp_path):
    source, output = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    first = json.dumps(records[0]).encode()
    source.write_bytes(first + b"\n\n" + b'{"requestId": "\xff"}\n' + first + b"\n")
    assert main(review_args(source, output, "--local", "--workers", "1")) == 0
    review = output_line(review_record_json(records[0]))
    errors = [
        {
            "requestId": "",
            "error": {"code": "INVALID_ARGUMENT", "message": "line 2: empty line", "fieldViolations": []},
        },
        {
            "requestId": "",
            "error": {
                "code": "INVALID_ARGUMENT",
                "message": "line 3: not valid UTF-8 (byte 0xff at column 16)",
                "fieldViolations": [],
            },
        },
    ]
    assert output.read_bytes() == review + b"".join(map(output_line, errors)) + review


def test_a_server_that_fails_stops_the_job_to_be_resumed(source, records, tmp_path, capsys):
    from tests.server.conftest import free_port

    output = tmp_path / "out.jsonl"
    nowhere = f"127.0.0.1:{free_port()}"
    code, err = run(review_args(source, output, "--target", nowhere, "--timeout", "2"), capsys)
    assert code == 1
    assert err.startswith(f"shmj review: stopped after line 0: UNAVAILABLE: {nowhere} refuses the connection")
    assert err.endswith("; run again with --resume to continue\n")
    assert (output.read_bytes(), summary_of(output)["stopped"].startswith("UNAVAILABLE")) == (b"", True)


def test_a_record_pinned_to_another_digest_is_the_same_error_line_locally_and_by_a_server(records, tmp_path, server):
    """Found as a hostile client: through ReviewRecord, a digest mismatch lost the reason and the
    metadata that --local writes."""
    source = tmp_path / "pinned.jsonl"
    source.write_text(json.dumps({**records[0], "profileDigest": "sha256:00"}) + "\n")
    local, remote = tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    assert main(review_args(source, local, "--local", "--workers", "1")) == 0
    assert main(review_args(source, remote, "--target", server.address)) == 0
    assert remote.read_bytes() == local.read_bytes()
    error = json.loads(local.read_text())["error"]
    assert (error["code"], error["reason"], error["metadata"]["expected"]) == (
        "FAILED_PRECONDITION",
        "PROFILE_DIGEST_MISMATCH",
        "sha256:00",
    )


LONE = {"field": "request_id", "description": "'\\ud800' holds a lone surrogate, which no UTF-8 text can hold"}


def test_a_record_whose_id_no_message_can_hold_costs_its_line_alike_locally_and_by_a_server(
    records, tmp_path, server, capsys
):
    """Found as a hostile client: JSON can escape a lone surrogate ("\\ud800"), which no protobuf
    string holds. --local reviewed such a record while through a server the whole job stopped with
    a traceback, and `shmj review FILE --target` printed one."""
    source = tmp_path / "lone.jsonl"
    source.write_text(json.dumps({**records[0], "requestId": "\ud800"}) + "\n" + json.dumps(records[1]) + "\n")
    local, remote = tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    assert main(review_args(source, local, "--local", "--workers", "1")) == 0
    assert main(review_args(source, remote, "--target", server.address)) == 0
    assert remote.read_bytes() == local.read_bytes()
    lines = [json.loads(line) for line in local.read_text().splitlines()]
    assert lines[0]["error"]["fieldViolations"] == [LONE] and lines[1] == review_record_json(records[1])
    single = tmp_path / "lone.json"
    single.write_text(json.dumps({**records[0], "requestId": "\ud800"}))
    for command in ("review", "replay"):
        code, err = run([command, str(single), "--target", server.address], capsys)
        assert code == 2 and "Traceback" not in err
        assert f"{LONE['field']}: {LONE['description']}" in err

"""Files no careful user writes, read by `shmj`: an integer longer than Python reads, nesting
100,000 deep. Each is an error naming the line and the field, the job goes on and says so in its
summary, and no command prints a traceback (issue 21, findings 3 and 7)."""

from __future__ import annotations

import json

from clients.cli import main
from tests.clients.test_cli_errors import run
from tests.clients.test_rescore import request_line
from tests.worked_examples import WORKED_EXAMPLES

DIGITS = "1" + "0" * 4999  # 5,000 digits: over Python's 4,300-digit limit for int()
OUT_OF_RANGE = "an integer of 5,000 digits is out of the int32 range"


def rescore_lines(tmp_path, lines: list[str], *flags: str) -> tuple[int, list[dict], dict]:
    source, output = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text("\n".join(lines) + "\n")
    code = main(["rescore", str(source), "-o", str(output), "--local", "--no-progress", *flags])
    rows = [json.loads(line) for line in output.read_text().splitlines()]
    return code, rows, json.loads((tmp_path / "out.jsonl.summary.json").read_text())


def test_rescore_names_the_field_of_an_over_long_integer_and_goes_on(tmp_path):
    legal = request_line(WORKED_EXAMPLES[0][1])
    long_integer = '{"requestId": "long", "profile": "classic", "dealerSeat": N}'.replace("N", DIGITS)
    deep = '{"requestId": "deep", "winners": ' + "[" * 100_000 + "]" * 100_000 + "}"
    code, rows, summary = rescore_lines(tmp_path, [legal, long_integer, deep, legal])
    assert code == 0
    assert len(rows) == 4 and rows[0] == rows[3] and rows[0]["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert rows[1]["requestId"] == "long"
    assert rows[1]["error"]["fieldViolations"] == [{"field": "dealer_seat", "description": OUT_OF_RANGE}]
    assert rows[2]["error"]["message"] == "line 3: not valid JSON: nested deeper than 64 levels"
    assert (summary["lines"], summary["complete"], summary["settled"], summary["rejected"]) == (4, True, 2, 2)


def test_resume_goes_past_a_line_with_an_over_long_integer(tmp_path):
    legal = request_line(WORKED_EXAMPLES[0][1])
    long_integer = '{"requestId": "long", "huangfanCount": N}'.replace("N", DIGITS)
    code, rows, _ = rescore_lines(tmp_path, [legal, long_integer, legal])
    assert code == 0
    code, rows, summary = rescore_lines(tmp_path, [legal, long_integer, legal, legal], "--resume")
    assert (code, len(rows), summary["complete"], summary["rejected"]) == (0, 4, True, 1)


def test_a_request_file_with_an_over_long_integer_names_the_field(tmp_path, capsys):
    request = tmp_path / "request.json"
    request.write_text('{"profile": "classic", "dealerSeat": N}'.replace("N", DIGITS))
    assert run(["score", "--request", str(request), "--local"], capsys) == (
        2,
        f"shmj: invalid request 请求有误 (INVALID_ARGUMENT)\n  dealer_seat: {OUT_OF_RANGE}\n",
    )
    request.write_text("[" * 100_000)
    assert run(["score", "--request", str(request), "--local"], capsys) == (
        2,
        f"shmj score: argument --request: {request} is not JSON: nested deeper than 64 levels\n",
    )


def test_an_override_of_an_over_long_integer_names_the_key(capsys):
    code, err = run(
        ["score", "111m 555m 999p EEE 77s", "--win", "7s", "--local", "--override", f"ordinary_base={DIGITS}"], capsys
    )
    assert (code, err) == (2, f"shmj score: argument --override: ordinary_base: {OUT_OF_RANGE}\n")


def test_profiles_check_names_the_field_of_an_over_long_integer(tmp_path, capsys):
    (tmp_path / "club.json").write_text(
        '{"name": "club", "base": "classic", "overrides": {"ordinaryBase": N}}'.replace("N", DIGITS)
    )
    (tmp_path / "deep.json").write_text('{"name": "deep", "base": "classic", "overrides": ' + "[" * 100_000)
    assert main(["profiles", "check", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"{tmp_path}/deep.json: not valid JSON: nested deeper than 64 levels",  # files that do not parse first
        f"{tmp_path}/club.json: overrides.ordinary_base: {OUT_OF_RANGE}",
    ]
    assert (
        err
        == "shmj profiles check: 2 problem(s) 处问题 in 2 file(s) 个文件; a server refuses the directory 服务器会拒绝加载此目录\n"
    )


def test_compare_reads_hostile_input_lines_and_earlier_results_without_a_traceback(tmp_path):
    legal = json.dumps(dict(json.loads(request_line(WORKED_EXAMPLES[0][1])), requestId="legal"))
    deep = '{"requestId": "deep", "winners": ' + "[" * 100_000 + "]" * 100_000 + "}"
    long_integer = '{"requestId": "long", "dealerSeat": N}'.replace("N", DIGITS)
    source, output, previous = tmp_path / "in.jsonl", tmp_path / "out.jsonl", tmp_path / "previous.jsonl"
    source.write_text("\n".join([legal, deep, long_integer]) + "\n")
    earlier = {"requestId": "legal", "seatDeltas": [30.0, -10.0, -10.0, -10.0], "winners": []}
    hostile = ['{"requestId": "x", "seatDeltas": [N]}'.replace("N", DIGITS), '{"winners": ' + "[" * 100_000]
    previous.write_text("\n".join([json.dumps(earlier), *hostile]) + "\n")
    argv = ["rescore", str(source), "-o", str(output), "--local", "--compare", str(previous), "--no-progress"]
    assert main(argv) == 0
    changes = json.loads((tmp_path / "out.jsonl.summary.json").read_text())["changes"]
    assert (changes["records"], changes["matched"], changes["changed"]) == (3, 1, 1)

"""`shmj replay`: a hand record told as it went, settled in-process or by the real server, and
its mistakes named in one line."""

from __future__ import annotations

import json
import re

import pytest

from clients.cli import main
from clients.report import display_width
from convert.json_write import settle_record_request_dict
from rules_core import settle_record_json
from rules_core.build import declare, win
from rules_core.records import SettleRecordRequest
from tests.rules_core.record_hands import KNOCK_DEALS, KNOCK_PLAY
from tests.server.conftest import ROOT

RECORD = ROOT / "examples" / "record.json"
RECORDS = ROOT / "examples" / "records.jsonl"


def shmj(argv, capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_each_event_and_the_pass_with_its_win_and_its_lock(capsys):
    code, out, _ = shmj(["replay", str(RECORD), "--local"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Record 牌谱 table-7-hand-12  profile 规则 classic, dealer 庄家 seat 0, 14 events 步"
    assert lines[11] == "  10  seat 3 discards 打出 2m                               11133p 3557799s N"
    assert lines[12] == (
        "      seat 1 could have won on 2m here — Full flush 清一色 — and passed 漏胡;"
        " locked to the end of the hand 锁定至本手结束"
    )
    assert "  seat 1  11123455678999m  on 5m 胡张  (locked 漏胡锁定 2m)" in lines
    assert lines[-1] == "Recorded deltas 记录的输赢  -10  +20  -10  +0  differ at seat(s) 不符的座位 0, 2"


def test_a_lock_is_shown_until_the_seat_acts(capsys):
    code, out, _ = shmj(["replay", str(RECORDS), "--line", "12", "--local"], capsys)
    assert code == 0
    assert (
        "      seat 0 could have won on S here — All honours 乱风向 / 风一色 — and passed 漏胡;"
        " locked until it draws at event 25 锁定至第25步摸牌"
    ) in out.splitlines()


def test_json_is_the_answer_of_settle_record_json(capsys):
    code, out, _ = shmj(["replay", str(RECORD), "--local", "--json"], capsys)
    assert code == 0
    assert json.loads(out) == settle_record_json(json.loads(RECORD.read_text()))


def test_a_server_replays_it_the_same(server, capsys):
    for flags in ((), ("--json",)):  # the JSON too, key for key in the same order
        local = shmj(["replay", str(RECORD), "--local", *flags], capsys)
        remote = shmj(["replay", str(RECORD), "--target", server.address, *flags], capsys)
        assert remote == local


def test_stdin(capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(RECORD.read_bytes())))
    code, out, _ = shmj(["replay", "-", "--local"], capsys)
    assert (code, out.splitlines()[0]) == (
        0,
        "Record 牌谱 table-7-hand-12  profile 规则 classic, dealer 庄家 seat 0, 14 events 步",
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["replay", str(RECORDS), "--local"], f"shmj: {RECORDS} holds 23 lines: choose one with --line N"),
        (["replay", str(RECORDS), "--line", "24", "--local"], f"shmj: {RECORDS} has 23 line(s), not 24"),
        (["replay", "no-such-file.json", "--local"], "shmj: cannot read no-such-file.json: No such file or directory"),
        (["replay", str(RECORDS), "--line", "0"], "argument --line: must be a whole number of at least 1, got '0'"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(capsys, argv, message):
    code, _, err = shmj(argv, capsys)
    assert code == 2
    assert message in err.splitlines()[-1]


def test_an_impossible_record_is_named_at_its_event(capsys, tmp_path):
    record = json.loads(RECORD.read_text())
    record["events"][12]["tile"] = "TILE_M9"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    code, _, err = shmj(["replay", str(path), "--local"], capsys)
    assert (code, err.splitlines()) == (
        2,
        ["shmj: invalid request 请求有误 (INVALID_ARGUMENT)", "  events[12].tile: seat 0 holds no 9m"],
    )


@pytest.mark.parametrize("line", [3, 11])
def test_the_hands_line_up_after_an_event_told_in_chinese(line, capsys):
    """上杠 and 暗杠 take two terminal columns a character: the hand after them starts where the
    hand after a discard does (issue 20: padded by display width, not by characters)."""
    code, out, _ = shmj(["replay", str(RECORDS), "--line", str(line), "--local"], capsys)
    assert code == 0
    starts = {}
    for text in out.splitlines():
        event = re.match(r"^ +\d+  (seat \d (?:discards|adds|lays down)\b.*?\S)( {2,})\S", text)
        if event:
            starts.setdefault("kong" if "杠" in event.group(1) else "discard", set()).add(
                display_width(text[: event.end() - 1])
            )
    assert len(starts["kong"]) == 1
    assert starts["kong"] == starts["discard"]


def test_line_n_is_the_nth_line_of_the_file_as_rescore_numbers_them(capsys, tmp_path):
    """Found trying records as a careless operator: `--line` counted only the lines with text,
    so after a blank line `--line 3` replayed the record rescore's output line 3 is not about."""
    lines = RECORDS.read_text().splitlines()
    path = tmp_path / "with-a-blank-line.jsonl"
    path.write_text(f"{lines[0]}\n\n{lines[1]}\n")
    code, out, _ = shmj(["replay", str(path), "--line", "3", "--local"], capsys)
    assert (code, out.splitlines()[0]) == (
        0,
        "Record 牌谱 discard-win  profile 规则 lezi, dealer 庄家 seat 0, 30 events 步",
    )
    code, _, err = shmj(["replay", str(path), "--line", "2", "--local"], capsys)
    assert (code, err.splitlines()) == (2, [f"shmj: {path} line 2 is empty"])
    code, _, err = shmj(["replay", str(path), "--line", "4", "--local"], capsys)
    assert (code, err.splitlines()[-1]) == (2, f"shmj: {path} has 3 line(s), not 4")


def test_a_record_a_server_is_sent_is_the_record_read_here(server, capsys, tmp_path):
    """Found trying records as a hostile client: a null event is an empty one to the record
    reader, which let it through to protobuf's JSON parser, whose own words ("Failed to parse
    events field: null is not allowed...") reached the user, not the field's path."""
    record = json.loads(RECORD.read_text())
    record["events"][5] = None
    path = tmp_path / "null-event.json"
    path.write_text(json.dumps(record))
    local = shmj(["replay", str(path), "--local"], capsys)
    remote = shmj(["replay", str(path), "--target", server.address], capsys)
    assert local == (
        2,
        "",
        "shmj: invalid request 请求有误 (INVALID_ARGUMENT)\n  events[5]: expected a JSON object, got null\n",
    )
    assert remote == local


def test_a_request_id_is_printed_escaped_never_as_terminal_control(capsys, tmp_path):
    """Found trying records as a hostile client: the record's request id went to the terminal as
    it was, so a record file could clear the screen or retitle the window (ESC [2J, ESC ]0;...BEL)."""
    record = json.loads(RECORD.read_text())
    record["requestId"] = "t7\x1b[2J\x1b]0;owned\x07\u202eh12"
    path = tmp_path / "escapes.json"
    path.write_text(json.dumps(record))
    code, out, _ = shmj(["replay", str(path), "--local"], capsys)
    assert code == 0
    assert out.splitlines()[0] == (
        "Record 牌谱 't7\\x1b[2J\\x1b]0;owned\\x07\\u202eh12'  profile 规则 classic, dealer 庄家 seat 0, 14 events 步"
    )
    assert "Profile 规则 classic  (unit 单位: 花 flowers)  request 请求 't7\\x1b[2J\\x1b]0;owned\\x07\\u202eh12'" in (
        out.splitlines()
    )
    assert not any(c in out for c in "\x1b\x07\u202e")


def test_a_carriage_return_inside_a_line_is_no_line_break(capsys, tmp_path):
    """Found trying record files as a careless operator: the count of lines in "choose one with
    --line N" split at a lone CR (JSON whitespace inside a record), as rescore no longer does."""
    lines = RECORDS.read_text().splitlines()
    path = tmp_path / "with-a-cr.jsonl"
    path.write_text(lines[0].replace('"events"', '\r"events"', 1) + "\n" + lines[1] + "\n", newline="")
    code, _, err = shmj(["replay", str(path), "--local"], capsys)
    assert (code, err.splitlines()[-1]) == (2, f"shmj: {path} holds 2 lines: choose one with --line N")
    code, out, _ = shmj(["replay", str(path), "--line", "1", "--local"], capsys)
    assert (code, out.splitlines()[0]) == (
        0,
        "Record 牌谱 self-draw  profile 规则 classic, dealer 庄家 seat 3, 30 events 步",
    )


def test_a_pass_with_patterns_this_client_does_not_know_shows_them_as_sent():
    """A newer server may name a pattern this client lacks (or, in proto3 JSON, send its number):
    the line shows it as it came, where it raised KeyError and AttributeError."""
    from clients.replay_report import pass_line

    found = {"seat": 1, "eventIndex": 0, "tile": "TILE_M2", "patterns": ["PATTERN_FULL_FLUSH", "PATTERN_FROM_2030", 77]}
    assert pass_line((), found) == (
        "      seat 1 could have won on 2m here — Full flush 清一色, PATTERN_FROM_2030, 77 — and passed 漏胡;"
        " locked to the end of the hand 锁定至本手结束"
    )


def test_a_settle_request_is_sent_to_shmj_score_in_one_line(capsys):
    """It answered `outcome: unknown field / discarderSeat: unknown field / ...`."""
    code, out, err = shmj(["replay", str(ROOT / "examples" / "requests.jsonl"), "--line", "1", "--local"], capsys)
    assert (code, out) == (2, "")
    assert err == (
        f"shmj: {ROOT / 'examples' / 'requests.jsonl'} line 1 is a SettleRequest, not a hand record"
        " (SettleRecordRequest): settle it with `shmj score --request FILE`, or a file of them with `shmj rescore`\n"
    )


def test_a_hand_record_is_sent_to_shmj_replay_in_one_line(capsys):
    code, out, err = shmj(["score", "--request", str(RECORD), "--local"], capsys)
    assert (code, out) == (2, "")
    assert err == (
        "shmj: --request FILE is a hand record (SettleRecordRequest), not a SettleRequest:"
        " replay it with `shmj replay FILE`\n"
    )


def test_line_n_of_a_file_larger_than_any_record_is_read_as_rescore_reads_it(capsys, tmp_path):
    """Found trying records as a hostile client: a JSON Lines file over 16 MiB was refused whole
    ("more than any record can be"), though each of its records is small and `shmj rescore`
    reads it; line N is now found in one pass of bounded blocks, each line bounded."""
    lines = RECORDS.read_bytes().splitlines()
    repeats = (16 * 1024 * 1024) // len(RECORDS.read_bytes()) + 1
    path = tmp_path / "large.jsonl"
    path.write_bytes(b"\n".join(lines * repeats) + b"\n")
    assert path.stat().st_size > 16 * 1024 * 1024
    number = len(lines) * (repeats - 1) + 12  # line 12 of the last copy
    assert shmj(["replay", str(path), "--line", str(number), "--local"], capsys) == shmj(
        ["replay", str(RECORDS), "--line", "12", "--local"], capsys
    )
    code, _, err = shmj(["replay", str(path), "--line", str(len(lines) * repeats + 1), "--local"], capsys)
    assert (code, err) == (2, f"shmj: {path} has {len(lines) * repeats:,} line(s), not {len(lines) * repeats + 1}\n")
    code, _, err = shmj(["replay", str(path), "--local"], capsys)
    assert (code, err) == (2, f"shmj: {path} holds {len(lines) * repeats:,} lines: choose one with --line N\n")


def test_a_line_longer_than_any_record_is_refused_by_its_number(capsys, tmp_path):
    path = tmp_path / "long-line.jsonl"
    path.write_bytes(RECORDS.read_bytes().splitlines()[0] + b"\n" + b" " * (1 << 20) + b"{}\n")
    code, _, err = shmj(["replay", str(path), "--line", "2", "--local"], capsys)
    assert (code, err) == (2, f"shmj: {path} line 2 is longer than 1,048,576 bytes, more than any record can be\n")
    code, out, _ = shmj(["replay", str(path), "--line", "1", "--local"], capsys)
    assert (code, out.splitlines()[0]) == (
        0,
        "Record 牌谱 self-draw  profile 规则 classic, dealer 庄家 seat 3, 30 events 步",
    )


def test_a_record_key_given_twice_is_refused_naming_it(capsys, tmp_path):
    path = tmp_path / "twice.json"
    path.write_text(RECORD.read_text().replace('"dealerSeat": ', '"dealerSeat": 1, "dealerSeat": ', 1))
    code, _, err = shmj(["replay", str(path), "--local"], capsys)
    assert (code, err) == (2, f"shmj: {path}: dealerSeat: given twice\n")


# RULES.md 14.6 and 14.10.8: seat 0 is dealt 红中 as a flower, knocks (敲) with 9p, draws 发财 as a
# flower and wins on its replacement, the wall's last tile (海底捞月). Under classic with the
# overrides that make 中发白 flowers, the knock needed, and 垃圾胡 a win.
KNOCK_EVENTS = (*KNOCK_DEALS, declare(0), *KNOCK_PLAY[:-1], win(0, last_tile=True))
KNOCK_OVERRIDES = {"dragons_are_flowers": True, "win_requires_declaration": True, "ordinary_hand_wins": True}


def knock_record(tmp_path) -> str:
    record = SettleRecordRequest("classic", KNOCK_EVENTS, request_id="knock-1", overrides=KNOCK_OVERRIDES)
    path = tmp_path / "knock.json"
    path.write_text(json.dumps(settle_record_request_dict(record), ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_the_knock_dragon_flowers_and_the_last_tile_are_told(capsys, tmp_path):
    code, out, _ = shmj(["replay", knock_record(tmp_path), "--local"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "   0  seat 0 is dealt 配牌 123789m 1239p 123s N (flowers 花 Cf)"
    assert lines[5] == "   4  seat 0 knocks 敲"
    assert lines[6] == "   5  seat 0 discards 打出 9p                               123789m 123p 123s N Cf"
    assert lines[13] == "  12  seat 0 draws flower 补花 Ff"
    assert lines[15] == "  14  seat 0 claims a win 胡牌: self-draw 自摸, on the wall's last tile 海底捞月"
    assert lines[17:20] == [
        "Derived request 推得的请求  self-draw 自摸",
        "  seat 0  123789m 123p 123s NN Cf Ff  on N 胡张  (replacement draw 杠开, on the wall's last tile 海底捞月)",
        "  knocked 已敲: seat 0",
    ]
    assert "Seat deltas 输赢  +60  -20  -20  -20" in lines


def test_a_server_replays_the_knock_the_same(server, capsys, tmp_path):
    path = knock_record(tmp_path)
    for flags in ((), ("--json",)):
        local = shmj(["replay", path, "--local", *flags], capsys)
        remote = shmj(["replay", path, "--target", server.address, *flags], capsys)
        assert remote == local and local[0] == 0


def test_a_replay_words_each_fan_as_its_profile_makes_it(capsys, tmp_path):
    """Under `qiaoma_lezi` 番 add up (RULES.md 14.4): the replay's settlement says so, line for
    line as `shmj score` says it of the same derived request, never ``x2``."""
    from generators.record_simulator import RecordSimulator
    from rules_core import settle_record
    from rules_core.registry import BUILTIN_REGISTRY

    simulator = RecordSimulator(7, ("qiaoma_lezi",), BUILTIN_REGISTRY)
    record = next(
        r
        for r in map(simulator.record, range(400))
        if any(item.kind.name == "FAN" for w in settle_record(r).settlement.winners if w.legal for item in w.items)
    )
    record_file, request_file = tmp_path / "record.json", tmp_path / "request.json"
    record_file.write_text(json.dumps(settle_record_request_dict(record), ensure_ascii=False))
    request_file.write_text(json.dumps(settle_record_json(settle_record_request_dict(record))["derived"]))
    code, replayed, _ = shmj(["replay", str(record_file), "--local"], capsys)
    assert code == 0
    code, scored, _ = shmj(["score", "--request", str(request_file), "--local"], capsys)
    assert code == 0
    table = replayed.split("\n\n")[-1].strip()
    assert table in scored
    # a fixed-value 勒子 hand: each 番 adds 10 to the 20 of 清一色, capped at 8 勒
    assert [line.split()[-4:-1] for line in table.splitlines() if "fan 番)" in line] == [
        ["+80", "(8", "fan"],
        ["+10", "(1", "fan"],
        ["+10", "(1", "fan"],
    ]
    assert "fixed value, each fan adds 10 勒子牌型每番加10: 20 + 10 × 10 = 120" in table
    assert "x2" not in table

"""Issue 20: `shmj rescore`'s closing lines say every count in English and Chinese, and with
``--compare`` the rule-change report is told on the terminal too (it was in JSON only)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from clients.cli import main
from clients.rescore_report import dask_summary_line
from tests.server.conftest import ROOT

HANDS = str(ROOT / "examples" / "hands.jsonl")


def test_a_rule_change_is_reported_in_words(tmp_path, capsys):
    before, after = str(tmp_path / "classic.jsonl"), str(tmp_path / "lezi.jsonl")
    assert main(["rescore", HANDS, "-o", before, "--local", "--no-progress", "--workers", "1"]) == 0
    capsys.readouterr()
    argv = ["rescore", HANDS, "-o", after, "--local", "--no-progress", "--workers", "1", "--profile", "lezi"]
    assert main([*argv, "--override", "ordinary_base=3", "--compare", before]) == 0
    lines = capsys.readouterr().err.splitlines()
    # under lezi the four hands holding a dragon as a flower (RULES.md section 14) are refused
    assert re.sub(r"in [\d.]+ s \([\d,]+/s\)", "in T", lines[0]) == (
        "35 lines this run 本次行数 in T; the output holds all 35 lines 行 输出共有: 31 lines settled 已结算行"
        f", 4 rejected 被拒行; their claimed wins 所报胡牌: 22 legal 合法, 7 not legal 不合法; summary 摘要 in {after}.summary.json"
    )
    assert lines[1:] == [
        "35 of 35 matched records changed 有变化 (8 in legality 合法性, 22 in value 牌值, 23 in their seat deltas 输赢,"
        f" 30 settled under other rules 规则不同); report 报告 in {after}.changes.jsonl",
        "  by outcome 按结果: abandon 逃跑 2, discard win 点炮 16, eight-flowers win 八花 1, exhaustive draw 流局 1,"
        " robbing-kong win 抢杠 2, self-draw 自摸 13",
        "  by pattern 按番型: All pungs 碰碰胡 13, Big hanging (single wait after four melds) 大吊车 3,"
        " Concealed hand 门清 8, Eight flowers 八花 1, Full flush 清一色 7, Half flush 混一色 5,"
        " Half flush all pungs 混碰 1, Heavenly hand 天胡 1, Win on a replacement tile 杠开 1,"
        " Win on the last tile 海底捞月 1, No flowers 无花果 / 无花 2, Robbing a kong 抢杠 2",
    ]
    refused = [json.loads(line) for line in Path(after).read_text().splitlines() if '"error"' in line]
    assert [(r["requestId"], r["error"]["fieldViolations"][0]["field"]) for r in refused] == [
        (name, "winners[0].hand.dragon_flowers") for name in ("ex-14.8-1", "ex-14.8-19", "ex-14.10-e2", "ex-14.10-e3")
    ]


def test_hand_records_paid_otherwise_are_counted_in_words(tmp_path, capsys):
    output = str(tmp_path / "records.jsonl")
    records = str(ROOT / "examples" / "records.jsonl")
    assert main(["rescore", records, "-o", output, "--local", "--no-progress", "--workers", "1"]) == 0
    (line,) = capsys.readouterr().err.splitlines()
    assert "; 3 hand record(s) whose recorded deltas differ 记录与结算不符的牌谱; summary 摘要 in " in line


def test_a_dask_job_says_the_same_counts():
    summary = {
        **dict(records_this_run=27, seconds=0.3, records_per_second=90, skipped_by_resume=0, parts_complete=1, parts=1),
        **dict(settled=26, legal_wins=22, illegal_wins=3, rejected=1),
    }
    assert dask_summary_line(summary, "settled") == (
        "27 records 本次条数 in 0.3 s (90/s), 0 skipped by --resume 续跑跳过: 26 lines settled 已结算行, 1 rejected 被拒行;"
        " their claimed wins 所报胡牌: 22 legal 合法, 3 not legal 不合法; 1 of 1 parts 分块 in settled"
    )

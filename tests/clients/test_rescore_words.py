"""Issue 20: `shmj rescore`'s closing lines say every count in English and Chinese, and with
``--compare`` the rule-change report is told on the terminal too (it was in JSON only)."""

from __future__ import annotations

import re

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
    assert re.sub(r"in [\d.]+ s \([\d,]+/s\)", "in T", lines[0]) == (
        "27 lines this run 本次行数 in T; the output holds all 27 lines 行 输出共有: 27 lines settled 已结算行"
        f", 0 rejected 被拒行; their claimed wins 所报胡牌: 20 legal 合法, 5 not legal 不合法; summary 摘要 in {after}.summary.json"
    )
    assert lines[1:] == [
        "27 of 27 matched records changed 有变化 (3 in legality 合法性, 15 in value 牌值, 16 in their seat deltas 输赢,"
        f" 26 settled under other rules 规则不同); report 报告 in {after}.changes.jsonl",
        "  by outcome 按结果: abandon 逃跑 2, discard win 点炮 12, eight-flowers win 八花 1, exhaustive draw 流局 1,"
        " robbing-kong win 抢杠 1, self-draw 自摸 10",
        "  by pattern 按番型: All pungs 碰碰胡 11, Big hanging (single wait after four melds) 大吊车 2,"
        " Concealed hand 门清 5, Eight flowers 八花 1, Full flush 清一色 7, Half flush 混一色 2,"
        " Half flush all pungs 混碰 1, Heavenly hand 天胡 1, Win on a replacement tile 杠开 1, Robbing a kong 抢杠 1",
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

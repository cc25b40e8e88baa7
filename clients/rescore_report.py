"""What `shmj rescore` tells a person when a job ends: the counts of its summary and, with
``--compare``, of its rule-change report, each number said in English and Chinese
(`rules_core.vocabulary`); the summary and the report themselves stay JSON for machines."""

from __future__ import annotations

from clients.report import pattern_label, words
from rules_core.vocabulary import TERMS, term


def _count(number: int, key: str) -> str:
    """``26 settled 已结算``: a count, then what it counts in both languages."""
    words_of = TERMS[key]
    return f"{number:,} {words_of.en} {words_of.zh}"


def settled_counts(summary: dict) -> str:
    """``26 lines settled 已结算行, 1 rejected 被拒行; their claimed wins 所报胡牌: 22 legal 合法, 3 not
    legal 不合法``: lines and wins counted apart, since a line may hold two winners or none."""
    said = (
        f"{_count(summary['settled'], 'settled')}, {_count(summary['rejected'], 'rejected')};"
        f" {term('claimed_wins')}: {_count(summary['legal_wins'], 'legal')}, {_count(summary['illegal_wins'], 'not_legal')}"
    )
    mismatched = summary.get("mismatched_records", 0)
    return said + (f"; {_count(mismatched, 'mismatched_records')}" if mismatched else "")


def reviewed_counts(summary: dict) -> str:
    """``3 records reviewed 已复盘, 1 failed 失败; 172 discards 打牌: 120 among the best 最佳打法
    (69.8% of discards 占打牌), 9 backward 退向, 0 forced 听后摸打, 2 dead 死手打牌; 1 passes 漏胡``."""
    rate = summary.get("agreement_rate")
    share = "" if rate is None else f" ({rate:.1%} {term('of_discards')})"
    return (
        f"{_count(summary['reviewed'], 'reviewed')}, {_count(summary['failed'], 'failed')};"
        f" {_count(summary['discards'], 'discards_made')}: {_count(summary['agreements'], 'among_the_best')}{share},"
        f" {_count(summary['backward'], 'backward')}, {_count(summary['forced_discards'], 'forced_discards')},"
        f" {_count(summary['dead_discards'], 'dead_discards')}; {_count(summary['passes'], 'passes')}"
    )


def _counts(summary: dict) -> str:
    """What a job's answers were: settled (``shmj rescore``) or reviewed (``shmj review``)."""
    return reviewed_counts(summary) if "reviewed" in summary else settled_counts(summary)


def local_summary_line(summary: dict, summary_path: str) -> str:
    """The line of a job in this process or against a server (one output file)."""
    output_holds = TERMS["output_holds"]
    return (
        f"{_count(summary['lines_this_run'], 'lines_this_run')} in {summary['seconds']:.1f} s"
        f" ({summary['lines_per_second']:,.0f}/s); {output_holds.en} {summary['lines']:,} {term('lines')}"
        f" {output_holds.zh}: {_counts(summary)}; {term('summary')} in {summary_path}"
    )


def dask_summary_line(summary: dict, output: str) -> str:
    """The line of a Dask job (a directory of part files)."""
    return (
        f"{_count(summary['records_this_run'], 'records_this_run')} in {summary['seconds']:.1f} s"
        f" ({summary['records_per_second']:,.0f}/s), {_count(summary['skipped_by_resume'], 'skipped_by_resume')}:"
        f" {_counts(summary)}; {summary['parts_complete']} of {summary['parts']} {term('parts')} in {output}"
    )


def changes_lines(changes: dict, report: str) -> list[str]:
    """The rule-change report of ``--compare`` (``batch.compare``) in a few lines."""
    kinds = ", ".join(
        _count(changes.get(key, 0), key)
        for key in ("legality_changed", "value_changed", "seat_deltas_changed", "rules_changed")
    )
    lines = [
        f"{changes['changed']:,} of {changes['matched']:,} {term('matched_changed')} ({kinds});"
        f" {term('report')} in {report}"
    ]
    outcomes = changes.get("by_outcome") or {}
    if outcomes:
        lines.append(f"  {term('by_outcome')}: " + ", ".join(f"{words(o)} {n:,}" for o, n in outcomes.items()))
    patterns = changes.get("by_pattern") or {}
    if patterns:
        lines.append(f"  {term('by_pattern')}: " + ", ".join(f"{pattern_label(p)} {n:,}" for p, n in patterns.items()))
    unreadable = changes.get("earlier_unreadable")
    if unreadable:
        lines.append(f"  {_count(unreadable, 'earlier_unreadable')}; {_first(changes['first_unreadable'])}")
    return lines


def _first(where: dict) -> str:
    """``first 首个: before.jsonl line 4: not UTF-8 text (byte 34)``: where to look (a Parquet
    file's row number)."""
    line = "row" if where["file"].endswith(".parquet") else "line"
    return f"{term('first')}: {where['file']} {line} {where['line']}: {where['why']}"

"""The kinds of line-by-line job a batch runs, each input line answered by one output line:
``rescore`` (settle requests and hand records) and ``review`` (review hand records, 复盘).
The runners (``shmj rescore``'s and ``shmj review``'s, in this process, against a server or on
Dask) are the same; a kind says how its answers are counted and summed up."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from batch import records, reviews


class JobKind(NamedTuple):
    name: str
    new_counts: Callable[[], dict]
    add_counts: Callable[[dict, dict], None]  # (into, counts)
    count_record: Callable[[dict, dict], None]  # (counts, an output record)
    counts_of_summary: Callable[[dict], dict | None]  # a summary's counts, or None if not whole
    reported: Callable[[dict], dict]  # the counts as a summary gives them
    answers: str  # what an output line holds, said in a count ("settled", "reviewed")
    errors: str  # the count of error lines ("rejected", "failed")


RESCORE = JobKind(
    "rescore",
    records.new_counts,
    records.add_counts,
    records.count_record,
    records.counts_of_summary,
    dict,
    "settled",
    "rejected",
)
REVIEW = JobKind(
    "review",
    reviews.new_counts,
    reviews.add_counts,
    reviews.count_record,
    reviews.counts_of_summary,
    reviews.reported,
    "reviewed",
    "failed",
)
KINDS = {kind.name: kind for kind in (RESCORE, REVIEW)}


def kind_of(settings: dict) -> JobKind:
    """The kind of job ``settings`` describe (``job``; none is a rescore, as before there were two)."""
    return KINDS[settings.get("job") or "rescore"]

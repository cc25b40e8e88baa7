"""Domain metrics: a call's settlements are tallied, then recorded once per label set."""

from __future__ import annotations

from prometheus_client import REGISTRY

import rules_core as rc
from server.metrics import SettlementTally
from tests.worked_examples import WORKED_EXAMPLES

LEGAL_ALL_PUNGS = WORKED_EXAMPLES[0][1]  # example 1: classic self-draw, ALL_PUNGS and CONCEALED
ILLEGAL_DISCARD = WORKED_EXAMPLES[5][1]  # example 6: classic discard win with no qualifying pattern


def _counts() -> dict[str, float]:
    def sample(name: str, **labels) -> float:
        return REGISTRY.get_sample_value(name, labels) or 0.0

    return {
        "self_draws": sample("shmj_settlements_total", profile="classic", outcome="SELF_DRAW"),
        "discards": sample("shmj_settlements_total", profile="classic", outcome="DISCARD"),
        "legal": sample("shmj_wins_total", profile="classic", legal="true", reason="none"),
        "no_pattern": sample("shmj_wins_total", profile="classic", legal="false", reason="NO_QUALIFYING_PATTERN"),
        "all_pungs": sample("shmj_patterns_total", profile="classic", pattern="ALL_PUNGS"),
        "concealed": sample("shmj_patterns_total", profile="classic", pattern="CONCEALED"),
        "rejected": sample("shmj_rejected_requests_total", grpc_method="SettleBatch"),
    }


def _delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {key: after[key] - before[key] for key in before}


def test_nothing_is_recorded_until_the_tally_is_flushed():
    before = _counts()
    tally = SettlementTally()
    tally.add(LEGAL_ALL_PUNGS.outcome, rc.settle(LEGAL_ALL_PUNGS))
    tally.rejected += 1
    assert _counts() == before


def test_a_flush_records_settlements_wins_by_reason_and_patterns_of_legal_wins():
    before = _counts()
    tally = SettlementTally()
    for _ in range(3):
        tally.add(LEGAL_ALL_PUNGS.outcome, rc.settle(LEGAL_ALL_PUNGS))
    tally.add(ILLEGAL_DISCARD.outcome, rc.settle(ILLEGAL_DISCARD))
    tally.rejected += 2
    tally.flush("SettleBatch")
    assert _delta(before, _counts()) == {
        "self_draws": 3,
        "discards": 1,
        "legal": 3,
        "no_pattern": 1,
        "all_pungs": 3,
        "concealed": 3,
        "rejected": 2,
    }


def test_cached_children_are_the_metrics_own_and_the_cache_is_bounded(monkeypatch):
    from server import metrics

    children = metrics.Children(metrics.SETTLEMENTS)
    assert children("classic", "DISCARD").child is metrics.SETTLEMENTS.labels("classic", "DISCARD")
    before = REGISTRY.get_sample_value("shmj_settlements_total", {"profile": "classic", "outcome": "DISCARD"}) or 0
    children("classic", "DISCARD").inc(2)
    assert (
        REGISTRY.get_sample_value("shmj_settlements_total", {"profile": "classic", "outcome": "DISCARD"}) == before + 2
    )
    monkeypatch.setattr(metrics, "MAX_CACHED_CHILDREN", 2)
    for outcome in ("SELF_DRAW", "DISCARD", "EXHAUSTIVE_DRAW"):
        children("classic", outcome)
    assert list(children.cache) == [("classic", "EXHAUSTIVE_DRAW")]

"""The game's economy as histograms: value per share of legal wins, and amount paid per hand."""

from __future__ import annotations

from prometheus_client import REGISTRY, CollectorRegistry, Histogram

import rules_core as rc
from server.metrics import ECONOMY_BUCKETS, SettlementTally, observe_many
from tests.worked_examples import WORKED_EXAMPLES

LEGAL_ALL_PUNGS = WORKED_EXAMPLES[0][1]  # example 1: classic self-draw, V = 12 花, each of 3 pays 12
ILLEGAL_DISCARD = WORKED_EXAMPLES[5][1]  # example 6: classic discard win with no qualifying pattern


def _histogram(name: str) -> dict[str, float]:
    def sample(suffix: str, **labels) -> float:
        return REGISTRY.get_sample_value(name + suffix, {"profile": "classic", **labels}) or 0.0

    return {
        "count": sample("_count"),
        "sum": sample("_sum"),
        "le_8": sample("_bucket", le="8.0"),
        "le_16": sample("_bucket", le="16.0"),
        "le_32": sample("_bucket", le="32.0"),
        "le_64": sample("_bucket", le="64.0"),
    }


def _delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {key: after[key] - before[key] for key in before}


def test_legal_wins_record_their_value_and_what_the_hand_paid():
    assert rc.settle(LEGAL_ALL_PUNGS).winners[0].value == 12
    assert rc.settle(ILLEGAL_DISCARD).seat_deltas == (0, 0, 0, 0)
    values, paid = _histogram("shmj_value_per_share"), _histogram("shmj_paid_per_hand")
    tally = SettlementTally()
    for _ in range(3):
        tally.add(LEGAL_ALL_PUNGS.outcome, rc.settle(LEGAL_ALL_PUNGS))
    tally.add(ILLEGAL_DISCARD.outcome, rc.settle(ILLEGAL_DISCARD))  # no value, nothing paid: not recorded
    tally.flush("SettleBatch")
    assert _delta(values, _histogram("shmj_value_per_share")) == {
        "count": 3,
        "sum": 36,
        "le_8": 0,
        "le_16": 3,
        "le_32": 3,
        "le_64": 3,
    }
    assert _delta(paid, _histogram("shmj_paid_per_hand")) == {
        "count": 3,
        "sum": 108,
        "le_8": 0,
        "le_16": 0,
        "le_32": 0,
        "le_64": 3,
    }


def test_observe_many_is_observe_repeated():
    registry = CollectorRegistry()
    once = Histogram("once", "", buckets=ECONOMY_BUCKETS, registry=registry)
    many = Histogram("many", "", buckets=ECONOMY_BUCKETS, registry=registry)
    for value, count in ((0.5, 2), (1, 3), (12, 4), (16, 1), (4096, 2), (5000, 3)):
        for _ in range(count):
            once.observe(value)
        observe_many(many, value, count)
    samples = {
        m.name: [(s.name.split("_")[-1], s.labels, s.value) for s in m.samples if not s.name.endswith("_created")]
        for m in registry.collect()
    }
    assert samples["many"] == samples["once"]


def test_claimed_wins_count_each_win_once_by_legality():
    def claimed(legal: str) -> float:
        return REGISTRY.get_sample_value("shmj_claimed_wins_total", {"profile": "classic", "legal": legal}) or 0.0

    before = claimed("true"), claimed("false")
    tally = SettlementTally()
    for _ in range(3):
        tally.add(LEGAL_ALL_PUNGS.outcome, rc.settle(LEGAL_ALL_PUNGS))
    tally.add(ILLEGAL_DISCARD.outcome, rc.settle(ILLEGAL_DISCARD))
    tally.flush("Settle")
    assert (claimed("true") - before[0], claimed("false") - before[1]) == (3, 1)


def test_batch_size_buckets_step_1_2_5_so_a_stream_of_200_reads_as_at_most_200():
    from server.metrics import BATCH_BUCKETS

    assert BATCH_BUCKETS[:10] == (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
    assert BATCH_BUCKETS[-1] >= 100_000  # SettleBatch's largest --max-batch-size stays in a finite bucket

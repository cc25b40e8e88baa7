"""Properties of replaying simulated hands (generators.record_simulator): RULES.md section 13 over
whole hands of every outcome, in both builds (`make test` runs tests/rules_core pure as well)."""

from collections import Counter

import pytest

from convert.json_write import settle_record_request_dict, settle_record_response_dict
from generators.record_simulator import simulate_records
from rules_core import CheckWinRequest, Outcome, settle, settle_record, settle_record_json
from rules_core.patterns import mask_of
from rules_core.registry import BUILTIN_REGISTRY
from rules_core.replay import Win
from rules_core.waits import check_win

RECORDS = simulate_records(240, seed=11)
RESULTS = [settle_record(record) for record in RECORDS]


def judge_every_seat_at_every_discard(replay, seat, tile, outcome):
    """The brute force: at each discard and added kong, every other seat's win on the tile is
    judged whole by `check_win`, 漏胡 locks included, with no waits kept."""
    claim = replay.winner(seat, Win(outcome, replay.turn, tile))
    result = check_win(CheckWinRequest(replay.profile.name, outcome, claim, dealer_seat=replay.dealer))
    return mask_of(result.patterns) if result.legal else None


def test_the_settlement_is_settle_of_the_derived_request():
    for result in RESULTS:
        assert result.settlement == settle(result.derived)


def test_the_passes_equal_a_brute_force_that_judges_every_seat_at_every_discard():
    for record, result in zip(RECORDS, RESULTS, strict=True):
        assert settle_record(record, judge=judge_every_seat_at_every_discard).passes == result.passes


def test_deltas_sum_to_zero_except_abandons():
    for result in RESULTS:
        total = sum(result.settlement.seat_deltas)
        if result.derived.outcome == Outcome.ABANDON:
            assert total == -sum(p.amount for p in result.settlement.penalties) < 0
        else:
            assert total == 0


def test_recorded_deltas_are_checked():
    for record, result in zip(RECORDS, RESULTS, strict=True):
        if record.recorded_deltas:
            differ = tuple(s for s in range(4) if record.recorded_deltas[s] != result.settlement.seat_deltas[s])
            assert (result.recorded_match, result.mismatched_seats) == (not differ, differ)
        else:
            assert (result.recorded_match, result.mismatched_seats) == (False, ())


def test_the_simulated_hands_hold_every_outcome_and_situation():
    seen = Counter()
    for result in RESULTS:
        seen[result.derived.outcome] += 1
        seen["passes"] += bool(result.passes)
        seen["several winners"] += len(result.derived.winners) > 1
        seen["false claim"] += any(not w.legal for w in result.settlement.winners)
        seen["mismatch"] += bool(result.mismatched_seats)
        seen["liabilities"] += bool(result.derived.liabilities)
    for situation in (*Outcome, "passes", "several winners", "false claim", "mismatch", "liabilities"):
        assert seen[situation] > 0, situation


@pytest.mark.parametrize("index", range(0, 240, 7))
def test_a_record_in_json_settles_as_the_record(index):
    answer = settle_record_json(settle_record_request_dict(RECORDS[index]), BUILTIN_REGISTRY)  # as RESULTS: no digest
    assert answer == settle_record_response_dict(RESULTS[index])

"""RULES.md section 15 held to an independent implementation (tests/rules_core/reference_advice,
written from the rules without the engine's advice code): on seeded generated holdings (13 and 14
tiles, shanten 0-3 and a few wins, with melds and without, flowers, `seen`, seats, dealers, dice,
`classic` / `sankou` / `lezi`, overrides of `qualifying_patterns`, `ordinary_hand_wins` and
`seven_pairs`) and on simulated hand records, `advise_json` and `review_record_json` give exactly
the reference's whole answer.

The default run is small enough for `make test`. SHMJ_ADVICE_ACCEPTANCE=N multiplies it;
`make advice-differential` runs 20 times as many (2,400 waiting and 120 acting holdings, 40 records).
"""

from __future__ import annotations

import os
import random

import pytest

from convert.json_write import settle_record_request_dict
from generators.record_simulator import simulate_records
from rules_core import review_record_json
from tests.rules_core.advice_differential import assert_agrees, engine_answer
from tests.rules_core.reference_advice import review
from tests.rules_core.reference_advice.holdings import random_request

SCALE = int(os.environ.get("SHMJ_ADVICE_ACCEPTANCE", "1"))
WAITING, ACTING, RECORDS = 120 * SCALE, 6 * SCALE, 2 * SCALE


@pytest.mark.parametrize("chunk", range(4))
def test_waiting_holdings_agree_with_the_reference(chunk):
    rng = random.Random(1500 + chunk)
    for _ in range(WAITING // 4):
        assert_agrees(random_request(rng, waiting=True))


@pytest.mark.parametrize("chunk", range(2))
def test_holdings_to_act_agree_with_the_reference(chunk):
    rng = random.Random(2500 + chunk)
    for _ in range(ACTING // 2):
        assert_agrees(random_request(rng, waiting=False))


def _short_records(count: int, seed: int) -> list[dict]:
    """``count`` simulated records, the fewest discards first among three times as many (the
    reference reviews a discard in about a second)."""
    records = [settle_record_request_dict(r) for r in simulate_records(3 * count, seed=seed)]
    discards = lambda r: sum(e["kind"] == "EVENT_KIND_DISCARD" for e in r["events"])  # noqa: E731
    return sorted(records, key=discards)[:count] if SCALE == 1 else records[:count]


@pytest.mark.parametrize("record", _short_records(RECORDS, seed=35), ids=lambda r: r.get("requestId", "record"))
def test_reviews_of_simulated_records_agree_with_the_reference(record):
    assert engine_answer(review_record_json(record)) == review(record)


@pytest.mark.parametrize("switches", ["ordinary", "seven_pairs"])
def test_holdings_under_section_14_switches_agree_with_the_reference(switches):
    """`ordinary_hand_wins` (the path ORDINARY, 垃圾胡) and `seven_pairs` with SEVEN_PAIRS qualifying."""
    rng = random.Random(3500)
    for _ in range(20 * SCALE):
        assert_agrees(random_request(rng, waiting=rng.random() < 0.9, switches=switches))

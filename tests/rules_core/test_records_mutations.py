"""Simulated records broken at random (an event dropped, repeated, moved, its kind, seat or tile
changed): each is settled or refused at its first impossible event, never anything else."""

import random
import re

from generators.record_simulator import simulate_records
from rules_core import EventKind, InvalidRequest, RecordResult, Tile, settle_record

RECORDS = simulate_records(150, seed=31)
EVENT_PATH = re.compile(r"^events(\[\d+\](\.(kind|seat|tile|tiles|flower|flowers)(\[\d+\])?)?)?$")


def mutated(record, rng: random.Random):
    events = list(record.events)
    index = rng.randrange(len(events))
    event = events[index]
    roll = rng.randrange(6)
    if roll == 0:
        del events[index]
    elif roll == 1:
        events.insert(index, event)
    elif roll == 2:
        other = rng.randrange(len(events))
        events[index], events[other] = events[other], events[index]
    elif roll == 3:
        events[index] = event._replace(kind=rng.choice(list(EventKind)))
    elif roll == 4:
        events[index] = event._replace(seat=rng.randrange(4))
    else:
        events[index] = event._replace(tile=rng.choice(list(Tile)))
    return record._replace(events=tuple(events))


def test_a_broken_record_is_settled_or_refused_at_one_event():
    rng = random.Random(9)
    refused = settled = 0
    for record in RECORDS:
        for _ in range(8):
            try:
                result = settle_record(mutated(record, rng))
            except InvalidRequest as error:
                assert error.violations, record.request_id
                assert all(EVENT_PATH.match(v.field) for v in error.violations), error.violations
                refused += 1
            else:
                assert isinstance(result, RecordResult)
                settled += 1
    assert refused > 600 and settled > 50  # both happen: most breaks show, some leave a possible hand

"""examples/records.jsonl: one simulated hand record of every outcome and situation, each valid."""

import json
from pathlib import Path

from convert.json_read import read_settle_record_request
from generators.record_simulator import SITUATIONS
from rules_core import settle_record

EXAMPLES = Path(__file__).parents[2] / "examples" / "records.jsonl"


def test_every_situation_has_its_record_and_each_shows_it():
    lines = EXAMPLES.read_text(encoding="utf-8").splitlines()
    records = [read_settle_record_request(json.loads(line)) for line in lines]
    names = [name.replace(" ", "-").replace(",", "") for name, _ in SITUATIONS]
    assert [r.request_id for r in records] == names
    for record, (name, holds) in zip(records, SITUATIONS, strict=True):
        assert holds(settle_record(record)), name

"""examples/records.jsonl: one simulated hand record of every outcome and situation, each valid,
then one of each situation of the rule families (RULES.md section 14)."""

import json
from pathlib import Path

from convert.json_read import read_settle_record_request
from generators.record_simulator import FAMILY_SITUATIONS, SITUATIONS
from rules_core import settle_record

EXAMPLES = Path(__file__).parents[2] / "examples" / "records.jsonl"


def test_every_situation_has_its_record_and_each_shows_it():
    lines = EXAMPLES.read_text(encoding="utf-8").splitlines()
    records = [read_settle_record_request(json.loads(line)) for line in lines]
    assert [r.request_id for r in records] == [
        "self-draw", "discard-win", "robbing-a-kong", "eight-flowers", "exhaustive-draw", "abandon",
        "several-winners-on-one-discard", "heavenly-hand", "earthly-hand", "win-on-a-replacement-tile",
        "all-honours", "a-pass-then-a-win", "a-false-claim-on-a-locked-tile", "a-false-claim-with-no-pattern",
        "claims-between-seats", "recorded-deltas-that-match", "recorded-deltas-that-differ",
        "qiaoma-a-knock-dragon-flowers-a-win", "qiaoma-a-win-by-a-seat-that-did-not-knock",
        "qiaoma-contract-partners", "qiaoma-the-walls-last-tile", "qiaoma_lezi-a-half-flush",
        "qinghunpeng-a-full-flush-of-pungs",
    ]  # fmt: skip
    for record, (name, holds) in zip(records, SITUATIONS + FAMILY_SITUATIONS, strict=True):
        assert holds(settle_record(record)), name


def test_the_family_records_show_their_events():
    by_id = {r["requestId"]: r for r in map(json.loads, EXAMPLES.read_text(encoding="utf-8").splitlines())}
    knock = by_id["qiaoma-a-knock-dragon-flowers-a-win"]
    kinds = [e["kind"] for e in knock["events"]]
    assert "EVENT_KIND_DECLARE" in kinds
    assert any(e.get("dragonFlowers") for e in knock["events"] if e["kind"] == "EVENT_KIND_DEAL")

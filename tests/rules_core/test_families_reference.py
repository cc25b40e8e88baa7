"""RULES.md section 14 (`qiaoma`, `qiaoma_lezi`, `qinghunpeng`) against an independent reference.

`tests/rules_core/reference_families` is written from the specification alone (it imports nothing
from `rules_core`). It must first reproduce every worked example of 14.8 and 14.10.11; then the
engine's `settle_json` and the reference must agree exactly, on every generated hand, on each
winner's legality, reasons, patterns, 花, items, base value and value, on every payment, the seat
deltas and the next hand.

``FAMILIES_DIFFERENTIAL_HANDS`` (default 2,000) and ``FAMILIES_DIFFERENTIAL_SEED`` (default 33) size
and seed the generated run; `make families-differential` runs 100,000.
"""

from __future__ import annotations

import ast
import os
from collections import Counter
from pathlib import Path

import pytest

from tests.rules_core.reference_families import reference_settle
from tests.rules_core.reference_families.compare import differences, engine_settle
from tests.rules_core.reference_families.generate import FamilyHands
from tests.rules_core.reference_families.requests import request, win
from tests.rules_core.reference_families.tiles import notation
from tests.rules_core.reference_families.worked_examples import EXAMPLES

HANDS = int(os.environ.get("FAMILIES_DIFFERENTIAL_HANDS", "2000"))
SEED = int(os.environ.get("FAMILIES_DIFFERENTIAL_SEED", "33"))


def _stated(answer: dict) -> tuple:
    """An answer as a worked example states it: deltas, each winner's value or reasons, next hand."""
    winners = [
        w["value"] if w["legal"] else [r.removeprefix("ILLEGAL_REASON_") for r in w["illegalReasons"]]
        for w in answer["winners"]
    ]
    nxt = answer.get("nextHand")
    return (
        [float(d) for d in answer["seatDeltas"]],
        winners,
        None if nxt is None else (nxt.get("dealerSeat", 0), nxt.get("huangfanCount", 0)),
    )


@pytest.mark.parametrize("name, req, deltas, winners, next_hand", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_the_reference_reproduces_the_worked_example(name, req, deltas, winners, next_hand):
    assert _stated(reference_settle(req)) == ([float(d) for d in deltas], winners, next_hand)


@pytest.mark.parametrize("name, req, deltas, winners, next_hand", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_the_engine_answers_the_worked_example_as_the_reference_does(name, req, deltas, winners, next_hand):
    assert differences(engine_settle(req), reference_settle(req)) == []


# ---- items ---------------------------------------------------------------------------------


def test_qiaoma_lists_no_huangfan_item():
    """14.10.4: under `qiaoma` there are no multipliers; a legal hand lists its flower items, the
    base item and its 番 items (and FAN_CAP), and a request's 荒番 count changes nothing."""
    req = request("qiaoma", "self", [win(0, "123m 123p 123s 789m NN 1f 2f 3f 4f", "N")], declared=[0], huangfan=2)
    (winner,) = engine_settle(req)["winners"]
    assert [(i["kind"], i["code"], i["contribution"]) for i in winner["items"]] == [
        ("ITEM_KIND_FLOWERS", "FLOWER_TILE", 4),
        ("ITEM_KIND_BASE", "ORDINARY_BASE", 1),
        ("ITEM_KIND_FAN", "CONCEALED", 1),
    ]
    assert winner["value"] == winner["baseValue"] == 10


# ---- generated hands ---------------------------------------------------------------------------


def _described(index: int, req: dict, found: list[str]) -> str:
    table = {k: v for k, v in req.items() if k not in ("winners", "profile", "outcome")}
    lines = [f"hand {index}: {req['profile']} {req['outcome']} {table}"]
    for w in req["winners"]:
        flags = {k: v for k, v in w.items() if k not in ("seat", "hand")}
        tile = w["hand"].get("winningTile", "-")
        lines.append(f"  seat {w['seat']}: {notation(w['hand'])} (winning {tile}) {flags}")
    return "\n".join(lines + [f"  {d}" for d in found])


def _coverage(req: dict, answer: dict, seen: Counter) -> None:
    profile = req["profile"]
    for w in answer["winners"]:
        seen[(profile, "legal" if w["legal"] else "illegal")] += 1
        seen.update((profile, r) for r in w["illegalReasons"])
        if w["legal"]:
            seen.update((profile, p) for p in w["patterns"])
            seen.update((profile, i["code"]) for i in w["items"] if i["kind"] == "ITEM_KIND_CAP")
    seen.update((profile, p["reason"]) for p in answer["payments"])
    if sum(w["legal"] for w in answer["winners"]) > 1:
        seen[(profile, "several winners")] += 1


# What every run of the default size reaches, so that the comparison cannot quietly thin out.
_MUST_REACH = [
    (p, k)
    for p in ("qiaoma", "qiaoma_lezi", "qinghunpeng")
    for k in (
        "legal", "illegal", "several winners", "ILLEGAL_REASON_INCOMPLETE_SHAPE", "ILLEGAL_REASON_MISSED_WIN",
        "PATTERN_ALL_PUNGS", "PATTERN_HALF_FLUSH", "PATTERN_FULL_FLUSH", "PATTERN_HALF_FLUSH_PUNGS",
        "PATTERN_BIG_HANGING", "PATTERN_KONG_BLOOM", "PATTERN_LAST_TILE", "PATTERN_ROBBING_KONG",
        "PATTERN_NO_FLOWERS", "PATTERN_CONCEALED", "PAYMENT_REASON_LIABILITY", "PAYMENT_REASON_DISCARD",
        "PAYMENT_REASON_SELF_DRAW", "PAYMENT_REASON_ROBBING_KONG",
    )
] + [
    ("qiaoma", k)
    for k in (
        "ILLEGAL_REASON_TOO_FEW_FLOWERS", "ILLEGAL_REASON_NOT_DECLARED", "ILLEGAL_REASON_TOO_FEW_FAN",
        "ILLEGAL_REASON_NO_QUALIFYING_PATTERN", "FAN_CAP",
    )
] + [
    (p, k)
    for p in ("qiaoma_lezi", "qinghunpeng")
    for k in (
        "ILLEGAL_REASON_NO_FLOWERS_SELF_DRAW_ONLY", "PATTERN_EIGHT_FLOWERS", "PATTERN_SEVEN_PAIRS",
        "PATTERN_ALL_HONOURS", "PATTERN_EARTHLY", "PATTERN_HEAVENLY", "LAZI_CAP", "PAYMENT_REASON_EIGHT_FLOWERS",
    )
] + [("qiaoma_lezi", "ILLEGAL_REASON_NO_QUALIFYING_PATTERN"), ("qinghunpeng", "ILLEGAL_REASON_NO_QUALIFYING_PATTERN"),
     ("qinghunpeng", "PATTERN_ALL_HONOURS_PUNGS")]  # fmt: skip


def test_the_engine_and_the_reference_agree_on_generated_hands():
    seen: Counter = Counter()
    disagreements = []
    for index, req in enumerate(FamilyHands(SEED).requests(HANDS)):
        reference = reference_settle(req)
        _coverage(req, reference, seen)
        found = differences(engine_settle(req), reference)
        if found:
            disagreements.append(_described(index, req, found))
    assert not disagreements, f"{len(disagreements)} of {HANDS} hands differ:\n" + "\n".join(disagreements[:5])
    if HANDS >= 2000:
        assert [k for k in _MUST_REACH if not seen[k]] == []


def test_the_reference_imports_nothing_of_the_engine():
    """Only `compare.py` (the engine's side of the comparison) may import `rules_core` or `convert`."""
    package = Path(reference_settle.__code__.co_filename).parent
    imported = {}
    for module in sorted(package.glob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module.split(".")[0])
        imported[module.name] = names & {"rules_core", "convert", "server", "batch"}
    assert imported.pop("compare.py") == {"rules_core"}
    assert {name: found for name, found in imported.items() if found} == {}


def test_the_generator_is_seeded():
    assert FamilyHands(7).requests(20) == FamilyHands(7).requests(20)
    assert FamilyHands(7).requests(20) != FamilyHands(8).requests(20)

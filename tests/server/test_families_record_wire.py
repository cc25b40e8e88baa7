"""A hand record's answer under the rule families (RULES.md 14.6, 14.10.8) crosses the wire whole:
the derived request's dragon flowers, 海底捞月, knocked seats and pattern_kept come back as the
engine derived them, as `shmj replay` needs to tell a server's answer."""

from __future__ import annotations

from convert.records import settle_record_response
from convert.results import settle_record_result
from generators.record_simulator import FAMILY_PROFILES, simulate_records
from rules_core import settle_record
from rules_core.registry import BUILTIN_REGISTRY

RESULTS = [
    settle_record(record, BUILTIN_REGISTRY)
    for record in simulate_records(60, seed=5, profiles=FAMILY_PROFILES, registry=BUILTIN_REGISTRY)
]


def test_the_derived_request_comes_back_as_derived():
    for result in RESULTS:
        assert settle_record_result(settle_record_response(result)).derived == result.derived


def test_the_records_hold_what_the_wire_must_carry():
    derived = [r.derived for r in RESULTS]
    assert any(w.hand.dragon_flowers for d in derived for w in d.winners)
    assert any(d.declared_seats for d in derived)
    assert any(r.pattern_kept for d in derived for r in d.liabilities)

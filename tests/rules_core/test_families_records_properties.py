"""Properties of replaying simulated hands under the rule families of RULES.md section 14 (`qiaoma`,
`qiaoma_lezi`, `qinghunpeng`): dragons dealt and drawn as flowers, the knock (DECLARE), claims
counted as each profile says, pattern_kept and 海底捞月 (14.6, 14.10.8), in both builds."""

from __future__ import annotations

from collections import Counter

import pytest

from convert.json_write import settle_record_request_dict, settle_record_response_dict
from generators.record_simulator import FAMILY_PROFILES, simulate_records
from rules_core import Outcome, settle, settle_record, settle_record_json
from rules_core.multipliers import multipliers
from rules_core.patterns import IllegalReason, mask_of
from rules_core.profile import LiabilityMode
from rules_core.records import EventKind
from rules_core.registry import BUILTIN_REGISTRY
from rules_core.replay import Win
from rules_core.settle import evaluate_winner
from rules_core.tiles import FIRST_DRAGON, FIRST_HONOUR, TILE_KINDS

RECORDS = simulate_records(210, seed=23, profiles=FAMILY_PROFILES, registry=BUILTIN_REGISTRY)
RESULTS = [settle_record(record, BUILTIN_REGISTRY) for record in RECORDS]
CLAIMS = (EventKind.CHOW, EventKind.PUNG, EventKind.EXPOSED_KONG)


def judge_every_seat_at_every_discard(replay, seat, tile, outcome):
    """The brute force: at each discard and added kong, every other seat's win on the tile is
    judged whole by the settlement's own evaluation, its locks and its knock included, with no
    waits kept."""
    claim = replay.winner(seat, Win(outcome, replay.turn, tile))
    counts = [0] * TILE_KINDS
    for held in claim.hand.concealed:
        counts[held] += 1
    multi = multipliers(replay.profile, 0, None)
    declared = seat in replay.declared
    result = evaluate_winner(replay.profile, outcome, replay.dealer, multi, claim, counts, declared)
    return mask_of(result.patterns) if result.legal else None


def test_the_settlement_is_settle_of_the_derived_request():
    for result in RESULTS:
        assert result.settlement == settle(result.derived, BUILTIN_REGISTRY)


def test_the_passes_equal_a_brute_force_that_judges_every_seat_at_every_discard():
    for record, result in zip(RECORDS, RESULTS, strict=True):
        judged = settle_record(record, BUILTIN_REGISTRY, judge=judge_every_seat_at_every_discard)
        assert judged.passes == result.passes


def test_deltas_sum_to_zero():
    for result in RESULTS:
        assert sum(result.settlement.seat_deltas) == 0


def test_the_knocked_seats_are_those_of_the_declare_events_in_order():
    for record, result in zip(RECORDS, RESULTS, strict=True):
        events = record.events
        knocks = [i for i, e in enumerate(events) if e.kind == EventKind.DECLARE]
        assert result.derived.declared_seats == tuple(events[i].seat for i in knocks)
        for i in knocks:
            assert (events[i + 1].kind, events[i + 1].seat) == (EventKind.DISCARD, events[i].seat)


def test_only_a_knocked_seat_passes_or_wins_under_the_knock():
    for record, result in zip(RECORDS, RESULTS, strict=True):
        if record.profile != "qiaoma":
            continue
        knocked = set(result.derived.declared_seats)
        assert {p.seat for p in result.passes} <= knocked
        for winner in result.settlement.winners:
            assert (IllegalReason.NOT_DECLARED in winner.illegal_reasons) == (winner.seat not in knocked)


def test_each_winner_holds_the_dragons_it_was_dealt_and_drew():
    for record, result in zip(RECORDS, RESULTS, strict=True):
        for winner in result.derived.winners:
            shown = []
            for event in record.events:
                if event.seat == winner.seat and event.kind == EventKind.DEAL:
                    shown += event.dragon_flowers
                elif event.seat == winner.seat and event.kind == EventKind.DRAW and event.tile is not None:
                    shown += [event.tile] if event.tile >= FIRST_DRAGON and record.profile != "qinghunpeng" else []
            assert winner.hand.dragon_flowers == tuple(shown)
            dragons_held = [t for t in winner.hand.concealed if t >= FIRST_DRAGON]
            assert dragons_held == [] or record.profile == "qinghunpeng"


def counted_claims(record) -> dict[tuple[int, int], int]:
    """The claims between seats recounted from the events alone (14.6, 14.10.8): a kong is no
    claim where kongs are skipped, and a pung added to stops counting unless the kong is robbed;
    a claim of a knocked seat's discard does not count under the contract mode."""
    profile = BUILTIN_REGISTRY.get(record.profile)
    skips_kongs = profile.liability_skips_kongs
    contract = profile.liability_mode == LiabilityMode.CONTRACT
    counted: dict[tuple[int, int], int] = {}
    knocked: set[int] = set()
    pungs: dict[tuple[int, int], int] = {}  # (claimer, tile) -> its source, for pungs that count
    discarder, discarder_knocked, tile = None, False, None
    events = record.events
    for index, event in enumerate(events):
        kind = event.kind
        if kind == EventKind.DECLARE:
            knocked.add(event.seat)
        elif kind == EventKind.DISCARD:
            discarder, discarder_knocked, tile = event.seat, event.seat in knocked, event.tile
        elif kind in CLAIMS:
            counts = not (skips_kongs and kind == EventKind.EXPOSED_KONG) and not (contract and discarder_knocked)
            if counts:
                counted[(event.seat, discarder)] = counted.get((event.seat, discarder), 0) + 1
                if kind == EventKind.PUNG:
                    pungs[(event.seat, tile)] = discarder
        elif kind == EventKind.ADDED_KONG and skips_kongs and (event.seat, event.tile) in pungs:
            robbed = index + 1 < len(events) and events[index + 1].kind == EventKind.WIN
            if not robbed:
                source = pungs.pop((event.seat, event.tile))
                counted[(event.seat, source)] -= 1
    return {pair: n for pair, n in counted.items() if n}


def kept_a_pattern(record, claimer: int) -> bool:
    """14.10.1, from the events alone: the claimer's exposed melds are all pungs and kongs, or
    hold suited tiles of one suit at most."""
    chowed, suits = False, set()
    tile = None
    for event in record.events:
        if event.kind == EventKind.DISCARD:
            tile = event.tile
        elif event.seat == claimer and event.kind in CLAIMS:
            chowed |= event.kind == EventKind.CHOW
            if tile < FIRST_HONOUR:
                suits.add(tile // 9)
    return not chowed or len(suits) <= 1


def test_the_claims_and_pattern_kept_are_those_the_events_show():
    for record, result in zip(RECORDS, RESULTS, strict=True):
        contract = BUILTIN_REGISTRY.get(record.profile).liability_mode == LiabilityMode.CONTRACT
        expected = tuple(
            (claimer, source, n, contract and kept_a_pattern(record, claimer))
            for (claimer, source), n in sorted(counted_claims(record).items())
        )
        assert tuple(tuple(r) for r in result.derived.liabilities) == expected


def test_last_tile_is_stated_only_on_a_self_draw_right_after_a_draw():
    for record, result in zip(RECORDS, RESULTS, strict=True):
        for index, event in enumerate(record.events):
            if event.last_tile:
                assert record.events[index - 1].kind == EventKind.DRAW
                assert result.derived.outcome == Outcome.SELF_DRAW and result.derived.winners[0].last_tile


def test_the_simulated_hands_hold_every_situation_of_the_families():
    seen = Counter()
    for record, result in zip(RECORDS, RESULTS, strict=True):
        seen[record.profile] += 1
        seen[result.derived.outcome] += 1
        seen["dealt dragon flowers"] += any(e.dragon_flowers for e in record.events)
        seen["drawn dragon flowers"] += (
            any(e.kind == EventKind.DRAW and e.tile is not None and e.tile >= FIRST_DRAGON for e in record.events)
            and record.profile != "qinghunpeng"
        )
        seen["knocks"] += bool(result.derived.declared_seats)
        seen["passes"] += bool(result.passes)
        seen["several winners"] += len(result.derived.winners) > 1
        seen["last tile"] += any(w.last_tile for w in result.derived.winners)
        seen["pattern kept"] += any(r.pattern_kept for r in result.derived.liabilities)
        seen["pattern not kept"] += record.profile == "qiaoma" and any(
            not r.pattern_kept for r in result.derived.liabilities
        )
        for winner in result.settlement.winners:
            seen["legal" if winner.legal else "illegal"] += 1
            seen[IllegalReason.NOT_DECLARED] += IllegalReason.NOT_DECLARED in winner.illegal_reasons
    situations = (
        *FAMILY_PROFILES,
        Outcome.SELF_DRAW,
        Outcome.DISCARD,
        Outcome.EXHAUSTIVE_DRAW,
        "dealt dragon flowers",
        "drawn dragon flowers",
        "knocks",
        "passes",
        "several winners",
        "last tile",
        "pattern kept",
        "pattern not kept",
        "legal",
        "illegal",
        IllegalReason.NOT_DECLARED,
    )
    for situation in situations:
        assert seen[situation] > 0, situation


@pytest.mark.parametrize("index", range(0, 210, 7))
def test_a_record_in_json_settles_as_the_record(index):
    answer = settle_record_json(settle_record_request_dict(RECORDS[index]), BUILTIN_REGISTRY)
    assert answer == settle_record_response_dict(RESULTS[index])

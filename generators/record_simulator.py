"""Seeded simulated hands (牌谱): whole hands played from a wall, written as valid records.

Each hand is dealt from a shuffled wall of the 144 tiles and flowers and played to its end:
draws and flower replacements, discards, chows, pungs and kongs of every kind, passes (漏胡),
wins of every outcome, false claims (a win on a locked tile), exhaustive draws and, under
`lezi`, abandons. Under the rule families of RULES.md section 14 (`FAMILY_PROFILES`) the
dragons are flowers where the profile says so (dealt into ``dragon_flowers``, drawn and
replaced), and a seat knocks (``DECLARE``) before a discard that leaves its hand waiting, then
throws what it draws and claims nothing but a win. The walls are stacked so that special patterns happen far more often than
at a real table: one or two seats are dealt a hand a tile short of a flush, a pungs hand or
all honours, and the tiles they wait on come early in the wall, where the other seats draw
and throw them; now and then the dealer is dealt a complete hand (天胡), or a seat most of
the flowers.

Every event is applied to a `rules_core.replay.Replay` as it is written, so a record the
simulator writes is valid by construction (it raises otherwise: a bug). Half of the records
carry `recorded_deltas`, one in ten of those wrong by a seat or two. The same seed always
gives the same records.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from generators.random_hands import HandGenerator
from rules_core.build import (
    abandon,
    added_kong,
    chow,
    concealed_kong,
    declare,
    discard,
    exhaustive_draw,
    exposed_kong,
    pung,
    win,
)
from rules_core.multipliers import multipliers
from rules_core.overrides import resolve_profile
from rules_core.patterns import IllegalReason
from rules_core.records import EventKind, HandEvent, SettleRecordRequest
from rules_core.registry import BUILTIN_REGISTRY, ProfileRegistry
from rules_core.replay import Phase, Replay, settle_record
from rules_core.requests import Dice, MeldKind, Outcome
from rules_core.settle import evaluate_winner
from rules_core.tiles import ALL_FLOWERS, FIRST_DRAGON, FIRST_HONOUR, TILE_KINDS, Flower, Tile

PROFILES = ("classic", "sankou", "lezi")
FAMILY_PROFILES = ("qiaoma", "qiaoma_lezi", "qinghunpeng")  # RULES.md section 14
_STYLES = ("flush", "half_flush", "pungs", "honours")
_RESERVE = 14  # tiles kept back, so that a kong's or a flower's replacement draw always finds one
_DRAGON_RESERVE = 12  # and more where the twelve dragons are flowers too


class _RobbingPlan(NamedTuple):
    tile: int
    robber: int
    konger: int
    thrower: int


class _Wall:
    """The tiles still to draw, front first: tiles as ints 0-33, flowers as `Flower`."""

    def __init__(self, tiles: list) -> None:
        self.tiles = tiles

    def take(self):
        return self.tiles.pop(0)

    def __len__(self) -> int:
        return len(self.tiles)

    def bring_forward(self, tile: int) -> None:
        """A copy of ``tile`` still in the wall, moved to the front (a stacked wall)."""
        for index, held in enumerate(self.tiles):
            if held == tile and not isinstance(held, Flower):  # a flower's number is no tile's
                self.tiles.insert(0, self.tiles.pop(index))
                return


class RecordSimulator:
    """Records under the profiles named (``profiles``, looked up in ``registry``), one chosen at
    random per hand."""

    def __init__(
        self, seed: int = 0, profiles: tuple[str, ...] = PROFILES, registry: ProfileRegistry = BUILTIN_REGISTRY
    ):
        self.rng = random.Random(seed)
        self.hands = HandGenerator(seed + 1)
        self.profile_names = profiles
        self.registry = registry

    # --- one record -----------------------------------------------------------------------------

    def record(self, index: int = 0) -> SettleRecordRequest:
        rng = self.rng
        profile_name = rng.choice(self.profile_names)
        dealer = rng.randrange(4)
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6)) if rng.random() < 0.3 else None
        huangfan = rng.choice((0, 0, 0, 1, 2))
        profile, _ = resolve_profile(profile_name, None, self.registry)
        assert profile is not None
        self.profile = profile
        self.dragons = profile.dragons_are_flowers
        self.knocks = profile.win_requires_declaration
        self.reserve = _RESERVE + (_DRAGON_RESERVE if self.dragons else 0)
        self.multi = multipliers(profile, 0, None)
        self.dealer = dealer
        self.replay = Replay(profile, dealer)
        self.events: list[HandEvent] = []
        self.targets: dict[int, int] = {}  # hero seat -> suit bit it keeps (8: honours)
        self.thrown: set[int] = set()  # tiles any seat but a hero throws at once (stacked to be won on)
        self.eager: set[int] = set()  # seats that claim every win they may
        wall = self._deal()
        self._play(wall)
        request = SettleRecordRequest(
            profile=profile_name,
            events=tuple(self.events),
            dealer_seat=dealer,
            dice=dice,
            huangfan_count=huangfan,
            request_id=f"hand-{index}",
        )
        if rng.random() < 0.5:
            deltas = list(settle_record(request, self.registry).settlement.seat_deltas)
            if rng.random() < 0.1:
                seat = rng.randrange(4)
                deltas[seat] += rng.choice((-10.0, -2.0, 2.0, 10.0))
            request = request._replace(recorded_deltas=tuple(deltas))
        return request

    def _emit(self, event: HandEvent) -> None:
        self.replay.apply(len(self.events), event)
        self.events.append(event)

    # --- the deal, and the stacked wall -----------------------------------------------------------

    def _deal(self) -> _Wall:
        rng = self.rng
        pool = [t for t in range(TILE_KINDS) for _ in range(4)]
        flowers = list(ALL_FLOWERS)
        rng.shuffle(pool)
        rng.shuffle(flowers)
        seats = [(self.dealer + i) % 4 for i in range(4)]
        dealt: dict[int, list[int]] = {}
        stacked: list[int] = []  # tiles put at the front of the wall
        roll = rng.random()
        self.plan: _RobbingPlan | None = None
        if roll < 0.04:
            dealt[self.dealer] = self._take_hand(pool, rng.choice(_STYLES), 14)  # 天胡 waiting to happen
        elif roll < 0.12:
            self.plan = self._robbing_plan(pool, dealt)
        elif roll < 0.2:
            self._double_wait(pool, dealt, stacked)
        if not dealt:
            for hero in rng.sample(range(4), rng.choice((1, 1, 2))):
                hand = self._take_hand(pool, rng.choice(_STYLES), 14)
                stacked.append(hand.pop(rng.randrange(len(hand))))  # the tile it waits on, early in the wall
                dealt[hero] = hand  # the dealer's fourteenth tile is dealt at random, to discard
        for hero, hand in dealt.items():
            self.targets[hero] = _suit_bits(hand)
        deal_flowers: dict[int, list[Flower]] = {seat: [] for seat in range(4)}
        if roll > 0.97:
            lucky = rng.randrange(4)
            count = rng.choice((7, 8))
            deal_flowers[lucky], flowers = flowers[:count], flowers[count:]
        for seat in seats:
            size = 14 if seat == self.dealer else 13
            hand = dealt.get(seat, [])
            dragons: list[int] = []  # dealt 中发白, revealed as flowers and replaced (dragons_are_flowers)
            while len(hand) < size:
                tile = pool.pop()
                (dragons if self.dragons and tile >= FIRST_DRAGON else hand).append(tile)
            while flowers and rng.random() < 0.12:
                deal_flowers[seat].append(flowers.pop())
            self._emit(
                HandEvent(
                    EventKind.DEAL,
                    seat,
                    tiles=tuple(Tile(t) for t in hand),
                    flowers=tuple(deal_flowers[seat]),
                    dragon_flowers=tuple(Tile(t) for t in dragons),
                )
            )
        rest: list = pool + flowers
        rng.shuffle(rest)
        front = rng.randrange(2, 10)
        for tile in stacked:
            rest.insert(rng.randrange(front), tile)
        return _Wall(rest)

    def _robbing_plan(self, pool: list[int], dealt: dict[int, list[int]]) -> _RobbingPlan | None:
        """A full flush a chow's tile short for one seat; that tile's copies dealt two to a second
        seat and one to a third, which throws it: the second pungs it and draws the last one,
        and adds it to its pung, where the first robs it (抢杠)."""
        rng = self.rng
        for _ in range(20):
            sets, pair = self.hands.special_sets("flush")
            wanted = [t for s in sets for t in s] + pair
            singles = [t for s in sets if s[0] != s[1] for t in s if wanted.count(t) == 1]
            if singles:
                break
        else:
            return None
        tile = rng.choice(singles)
        wanted.remove(tile)
        robber, konger, thrower = rng.sample(range(4), 3)
        if any(pool.count(t) < wanted.count(t) for t in set(wanted)):
            return None
        for t in wanted:
            pool.remove(t)
        for _ in range(4):
            pool.remove(tile)
        dealt[robber] = wanted
        dealt[konger] = [tile, tile]
        dealt[thrower] = [tile]
        return _RobbingPlan(tile, robber, konger, thrower)

    def _double_wait(self, pool: list[int], dealt: dict[int, list[int]], stacked: list[int]) -> None:
        """Two seats dealt hands that wait on one tile, which comes early in the wall (一炮多响)."""
        rng = self.rng
        first, second = rng.sample(range(4), 2)
        hand = self._take_hand(pool, rng.choice(_STYLES[:3]), 14)
        tile = hand.pop(rng.randrange(len(hand)))
        stacked.append(tile)
        dealt[first] = hand
        for _ in range(30):
            sets, pair = self.hands.special_sets(rng.choice(_STYLES[:3]))
            wanted = [t for s in sets for t in s] + pair
            if tile in wanted and not (self.dragons and max(wanted) >= FIRST_DRAGON):
                other = self._take_hand(pool, "", 14, wanted)
                if tile in other:
                    other.remove(tile)
                    pool.append(tile)
                dealt[second] = other
                self.thrown.add(tile)
                self.eager.update((first, second))
                return

    def _take_hand(self, pool: list[int], style: str, size: int, wanted: list[int] | None = None) -> list[int]:
        """``size`` tiles of a complete hand of the style (or ``wanted``), taken from the pool as
        far as it has them."""
        honours = 4 if self.dragons else 7  # the winds alone where the dragons are flowers
        if wanted is not None:
            pass
        elif style == "honours":
            wanted = [FIRST_HONOUR + self.rng.randrange(honours) for _ in range(size)]
        else:
            wanted = self._wanted(style)
        hand: list[int] = []
        for tile in wanted[:size]:
            if tile in pool:
                pool.remove(tile)
                hand.append(tile)
        return hand

    def _wanted(self, style: str) -> list[int]:
        """The tiles of four sets and a pair of the style; none a dragon where dragons are flowers."""
        while True:
            sets, pair = self.hands.special_sets(style)
            wanted = [t for s in sets for t in s] + pair
            if not (self.dragons and max(wanted) >= FIRST_DRAGON):
                return wanted

    # --- play ------------------------------------------------------------------------------------

    def _play(self, wall: _Wall) -> None:
        rng = self.rng
        replay = self.replay
        self.wall = wall
        for seat in range(4):
            if len(replay.seats[seat].flowers) == 8 and rng.random() < 0.9:
                self._emit(win(seat))  # 八花 on the deal
                return
        while True:
            phase, seat = replay.phase, replay.turn
            if phase in (Phase.WINNING, Phase.ENDED):
                return
            if phase == Phase.HOLDING:
                self._hold(seat)
            elif phase == Phase.CLAIMED:
                self._throw(seat)
            elif phase == Phase.DRAWING:
                self._draw(seat, wall)
            elif phase == Phase.DISCARDED:
                self._after_discard(seat, wall)
            elif phase == Phase.KONG_ADDED:
                if not self._claim_wins(Outcome.ROBBING_KONG, wall):
                    self._draw(seat, wall)

    def _hold(self, seat: int) -> None:
        rng = self.rng
        hand = self.replay.seats[seat]
        claim = self.replay.claimable(seat)
        if claim is not None:
            reasons = self._reasons(seat, claim)
            if rng.random() < (0.9 if not reasons else 0.3 if IllegalReason.INCOMPLETE_SHAPE not in reasons else 0.0):
                self._emit(win(seat, self._on_the_last_tile(claim)))  # a legal win, or a false claim
                return
        if seat in self.replay.declared:
            self._throw(seat)  # a knocked seat throws what it draws
            return
        for tile in range(TILE_KINDS):
            if hand.counts[tile] == 4 and rng.random() < 0.6:
                self._emit(concealed_kong(seat, _notation(tile)))
                return
        plan = self.plan
        for meld in hand.melds:
            tile = meld.tiles[0]
            planned = plan is not None and plan.konger == seat and plan.tile == tile
            if meld.kind == MeldKind.PUNG and hand.counts[tile] and (planned or rng.random() < 0.6):
                self._emit(added_kong(seat, _notation(tile)))
                return
        self._throw(seat)

    def _on_the_last_tile(self, claim) -> bool:
        """海底捞月: a self-draw on the tile drawn when no more are left to draw after it, and now and
        then on another (the record does not model the wall: the flag is taken as stated). Said
        under the rule families only, so that the records of the other profiles stay as they were."""
        if (
            not self.profile.section_14_readings
            or claim.outcome != Outcome.SELF_DRAW
            or self.replay.last_kind != EventKind.DRAW
        ):
            return False
        return len(self.wall) <= self.reserve or self.rng.random() < 0.05

    def _throw(self, seat: int) -> None:
        """The seat discards; under the knock (敲) it knocks first, mostly, when the discard can
        leave its hand waiting."""
        tile = self._discard_choice(seat)
        replay = self.replay
        if self.knocks and seat not in replay.declared:
            counts = replay.seats[seat].counts
            waiting = [t for t in range(TILE_KINDS) if counts[t] and replay.knock_waits(seat, t)]
            if waiting and self.rng.random() < 0.8:
                if tile not in waiting:
                    tile = self.rng.choice(waiting)
                self._emit(declare(seat))
        self._emit(discard(seat, _notation(tile)))

    def _draw(self, seat: int, wall: _Wall) -> None:
        tile = wall.take()
        event = HandEvent(EventKind.DRAW, seat, flower=tile) if isinstance(tile, Flower) else None
        if event is None:
            event = HandEvent(EventKind.DRAW, seat, tile=Tile(tile))
        self._emit(event)
        if event.flower is not None and len(self.replay.seats[seat].flowers) == 8 and self.rng.random() < 0.9:
            self._emit(win(seat))

    def _after_discard(self, discarder: int, wall: _Wall) -> None:
        rng = self.rng
        replay = self.replay
        if self._claim_wins(Outcome.DISCARD, wall):
            return
        if self.profile.has_abandon_rule and rng.random() < 0.01:
            self._emit(abandon(rng.randrange(4)))
            return
        if len(wall) <= self.reserve:
            self._emit(exhaustive_draw())
            return
        tile = replay.tile
        assert tile is not None
        plan = self.plan
        if plan is not None and plan.tile == tile and replay.seats[plan.konger].counts[tile] >= 2:
            self._emit(pung(plan.konger))
            wall.tiles.insert(3, tile)  # the last copy, for the konger's next draw
            return
        knocked = replay.declared  # a seat that has knocked claims nothing but a win
        for offset in (1, 2, 3):
            seat = (discarder + offset) % 4
            if seat in knocked:
                continue
            held = replay.seats[seat].counts[tile]
            keen = self._keeps(seat, tile)
            if held >= 3 and rng.random() < (0.6 if keen else 0.2):
                self._emit(exposed_kong(seat))
                return
            if held >= 2 and rng.random() < (0.5 if keen else 0.12):
                self._emit(pung(seat))
                return
        nxt = (discarder + 1) % 4
        pairs = self._chow_pairs(nxt, tile) if nxt not in knocked else []
        if pairs and rng.random() < (0.4 if self._keeps(nxt, tile) else 0.1):
            self._emit(chow(nxt, " ".join(_notation(t) for t in rng.choice(pairs))))
            return
        self._draw(nxt, wall)

    def _claim_wins(self, outcome: Outcome, wall: _Wall) -> bool:
        """The seats that win on the tile just offered (most who can, and now and then one that
        is locked on it: a false claim); True when any does."""
        rng = self.rng
        replay = self.replay
        tile = replay.tile
        assert tile is not None
        source = replay.turn
        claimers = []
        for offset in (1, 2, 3):
            seat = (source + offset) % 4
            hand = replay.seats[seat]
            if replay.could_win(seat, tile, outcome) is not None:
                plan = self.plan
                planned = plan is not None and plan.robber == seat and plan.tile == tile
                if planned and outcome == Outcome.DISCARD:
                    continue  # the robber lets it go, to rob the kong later
                if planned or seat in self.eager or rng.random() < 0.7:
                    claimers.append(seat)
                elif rng.random() < 0.6:
                    wall.bring_forward(tile)  # another copy next, thrown, that the seat may not win on
                    self.thrown.add(tile)
            elif tile in hand.waits.shape_waits(hand) and rng.random() < 0.3:
                claimers.append(seat)  # a false claim: 漏胡, or a shape with no pattern that may win
        rng.shuffle(claimers)
        for seat in claimers:
            self._emit(win(seat))
        return bool(claimers)

    def _reasons(self, seat: int, claim) -> tuple[IllegalReason, ...]:
        winner = self.replay.winner(seat, claim)
        counts = [0] * TILE_KINDS
        for tile in winner.hand.concealed:
            counts[tile] += 1
        declared = seat in self.replay.declared
        result = evaluate_winner(self.profile, claim.outcome, self.dealer, self.multi, winner, counts, declared)
        return result.illegal_reasons

    # --- choices ---------------------------------------------------------------------------------

    def _keeps(self, seat: int, tile: int) -> bool:
        """Whether a hero seat keeps tiles like this one (its suit, or honours)."""
        target = self.targets.get(seat)
        return target is not None and bool(_SUIT_BIT[tile] & target)

    def _discard_choice(self, seat: int) -> int:
        rng = self.rng
        replay = self.replay
        counts = replay.seats[seat].counts
        plan = self.plan
        if plan is not None and plan.thrower == seat and counts[plan.tile]:
            return plan.tile
        if seat not in self.targets:
            for tile in self.thrown:
                if counts[tile]:
                    return tile
        drawn = replay.tile if replay.phase == Phase.HOLDING else None
        if drawn is not None and seat in replay.declared and counts[drawn]:
            return drawn  # 摸切: a knocked seat throws what it draws
        if drawn is not None and seat not in self.targets and counts[drawn] == 1 and rng.random() < 0.4:
            return drawn  # 摸切: throw the tile just drawn
        best, best_score = -1, None
        for tile in range(TILE_KINDS):
            if not counts[tile]:
                continue
            score = counts[tile] * 3
            if tile < FIRST_HONOUR:
                for step, weight in ((1, 2), (2, 1)):
                    if tile % 9 >= step:
                        score += weight * min(counts[tile - step], 1)
                    if tile % 9 + step <= 8:
                        score += weight * min(counts[tile + step], 1)
            if self._keeps(seat, tile):
                score += 6
            score += rng.random() * 2
            if best_score is None or score < best_score:
                best, best_score = tile, score
        return best

    def _chow_pairs(self, seat: int, tile: int) -> list[tuple[int, int]]:
        if tile >= FIRST_HONOUR:
            return []
        counts = self.replay.seats[seat].counts
        rank = tile % 9
        pairs = []
        for low in (tile - 2, tile - 1, tile):
            if low < tile - rank or low + 2 > tile - rank + 8:
                continue
            others = [t for t in (low, low + 1, low + 2) if t != tile]
            if all(counts[t] for t in others):
                pairs.append((others[0], others[1]))
        return pairs


_SUIT_BIT = tuple(8 if t >= FIRST_HONOUR else 1 << (t // 9) for t in range(TILE_KINDS))


def _suit_bits(tiles: list[int]) -> int:
    bits = 0
    for tile in tiles:
        bits |= _SUIT_BIT[tile]
    return bits


def _notation(tile: int) -> str:
    return Tile(tile).notation


def simulate_records(
    count: int, seed: int = 0, profiles: tuple[str, ...] = PROFILES, registry: ProfileRegistry = BUILTIN_REGISTRY
) -> list[SettleRecordRequest]:
    simulator = RecordSimulator(seed, profiles, registry)
    return [simulator.record(i) for i in range(count)]


# The situations `examples/records.jsonl` shows, one record each: (name, test of a record's result).
SITUATIONS = (
    ("self-draw", lambda r: r.derived.outcome == Outcome.SELF_DRAW and r.settlement.winners[0].legal),
    ("discard win", lambda r: r.derived.outcome == Outcome.DISCARD and len(r.derived.winners) == 1),
    ("robbing a kong", lambda r: r.derived.outcome == Outcome.ROBBING_KONG),
    ("eight flowers", lambda r: r.derived.outcome == Outcome.EIGHT_FLOWERS),
    ("exhaustive draw", lambda r: r.derived.outcome == Outcome.EXHAUSTIVE_DRAW),
    ("abandon", lambda r: r.derived.outcome == Outcome.ABANDON),
    ("several winners on one discard", lambda r: len(r.derived.winners) > 1),
    ("heavenly hand", lambda r: _has(r, "HEAVENLY")),
    ("earthly hand", lambda r: _has(r, "EARTHLY")),
    ("win on a replacement tile", lambda r: _has(r, "KONG_BLOOM")),
    ("all honours", lambda r: _has(r, "ALL_HONOURS")),
    ("a pass, then a win", lambda r: bool(r.passes) and any(w.legal for w in r.settlement.winners)),
    ("a false claim on a locked tile", lambda r: _illegal(r, IllegalReason.MISSED_WIN)),
    ("a false claim with no pattern", lambda r: _illegal(r, IllegalReason.NO_QUALIFYING_PATTERN)),
    ("claims between seats", lambda r: any(rel.claims >= 2 for rel in r.derived.liabilities)),
    ("recorded deltas that match", lambda r: r.recorded_match and any(r.settlement.seat_deltas)),
    ("recorded deltas that differ", lambda r: bool(r.mismatched_seats)),
)


def _has(result, pattern: str) -> bool:
    return any(w.legal and any(p.name == pattern for p in w.patterns) for w in result.settlement.winners)


def _illegal(result, reason: IllegalReason) -> bool:
    return any(reason in w.illegal_reasons for w in result.settlement.winners)


# The situations of the rule families (RULES.md section 14) `examples/records.jsonl` shows after
# those, one record each, simulated under `FAMILY_PROFILES`.
FAMILY_SITUATIONS = (
    ("qiaoma: a knock, dragon flowers, a win", lambda r: r.derived.profile == "qiaoma" and _knocked_dragon_win(r)),
    ("qiaoma: a win by a seat that did not knock", lambda r: _illegal(r, IllegalReason.NOT_DECLARED)),
    (
        "qiaoma: contract partners",
        lambda r: (
            r.derived.profile == "qiaoma"
            and any(rel.pattern_kept for rel in r.derived.liabilities)
            and any(w.legal for w in r.settlement.winners)
        ),
    ),
    ("qiaoma: the wall's last tile", lambda r: r.derived.profile == "qiaoma" and _has(r, "LAST_TILE")),
    ("qiaoma_lezi: a half flush", lambda r: r.derived.profile == "qiaoma_lezi" and _has(r, "HALF_FLUSH")),
    (
        "qinghunpeng: a full flush of pungs",
        lambda r: r.derived.profile == "qinghunpeng" and _has(r, "FULL_FLUSH_PUNGS"),
    ),
)


def _knocked_dragon_win(result) -> bool:
    """A seat knocked, and a legal winner holds dragons as flowers."""
    claims = zip(result.derived.winners, result.settlement.winners, strict=True)
    return bool(result.derived.declared_seats) and any(w.legal and c.hand.dragon_flowers for c, w in claims)


def example_records(seed: int = 0, tries: int = 3000) -> list[SettleRecordRequest]:
    """One simulated record of each of `SITUATIONS` (under `PROFILES`) and then of each of
    `FAMILY_SITUATIONS` (under `FAMILY_PROFILES`), the one of ``tries`` hands nearest 30 events
    long (a hand to read, not only its opening); its request id names the situation."""
    return _nearest(RecordSimulator(seed), SITUATIONS, tries) + _nearest(
        RecordSimulator(seed, FAMILY_PROFILES), FAMILY_SITUATIONS, tries
    )


def _nearest(simulator: RecordSimulator, situations, tries: int) -> list[SettleRecordRequest]:
    best: dict[str, SettleRecordRequest] = {}
    for index in range(tries):
        record = simulator.record(index)
        result = settle_record(record)
        for name, holds in situations:
            if holds(result) and (name not in best or abs(len(record.events) - 30) < abs(len(best[name].events) - 30)):
                best[name] = record._replace(request_id=_request_id(name))
    return [best[name] for name, _ in situations if name in best]


def _request_id(situation: str) -> str:
    return situation.replace(": ", "-").replace(" ", "-").replace(",", "").replace("'", "")

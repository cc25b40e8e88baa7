"""The review of a hand record (复盘, RULES.md 15.6): every discard against the advice of 15.5.

The record is replayed as section 13 replays it (`rules_core.replay`, so a malformed record is
malformed here too, with the same field violation). Just before each `DISCARD` the seat's
holding is taken, with what the seat could see: every discard not claimed since (its own
included) and the tiles of other seats' chows, pungs, exposed and added kongs (a claimed
discard counted once, in its meld; concealed kongs are face down), and whether the seat has
knocked (敲) with an earlier discard, which makes this one forced. Each discard is then
advised on as `rules_core.advice` advises a 14-tile holding, and the seats summed up with the
passes (漏胡) the replay found.
"""

from __future__ import annotations

from typing import NamedTuple

from rules_core.advice import advise_holding
from rules_core.advice_values import DiscardReview, ReviewResult, SeatReview
from rules_core.multipliers import multipliers
from rules_core.records import EventKind, HandEvent, SettleRecordRequest
from rules_core.registry import BUILTIN_REGISTRY, ProfileRegistry
from rules_core.replay import Replay, replay
from rules_core.requests import Hand, Meld, MeldKind
from rules_core.tiles import TILE_KINDS, Tile

_CLAIMS = (EventKind.CHOW, EventKind.PUNG, EventKind.EXPOSED_KONG)


class _Holding(NamedTuple):
    """A seat's holding just before one of its discards, and what it could see."""

    event_index: int
    seat: int
    discarded: Tile
    counts: list[int]
    hand: Hand
    seen: list[int]
    forced: bool  # the seat knocked with an earlier discard: it may discard only what it drew


class _Table:
    """Follows what lies face up as the record is replayed: each seat's discards not claimed."""

    def __init__(self, events: tuple[HandEvent, ...]):
        self.events = events
        self.rivers: list[list[int]] = [[], [], [], []]
        self.holdings: list[_Holding] = []
        self.last_discarder = -1

    def observe(self, index: int, event: HandEvent, state: Replay) -> None:
        """After ``events[index]``: note a discard or a claim, and take the holding of the seat
        whose discard comes next."""
        kind = event.kind
        if kind == EventKind.DISCARD:
            self.rivers[event.seat].append(event.tile)  # type: ignore[arg-type]  # replayed: a tile
            self.last_discarder = event.seat
        elif kind in _CLAIMS:
            self.rivers[self.last_discarder].pop()  # now in the claimer's meld
        following = index + 1
        if following < len(self.events):
            coming = self.events[following]
            seat = coming.seat
            # A discard the replay will refuse (no tile, no seat) is never reviewed: take none.
            if coming.kind == EventKind.DISCARD and coming.tile is not None and type(seat) is int and 0 <= seat <= 3:
                self.holdings.append(self._holding(following, coming, state))

    def _holding(self, index: int, event: HandEvent, state: Replay) -> _Holding:
        seat = event.seat
        own = state.seats[seat]
        seen = [0] * TILE_KINDS
        for river in self.rivers:
            for tile in river:
                seen[tile] += 1
        for other in range(4):
            if other == seat:
                continue
            for meld in state.seats[other].melds:
                if meld.kind != MeldKind.CONCEALED_KONG:
                    for tile in meld.tiles:
                        seen[tile] += 1  # type: ignore[index]  # replayed: tiles
        melds = tuple(Meld(m.kind, tuple(sorted(m.tiles)), m.from_seat) for m in own.melds)  # type: ignore[type-var]
        hand = Hand(own.concealed(), None, melds, tuple(own.flowers), tuple(own.dragon_flowers))
        forced = seat in state.declared  # its knocking discard is behind it (not this one)
        return _Holding(index, seat, event.tile, own.counts[:], hand, seen, forced)  # type: ignore[arg-type]


def review_record(request: SettleRecordRequest, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> ReviewResult:
    """Review every discard of a record, or `rules_core.InvalidRequest` as `settle_record` raises."""
    table = _Table(request.events)
    state = replay(request, profiles, observe=table.observe)
    profile = state.profile
    assert profile is not None  # replay raises when the record names no profile it knows
    multi = multipliers(profile, request.huangfan_count, request.dice)
    reviews = []
    for holding in table.holdings:
        advice = advise_holding(
            profile, multi, holding.seat, request.dealer_seat, holding.hand, holding.counts, holding.seen
        )
        if not advice.reachable:
            reviews.append(
                DiscardReview(
                    holding.event_index,
                    holding.seat,
                    False,
                    None,
                    holding.discarded,
                    None,
                    (),
                    False,
                    False,
                    holding.forced,
                )
            )
            continue
        options = advice.options
        chosen = next(o for o in options if o.tile == holding.discarded)
        best_tiles = tuple(sorted(o.tile for o in options if o.best))
        reviews.append(
            DiscardReview(
                holding.event_index,
                holding.seat,
                True,
                advice.shanten,
                holding.discarded,
                chosen,
                best_tiles,
                chosen.best,
                chosen.shanten > options[0].shanten,
                holding.forced,
            )
        )
    seats = tuple(_seat_review(seat, reviews, state) for seat in range(4))
    return ReviewResult(request.request_id, tuple(reviews), seats, profiles.digest(profile))


def _seat_review(seat: int, reviews: list[DiscardReview], state: Replay) -> SeatReview:
    own = [r for r in reviews if r.seat == seat]
    counted = [r for r in own if r.reachable and not r.forced]
    return SeatReview(
        seat,
        len(own),
        sum(r.agrees for r in counted),
        sum(r.backward for r in counted),
        sum(not r.reachable for r in own),
        sum(r.forced for r in own),
        tuple(p for p in state.passes if p.seat == seat),
    )

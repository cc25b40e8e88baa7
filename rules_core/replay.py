"""Replay a hand record (牌谱, RULES.md section 13): check every event, derive the request, settle it.

`settle_record(request)` is the entry point. `Replay` is the replay itself, one event at a
time (`apply`), for the simulator and the CLI, which follow a hand as it goes; `could_win`
is the 漏胡 test, which a test may replace (``judge``) by a brute force to compare with.

Everything a `SettleRequest` carries is derived from the events: each winner's concealed
tiles, melds and sources, flowers, 漏胡 locks, ``replacement_draw``, ``first_go_around``, the
outcome and discarder, the claims between seats. Nothing is taken on trust, and the first
impossible event is an `InvalidRequest` naming it (``events[17]``, ``events[17].tile``).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import Final, NamedTuple, cast

from rules_core.errors import FieldViolation, InvalidRequest, Violations
from rules_core.patterns import patterns_of
from rules_core.profile import LiabilityMode, RuleProfile
from rules_core.record_checks import event_fits, event_violations, events_length_violation, recorded_deltas_violations
from rules_core.record_waits import SeatWaits, shape_waits
from rules_core.records import EventKind, HandEvent, Pass, RecordResult, SettleRecordRequest
from rules_core.registry import BUILTIN_REGISTRY, ProfileRegistry
from rules_core.requests import Hand, LiabilityRelation, Meld, MeldKind, Outcome, SettleRequest, Winner
from rules_core.settle import settle
from rules_core.shape import shape_of
from rules_core.tiles import FIRST_DRAGON, FIRST_HONOUR, TILE_KINDS, TILE_NOTATION, Flower, Tile
from rules_core.validation import check_table, not_a_dragon

DEAL: Final = EventKind.DEAL
DRAW: Final = EventKind.DRAW
DISCARD: Final = EventKind.DISCARD
CHOW: Final = EventKind.CHOW
PUNG: Final = EventKind.PUNG
EXPOSED_KONG: Final = EventKind.EXPOSED_KONG
ADDED_KONG: Final = EventKind.ADDED_KONG
CONCEALED_KONG: Final = EventKind.CONCEALED_KONG
WIN: Final = EventKind.WIN
EXHAUSTIVE_DRAW: Final = EventKind.EXHAUSTIVE_DRAW
ABANDON: Final = EventKind.ABANDON
DECLARE: Final = EventKind.DECLARE


class Phase(IntEnum):
    """Where the hand is: what the next event may be."""

    DEALING = 1  # fewer than four deals
    HOLDING = 2  # the turn's seat holds a tile more than a waiting hand: discard, kong or win
    CLAIMED = 3  # after a chow or a pung: the claimer discards
    DRAWING = 4  # after a kong or a flower: the seat draws (a replacement draw)
    DISCARDED = 5  # a tile lies discarded: a win, a claim, the next draw, an exhaustive draw
    KONG_ADDED = 6  # a tile added to a pung: robbing wins, or the kong's replacement draw
    WINNING = 7  # WIN events: only more wins on the same discard or kong may follow
    ENDED = 8  # an exhaustive draw or an abandon


# The phases as constants for the replay's every event (an enum class's attribute is a slow look-up).
DEALING: Final = Phase.DEALING
HOLDING: Final = Phase.HOLDING
CLAIMED: Final = Phase.CLAIMED
DRAWING: Final = Phase.DRAWING
DISCARDED: Final = Phase.DISCARDED
KONG_ADDED: Final = Phase.KONG_ADDED
WINNING: Final = Phase.WINNING
ENDED: Final = Phase.ENDED
_NOBODY: Final[frozenset[int]] = frozenset()
# The meld each claim lays down.
_CLAIMED_MELD: Final = {CHOW: MeldKind.CHOW, PUNG: MeldKind.PUNG, EXPOSED_KONG: MeldKind.EXPOSED_KONG}


class SeatHand:
    """One seat's hand as the record goes: concealed tile counts, melds, flowers, 漏胡 locks."""

    __slots__ = (
        "codes",
        "counted",
        "counts",
        "dealt",
        "discarded",
        "dragon_flowers",
        "flowers",
        "locks",
        "melds",
        "open_passes",
        "totals",
        "waits",
    )

    def __init__(self) -> None:
        self.counts = [0] * TILE_KINDS
        self.codes = [0, 0, 0]  # each suit's counts as `rules_core.shape` codes them, kept as they change
        self.totals = [0, 0, 0]  # tiles held of each suit
        self.melds: list[Meld] = []
        self.flowers: list[Flower] = []
        self.dragon_flowers: list[Tile] = []  # 中发白 revealed as flowers (dragons_are_flowers)
        self.counted: list[bool] = []  # by meld: whether its claim counts for liability
        self.locks: list[Tile] = []  # tiles passed since the seat's last action, in the order they came
        self.discarded = False
        self.dealt: tuple[Tile, ...] = ()
        self.open_passes: list[int] = []  # indexes into Replay.passes of the locks in force
        self.waits = SeatWaits()

    def add(self, tile: int, count: int) -> None:
        """``count`` more of ``tile`` (fewer when negative) among the concealed tiles."""
        self.counts[tile] += count
        if tile < FIRST_HONOUR:
            suit = tile // 9
            self.codes[suit] += count << (4 * (8 - tile % 9))
            self.totals[suit] += count

    def concealed(self) -> tuple[Tile, ...]:
        """The concealed tiles in `Tile` order."""
        counts = self.counts
        return tuple(Tile(t) for t in range(TILE_KINDS) for _ in range(counts[t]))


class Win(NamedTuple):
    """How a WIN event wins: its outcome, the discarder (or kong player) and the tile won on."""

    outcome: Outcome
    discarder: int
    tile: Tile | None  # None for an eight-flowers win


def _fault(path: str, description: str) -> InvalidRequest:
    return InvalidRequest([FieldViolation(path, description)])


def _name(tile: int) -> str:
    return TILE_NOTATION[tile]


_DEALT_DRAGON = "中发白 are flowers under this profile (dragons_are_flowers): dealt dragons go in dragon_flowers"
_DRAGON_FLOWER = "中发白 are flowers under this profile (dragons_are_flowers), never tiles held"
_LAST_TILE = "only a self-drawn win right after the seat's own draw of a tile is on the wall's last tile"


def _waits_standard(hand: SeatHand, without: int = -1) -> bool:
    """Whether some tile completes four sets and a pair with the seat's concealed tiles (its
    melds are sets already), less one ``without`` if given: a knocking discard must leave the
    hand so (14.10.8). A fifth copy of a tile, counting the melds, is no wait."""
    counts = list(hand.counts)
    if without >= 0:
        counts[without] -= 1
    held = list(counts)
    for meld in hand.melds:
        for meld_tile in meld.tiles:
            held[cast(Tile, meld_tile)] += 1
    for tile in shape_waits(counts, False):  # the candidates, each confirmed by the shape itself
        if held[tile] < 4:
            counts[tile] += 1
            complete = shape_of(counts)[0]
            counts[tile] -= 1
            if complete:
                return True
    return False


# Another judge of "could have won": (replay, seat, tile, outcome) -> patterns mask or None.
CouldWin = Callable[["Replay", int, Tile, Outcome], "int | None"]


class Replay:
    """A hand record replayed event by event under one effective profile."""

    def __init__(
        self,
        profile: RuleProfile | None,
        dealer_seat: int,
        judge: CouldWin | None = None,
        dragons_are_flowers: bool = False,
    ):
        """``profile`` None follows the hands only (no 漏胡 judged, no abandon rule checked, no
        knock refused): for showing a record that a server has replayed under a profile this
        process may not know; ``dragons_are_flowers`` then says whether a drawn 中发白 is a flower
        (`dragons_shown_as_flowers` reads it from the record). ``judge`` replaces the 漏胡 test
        (a test's brute force)."""
        self.profile = profile
        self.dragons_are_flowers = profile.dragons_are_flowers if profile is not None else dragons_are_flowers
        self.judge = judge
        self.dealer = dealer_seat
        self.seats = [SeatHand() for _ in range(4)]
        self.phase = DEALING
        self.turn = dealer_seat  # the seat the phase is about
        self.tile: Tile | None = None  # the tile discarded, added to a kong, or drawn
        self.replacement = False  # HOLDING: the tile was drawn right after the seat's own kong or flower
        self.opening = False  # the first event after the deals
        self.source_index = 0  # the discard or added kong the phase is about
        self.claimed = False  # a seat has chowed, punged or laid down a kong
        self.shown = [0] * TILE_KINDS  # copies of each tile the record has shown
        self.flowers_shown = 0  # bits of the flowers shown
        self.dealt = 0
        self.passes: list[Pass] = []
        self.candidates: list[tuple[int, int]] = []  # (seat, patterns mask) that could win on self.tile
        self.win: Win | None = None
        self.winners: list[Winner] = []
        self.claims: dict[tuple[int, int], int] = {}
        self.ended_at: int | None = None
        self.outcome: Outcome | None = None
        self.abandoning = 0
        self.index = -1
        self.last_kind: EventKind | None = None  # of the event before
        self.after_kong = False  # the seat drawing replaces a kong (a flower drawn since keeps it)
        self.declared: list[int] = []  # 敲: the seats that have knocked, in order
        self.declaring: int | None = None  # the index of a DECLARE whose knocking discard comes next
        self.knocked_discard = False  # the tile offered was discarded by a seat that had knocked
        self.season_drawn = False  # DRAWING: the flower just drawn was one of the eight seasons
        self.dragon_drawn: Tile | None = None  # DRAWING: the 中发白 just drawn, a flower (dragons_are_flowers)
        self.unclaimed_by_kong: int | None = None  # KONG_ADDED: the meld whose claim the kong stopped counting
        self.last_tile = False  # the WIN said its tile was the wall's last (taken as stated)

    # --- the 漏胡 test -------------------------------------------------------------------------

    def first_go_around(self, seat: int) -> bool:
        return not self.claimed and not self.seats[seat].discarded

    def could_win(self, seat: int, tile: Tile, outcome: Outcome) -> int | None:
        """The patterns (bit mask) of the win ``seat`` could claim on ``tile`` (another seat's
        discard or added kong), its locks applied; None when that win would not be legal."""
        if self.judge is not None:
            return self.judge(self, seat, tile, outcome)
        hand = self.seats[seat]
        profile = self.profile
        if tile in hand.locks or profile is None:
            return None  # MISSED_WIN: the lock is judged as `judge` judges it
        declared = seat in self.declared
        if profile.win_requires_declaration and not declared:
            return None  # NOT_DECLARED: a seat that has not knocked never passes
        return hand.waits.winning_mask(
            profile, self.dealer, seat, hand, tile, outcome, self.first_go_around(seat), declared
        )

    def knock_waits(self, seat: int, tile: int) -> bool:
        """Whether the seat's hand, once it discards ``tile``, waits as a knocking discard must
        leave it (14.10.8): for a simulator choosing where to knock."""
        return _waits_standard(self.seats[seat], tile)

    def _find_candidates(self, tile: Tile, outcome: Outcome) -> None:
        found = []
        for seat in range(4):
            if seat != self.turn:
                mask = self.could_win(seat, tile, outcome)
                if mask is not None:
                    found.append((seat, mask))
        self.candidates = found

    def _settle_passes(self, winners: set[int] | frozenset[int]) -> None:
        """The seats that could have won on the last discard or added kong and did not: each
        passes it, and the tile is locked for it."""
        tile = self.tile
        assert tile is not None
        for seat, mask in self.candidates:
            if seat in winners:
                continue
            hand = self.seats[seat]
            hand.open_passes.append(len(self.passes))
            self.passes.append(Pass(seat, tile, self.source_index, patterns_of(mask)))
            hand.locks.append(tile)
        self.candidates = []

    def _acted(self, seat: int) -> None:
        """The seat draws, chows, pungs or lays down a kong: its locks are lifted."""
        hand = self.seats[seat]
        if hand.locks:
            hand.locks.clear()
            for number in hand.open_passes:
                self.passes[number] = self.passes[number]._replace(lifted_at=self.index)
            hand.open_passes.clear()
        hand.waits.changed()

    # --- events -------------------------------------------------------------------------------

    def apply(self, index: int, event: HandEvent) -> None:
        """Replay one event (its fields checked alone already), or raise InvalidRequest."""
        self.index = index
        self._apply(event)
        self.last_kind = event.kind

    def path(self, field: str, number: int = -1) -> str:
        """The path of the event being replayed, or of one of its fields (made only for a fault)."""
        index = f"[{number}]" if number >= 0 else ""
        return f"events[{self.index}]{field}{index}"

    def _apply(self, event: HandEvent) -> None:
        kind = cast(EventKind, event.kind)  # specified (record_checks)
        if self.declaring is not None and (kind != DISCARD or event.seat != self.turn):
            raise _fault(f"events[{self.declaring}]", "a DECLARE is followed by its seat's knocking DISCARD")
        phase = self.phase
        if phase in (WINNING, ENDED) and not (phase == WINNING and kind == WIN):
            raise _fault(self.path(""), f"the hand ended at events[{self.ended_at}]: nothing follows")
        if phase == DEALING:
            if kind != DEAL:
                raise _fault(self.path(""), "a record starts with four DEAL events, one per seat")
            self._deal(event)
            return
        if kind == DEAL:
            raise _fault(self.path(""), "the four deals are done: a DEAL comes only at the start")
        if kind == DECLARE:
            self._declare(event)
            return
        if kind == ABANDON:
            self._abandon(event)
            return
        if kind == WIN:
            self._win(event)
            return
        opening, self.opening = self.opening, False
        if kind == EXHAUSTIVE_DRAW and phase != DISCARDED:
            raise _fault(self.path(""), "an EXHAUSTIVE_DRAW follows a discard that no one claims")
        if phase in (DISCARDED, KONG_ADDED):
            self._after_offer(event)
            return
        seat = event.seat
        if phase == DRAWING:
            if kind != DRAW or seat != self.turn:
                drew = self._drew_dragon()
                said = (
                    f"seat {self.turn} draws again: {drew};"
                    if drew
                    else f"seat {self.turn} draws next (a replacement draw),"
                )
                raise _fault(self.path(""), f"{said} not a {kind.name} by seat {seat}")
            self._draw(event, replacement=True)
            return
        if seat != self.turn:
            raise _fault(self.path(""), f"seat {self.turn} is to play, not seat {seat}")
        if kind == DISCARD:
            self._discard(event)
        elif phase == CLAIMED:
            raise _fault(self.path(""), f"after a chow or a pung seat {seat} discards, not a {kind.name}")
        elif kind == CONCEALED_KONG:
            self._concealed_kong(event)
        elif kind == ADDED_KONG:
            self._added_kong(event)
        else:
            when = "the dealer opens:" if opening else "after a draw"
            raise _fault(self.path(""), f"{when} seat {seat} discards, lays down a kong or wins, not a {kind.name}")

    def _show_tile(self, tile: Tile, field: str, number: int = -1) -> None:
        count = self.shown[tile] + 1
        if count > 4:
            raise _fault(self.path(field, number), f"a fifth {_name(tile)}: a tile has only four copies")
        self.shown[tile] = count

    def _show_flower(self, flower: Flower, field: str, number: int = -1) -> None:
        bit = 1 << flower
        if self.flowers_shown & bit:
            raise _fault(self.path(field, number), f"flower {int(flower)}f appears twice")
        self.flowers_shown |= bit

    def _deal(self, event: HandEvent) -> None:
        seat = event.seat
        hand = self.seats[seat]
        if hand.dealt:
            raise _fault(self.path(".seat"), f"seat {seat} is dealt twice")
        size = 14 if seat == self.dealer else 13
        if len(event.tiles) != size:
            who = "the dealer" if seat == self.dealer else "a non-dealer"
            raise _fault(self.path(".tiles"), f"{who} is dealt {size} tiles, got {len(event.tiles)}")
        tiles = cast(tuple[Tile, ...], event.tiles)  # every tile specified (record_checks)
        dragons_flowers = self.dragons_are_flowers
        for number, tile in enumerate(tiles):
            if dragons_flowers and tile >= FIRST_DRAGON:
                raise _fault(self.path(".tiles", number), _DEALT_DRAGON)
            self._show_tile(tile, ".tiles", number)
            hand.add(tile, 1)
        dragons = cast(tuple[Tile, ...], event.dragon_flowers)  # every tile specified (record_checks)
        if dragons and self.profile is not None and not dragons_flowers:
            raise _fault(self.path(".dragon_flowers"), f"profile {self.profile.name!r} has no dragon flowers")
        for number, tile in enumerate(dragons):
            if tile < FIRST_DRAGON:
                raise _fault(self.path(".dragon_flowers", number), not_a_dragon(_name(tile)))
            self._show_tile(tile, ".dragon_flowers", number)
            hand.dragon_flowers.append(tile)
        for number, flower in enumerate(cast(tuple[Flower, ...], event.flowers)):
            self._show_flower(flower, ".flowers", number)
            hand.flowers.append(flower)
        hand.dealt = tiles
        self.dealt += 1
        if self.dealt == 4:
            self.phase = HOLDING
            self.turn = self.dealer
            self.opening = True
            self.tile = None

    def _draw(self, event: HandEvent, replacement: bool) -> None:
        seat = event.seat
        hand = self.seats[seat]
        self._acted(seat)
        tile = event.tile
        if not replacement:
            self.after_kong = False
        if event.flower is not None:
            self._show_flower(event.flower, ".flower")
            hand.flowers.append(event.flower)
            self.phase = DRAWING
            self.season_drawn = True
            self.dragon_drawn = None
        elif tile is not None and tile >= FIRST_DRAGON and self.dragons_are_flowers:
            self._show_tile(tile, ".tile")  # 14.6: a drawn dragon is a flower: revealed, and the seat draws again
            hand.dragon_flowers.append(tile)
            self.phase = DRAWING
            self.season_drawn = False
            self.dragon_drawn = tile
        else:
            assert tile is not None  # a DRAW has one of tile and flower (record_checks)
            self._show_tile(tile, ".tile")
            hand.add(tile, 1)
            self.phase = HOLDING
            self.tile = tile
            profile = self.profile
            needs_kong = profile is not None and profile.kong_bloom_needs_kong
            self.replacement = replacement and (self.after_kong or not needs_kong)
        self.turn = seat

    def _discard(self, event: HandEvent) -> None:
        seat, tile = event.seat, event.tile
        assert tile is not None
        hand = self.seats[seat]
        if not hand.counts[tile]:
            raise _fault(self.path(".tile"), self._holds_no(seat, tile))
        hand.add(tile, -1)
        hand.discarded = True
        hand.waits.changed()
        if self.declaring is not None:
            if not _waits_standard(hand):
                raise _fault(
                    f"events[{self.declaring}]",
                    f"after its knocking discard of {_name(tile)} seat {seat}'s hand waits on no tile (four sets and a pair)",
                )
            self.declaring = None
            self.declared.append(seat)
        self.knocked_discard = seat in self.declared
        self.phase = DISCARDED
        self.tile = tile
        self.source_index = self.index
        self._find_candidates(tile, Outcome.DISCARD)

    def _concealed_kong(self, event: HandEvent) -> None:
        seat, tile = event.seat, event.tile
        assert tile is not None
        hand = self.seats[seat]
        if hand.counts[tile] != 4:
            if not hand.counts[tile]:
                raise _fault(self.path(".tile"), self._holds_no(seat, tile) + ": a concealed kong is four")
            raise _fault(
                self.path(".tile"), f"seat {seat} holds {hand.counts[tile]} {_name(tile)}: a concealed kong is four"
            )
        hand.add(tile, -4)
        hand.melds.append(Meld(MeldKind.CONCEALED_KONG, (tile,) * 4, 0))
        hand.counted.append(False)
        self.after_kong = True
        self._acted(seat)
        self.claimed = True
        self.phase = DRAWING

    def _added_kong(self, event: HandEvent) -> None:
        seat, tile = event.seat, event.tile
        assert tile is not None
        hand = self.seats[seat]
        number = next((n for n, m in enumerate(hand.melds) if m.kind == MeldKind.PUNG and m.tiles[0] == tile), None)
        if number is None:
            if self._is_dragon_flower(tile):
                raise _fault(self.path(".tile"), self._holds_no(seat, tile))
            raise _fault(self.path(".tile"), f"seat {seat} holds no pung of {_name(tile)} to add to")
        meld = hand.melds[number]
        if not hand.counts[tile]:
            raise _fault(self.path(".tile"), f"seat {seat} holds no {_name(tile)} to add to its pung")
        hand.add(tile, -1)
        hand.melds[number] = Meld(MeldKind.ADDED_KONG, (tile,) * 4, meld.from_seat)
        self.unclaimed_by_kong = None
        if hand.counted[number] and self.profile is not None and self.profile.liability_skips_kongs:
            hand.counted[number] = False  # 14.6: a pung upgraded to a kong stops counting
            self.claims[(seat, meld.from_seat)] -= 1
            self.unclaimed_by_kong = number
        self.after_kong = True
        self._acted(seat)
        self.claimed = True
        self.phase = KONG_ADDED
        self.tile = tile
        self.source_index = self.index
        self._find_candidates(tile, Outcome.ROBBING_KONG)

    def _after_offer(self, event: HandEvent) -> None:
        """The event after a discard or an added kong that no one won on."""
        kind, seat = cast(EventKind, event.kind), event.seat
        offered, source = self.tile, self.turn
        assert offered is not None
        if self.phase == KONG_ADDED:
            if kind != DRAW or seat != source:
                raise _fault(
                    self.path(""),
                    f"after an added kong: robbing wins by other seats or seat {source}'s replacement draw, not a {kind.name} by seat {seat}",
                )
            self._settle_passes(_NOBODY)
            self._draw(event, replacement=True)
            return
        nxt = (source + 1) % 4
        if kind == DRAW:
            if seat != nxt:
                raise _fault(self.path(".seat"), f"after seat {source}'s discard seat {nxt} draws, not seat {seat}")
            self._settle_passes(_NOBODY)
            self._draw(event, replacement=False)
            return
        if kind == EXHAUSTIVE_DRAW:
            self._settle_passes(_NOBODY)
            self.outcome = Outcome.EXHAUSTIVE_DRAW
            self._end(ENDED)
            return
        if kind not in (CHOW, PUNG, EXPOSED_KONG):
            raise _fault(
                self.path(""),
                f"after a discard: a win, a claim, seat {nxt}'s draw or an exhaustive draw, not a {kind.name}",
            )
        if seat == source:
            raise _fault(self.path(".seat"), f"seat {seat} cannot claim its own discard")
        hand = self.seats[seat]
        if kind == CHOW:
            tiles = self._chow_tiles(event, offered, source, nxt)
        else:
            needed = 2 if kind == PUNG else 3
            if hand.counts[offered] < needed:
                held = hand.counts[offered]
                raise _fault(self.path(""), f"seat {seat} holds {held} {_name(offered)}: a {kind.name} needs {needed}")
            hand.add(offered, -needed)
            tiles = (offered,) * (needed + 1)
        self._settle_passes(_NOBODY)
        hand.melds.append(Meld(_CLAIMED_MELD[kind], tiles, source))
        counts_claim = self._claim_counts(kind)
        hand.counted.append(counts_claim)
        if kind == EXPOSED_KONG:
            self.after_kong = True
        self._acted(seat)
        self.claimed = True
        if counts_claim:
            self.claims[(seat, source)] = self.claims.get((seat, source), 0) + 1
        self.turn = seat
        self.phase = DRAWING if kind == EXPOSED_KONG else CLAIMED

    def _claim_counts(self, kind: EventKind) -> bool:
        """Whether this claim counts for liability (RULES.md 14.6, 14.10.6)."""
        profile = self.profile
        if profile is None:
            return True
        if kind == EXPOSED_KONG and profile.liability_skips_kongs:
            return False
        return not (profile.liability_mode == LiabilityMode.CONTRACT and self.knocked_discard)

    def _declare(self, event: HandEvent) -> None:
        """敲 (RULES.md 14.10.8): only where the seat discards next, once, under a profile that asks
        for it; its knocking discard is checked to leave the hand waiting."""
        seat = event.seat
        profile = self.profile
        if profile is not None and not profile.win_requires_declaration:
            raise _fault(self.path(""), f"profile {profile.name!r} has no knock (win_requires_declaration is off)")
        if self.phase not in (HOLDING, CLAIMED) or seat != self.turn:
            raise _fault(self.path(""), f"seat {seat} may knock only right before its own discard ({self._where()})")
        if seat in self.declared:
            raise _fault(self.path(""), f"seat {seat} has knocked already")
        self.opening = False
        self.declaring = self.index

    def _chow_tiles(self, event: HandEvent, offered: Tile, source: int, nxt: int) -> tuple[Tile, ...]:
        seat = event.seat
        if seat != nxt:
            raise _fault(self.path(".seat"), f"only seat {nxt}, the 下家 of seat {source}, may chow its discard")
        if len(event.tiles) != 2:
            raise _fault(self.path(".tiles"), f"a chow takes 2 tiles from the hand, got {len(event.tiles)}")
        taken = cast(tuple[Tile, ...], event.tiles)  # every tile specified (record_checks)
        tiles = tuple(sorted((offered, *taken)))
        low, middle, high = tiles
        if not (high < FIRST_HONOUR and low // 9 == high // 9 and middle == low + 1 and high == low + 2):
            shown = " ".join(_name(t) for t in taken)
            raise _fault(self.path(".tiles"), f"{shown} do not form a chow with the discarded {_name(offered)}")
        hand = self.seats[seat]
        for number, tile in enumerate(taken):
            if not hand.counts[tile]:
                raise _fault(self.path(f".tiles[{number}]"), self._holds_no(seat, tile))
        for tile in taken:
            hand.add(tile, -1)
        return tiles

    def _abandon(self, event: HandEvent) -> None:
        if self.profile is not None and not self.profile.has_abandon_rule:
            raise _fault(self.path(""), f"profile {self.profile.name!r} has no abandon rule")
        if self.phase in (DISCARDED, KONG_ADDED):
            self._settle_passes(_NOBODY)
        self.outcome = Outcome.ABANDON
        self.abandoning = event.seat
        self._end(ENDED)

    def _end(self, phase: Phase) -> None:
        self.phase = phase
        self.ended_at = self.index

    def _win(self, event: HandEvent) -> None:
        seat = event.seat
        if self.phase == WINNING:
            win = self.win
            assert win is not None
            if win.outcome not in (Outcome.DISCARD, Outcome.ROBBING_KONG):
                raise _fault(self.path(""), f"the hand ended at events[{self.ended_at}]: nothing follows")
            if seat == win.discarder or any(w.seat == seat for w in self.winners):
                raise _fault(self.path(".seat"), f"seat {seat} cannot win again on this tile")
            if event.last_tile:
                raise _fault(self.path(".last_tile"), _LAST_TILE)
            self._add_winner(seat, win)
            return
        win = self._win_kind(seat)
        if event.last_tile and not (win.outcome == Outcome.SELF_DRAW and self.last_kind == DRAW):
            raise _fault(self.path(".last_tile"), _LAST_TILE)
        if win.outcome == Outcome.ROBBING_KONG:
            self._kong_robbed()
        self.last_tile = event.last_tile
        self.win = win
        self.outcome = win.outcome
        self._end(WINNING)
        if win.outcome in (Outcome.DISCARD, Outcome.ROBBING_KONG):
            self.turn = win.discarder
        self._add_winner(seat, win)

    def _win_kind(self, seat: int) -> Win:
        """What a WIN by ``seat`` is at this point of the hand, or InvalidRequest."""
        phase, turn = self.phase, self.turn
        hand = self.seats[seat]
        if self.opening and len(hand.flowers) == 8:
            return Win(Outcome.EIGHT_FLOWERS, 0, None)
        if phase in (DISCARDED, KONG_ADDED) and seat != turn:
            outcome = Outcome.DISCARD if phase == DISCARDED else Outcome.ROBBING_KONG
            return Win(outcome, turn, self.tile)
        if seat == turn:
            if phase == HOLDING and self.opening:
                return Win(Outcome.SELF_DRAW, 0, hand.dealt[-1])  # 天胡: on the last tile dealt
            if phase == HOLDING and self.tile is not None:
                return Win(Outcome.SELF_DRAW, 0, self.tile)
            if phase == DRAWING and len(hand.flowers) == 8 and self._drew_flower_last and self.season_drawn:
                return Win(Outcome.EIGHT_FLOWERS, 0, None)
        raise _fault(self.path(""), f"seat {seat} cannot claim a win here ({self._where()})")

    @property
    def _drew_flower_last(self) -> bool:
        """In DRAWING: whether the seat's last event was a flower draw (not a kong)."""
        return self.last_kind == DRAW

    def _where(self) -> str:
        phase = self.phase
        if phase == DISCARDED:
            return f"seat {self.turn} discarded, and no seat wins on its own discard"
        if phase == KONG_ADDED:
            return f"seat {self.turn} added to a kong, and no seat robs its own kong"
        if phase == CLAIMED:
            return f"seat {self.turn} claimed a tile and discards next"
        if phase == DRAWING:
            drew = self._drew_dragon()
            return f"seat {self.turn} draws again: {drew}" if drew else f"seat {self.turn} draws next"
        return f"seat {self.turn} is to play"

    def _drew_dragon(self) -> str:
        """In DRAWING right after a drawn 中发白: why the seat draws again (else "")."""
        dragon = self.dragon_drawn
        if dragon is None or self.last_kind != DRAW:
            return ""
        return f"its {_name(dragon)} was a flower, 中发白 being flowers under this profile (dragons_are_flowers)"

    def _is_dragon_flower(self, tile: int) -> bool:
        return tile >= FIRST_DRAGON and self.dragons_are_flowers

    def _holds_no(self, seat: int, tile: int) -> str:
        """``seat 0 holds no 5m``, and why when the tile is a 中发白 that is a flower here."""
        said = f"seat {seat} holds no {_name(tile)}"
        return f"{said} ({_DRAGON_FLOWER})" if self._is_dragon_flower(tile) else said

    def _kong_robbed(self) -> None:
        """Robbing an added kong: the robbed tile stays out of it, so its player's meld is the pung
        it was, and a claim the kong stopped counting (14.6) counts again."""
        hand = self.seats[self.turn]
        tile = cast(Tile, self.tile)
        number = next(n for n, m in enumerate(hand.melds) if m.kind == MeldKind.ADDED_KONG and m.tiles[0] == tile)
        hand.melds[number] = Meld(MeldKind.PUNG, (tile,) * 3, hand.melds[number].from_seat)
        if self.unclaimed_by_kong == number:
            hand.counted[number] = True
            key = (self.turn, hand.melds[number].from_seat)
            self.claims[key] = self.claims.get(key, 0) + 1

    def _add_winner(self, seat: int, win: Win) -> None:
        self.winners.append(self.winner(seat, win))

    def winner(self, seat: int, win: Win) -> Winner:
        """The winner a WIN of kind ``win`` by ``seat`` would derive now."""
        hand = self.seats[seat]
        concealed = hand.concealed()
        if win.outcome in (Outcome.DISCARD, Outcome.ROBBING_KONG):
            concealed = tuple(sorted((*concealed, cast(Tile, win.tile))))
        melds = tuple(Meld(m.kind, tuple(sorted(cast(tuple[Tile, ...], m.tiles))), m.from_seat) for m in hand.melds)
        replacement = win.outcome == Outcome.SELF_DRAW and self.replacement and not self.opening
        return Winner(
            seat,
            Hand(concealed, win.tile, melds, tuple(hand.flowers), tuple(hand.dragon_flowers)),
            tuple(hand.locks),
            replacement,
            self.first_go_around(seat),
            self.last_tile and win.outcome == Outcome.SELF_DRAW,
        )

    def claimable(self, seat: int) -> Win | None:
        """What a WIN by ``seat`` would be as the next event, or None where it may claim none."""
        if self.phase == WINNING:
            win = self.win
            assert win is not None
            if win.outcome in (Outcome.DISCARD, Outcome.ROBBING_KONG) and seat != win.discarder:
                return None if any(w.seat == seat for w in self.winners) else win
            return None
        if self.phase in (DEALING, ENDED):
            return None
        try:
            return self._win_kind(seat)
        except InvalidRequest:
            return None

    # --- the derived request ------------------------------------------------------------------

    def derived(self, request: SettleRecordRequest) -> SettleRequest:
        win = self.win
        # 14.10.8: pattern_kept is read (and derived) under LIABILITY_MODE_CONTRACT only
        derive_kept = self.profile is not None and self.profile.liability_mode == LiabilityMode.CONTRACT
        liabilities = tuple(
            LiabilityRelation(c, s, n, derive_kept and self.pattern_kept(c))
            for (c, s), n in sorted(self.claims.items())
            if n
        )
        return SettleRequest(
            profile=request.profile,
            outcome=self.outcome,
            winners=tuple(self.winners),
            dealer_seat=request.dealer_seat,
            dice=request.dice,
            huangfan_count=request.huangfan_count,
            discarder_seat=win.discarder if win is not None else 0,
            liabilities=liabilities,
            abandoning_seat=self.abandoning,
            overrides=request.overrides,
            request_id=request.request_id,
            declared_seats=tuple(self.declared),
        )

    def pattern_kept(self, seat: int) -> bool:
        """14.10.1: the seat's exposed melds (all but concealed kongs) are all pungs and kongs, or
        hold suited tiles of one suit at most."""
        exposed = [m for m in self.seats[seat].melds if m.kind != MeldKind.CONCEALED_KONG]
        if all(m.kind != MeldKind.CHOW for m in exposed):
            return True
        return len({cast(Tile, m.tiles[0]) // 9 for m in exposed if cast(Tile, m.tiles[0]) < FIRST_HONOUR}) <= 1

    def finish(self, events_path: str = "events") -> None:
        """The record has no more events: it must have ended. Passes on a last discard are listed."""
        if self.phase not in (WINNING, ENDED):
            raise _fault(
                events_path, "the record does not end: it stops before a WIN, an EXHAUSTIVE_DRAW or an ABANDON"
            )
        if self.phase == WINNING and self.candidates:
            self._settle_passes({w.seat for w in self.winners})
        self.passes.sort(key=lambda p: (p.event_index, p.seat))


def dragons_shown_as_flowers(events: tuple[HandEvent, ...]) -> bool:
    """Whether a record shows 中发白 as flowers (its profile's `dragons_are_flowers`), for
    following it without its profile: a deal lists dragon flowers, or the first seat to draw a
    dragon draws again right after it. A dragon among a deal's tiles, or a drawn one kept,
    shows them as tiles."""
    for index, event in enumerate(events):
        if event.dragon_flowers:
            return True
        if event.kind == DEAL and any(t is not None and t >= FIRST_DRAGON for t in event.tiles):
            return False
        if event.kind == DRAW and event.tile is not None and event.tile >= FIRST_DRAGON:
            after = events[index + 1] if index + 1 < len(events) else None
            return after is not None and after.kind == DRAW and after.seat == event.seat
    return False


def check_table_of_record(
    request: SettleRecordRequest, profiles: ProfileRegistry
) -> tuple[RuleProfile | None, Violations]:
    """The effective profile of a record (None when its table is wrong) and the faults of its
    table: what a request would carry, the recorded deltas, the number of events."""
    violations = Violations()
    add = violations.append
    profile = check_table(request, add, profiles)
    for violation in recorded_deltas_violations(request.recorded_deltas):
        add(violation)
    too_long = events_length_violation(len(request.events))
    if too_long:
        add(too_long)
    return profile, violations


def _first_fault(state: Replay, events: tuple[HandEvent, ...], observe=None) -> list[FieldViolation]:
    """Replay ``events`` into ``state`` up to the first impossible one: its faults (its own
    fields first, then its place in the hand), or none when every event could have happened."""
    for index, event in enumerate(events):
        if not event_fits(event):
            return event_violations(event, f"events[{index}]")
        try:
            state.apply(index, event)
        except InvalidRequest as fault:
            return fault.violations
        if observe is not None:
            observe(index, event, state)
    return []


def first_impossible_event(
    request: SettleRecordRequest, profiles: ProfileRegistry = BUILTIN_REGISTRY
) -> list[FieldViolation]:
    """The faults of the first impossible event among ``request.events``, the events of a record as
    far as they could be read (a reader stops at the first it cannot read), without asking that
    they end the hand; none when each could have happened. The table's faults are not listed."""
    if not _replayable(request):
        return []
    profile = check_table(request, Violations().append, profiles)
    return _first_fault(Replay(profile, request.dealer_seat), request.events)


def _replayable(request: SettleRecordRequest) -> bool:
    """Whether the record's events can be followed: a dealer to start from, and no more events
    than the longest hand (else none is read)."""
    dealer = request.dealer_seat
    return type(dealer) is int and 0 <= dealer <= 3 and events_length_violation(len(request.events)) is None


def replay(
    request: SettleRecordRequest,
    profiles: ProfileRegistry = BUILTIN_REGISTRY,
    observe: Callable[[int, HandEvent, Replay], None] | None = None,
    judge: CouldWin | None = None,
) -> Replay:
    """Replay every event of a record (``observe`` is called after each), or InvalidRequest:
    the faults of its table with those of its first impossible event, none after it read."""
    profile, violations = check_table_of_record(request, profiles)
    state = Replay(profile, request.dealer_seat, judge)
    if _replayable(request):
        faults = _first_fault(state, request.events, observe)
        if not faults:
            try:
                state.finish()
            except InvalidRequest as fault:
                faults = fault.violations
    elif events_length_violation(len(request.events)) is None:
        faults = _first_with_bad_fields(request.events)  # no dealer to follow: each event's fields alone
    else:
        faults = []  # more events than any hand: none is read
    for violation in faults:
        violations.append(violation)
    if violations or profile is None:
        raise InvalidRequest(violations)
    return state


def _first_with_bad_fields(events: tuple[HandEvent, ...]) -> list[FieldViolation]:
    for index, event in enumerate(events):
        if not event_fits(event):
            return event_violations(event, f"events[{index}]")
    return []


def settle_record(
    request: SettleRecordRequest, profiles: ProfileRegistry = BUILTIN_REGISTRY, judge: CouldWin | None = None
) -> RecordResult:
    """Replay a record, settle what it implies, and check the deltas it recorded."""
    state = replay(request, profiles, judge=judge)
    derived = state.derived(request)
    settlement = settle(derived, profiles)
    recorded = request.recorded_deltas
    mismatched: tuple[int, ...] = ()
    if recorded:
        mismatched = tuple(seat for seat in range(4) if recorded[seat] != settlement.seat_deltas[seat])
    return RecordResult(
        request.request_id,
        settlement,
        derived,
        tuple(state.passes),
        bool(recorded) and not mismatched,
        mismatched,
    )

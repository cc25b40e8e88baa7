"""Which tiles a seat waits on while a record is replayed, kept up to date as its hand changes.

A seat's hand changes only on its own draws, claims and kongs; between two of its turns the
other three discard, and each discard asks whether the seat could have won on it (漏胡).
`SeatWaits` answers from the seat's shape waits, found once per change of its hand: the tiles
that would give its concealed tiles four sets and a pair (or leave them all honours). Only a
tile among those is judged, by `rules_core.legality.judge` itself (the legality `settle`
uses: section 4, overrides and house profiles), and each judgement is kept until the hand
changes again. A realistic hand waits on no tile at all most of the time, and then no
discard costs more than a set look-up.
"""

from __future__ import annotations

from typing import cast

from rules_core.legality import judge
from rules_core.profile import RuleProfile
from rules_core.requests import Hand, Outcome, Winner
from rules_core.shape import MAX_SUIT_PATTERNS, suit_code, suit_splits
from rules_core.tiles import FIRST_HONOUR, TILE_KINDS, Tile

_HONOURS = range(FIRST_HONOUR, TILE_KINDS)
_SUIT_STARTS = (0, 9, 18)


def shape_waits(counts: list[int], melds_all_honours: bool, codes=None, totals=None) -> tuple[int, ...]:
    """The tiles that complete a hand one tile short (``counts``: its concealed tiles, a total of
    1 modulo 3) into a complete shape, or into all honours when its melds are all honours.

    Suits are independent (`rules_core.shape`): with the tile added to one suit, every other
    suit must split into sets on its own (with the pair, when it holds 2 modulo 3 tiles), and
    the honours must be pungs and pairs, with one pair in all. So the suits are split once, and
    a candidate costs one table look-up of its own suit. ``codes`` and ``totals``, each suit's
    code and tile count, are found from ``counts`` unless given (a replay keeps them)."""
    honour_pairs = 0
    singles = -1  # the one honour held once, -2 when there are more or an honour held four times
    for tile in _HONOURS:
        count = counts[tile]
        if count:
            if count == 2:
                honour_pairs += 1
            elif count == 1:
                singles = tile if singles == -1 else -2
            elif count == 4:
                singles = -2
    if codes is None or totals is None:
        codes = [suit_code(counts, start) for start in _SUIT_STARTS]
        totals = [sum(counts[start : start + 9]) for start in _SUIT_STARTS]
    found: list[int] = []
    if singles == -2:
        return _honours_only(counts, totals, melds_all_honours)
    # the suits that do not split alone; the tile must go to the one of them, if any
    broken = []
    for suit in range(3):
        if totals[suit] % 3 == 1 or not suit_splits(codes[suit]):
            broken.append(suit)
            if len(broken) == 2:
                return _honours_only(counts, totals, melds_all_honours)
    pairs = honour_pairs + sum(1 for total in totals if total % 3 == 2)
    if singles >= 0:
        if not broken and pairs == 0:
            found.append(singles)  # the single honour pairs
    elif len(broken) == 1:
        suit = broken[0]
        after = (totals[suit] + 1) % 3
        if after != 1 and pairs - (totals[suit] % 3 == 2) + (after == 2) == 1:
            _suit_waits(codes[suit], suit, found)
    elif not broken and pairs == 2:
        # two pairs: one of them becomes a set, the honours' as a pung, a suit's with its tiles
        for suit in range(3):
            if totals[suit] % 3 == 2:
                _suit_waits(codes[suit], suit, found)
        for tile in _HONOURS:
            if counts[tile] == 2:
                found.append(tile)
    if melds_all_honours and not any(totals):
        return _honours_only(counts, totals, melds_all_honours)  # every honour, those found among them
    return tuple(found)


def _suit_waits(code: int, suit: int, found: list[int]) -> None:
    """The tiles of a suit with which it splits into sets (and the pair, if it then holds one)."""
    ranks = _SUIT_WAITS.get(code)
    if ranks is None:
        if len(_SUIT_WAITS) >= MAX_SUIT_PATTERNS:
            _SUIT_WAITS.clear()
        ranks = _SUIT_WAITS[code] = tuple(
            rank
            for rank in range(9)
            if (code >> (4 * (8 - rank))) & 15 < 4 and suit_splits(code + (1 << (4 * (8 - rank))))
        )
    start = _SUIT_STARTS[suit]
    for rank in ranks:
        found.append(start + rank)


# suit code -> the ranks that, added, let the suit split; bounded as rules_core.shape's tables are.
_SUIT_WAITS: dict[int, tuple[int, ...]] = {}


def _honours_only(counts: list[int], totals, melds_all_honours: bool) -> tuple[int, ...]:
    """乱风向: a hand of honours alone wins on any honour, whatever its shape."""
    if melds_all_honours and not any(totals):
        return tuple(tile for tile in _HONOURS if counts[tile] < 4)
    return ()


class SeatWaits:
    """The winning tiles of one seat's current hand, judged on demand and kept until it changes."""

    __slots__ = ("_judged", "_waits")

    def __init__(self) -> None:
        self._waits: tuple[int, ...] | None = None
        self._judged: dict[tuple[Outcome, bool, int], int | None] = {}

    def changed(self) -> None:
        """The seat's hand changed: its waits are found again when next asked."""
        self._waits = None
        self._judged.clear()

    def shape_waits(self, hand) -> tuple[int, ...]:
        """The tiles that complete the hand's shape (`shape_waits`), found once per change."""
        waits = self._waits
        if waits is None:
            all_honours = True
            for meld in hand.melds:
                if meld.tiles[0] < FIRST_HONOUR:
                    all_honours = False
                    break
            waits = self._waits = shape_waits(hand.counts, all_honours, hand.codes, hand.totals)
        return waits

    def winning_mask(
        self,
        profile: RuleProfile,
        dealer_seat: int,
        seat: int,
        hand,
        tile: int,
        outcome: Outcome,
        first_go_around: bool,
        declared: bool = True,
    ) -> int | None:
        """The patterns (bit mask) of the legal win the seat would claim on ``tile`` from another
        seat (by ``outcome``, no 漏胡 lock applied), or None when that win is not legal. ``hand``
        is the seat's `rules_core.replay.SeatHand`; ``declared``: it has knocked (read under
        `win_requires_declaration`). Under `seven_pairs` a hand without melds has its tile judged
        whatever its shape wait."""
        if not (profile.seven_pairs and not hand.melds) and tile not in self.shape_waits(hand):
            return None
        counts = hand.counts
        key = (outcome, first_go_around, tile + 64 * declared)
        if key in self._judged:
            return self._judged[key]
        counts[tile] += 1
        try:
            concealed = tuple(t for t in range(TILE_KINDS) for _ in range(counts[t]))
            held = Hand(
                cast(tuple, concealed),
                cast(Tile, tile),
                tuple(hand.melds),
                tuple(hand.flowers),
                tuple(hand.dragon_flowers),
            )
            winner = Winner(seat, held, (), False, first_go_around)
            mask, reasons, _, _, _ = judge(profile, outcome, dealer_seat, winner, counts, declared)
            found = None if reasons else mask
        finally:
            counts[tile] -= 1
        self._judged[key] = found
        return found

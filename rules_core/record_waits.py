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

from rules_core.legality import judge
from rules_core.profile import RuleProfile
from rules_core.requests import Hand, Meld, Outcome, Winner
from rules_core.shape import Shape, shape_of
from rules_core.tiles import FIRST_HONOUR, TILE_KINDS

_HONOURS = range(FIRST_HONOUR, TILE_KINDS)
_SUIT_STARTS = (0, 9, 18)


def shape_waits(counts: list[int], melds_all_honours: bool) -> tuple[int, ...]:
    """The tiles that complete a hand one tile short (``counts``: its concealed tiles, a total of
    1 modulo 3) into a complete shape, or into all honours when its melds are all honours."""
    total = sum(counts)
    if total % 3 != 1:
        return ()
    honours_only = melds_all_honours
    if honours_only:
        for tile in range(FIRST_HONOUR):
            if counts[tile]:
                honours_only = False
                break
    # Remainders modulo 3 rule out most candidates: with the tile added, every suit holds sets
    # (0) or sets and the pair (2), and there is exactly one pair in all.
    remainders = [sum(counts[start : start + 9]) % 3 for start in _SUIT_STARTS]
    honour_pairs = 0
    odd_honours = []  # honours held once (a pair wanting) or four times (never sets)
    for tile in _HONOURS:
        count = counts[tile]
        if count == 2:
            honour_pairs += 1
        elif count == 1 or count == 4:
            odd_honours.append(tile)
    candidates: list[int] = []
    if not odd_honours or (len(odd_honours) == 1 and counts[odd_honours[0]] == 1):
        for suit, start in enumerate(_SUIT_STARTS):
            rest = remainders[:suit] + remainders[suit + 1 :]
            after = (remainders[suit] + 1) % 3
            if odd_honours or 1 in rest or after == 1:
                continue
            if rest.count(2) + (after == 2) + honour_pairs != 1:
                continue
            for tile in range(start, start + 9):
                low = max(start, tile - 2)
                if any(counts[low : min(start + 9, tile + 3)]):
                    candidates.append(tile)
        if 1 not in remainders:
            suit_pairs = remainders.count(2)
            for tile in odd_honours or _HONOURS:
                count = counts[tile]
                pairs_after = honour_pairs + suit_pairs + (count == 1) - (count == 2)
                if count in (1, 2) and pairs_after == 1:
                    candidates.append(tile)
    found = []
    for tile in candidates:
        counts[tile] += 1
        if shape_of(counts)[0] != Shape.INCOMPLETE:
            found.append(tile)
        counts[tile] -= 1
    if honours_only:
        for tile in _HONOURS:
            if counts[tile] < 4 and tile not in found:
                found.append(tile)
        found.sort()
    return tuple(found)


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

    def winning_mask(
        self,
        profile: RuleProfile,
        dealer_seat: int,
        seat: int,
        counts: list[int],
        melds: list[Meld],
        flowers: list,
        tile: int,
        outcome: Outcome,
        first_go_around: bool,
    ) -> int | None:
        """The patterns (bit mask) of the legal win the seat would claim on ``tile`` from another
        seat (by ``outcome``, no 漏胡 lock applied), or None when that win is not legal."""
        waits = self._waits
        if waits is None:
            all_honours = all(meld.tiles[0] >= FIRST_HONOUR for meld in melds)
            waits = self._waits = shape_waits(counts, all_honours)
        if tile not in waits:
            return None
        key = (outcome, first_go_around, tile)
        if key in self._judged:
            return self._judged[key]
        counts[tile] += 1
        try:
            concealed = tuple(t for t in range(TILE_KINDS) for _ in range(counts[t]))
            hand = Hand(concealed, tile, tuple(melds), tuple(flowers))  # type: ignore[arg-type]
            winner = Winner(seat, hand, (), False, first_go_around)
            mask, reasons, _ = judge(profile, outcome, dealer_seat, winner, counts)
        finally:
            counts[tile] -= 1
        found = None if reasons else mask
        self._judged[key] = found
        return found

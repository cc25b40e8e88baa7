"""Seeded random settle requests: realistic hands of every profile and outcome, legal and illegal.

About 2% of hands hold a fifth copy of a tile: the malformed share of the mix.

Used by the property tests, the benchmark and the load generator, so that all
three exercise the same mix. The same seed always gives the same requests.
"""

from __future__ import annotations

import random

from rules_core.requests import Dice, Hand, LiabilityRelation, Meld, MeldKind, Outcome, SettleRequest, Winner
from rules_core.tiles import ALL_FLOWERS, FIRST_HONOUR, Tile

PROFILES = ("classic", "sankou", "lezi")
_OUTCOMES = (
    (Outcome.SELF_DRAW, 34),
    (Outcome.DISCARD, 40),
    (Outcome.ROBBING_KONG, 5),
    (Outcome.EIGHT_FLOWERS, 3),
    (Outcome.EXHAUSTIVE_DRAW, 10),
    (Outcome.ABANDON, 2),
)
# Hand styles: which tiles the sets are drawn from.
_STYLES = ("mixed", "pungs", "flush", "half_flush", "honours", "incomplete")
_STYLE_WEIGHTS = (35, 20, 15, 15, 5, 10)


class HandGenerator:
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def request(self, index: int = 0) -> SettleRequest:
        rng = self.rng
        profile = rng.choice(PROFILES)
        outcome = rng.choices([o for o, _ in _OUTCOMES], [w for _, w in _OUTCOMES])[0]
        if outcome == Outcome.ABANDON and profile != "lezi":
            outcome = Outcome.EXHAUSTIVE_DRAW
        dealer = rng.randrange(4)
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6)) if rng.random() < 0.5 else None
        huangfan = rng.choice((0, 0, 0, 0, 1, 2))
        discarder = rng.randrange(4)
        winners: list[Winner] = []
        if outcome in (Outcome.SELF_DRAW, Outcome.EIGHT_FLOWERS):
            seats = [rng.randrange(4)]
        elif outcome.is_claimed_discard:
            others = [s for s in range(4) if s != discarder]
            count = 1 if rng.random() < 0.9 else 2
            seats = sorted(rng.sample(others, count))
        else:
            seats = []
        for seat in seats:
            winners.append(self.winner(seat, outcome, dealer))
        liabilities = tuple(
            LiabilityRelation(a, b, rng.choice((1, 2, 3, 3, 4)))
            for a, b in ((rng.randrange(4), rng.randrange(4)) for _ in range(rng.choice((0, 0, 1, 2))))
            if a != b
        )
        return SettleRequest(
            request_id=f"r{index}",
            profile=profile,
            outcome=outcome,
            winners=tuple(winners),
            dealer_seat=dealer,
            dice=dice,
            huangfan_count=huangfan,
            discarder_seat=discarder,
            liabilities=liabilities,
            abandoning_seat=rng.randrange(4),
        )

    def winner(self, seat: int, outcome: Outcome, dealer: int) -> Winner:
        rng = self.rng
        style = rng.choices(_STYLES, _STYLE_WEIGHTS)[0]
        sets, pair = self._sets(style)
        melds: list[Meld] = []
        concealed: list[int] = list(pair)
        meld_count = rng.choice((0, 0, 1, 1, 2, 3, 4))
        for number, tiles in enumerate(sets):
            if number < meld_count:
                melds.append(self._meld(tiles, seat))
            else:
                concealed.extend(tiles)
        if style == "incomplete":
            concealed[-1] = rng.randrange(FIRST_HONOUR + 7)
        flowers = tuple(sorted(rng.sample(ALL_FLOWERS, rng.choice((0, 0, 1, 2, 3)))))
        if outcome == Outcome.EIGHT_FLOWERS:
            flowers = ALL_FLOWERS if rng.random() < 0.9 else ALL_FLOWERS[:7]
        winning = Tile(rng.choice(concealed))
        passed = (Tile(rng.choice(concealed)),) if rng.random() < 0.1 else ()
        return Winner(
            seat=seat,
            hand=Hand(tuple(Tile(t) for t in concealed), winning, tuple(melds), flowers),
            passed_tiles=passed,
            replacement_draw=outcome == Outcome.SELF_DRAW and rng.random() < 0.1,
            first_go_around=rng.random() < 0.03,
        )

    def special_sets(self, style: str) -> tuple[list[list[int]], list[int]]:
        """Four sets and a pair of a style (``flush``, ``half_flush``, ``pungs``, ``honours``,
        ``mixed``), as tile indexes; now and then the pair is a fifth copy."""
        return self._sets(style)

    def _sets(self, style: str) -> tuple[list[list[int]], list[int]]:
        """Four sets and a pair of the style, drawn so no tile is used more than four times."""
        rng = self.rng
        suit = rng.randrange(3) * 9
        used = [0] * (FIRST_HONOUR + 7)
        sets: list[list[int]] = []
        while len(sets) < 4:
            tiles = self._set(style, suit)
            if all(used[t] + tiles.count(t) <= 4 for t in tiles):
                for t in tiles:
                    used[t] += 1
                sets.append(tiles)
        while True:
            if style == "honours":
                pair_tile = FIRST_HONOUR + rng.randrange(7)
            elif style in ("flush", "half_flush"):
                pair_tile = suit + rng.randrange(9)
            else:
                pair_tile = rng.randrange(FIRST_HONOUR + 7)
            if used[pair_tile] <= 2 or rng.random() < 0.02:  # now and then a fifth copy: malformed
                return sets, [pair_tile, pair_tile]

    def _set(self, style: str, suit: int) -> list[int]:
        rng = self.rng
        if style == "honours" or (style in ("half_flush", "mixed", "pungs") and rng.random() < 0.25):
            return [FIRST_HONOUR + rng.randrange(7)] * 3
        base = suit if style in ("flush", "half_flush") else rng.randrange(3) * 9
        if style == "pungs" or rng.random() < 0.4:
            return [base + rng.randrange(9)] * 3
        low = base + rng.randrange(7)
        return [low, low + 1, low + 2]

    def _meld(self, tiles: list[int], seat: int) -> Meld:
        rng = self.rng
        previous = (seat + 3) % 4
        if tiles[0] != tiles[1]:
            return Meld(MeldKind.CHOW, tuple(Tile(t) for t in tiles), previous)
        source = (seat + rng.randrange(1, 4)) % 4
        kind = rng.choice(
            (
                MeldKind.PUNG,
                MeldKind.PUNG,
                MeldKind.PUNG,
                MeldKind.EXPOSED_KONG,
                MeldKind.ADDED_KONG,
                MeldKind.CONCEALED_KONG,
            )
        )
        size = 3 if kind == MeldKind.PUNG else 4
        return Meld(kind, (Tile(tiles[0]),) * size, source)


def generate_requests(count: int, seed: int = 0) -> list[SettleRequest]:
    generator = HandGenerator(seed)
    return [generator.request(i) for i in range(count)]

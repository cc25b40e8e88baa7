"""Build requests from the notation of RULES.md: ``hand("123m 456p EEE 77s [555p@1]", win="7s")``."""

from __future__ import annotations

from rules_core.notation import parse_flowers, parse_hand, parse_tile, parse_tiles
from rules_core.requests import Dice, Hand, LiabilityRelation, Winner


def hand(text: str, win: str | None = None, flowers: str = "") -> Hand:
    """A hand from notation; ``win`` names the winning tile (it is among the concealed tiles)."""
    parsed = parse_hand(text)
    all_flowers = parsed.flowers + (parse_flowers(flowers) if flowers else ())
    winning = parse_tile(win) if win else None
    return Hand(parsed.concealed, winning, parsed.melds, all_flowers)


def winner(
    seat: int,
    text: str,
    win: str | None = None,
    flowers: str = "",
    passed: str = "",
    replacement_draw: bool = False,
    first_go_around: bool = False,
) -> Winner:
    return Winner(
        seat=seat,
        hand=hand(text, win, flowers),
        passed_tiles=parse_tiles(passed) if passed else (),
        replacement_draw=replacement_draw,
        first_go_around=first_go_around,
    )


def dice(first: int, second: int) -> Dice:
    return Dice(first, second)


def claims(claimer: int, source: int, count: int = 3) -> LiabilityRelation:
    return LiabilityRelation(claimer, source, count)

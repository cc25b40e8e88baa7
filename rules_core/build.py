"""Build requests and record events from the notation of RULES.md: ``hand("123m 456p EEE 77s [555p@1]",
win="7s")``, ``discard(2, "5m")``."""

from __future__ import annotations

from rules_core.notation import parse_all_flowers, parse_flowers, parse_hand, parse_tile, parse_tiles
from rules_core.records import EventKind, HandEvent
from rules_core.requests import Dice, Hand, LiabilityRelation, Winner


def hand(text: str, win: str | None = None, flowers: str = "", dragon_flowers: str = "") -> Hand:
    """A hand from notation; ``win`` names the winning tile (it is among the concealed tiles);
    ``flowers`` may hold dragon flowers (``"1f Cf Pf"``), as may the hand; ``dragon_flowers`` the
    中发白 held as flowers under `dragons_are_flowers`, written as tiles (``"C C P"``)."""
    parsed = parse_hand(text)
    more_flowers, more_dragons = parse_all_flowers(flowers) if flowers else ((), ())
    winning = parse_tile(win) if win else None
    dragons = parsed.dragon_flowers + more_dragons + (parse_tiles(dragon_flowers) if dragon_flowers else ())
    return Hand(parsed.concealed, winning, parsed.melds, parsed.flowers + more_flowers, dragons)


def winner(
    seat: int,
    text: str,
    win: str | None = None,
    flowers: str = "",
    passed: str = "",
    replacement_draw: bool = False,
    first_go_around: bool = False,
    dragon_flowers: str = "",
    last_tile: bool = False,
) -> Winner:
    return Winner(
        seat=seat,
        hand=hand(text, win, flowers, dragon_flowers),
        passed_tiles=parse_tiles(passed) if passed else (),
        replacement_draw=replacement_draw,
        first_go_around=first_go_around,
        last_tile=last_tile,
    )


def dice(first: int, second: int) -> Dice:
    return Dice(first, second)


def claims(claimer: int, source: int, count: int = 3, pattern_kept: bool = False) -> LiabilityRelation:
    return LiabilityRelation(claimer, source, count, pattern_kept)


# --- hand records (RULES.md section 13): one event each, in the same notation ------------------


def deal(seat: int, tiles: str, flowers: str = "", dragon_flowers: str = "") -> HandEvent:
    """A DEAL: ``tiles`` in the order dealt (the dealer's last one is its 天胡 winning tile);
    ``dragon_flowers`` the 中发白 dealt as flowers under `dragons_are_flowers` (``"C P"``)."""
    return HandEvent(
        EventKind.DEAL,
        seat,
        tiles=parse_tiles(tiles),
        flowers=parse_flowers(flowers) if flowers else (),
        dragon_flowers=parse_tiles(dragon_flowers) if dragon_flowers else (),
    )


def draw(seat: int, tile: str) -> HandEvent:
    """A DRAW of a tile (``"5m"``) or of a flower (``"3f"``); a dragon (``"C"``) is a flower
    under `dragons_are_flowers`."""
    if tile.endswith("f"):
        return HandEvent(EventKind.DRAW, seat, flower=parse_flowers(tile)[0])
    return HandEvent(EventKind.DRAW, seat, tile=parse_tile(tile))


def discard(seat: int, tile: str) -> HandEvent:
    return HandEvent(EventKind.DISCARD, seat, tile=parse_tile(tile))


def chow(seat: int, tiles: str) -> HandEvent:
    """A CHOW with the two tiles from the hand (``"46m"``)."""
    return HandEvent(EventKind.CHOW, seat, tiles=parse_tiles(tiles))


def pung(seat: int) -> HandEvent:
    return HandEvent(EventKind.PUNG, seat)


def exposed_kong(seat: int) -> HandEvent:
    return HandEvent(EventKind.EXPOSED_KONG, seat)


def added_kong(seat: int, tile: str) -> HandEvent:
    return HandEvent(EventKind.ADDED_KONG, seat, tile=parse_tile(tile))


def concealed_kong(seat: int, tile: str) -> HandEvent:
    return HandEvent(EventKind.CONCEALED_KONG, seat, tile=parse_tile(tile))


def win(seat: int, last_tile: bool = False) -> HandEvent:
    """A WIN; ``last_tile``: on the wall's last tile (海底捞月), right after the seat's own draw."""
    return HandEvent(EventKind.WIN, seat, last_tile=last_tile)


def declare(seat: int) -> HandEvent:
    """A DECLARE (敲): the seat knocks, right before its knocking discard."""
    return HandEvent(EventKind.DECLARE, seat)


def exhaustive_draw() -> HandEvent:
    return HandEvent(EventKind.EXHAUSTIVE_DRAW)


def abandon(seat: int) -> HandEvent:
    return HandEvent(EventKind.ABANDON, seat)

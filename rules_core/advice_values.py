"""What advice and review take and give (RULES.md section 15), as plain immutable values.

Named tuples like `rules_core.requests` and `rules_core.results`; every field is named as the
message field of API.md ("Advice and review") that carries it, so the wire layer maps them one
to one. A request may hold impossible input (a ``None`` tile, a seat of 7):
`rules_core.advice_validation` rejects it with field paths before anything is computed.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import Any, NamedTuple

from rules_core.patterns import Pattern
from rules_core.records import Pass
from rules_core.requests import Dice, Hand
from rules_core.tiles import Tile


class Suit(IntEnum):
    CHARACTERS = 1  # 万
    DOTS = 2  # 筒
    BAMBOO = 3  # 条


class AdviseRequest(NamedTuple):
    """A holding of 13 or 14 concealed tiles less three per meld (no winning tile), and the tiles
    the seat can see outside it (``seen``: discards on the table, other seats' exposed melds)."""

    profile: str
    seat: int
    hand: Hand
    seen: tuple[Tile | None, ...] = ()
    dealer_seat: int = 0
    dice: Dice | None = None
    huangfan_count: int = 0
    overrides: Mapping[str, Any] | None = None
    request_id: str = ""
    profile_digest: str = ""  # answered only under the profile of this digest (empty: any)


class Path(NamedTuple):
    """A pattern a target can qualify through (15.3): its shanten over the targets carrying it.
    ``pattern`` None is the path ORDINARY; ``suit`` is set for the flushes."""

    pattern: Pattern | None
    suit: Suit | None
    shanten: int


class UsefulTile(NamedTuple):
    tile: Tile
    live: int  # copies not held and not seen, never below 0


class AdviceWait(NamedTuple):
    tile: Tile
    live: int
    value: float  # WinnerResult.value of the self-draw on it, after multipliers


class DiscardOption(NamedTuple):
    tile: Tile
    shanten: int  # of the holding after the discard
    useful: tuple[UsefulTile, ...]
    live_total: int
    waits: tuple[AdviceWait, ...]  # when the holding after the discard is ready
    live_value: float  # live count x value, summed over the waits
    best: bool


class AdviceResult(NamedTuple):
    """AdviseResponse (the wire adds ``engine_version``). A dead holding (``reachable`` false)
    has no shanten (None), paths, useful tiles, waits or options."""

    request_id: str
    reachable: bool
    shanten: int | None
    paths: tuple[Path, ...]
    useful: tuple[UsefulTile, ...]  # a 13-tile holding's
    live_total: int
    waits: tuple[AdviceWait, ...]  # a ready 13-tile holding's
    live_value: float
    options: tuple[DiscardOption, ...]  # a 14-tile holding's, in order
    profile_digest: str = ""


class DiscardReview(NamedTuple):
    event_index: int
    seat: int
    reachable: bool
    shanten: int | None  # of the holding before the discard; None when dead
    discarded: Tile
    chosen: DiscardOption | None  # the option of the tile discarded; None when dead
    best_tiles: tuple[Tile, ...]
    agrees: bool  # the discard was among the best
    backward: bool  # 退向: its option's shanten is above the best option's
    forced: bool  # after the seat's knock (section 14): never counted in agreements or backward


class SeatReview(NamedTuple):
    seat: int
    discards: int
    agreements: int
    backward: int
    dead_discards: int
    forced_discards: int
    passes: tuple[Pass, ...]  # 漏胡, from the replay (section 13)


class ReviewResult(NamedTuple):
    """ReviewRecordResponse (the wire adds ``engine_version``)."""

    request_id: str
    discards: tuple[DiscardReview, ...]  # in event order
    seats: tuple[SeatReview, ...]  # seats 0-3
    profile_digest: str = ""

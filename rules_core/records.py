"""Hand records (牌谱, RULES.md section 13): the events of one hand, and what replaying them answers.

Plain immutable values like `rules_core.requests`: they may hold impossible input (a ``None``
tile or kind stands for an unspecified one, a seat may be 7), which `rules_core.replay`
rejects with the path of the first impossible event.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import Any, NamedTuple

from rules_core.patterns import Pattern
from rules_core.requests import Dice, SettleRequest
from rules_core.results import SettleResult
from rules_core.tiles import Flower, Tile


class EventKind(IntEnum):
    DEAL = 1  # 配牌: the seat's dealt hand after its flowers were replaced
    DRAW = 2  # 摸牌: a tile, or a flower (补花: the seat draws again)
    DISCARD = 3  # 打牌
    CHOW = 4  # 吃: the 下家 of the last discarder, with two tiles from its hand
    PUNG = 5  # 碰
    EXPOSED_KONG = 6  # 明杠
    ADDED_KONG = 7  # 上杠 / 蓄杠
    CONCEALED_KONG = 8  # 暗杠
    WIN = 9  # 胡
    EXHAUSTIVE_DRAW = 10  # 流局 / 荒牌: its seat is not read
    ABANDON = 11  # 逃跑
    DECLARE = 12  # 敲: the seat knocks, right before its knocking discard (win_requires_declaration)


class HandEvent(NamedTuple):
    kind: EventKind | None
    seat: int = 0
    tile: Tile | None = None  # DRAW, DISCARD, ADDED_KONG, CONCEALED_KONG
    tiles: tuple[Tile | None, ...] = ()  # DEAL (13, or 14 for the dealer); CHOW (the two from the hand)
    flower: Flower | None = None  # a flower DRAW
    flowers: tuple[Flower | None, ...] = ()  # DEAL: the flowers revealed while being dealt
    # DEAL under `dragons_are_flowers`: the dealt 中发白, revealed as flowers (never in `tiles`)
    dragon_flowers: tuple[Tile | None, ...] = ()
    last_tile: bool = False  # WIN right after the seat's own DRAW: the tile was the wall's last


class SettleRecordRequest(NamedTuple):
    profile: str
    events: tuple[HandEvent, ...] = ()
    dealer_seat: int = 0
    dice: Dice | None = None
    huangfan_count: int = 0
    overrides: Mapping[str, Any] | None = None
    recorded_deltas: tuple[float, ...] = ()  # none, or the four seat deltas the game server applied
    request_id: str = ""
    profile_digest: str = ""  # answered only under the profile of this digest (empty: any)


class Pass(NamedTuple):
    """Seat ``seat`` could have won on ``tile`` at ``events[event_index]`` (a discard or an added
    kong) and did not: 漏胡, ``tile`` locked for it until it next acts."""

    seat: int
    tile: Tile
    event_index: int
    patterns: tuple[Pattern, ...] = ()  # of the win it passed
    lifted_at: int | None = None  # the event where the seat next acted and the lock lifted; None: never


class RecordResult(NamedTuple):
    request_id: str
    settlement: SettleResult
    derived: SettleRequest  # what the events imply
    passes: tuple[Pass, ...]  # by event index, then seat
    recorded_match: bool  # recorded_deltas were given and equal the settlement's seat deltas
    mismatched_seats: tuple[int, ...]  # not empty exactly when they were given and differ

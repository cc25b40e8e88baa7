"""What a caller asks the rules: the hand at the moment of winning and the table around it.

These are plain immutable values (named tuples: a service builds thousands a
second, and tuples are the cheapest immutable value Python has). They may hold
impossible input (a ``None`` tile stands for an unspecified one, a seat may be
7): `rules_core.validation` rejects such input with field paths before
anything is scored. `replace` makes a changed copy, as `dataclasses.replace`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import Any, Final, NamedTuple, TypeVar

from rules_core.tiles import Flower, Tile


class MeldKind(IntEnum):
    CHOW = 1  # 吃
    PUNG = 2  # 碰
    EXPOSED_KONG = 3  # 明杠
    ADDED_KONG = 4  # 上杠 / 蓄杠
    CONCEALED_KONG = 5  # 暗杠


# MeldKind's members as constants for the hot paths (see ON_SELF_DRAW below).
CHOW: Final = MeldKind.CHOW
PUNG: Final = MeldKind.PUNG
CONCEALED_KONG: Final = MeldKind.CONCEALED_KONG


class Outcome(IntEnum):
    SELF_DRAW = 1  # 自摸
    DISCARD = 2  # 点炮 / 冲牌
    ROBBING_KONG = 3  # 抢杠
    EIGHT_FLOWERS = 4  # 八花
    EXHAUSTIVE_DRAW = 5  # 流局 / 荒牌
    ABANDON = 6  # 逃跑

    @property
    def is_win(self) -> bool:
        return self <= Outcome.EIGHT_FLOWERS

    @property
    def is_claimed_discard(self) -> bool:
        """Wins on another player's tile, where 漏胡 locks apply."""
        return self in CLAIMED_DISCARD


# Outcomes that win on another player's tile (漏胡 locks apply); a set, for the hot paths.
CLAIMED_DISCARD = frozenset({Outcome.DISCARD, Outcome.ROBBING_KONG})

# Members the hot paths compare with, as plain constants: an enum class's attribute costs
# about 0.1 µs a look-up (Python 3.11), a module constant a fifth of that.
ON_SELF_DRAW: Final = Outcome.SELF_DRAW
ON_DISCARD: Final = Outcome.DISCARD
ON_ROBBING_KONG: Final = Outcome.ROBBING_KONG
ON_EIGHT_FLOWERS: Final = Outcome.EIGHT_FLOWERS
ON_EXHAUSTIVE_DRAW: Final = Outcome.EXHAUSTIVE_DRAW
ON_ABANDON: Final = Outcome.ABANDON


class Meld(NamedTuple):
    kind: MeldKind | None
    tiles: tuple[Tile | None, ...]
    from_seat: int = 0  # ignored for a concealed kong; for an added kong, the original pung's source


class Hand(NamedTuple):
    concealed: tuple[Tile | None, ...]  # includes the winning tile
    winning_tile: Tile | None = None
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Flower | None, ...] = ()
    # 敲麻 (`dragons_are_flowers`): the winner's 中发白, as tiles (`Tile.RED` ...), at most four of each
    dragon_flowers: tuple[Tile | None, ...] = ()


class Dice(NamedTuple):
    first: int
    second: int


class LiabilityRelation(NamedTuple):
    """How many melds ``claimer_seat`` claimed from ``source_seat``'s discards this hand."""

    claimer_seat: int
    source_seat: int
    claims: int
    # 承包 (LIABILITY_MODE_CONTRACT): the claimer's exposed melds at the end of the hand are all
    # pungs and kongs, or of one suit at most (the caller's statement, as `claims` is)
    pattern_kept: bool = False


class Winner(NamedTuple):
    seat: int
    hand: Hand
    passed_tiles: tuple[Tile | None, ...] = ()  # 漏胡 locks since the player's last action
    replacement_draw: bool = False  # won on a tile drawn after a kong or a flower
    first_go_around: bool = False
    last_tile: bool = False  # 海底捞月: self-drawn on the last tile of the wall


class SettleRequest(NamedTuple):
    profile: str
    outcome: Outcome | None
    winners: tuple[Winner, ...] = ()
    dealer_seat: int = 0
    dice: Dice | None = None
    huangfan_count: int = 0
    discarder_seat: int = 0  # the discarder, or the player adding the kong when it is robbed
    liabilities: tuple[LiabilityRelation, ...] = ()
    abandoning_seat: int = 0
    overrides: Mapping[str, Any] | None = None
    request_id: str = ""
    profile_digest: str = ""  # answered only under the profile of this digest (empty: any)
    declared_seats: tuple[int, ...] = ()  # 敲: the seats that have knocked by the end of the hand


class CheckWinRequest(NamedTuple):
    """One candidate win to judge, without payments."""

    profile: str
    outcome: Outcome | None
    winner: Winner
    dealer_seat: int = 0
    dice: Dice | None = None
    huangfan_count: int = 0
    overrides: Mapping[str, Any] | None = None
    request_id: str = ""
    profile_digest: str = ""  # answered only under the profile of this digest (empty: any)
    declared_seats: tuple[int, ...] = ()  # 敲: the seats that have knocked (RULES.md section 14)


class ListWaitsRequest(NamedTuple):
    """A hand one tile short (13 concealed tiles less 3 per meld; its winning tile is ignored)."""

    profile: str
    seat: int
    hand: Hand
    passed_tiles: tuple[Tile | None, ...] = ()
    replacement_draw: bool = False  # for self-draws: the next tile is a replacement tile
    first_go_around: bool = False
    dealer_seat: int = 0
    dice: Dice | None = None
    huangfan_count: int = 0
    overrides: Mapping[str, Any] | None = None
    request_id: str = ""
    profile_digest: str = ""  # answered only under the profile of this digest (empty: any)
    last_tile: bool = False  # for self-draws: the next tile is the last of the wall (海底捞月)
    declared_seats: tuple[int, ...] = ()  # 敲: the seats that have knocked (RULES.md section 14)


Value = TypeVar("Value", bound=tuple)


def replace(value: Value, **changes) -> Value:
    """A copy of a request value with some fields changed."""
    return value._replace(**changes)

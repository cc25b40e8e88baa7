"""Tiles (牌) and flowers (花牌).

A tile is an index 0..33: 万 characters 1-9 (0-8), 筒 dots 1-9 (9-17),
条 bamboo 1-9 (18-26), then the honours (字牌): winds 东南西北 (27-30) and
dragons 红中 发财 白板 (31-33). Plain indexes keep tile counts in flat lists,
which is what the shape search and the validators need to be fast.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Tile(IntEnum):
    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27  # 东
    SOUTH = 28  # 南
    WEST = 29  # 西
    NORTH = 30  # 北
    RED = 31  # 红中 C
    GREEN = 32  # 发财 F
    WHITE = 33  # 白板 P

    @property
    def suit(self) -> int | None:
        """0 万, 1 筒, 2 条, or None for an honour."""
        return SUIT_OF[self]

    @property
    def is_honour(self) -> bool:
        return self >= FIRST_HONOUR

    @property
    def notation(self) -> str:
        return TILE_NOTATION[self]


class Flower(IntEnum):
    """The eight flowers 春夏秋冬梅兰竹菊, notation 1f..8f."""

    SPRING = 1  # 春
    SUMMER = 2  # 夏
    AUTUMN = 3  # 秋
    WINTER = 4  # 冬
    PLUM = 5  # 梅
    ORCHID = 6  # 兰
    BAMBOO = 7  # 竹
    CHRYSANTHEMUM = 8  # 菊


# Final literals: the compiled hot path (mypyc) inlines them instead of looking them up.
TILE_KINDS: Final = 34
FIRST_HONOUR: Final = 27
FIRST_DRAGON: Final = 31
ALL_TILES: tuple[Tile, ...] = tuple(Tile)
ALL_FLOWERS: tuple[Flower, ...] = tuple(Flower)
SUIT_LETTERS = "mps"
HONOUR_LETTERS = "ESWNCFP"

SUIT_OF: tuple[int | None, ...] = tuple(i // 9 if i < FIRST_HONOUR else None for i in range(TILE_KINDS))
TILE_NOTATION: tuple[str, ...] = tuple(
    f"{i % 9 + 1}{SUIT_LETTERS[i // 9]}" if i < FIRST_HONOUR else HONOUR_LETTERS[i - FIRST_HONOUR]
    for i in range(TILE_KINDS)
)

"""Patterns (胡牌牌型) and the reasons a claimed win is not legal."""

from __future__ import annotations

from enum import IntEnum


class Pattern(IntEnum):
    # Shape patterns
    ALL_PUNGS = 1  # 碰碰胡
    HALF_FLUSH = 2  # 混一色
    FULL_FLUSH = 3  # 清一色
    HALF_FLUSH_PUNGS = 4  # 混碰 (混一色碰碰胡)
    FULL_FLUSH_PUNGS = 5  # 清碰
    ALL_HONOURS = 6  # 乱风向 / 风一色
    ALL_HONOURS_PUNGS = 7  # 字一色 / 风碰
    EIGHT_FLOWERS = 8  # 八花 / 八花齐
    # Situational patterns
    BIG_HANGING = 9  # 大吊车
    HEAVENLY = 10  # 天胡
    EARTHLY = 11  # 地胡
    KONG_BLOOM = 12  # 杠开
    CONCEALED = 13  # 门清
    ROBBING_KONG = 14  # 抢杠
    # Patterns of the rule families played today (RULES.md section 14)
    SEVEN_PAIRS = 15  # 七对 / 七小对 (a shape, with `seven_pairs`)
    NO_FLOWERS = 16  # 无花果 / 无花: a complete hand whose 花 is 0
    LAST_TILE = 17  # 海底捞月: self-drawn on the last tile of the wall

    @property
    def bit(self) -> int:
        return 1 << self

    @property
    def name_zh(self) -> str:
        return PATTERN_NAMES[self][0]

    @property
    def name_en(self) -> str:
        return PATTERN_NAMES[self][1]


PATTERN_NAMES: dict[Pattern, tuple[str, str]] = {
    Pattern.ALL_PUNGS: ("碰碰胡", "All pungs"),
    Pattern.HALF_FLUSH: ("混一色", "Half flush"),
    Pattern.FULL_FLUSH: ("清一色", "Full flush"),
    Pattern.HALF_FLUSH_PUNGS: ("混碰", "Half flush all pungs"),
    Pattern.FULL_FLUSH_PUNGS: ("清碰", "Full flush all pungs"),
    Pattern.ALL_HONOURS: ("乱风向 / 风一色", "All honours"),
    Pattern.ALL_HONOURS_PUNGS: ("字一色 / 风碰", "All honour pungs"),
    Pattern.EIGHT_FLOWERS: ("八花", "Eight flowers"),
    Pattern.BIG_HANGING: ("大吊车", "Big hanging (single wait after four melds)"),
    Pattern.HEAVENLY: ("天胡", "Heavenly hand"),
    Pattern.EARTHLY: ("地胡", "Earthly hand"),
    Pattern.KONG_BLOOM: ("杠开", "Win on a replacement tile"),
    Pattern.CONCEALED: ("门清", "Concealed hand"),
    Pattern.ROBBING_KONG: ("抢杠", "Robbing a kong"),
    Pattern.SEVEN_PAIRS: ("七对 / 七小对", "Seven pairs"),
    Pattern.NO_FLOWERS: ("无花果 / 无花", "No flowers"),
    Pattern.LAST_TILE: ("海底捞月", "Win on the last tile"),
}

# A pattern that implies others: when fixed values are summed, the implied ones
# are not counted again (清碰 is not also paid as 清一色).
PATTERN_IMPLIES: dict[Pattern, tuple[Pattern, ...]] = {
    Pattern.HALF_FLUSH_PUNGS: (Pattern.HALF_FLUSH, Pattern.ALL_PUNGS),
    Pattern.FULL_FLUSH_PUNGS: (Pattern.FULL_FLUSH, Pattern.ALL_PUNGS),
    Pattern.ALL_HONOURS_PUNGS: (Pattern.ALL_HONOURS, Pattern.ALL_PUNGS),
}


def mask_of(patterns) -> int:
    mask = 0
    for pattern in patterns:
        mask |= 1 << pattern
    return mask


_PATTERNS_IN_ORDER = tuple(Pattern)
# mask -> patterns; at most one entry per mask of the 17 patterns (2**18 bounds it; real hands
# show a few hundred). The hot path looks here first, before calling patterns_of.
PATTERNS_OF_MASK: dict[int, tuple[Pattern, ...]] = {}


def patterns_of(mask: int) -> tuple[Pattern, ...]:
    """The patterns of a bit mask, in enum order (cached: few masks occur)."""
    found = PATTERNS_OF_MASK.get(mask)
    if found is None:
        found = tuple(p for p in _PATTERNS_IN_ORDER if mask >> p & 1)
        PATTERNS_OF_MASK[mask] = found
    return found


class IllegalReason(IntEnum):
    INCOMPLETE_SHAPE = 1  # 不成牌形: no four sets and a pair, not all honours
    NO_QUALIFYING_PATTERN = 2  # 屁胡: a complete hand with no pattern that may win
    MISSED_WIN = 3  # 漏胡: the winning tile was passed on since the player's last action
    # Reasons of the rule families played today (RULES.md section 14)
    NO_FLOWERS_SELF_DRAW_ONLY = 4  # 无花果只能自摸: 0 花 wins only by self-draw
    TOO_FEW_FLOWERS = 5  # 垃圾胡 with fewer 花 than the profile's minimum
    NOT_DECLARED = 6  # 敲: the winner has not knocked
    TOO_FEW_FAN = 7  # 一番和: fewer 番 than the profile's minimum

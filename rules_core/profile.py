"""A rule profile: every value and reading of RULES.md sections 5-8 and 11, as data.

The built-in profiles are declared in `rules_core.builtin_profiles`; a request's
overrides are merged onto one of them by `rules_core.overrides`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum

from rules_core.patterns import Pattern, mask_of


class Unit(IntEnum):
    FLOWER = 1  # 花: classic and sankou, capped in 喇子
    POINT = 2  # 分: lezi, capped in 勒子


class CombineFixed(IntEnum):
    """How several fixed-value patterns of one hand combine."""

    MAX = 1  # the highest counts
    SUM = 2  # they add up (a pattern implied by another is not counted twice)


class HuangfanMode(IntEnum):
    ONCE = 1  # a 荒番 hand is doubled once, whatever the count
    PER_LEVEL = 2  # doubled once per level of the count


class LiabilityMode(IntEnum):
    NONE = 1  # no liability (classic)
    ADDITIVE = 2  # 承包: liable seats pay in addition (lezi)
    REPLACE = 3  # liable seats pay their shares instead of the ordinary payers
    SANKOU = 4  # 吃三口包五家: the three-claims payment table (sankou)


class FlowerSource(IntEnum):
    """What earns 花 in a winning hand (RULES.md section 5)."""

    FLOWER_TILE = 1  # 花牌
    SUITED_PUNG = 2  # 数牌刻子
    WIND_PUNG = 3  # 风刻
    DRAGON_PUNG = 4  # 字刻 (中发白)
    SUITED_EXPOSED_KONG = 5  # 明杠 / 上杠
    SUITED_CONCEALED_KONG = 6  # 暗杠
    WIND_EXPOSED_KONG = 7  # 风向明杠 / 上杠
    WIND_CONCEALED_KONG = 8  # 风向暗杠
    DRAGON_EXPOSED_KONG = 9  # 字牌明杠 / 上杠
    DRAGON_CONCEALED_KONG = 10  # 字牌暗杠

    @property
    def name_zh(self) -> str:
        return FLOWER_SOURCE_NAMES[self][0]

    @property
    def name_en(self) -> str:
        return FLOWER_SOURCE_NAMES[self][1]


FLOWER_SOURCE_NAMES: dict[FlowerSource, tuple[str, str]] = {
    FlowerSource.FLOWER_TILE: ("花牌", "Flower tile"),
    FlowerSource.SUITED_PUNG: ("数牌刻", "Suited pung"),
    FlowerSource.WIND_PUNG: ("风刻", "Wind pung"),
    FlowerSource.DRAGON_PUNG: ("字刻", "Dragon pung"),
    FlowerSource.SUITED_EXPOSED_KONG: ("明杠", "Suited exposed kong"),
    FlowerSource.SUITED_CONCEALED_KONG: ("暗杠", "Suited concealed kong"),
    FlowerSource.WIND_EXPOSED_KONG: ("风向明杠", "Wind exposed kong"),
    FlowerSource.WIND_CONCEALED_KONG: ("风向暗杠", "Wind concealed kong"),
    FlowerSource.DRAGON_EXPOSED_KONG: ("字牌明杠", "Dragon exposed kong"),
    FlowerSource.DRAGON_CONCEALED_KONG: ("字牌暗杠", "Dragon concealed kong"),
}

DiceThrow = tuple[int, int]  # unordered: always (low, high)


def dice_throw(first: int, second: int) -> DiceThrow:
    return (first, second) if first <= second else (second, first)


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: profiles key the scoring caches
class RuleProfile:
    name: str
    unit: Unit
    lazi_value: int  # 1 喇 / 1 勒 in units: the ordinary cap, the sankou threshold's and the floors' value
    ordinary_base: int  # 底注花 / 底分
    ordinary_lazi_threshold: int  # an ordinary value at least this becomes 1 喇 (0: off)
    fixed_values: Mapping[Pattern, int]  # fixed-value patterns (一、二类胡牌)
    fan: Mapping[Pattern, int]  # 番 doubling an ordinary hand
    floor_patterns: frozenset[Pattern]  # raise a value below 1 勒 to 1 勒
    qualifying_patterns: frozenset[Pattern]  # a hand with one of these may win
    combine_fixed: CombineFixed
    fan_on_fixed: bool
    flower_values: Mapping[FlowerSource, int]
    huangfan_mode: HuangfanMode
    huangfan_multiplier: int
    dice_huangfan: Mapping[DiceThrow, int]  # dice 荒番: added to this hand's count
    kaibao_throws: frozenset[DiceThrow]  # 开宝 throws
    kaibao_multiplier: int
    self_draw_share: float  # each other seat pays this many V on a self-draw or eight flowers
    discard_share: float  # the discarder pays this many V
    robbing_kong_share: float  # the kong player pays this many V (抢杠 ×3)
    liability_mode: LiabilityMode
    liability_threshold: int  # claims from one seat that make a relation (三口)
    liability_discard_share: float  # 承包: a liable seat pays on a discard win
    liability_self_draw_share: float  # ... on a self-draw or eight flowers
    liability_robbing_kong_share: float  # ... on robbing a kong
    sankou_self_draw_shares: tuple[float, ...]  # by number of related seats 0..3
    sankou_related_discarder_share: float  # a related discarder pays alone
    sankou_related_seat_share: float  # each related seat pays on an unrelated discard
    abandon_penalty: int  # 逃跑: 0 means the profile has no abandon rule

    # Derived for speed; never set by callers.
    qualifying_mask: int = field(init=False, repr=False, compare=False)
    fixed_mask: int = field(init=False, repr=False, compare=False)
    fan_mask: int = field(init=False, repr=False, compare=False)
    floor_mask: int = field(init=False, repr=False, compare=False)
    # The profile's digest (API.md, "Versioned answers"): a wire form's, so it is not computed
    # here. A registry given a digest function stamps it once (`ProfileRegistry.digest`); "" until then.
    digest_stamp: str = field(default="", init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fixed = {p: v for p, v in self.fixed_values.items() if v}
        object.__setattr__(self, "qualifying_mask", mask_of(self.qualifying_patterns))
        object.__setattr__(self, "fixed_mask", mask_of(fixed))
        object.__setattr__(self, "fan_mask", mask_of(p for p, n in self.fan.items() if n))
        object.__setattr__(self, "floor_mask", mask_of(self.floor_patterns))

    @property
    def has_abandon_rule(self) -> bool:
        return self.abandon_penalty > 0


# Field names, in declaration order, that a caller may set (everything but the derived ones).
PROFILE_FIELDS: tuple[str, ...] = tuple(
    f for f in RuleProfile.__dataclass_fields__ if RuleProfile.__dataclass_fields__[f].init
)

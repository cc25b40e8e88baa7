"""A rule profile: every value and reading of RULES.md sections 5-8 and 11, as data.

The built-in profiles are declared in `rules_core.builtin_profiles`; a request's
overrides are merged onto one of them by `rules_core.overrides`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field
from enum import IntEnum
from types import MappingProxyType

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
    BAOSANKOU = 5  # 包三口: one liable seat, the related one of lowest seat number (清混碰, 敲麻)
    CONTRACT = 6  # 承包 (MIL 2024 敲麻): symmetric partners, several of them, the knock matters


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

EMPTY_TABLE: Mapping = MappingProxyType({})

DiceThrow = tuple[int, int]  # unordered: always (low, high)


def dice_throw(first: int, second: int) -> DiceThrow:
    return (first, second) if first <= second else (second, first)


SECTION_14_PATTERNS = mask_of((Pattern.SEVEN_PAIRS, Pattern.NO_FLOWERS, Pattern.LAST_TILE))

# The defaults of the section 14 fields (today's behaviour), filled in below the class.
FAMILY_DEFAULTS: dict[str, object] = {}


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

    # The rule families played today (RULES.md section 14). Each default (false, 0, empty) is
    # today's behaviour, so the three profiles of the source texts leave them all unset.
    dragons_are_flowers: bool = False  # 敲麻: 中发白 are flowers (Hand.dragon_flowers), never tiles
    ordinary_hand_wins: bool = False  # 垃圾胡: a complete hand wins without a qualifying pattern
    fan_additive: bool = False  # 番 add up: (base + 花) × max(1, 番), a fixed value + 勒 per 番
    ordinary_base_fan: int = 0  # 兜底番: 番 every ordinary hand has
    shape_fan: Mapping[Pattern, int] = field(
        default_factory=lambda: EMPTY_TABLE
    )  # 牌型番: the highest entry among the patterns
    cap_lazi_extra: int = 0  # the cap is (1 + this) 喇 / 勒
    cap_fixed_values: bool = False  # the cap applies to fixed-value hands too, after their 番
    seven_pairs: bool = False  # 七对 is a complete shape (SEVEN_PAIRS)
    all_honours_need_shape: bool = False  # ALL_HONOURS needs four sets and a pair, or seven pairs
    no_flowers_self_draw_only: bool = False  # 无花果只能自摸
    earthly_self_draw_only: bool = False  # EARTHLY needs a self-draw
    eight_flowers_lists_concealed: bool = False  # an eight-flowers win lists CONCEALED too
    huangfan_reset_after_win: bool = False  # a win resets the 荒番 count to 0 (else count − 1)
    huangfan_max_count: int = 0  # an exhaustive draw raises the count to at most this (0: no limit)
    multi_win_discarder_deals: bool = False  # after several winners the discarder deals next
    liability_skips_kongs: bool = False  # exposed (and added) kongs are no claims
    kong_bloom_needs_kong: bool = False  # a flower's replacement tile is no replacement draw
    standard_shape_only: bool = False  # four sets and a pair is the only complete shape
    no_flowers_value: int = 0  # 无花: a complete hand of 0 花 counts this many 花
    ordinary_min_flowers_self_draw: int = 0  # 垃圾胡 needs this many 花 on a self-draw
    ordinary_min_flowers_discard: int = 0  # ... on a discard or a robbed kong
    max_fan: int = 0  # 封顶番: the most 番 a value uses (0: no limit)
    min_fan: int = 0  # 一番和: a win needs this many 番 (0: no minimum)
    win_requires_declaration: bool = False  # 敲: only a seat in declared_seats may win
    liability_threshold_unconditional: int = 0  # CONTRACT: claims that relate whatever the melds
    uncapped: bool = False  # no value is ever capped

    # Derived for speed; never set by callers.
    qualifying_mask: int = field(init=False, repr=False, compare=False)
    fixed_mask: int = field(init=False, repr=False, compare=False)
    fan_mask: int = field(init=False, repr=False, compare=False)
    floor_mask: int = field(init=False, repr=False, compare=False)
    shape_fan_mask: int = field(init=False, repr=False, compare=False)
    cap: int = field(init=False, repr=False, compare=False)  # the cap in units; 0 when uncapped
    no_flowers_named: bool = field(init=False, repr=False, compare=False)  # NO_FLOWERS is evaluated
    # Only a qualifying pattern, 漏胡 and the knock decide legality (no 垃圾胡, 花 or 番 minimum)
    only_patterns_qualify: bool = field(init=False, repr=False, compare=False)
    # The profile uses a field, pattern or liability mode of RULES.md section 14, so two readings of
    # 14.3 and 14.4 that have no field of their own hold: 海底捞月 is listed on a `last_tile`
    # self-draw, and an eight-flowers win counts its melds' 花. Today's profiles do neither.
    section_14_readings: bool = field(init=False, repr=False, compare=False)
    # Whether the all-pungs reading is never worth less than a chow one (legality.
    # pungs_reading_always_best): -1 until first asked, then 1 or 0, set once.
    pungs_reading_best: int = field(default=-1, init=False, repr=False, compare=False)
    # The profile's digest (API.md, "Versioned answers"): a wire form's, so it is not computed
    # here. A registry given a digest function stamps it once (`ProfileRegistry.digest`); "" until then.
    digest_stamp: str = field(default="", init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fixed = {p: v for p, v in self.fixed_values.items() if v}
        object.__setattr__(self, "qualifying_mask", mask_of(self.qualifying_patterns))
        object.__setattr__(self, "fixed_mask", mask_of(fixed))
        object.__setattr__(self, "fan_mask", mask_of(p for p, n in self.fan.items() if n))
        object.__setattr__(self, "floor_mask", mask_of(self.floor_patterns))
        object.__setattr__(self, "shape_fan_mask", mask_of(p for p, n in self.shape_fan.items() if n))
        object.__setattr__(self, "cap", 0 if self.uncapped else (1 + self.cap_lazi_extra) * self.lazi_value)
        no_flowers = Pattern.NO_FLOWERS
        named = (
            self.fan.get(no_flowers, 0) > 0
            or self.shape_fan.get(no_flowers, 0) > 0
            or self.fixed_values.get(no_flowers, 0) > 0
            or no_flowers in self.qualifying_patterns
            or self.no_flowers_self_draw_only
            or self.no_flowers_value > 0
        )
        object.__setattr__(self, "no_flowers_named", named)
        only = not self.ordinary_hand_wins and not self.no_flowers_self_draw_only and not self.min_fan
        object.__setattr__(self, "only_patterns_qualify", only)
        named = self.qualifying_mask | self.fixed_mask | self.fan_mask | self.floor_mask | self.shape_fan_mask
        object.__setattr__(
            self,
            "section_14_readings",
            bool(named & SECTION_14_PATTERNS)
            or self.liability_mode >= LiabilityMode.BAOSANKOU
            or any(getattr(self, name) != FAMILY_DEFAULTS[name] for name in FAMILY_DEFAULTS),
        )

    @property
    def has_abandon_rule(self) -> bool:
        return self.abandon_penalty > 0


FAMILY_DEFAULTS.update(
    (f.name, f.default_factory() if f.default is MISSING else f.default)  # type: ignore[operator]  # a factory here
    for f in RuleProfile.__dataclass_fields__.values()
    if f.init and (f.default is not MISSING or f.default_factory is not MISSING)
)


# The fields of RULES.md section 14 (proto numbers 30-55), by how they are written: they join
# the message groups of `convert.json_names`. Each default is the proto3 default, so the
# profile digest, which leaves defaults out, is unchanged for classic, sankou and lezi.
FAMILY_INT_FIELDS = (
    "ordinary_base_fan",
    "cap_lazi_extra",
    "huangfan_max_count",
    "no_flowers_value",
    "ordinary_min_flowers_self_draw",
    "ordinary_min_flowers_discard",
    "max_fan",
    "min_fan",
    "liability_threshold_unconditional",
)
FAMILY_FLAG_FIELDS = (
    "dragons_are_flowers",
    "ordinary_hand_wins",
    "fan_additive",
    "cap_fixed_values",
    "seven_pairs",
    "all_honours_need_shape",
    "no_flowers_self_draw_only",
    "earthly_self_draw_only",
    "eight_flowers_lists_concealed",
    "huangfan_reset_after_win",
    "multi_win_discarder_deals",
    "liability_skips_kongs",
    "kong_bloom_needs_kong",
    "standard_shape_only",
    "win_requires_declaration",
    "uncapped",
)
FAMILY_PATTERN_TABLE_FIELDS = ("shape_fan",)
FAMILY_FIELDS = FAMILY_INT_FIELDS + FAMILY_FLAG_FIELDS + FAMILY_PATTERN_TABLE_FIELDS

# Field names, in declaration order, that a caller may set (everything but the derived ones).
PROFILE_FIELDS: tuple[str, ...] = tuple(
    f for f in RuleProfile.__dataclass_fields__ if RuleProfile.__dataclass_fields__[f].init
)
assert set(FAMILY_FIELDS) == set(FAMILY_DEFAULTS), "every field of section 14 is grouped"

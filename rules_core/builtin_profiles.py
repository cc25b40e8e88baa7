"""The three built-in profiles, one per rule family of the source texts (RULES.md section 1).

`sankou` and `lezi` are declared as the differences from `classic`, so a
reader sees at a glance what each family changes.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from rules_core.patterns import Pattern as P
from rules_core.profile import (
    CombineFixed,
    HuangfanMode,
    LiabilityMode,
    RuleProfile,
    Unit,
)
from rules_core.profile import (
    FlowerSource as F,
)

# Section 5: 花 per source, the same in every family.
FLOWER_VALUES = MappingProxyType(
    {
        F.FLOWER_TILE: 1,
        F.SUITED_PUNG: 0,
        F.WIND_PUNG: 1,
        F.DRAGON_PUNG: 2,
        F.SUITED_EXPOSED_KONG: 1,
        F.SUITED_CONCEALED_KONG: 2,
        F.WIND_EXPOSED_KONG: 2,
        F.WIND_CONCEALED_KONG: 3,
        F.DRAGON_EXPOSED_KONG: 3,
        F.DRAGON_CONCEALED_KONG: 4,
    }
)

SHAPE_PATTERNS = frozenset(
    {
        P.ALL_PUNGS,
        P.HALF_FLUSH,
        P.FULL_FLUSH,
        P.HALF_FLUSH_PUNGS,
        P.FULL_FLUSH_PUNGS,
        P.ALL_HONOURS,
        P.ALL_HONOURS_PUNGS,
        P.EIGHT_FLOWERS,
    }
)

DOUBLES = frozenset((n, n) for n in range(1, 7))

# Dice 荒番 (classic, sankou): 1-1 and 4-4 add two; any other double or any throw with a 1 or a 4 adds one.
DICE_HUANGFAN = MappingProxyType(
    {
        (low, high): 2 if (low, high) in ((1, 1), (4, 4)) else 1
        for low in range(1, 7)
        for high in range(low, 7)
        if low == high or low in (1, 4) or high in (1, 4)
    }
)

CLASSIC = RuleProfile(
    name="classic",
    unit=Unit.FLOWER,
    lazi_value=20,  # 1 喇 = 20 花
    ordinary_base=3,  # 底注花 3
    ordinary_lazi_threshold=0,
    fixed_values=MappingProxyType(
        {
            P.HEAVENLY: 200,  # 10 喇
            P.EARTHLY: 160,  # 8 喇
            P.EIGHT_FLOWERS: 120,  # 6 喇
            P.ALL_HONOURS_PUNGS: 80,  # 4 喇
            P.ALL_HONOURS: 40,  # 2 喇
            P.FULL_FLUSH_PUNGS: 40,  # 2 喇
            P.FULL_FLUSH: 20,  # 1 喇
            P.HALF_FLUSH_PUNGS: 20,  # 1 喇
            P.BIG_HANGING: 20,  # 1 喇
        }
    ),
    fan=MappingProxyType({P.KONG_BLOOM: 1, P.CONCEALED: 1}),
    floor_patterns=frozenset(),
    qualifying_patterns=SHAPE_PATTERNS | {P.BIG_HANGING, P.HEAVENLY, P.EARTHLY, P.KONG_BLOOM},
    combine_fixed=CombineFixed.MAX,
    fan_on_fixed=False,
    flower_values=FLOWER_VALUES,
    huangfan_mode=HuangfanMode.ONCE,
    huangfan_multiplier=2,
    dice_huangfan=DICE_HUANGFAN,
    kaibao_throws=frozenset(),
    kaibao_multiplier=2,
    self_draw_share=1,
    discard_share=1,
    robbing_kong_share=3,  # 抢杠 ×3
    liability_mode=LiabilityMode.NONE,
    liability_threshold=3,
    liability_discard_share=1,
    liability_self_draw_share=3,
    liability_robbing_kong_share=3,
    sankou_self_draw_shares=(1, 5, 3.5, 3),
    sankou_related_discarder_share=2,
    sankou_related_seat_share=1,
    abandon_penalty=0,
)

SANKOU = replace(
    CLASSIC,
    name="sankou",
    ordinary_base=1,  # 底注花 1
    ordinary_lazi_threshold=8,  # 新算分规则: ≥ 8 花 counts as 1 喇
    liability_mode=LiabilityMode.SANKOU,  # 吃三口包五家
)

LEZI = replace(
    CLASSIC,
    name="lezi",
    unit=Unit.POINT,
    lazi_value=10,  # 1 勒 = 10 分
    ordinary_base=2,  # 底分 2
    fixed_values=MappingProxyType(
        {
            P.ALL_HONOURS_PUNGS: 40,  # 风碰 4 勒
            P.ALL_HONOURS: 20,  # 风一色 2 勒
            P.FULL_FLUSH_PUNGS: 20,  # 清碰 2 勒
            P.EIGHT_FLOWERS: 20,  # 八花齐 2 勒
            P.FULL_FLUSH: 10,  # 清一色 1 勒
            P.HALF_FLUSH_PUNGS: 10,  # 混碰 1 勒
        }
    ),
    fan=MappingProxyType({}),
    floor_patterns=frozenset({P.KONG_BLOOM, P.BIG_HANGING}),
    qualifying_patterns=SHAPE_PATTERNS,
    dice_huangfan=MappingProxyType({}),
    kaibao_throws=DOUBLES | {(1, 4)},  # 开宝: a double, or 1 and 4
    liability_mode=LiabilityMode.ADDITIVE,  # 承包
    abandon_penalty=15,  # 逃跑扣15分
)

BUILTIN_PROFILES: MappingProxyType[str, RuleProfile] = MappingProxyType({p.name: p for p in (CLASSIC, SANKOU, LEZI)})

"""The six built-in profiles: one per rule family of the source texts (RULES.md section 1),
`classic`, `sankou` and `lezi`, and the three families played today (section 14), `qiaoma`,
`qiaoma_lezi` and `qinghunpeng`.

Each is declared as the differences from another (`classic`, `lezi` or `qinghunpeng`), so a
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

# --- The rule families played today (RULES.md section 14) -----------------------------------

# 花 of 敲麻 and 清混碰 (14.2): a dragon pung is 0 and a dragon kong 1 / 2, like a suited one.
FAMILY_FLOWER_VALUES = MappingProxyType(
    {**FLOWER_VALUES, F.DRAGON_PUNG: 0, F.DRAGON_EXPOSED_KONG: 1, F.DRAGON_CONCEALED_KONG: 2}
)

# 附加番 of 敲麻 (勒子) and 清混碰, summed (14.2).
_BONUS_FAN = MappingProxyType(
    {
        P.CONCEALED: 1,  # 门清
        P.NO_FLOWERS: 1,  # 无花果
        P.BIG_HANGING: 1,  # 大吊车
        P.KONG_BLOOM: 1,  # 杠开
        P.LAST_TILE: 1,  # 海底捞月
        P.ROBBING_KONG: 1,  # 抢杠
        P.HEAVENLY: 8,  # 天胡
        P.EARTHLY: 8,  # 地胡
    }
)

QINGHUNPENG = replace(
    LEZI,
    name="qinghunpeng",  # 清混碰 (michaelchango/shanghai-mahjong, CFG.lajiHu = false)
    fixed_values=MappingProxyType(
        {
            P.FULL_FLUSH: 10,  # 清一色 1 勒
            P.FULL_FLUSH_PUNGS: 20,  # 清碰 2 勒
            P.ALL_HONOURS: 20,  # 风一色 2 勒
            P.ALL_HONOURS_PUNGS: 40,  # 风碰 4 勒
        }
    ),
    fan=_BONUS_FAN,
    floor_patterns=frozenset(),
    qualifying_patterns=SHAPE_PATTERNS | {P.SEVEN_PAIRS},
    fan_on_fixed=True,
    flower_values=FAMILY_FLOWER_VALUES,
    huangfan_mode=HuangfanMode.PER_LEVEL,
    liability_mode=LiabilityMode.BAOSANKOU,  # 包三口
    liability_self_draw_share=5,
    liability_discard_share=3,
    abandon_penalty=0,
    fan_additive=True,
    shape_fan=MappingProxyType(
        {P.ALL_PUNGS: 1, P.HALF_FLUSH: 1, P.HALF_FLUSH_PUNGS: 1, P.SEVEN_PAIRS: 1, P.EIGHT_FLOWERS: 4}
    ),
    cap_lazi_extra=7,  # 8 勒 = 80
    cap_fixed_values=True,
    all_honours_need_shape=True,
    no_flowers_self_draw_only=True,
    earthly_self_draw_only=True,
    eight_flowers_lists_concealed=True,
    huangfan_reset_after_win=True,
    huangfan_max_count=3,
    multi_win_discarder_deals=True,
    liability_skips_kongs=True,
    kong_bloom_needs_kong=True,
)

QIAOMA_LEZI = replace(
    QINGHUNPENG,
    name="qiaoma_lezi",  # 敲麻 scored in 勒子 (michaelchango/shanghai-mahjong, CFG.lajiHu = true)
    ordinary_base=3,
    fixed_values=MappingProxyType(
        {
            P.FULL_FLUSH: 20,  # 清一色 2 勒
            P.FULL_FLUSH_PUNGS: 40,  # 清碰 4 勒
            P.ALL_HONOURS: 40,  # 风一色 4 勒
            P.ALL_HONOURS_PUNGS: 80,  # 风碰 8 勒
        }
    ),
    ordinary_base_fan=1,  # 兜底番
    ordinary_hand_wins=True,  # 垃圾胡
    dragons_are_flowers=True,  # 中发白 are flowers
)

QIAOMA = replace(
    CLASSIC,
    name="qiaoma",  # MIL《上海麻将（推广）竞赛规则（试行2024版）》 (14.10)
    ordinary_base=1,  # 底花 1
    fixed_values=MappingProxyType({}),
    fan=MappingProxyType(
        {
            P.CONCEALED: 1,  # 门清
            P.BIG_HANGING: 1,  # 大吊车
            P.HALF_FLUSH: 1,  # 混一色
            P.FULL_FLUSH: 2,  # 清一色
            P.ALL_PUNGS: 1,  # 碰碰和
            P.KONG_BLOOM: 1,  # 杠开
            P.ROBBING_KONG: 1,  # 抢杠
        }
    ),
    qualifying_patterns=frozenset(
        {P.ALL_PUNGS, P.HALF_FLUSH, P.FULL_FLUSH, P.HALF_FLUSH_PUNGS, P.FULL_FLUSH_PUNGS, P.BIG_HANGING, P.CONCEALED}
    ),
    flower_values=FAMILY_FLOWER_VALUES,
    huangfan_multiplier=1,  # no 荒番
    dice_huangfan=MappingProxyType({}),
    robbing_kong_share=1,
    liability_mode=LiabilityMode.CONTRACT,  # 承包
    liability_self_draw_share=5,
    liability_discard_share=1,
    liability_robbing_kong_share=1,
    uncapped=True,
    max_fan=3,  # 三番封顶
    ordinary_hand_wins=True,  # 垃圾胡, with 2 / 3 花
    ordinary_min_flowers_self_draw=2,
    ordinary_min_flowers_discard=3,
    no_flowers_value=10,  # 无花 counts 10 花
    win_requires_declaration=True,  # 敲
    dragons_are_flowers=True,
    standard_shape_only=True,
    all_honours_need_shape=True,
    huangfan_reset_after_win=True,
    multi_win_discarder_deals=True,
    liability_threshold_unconditional=4,
)

BUILTIN_PROFILES: MappingProxyType[str, RuleProfile] = MappingProxyType(
    {p.name: p for p in (CLASSIC, SANKOU, LEZI, QIAOMA, QIAOMA_LEZI, QINGHUNPENG)}
)
"""Every built-in profile by name: the source texts' three, then section 14's."""

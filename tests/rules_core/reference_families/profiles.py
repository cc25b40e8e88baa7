"""The six built-in profiles as plain data: the three of RULES.md section 14, copied from the
tables of 14.2 ("Every field") and 14.10.9, and `classic`, `sankou` and `lezi` from sections 4-8;
and the overrides the differential tests send."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

# Pattern codes, by their proto enum number (IllegalReason likewise): lists are reported in this order.
PATTERNS = (
    "ALL_PUNGS", "HALF_FLUSH", "FULL_FLUSH", "HALF_FLUSH_PUNGS", "FULL_FLUSH_PUNGS", "ALL_HONOURS",
    "ALL_HONOURS_PUNGS", "EIGHT_FLOWERS", "BIG_HANGING", "HEAVENLY", "EARTHLY", "KONG_BLOOM",
    "CONCEALED", "ROBBING_KONG", "SEVEN_PAIRS", "NO_FLOWERS", "LAST_TILE",
)  # fmt: skip
PATTERN_NUMBER = {p: i + 1 for i, p in enumerate(PATTERNS)}
REASONS = (
    "INCOMPLETE_SHAPE", "NO_QUALIFYING_PATTERN", "MISSED_WIN", "NO_FLOWERS_SELF_DRAW_ONLY",
    "TOO_FEW_FLOWERS", "NOT_DECLARED", "TOO_FEW_FAN",
)  # fmt: skip
REASON_NUMBER = {r: i + 1 for i, r in enumerate(REASONS)}

# Section 5 with the profiles' `flower_values` (the same in all three, 14.2 and 14.10.9).
FLOWER_VALUES = {
    "FLOWER_TILE": 1,
    "SUITED_PUNG": 0,
    "WIND_PUNG": 1,
    "DRAGON_PUNG": 0,
    "SUITED_EXPOSED_KONG": 1,
    "SUITED_CONCEALED_KONG": 2,
    "WIND_EXPOSED_KONG": 2,
    "WIND_CONCEALED_KONG": 3,
    "DRAGON_EXPOSED_KONG": 1,
    "DRAGON_CONCEALED_KONG": 2,
}
FLOWER_SOURCES = tuple(FLOWER_VALUES)  # FlowerSource enum order

_EXTRA_FAN = {  # 附加番 of 14.2, summed
    "CONCEALED": 1, "NO_FLOWERS": 1, "BIG_HANGING": 1, "KONG_BLOOM": 1, "LAST_TILE": 1,
    "ROBBING_KONG": 1, "HEAVENLY": 8, "EARTHLY": 8,
}  # fmt: skip
_SHAPE_FAN = {"ALL_PUNGS": 1, "HALF_FLUSH": 1, "HALF_FLUSH_PUNGS": 1, "SEVEN_PAIRS": 1, "EIGHT_FLOWERS": 4}
_QUALIFYING_14_2 = frozenset(
    ("ALL_PUNGS", "HALF_FLUSH", "FULL_FLUSH", "HALF_FLUSH_PUNGS", "FULL_FLUSH_PUNGS", "ALL_HONOURS",
     "ALL_HONOURS_PUNGS", "EIGHT_FLOWERS", "SEVEN_PAIRS")
)  # fmt: skip


@dataclass(frozen=True)
class Profile:
    name: str
    unit: str
    lazi_value: int
    ordinary_base: int
    base_fan: int  # 兜底番
    additive: bool  # fan_combination = ADDITIVE
    fixed_values: dict
    fan: dict  # summed
    shape_fan: dict  # the highest counts
    qualifying: frozenset
    ordinary_hand_wins: bool
    dragons_are_flowers: bool
    standard_shape_only: bool
    seven_pairs: bool
    no_flowers_self_draw_only: bool
    earthly_self_draw_only: bool
    eight_flowers_lists_concealed: bool
    cap: int | None  # cap_lazi x lazi_value; None: uncapped
    max_fan: int  # 0: no limit
    min_fan: int
    no_flowers_value: int
    min_flowers_self_draw: int
    min_flowers_discard: int
    win_requires_declaration: bool
    huangfan_per_level: bool  # PER_LEVEL x2 per level; else no 荒番 effect (qiaoma's multiplier 1)
    huangfan_max_count: int  # 0: no limit
    kaibao: bool  # a double, or 1 and 4, doubles
    robbing_kong_share: int
    liability: str  # "NONE", "SANKOU", "ADDITIVE", "BAOSANKOU" or "CONTRACT"
    liability_self_draw_share: int
    liability_discard_share: int
    threshold: int = 3
    threshold_unconditional: int = 0
    fan_on_fixed: bool = True
    cap_fixed_values: bool = True
    multi_win_discarder_deals: bool = True
    huangfan_reset_after_win: bool = True
    all_honours_any_shape: bool = False
    flower_values: dict = field(default_factory=lambda: dict(FLOWER_VALUES))  # section 5 by source
    # Sections 6-8, for `classic`, `sankou` and `lezi` (the defaults are section 14's):
    floor_patterns: frozenset = frozenset()  # raise a value below 1 勒 to 1 勒 (lezi)
    lazi_threshold: int = 0  # an ordinary value at least this, below 1 喇, becomes 1 喇 (sankou 8)
    huangfan_once: bool = False  # 荒番 doubles once, whatever the count
    dice_huangfan: bool = False  # section 7's dice 荒番 (classic, sankou)

    @property
    def evaluates_no_flowers(self) -> bool:
        """14.3: `NO_FLOWERS` is evaluated only under a profile that names it in a table, or sets
        `no_flowers_self_draw_only` or `no_flowers_value`."""
        tables = (self.fan, self.shape_fan, self.fixed_values, self.qualifying)
        named = any(t.get("NO_FLOWERS") if isinstance(t, dict) else "NO_FLOWERS" in t for t in tables)
        return named or self.no_flowers_self_draw_only or bool(self.no_flowers_value)


QIAOMA_LEZI = Profile(
    name="qiaoma_lezi",
    unit="UNIT_POINT",
    lazi_value=10,
    ordinary_base=3,
    base_fan=1,
    additive=True,
    fixed_values={"FULL_FLUSH": 20, "FULL_FLUSH_PUNGS": 40, "ALL_HONOURS": 40, "ALL_HONOURS_PUNGS": 80},
    fan=_EXTRA_FAN,
    shape_fan=_SHAPE_FAN,
    qualifying=_QUALIFYING_14_2,
    ordinary_hand_wins=True,
    dragons_are_flowers=True,
    standard_shape_only=False,
    seven_pairs=False,
    no_flowers_self_draw_only=True,
    earthly_self_draw_only=True,
    eight_flowers_lists_concealed=True,
    cap=80,
    max_fan=0,
    min_fan=0,
    no_flowers_value=0,
    min_flowers_self_draw=0,
    min_flowers_discard=0,
    win_requires_declaration=False,
    huangfan_per_level=True,
    huangfan_max_count=3,
    kaibao=True,
    robbing_kong_share=3,
    liability="BAOSANKOU",
    liability_self_draw_share=5,
    liability_discard_share=3,
)

QINGHUNPENG = replace(
    QIAOMA_LEZI,
    name="qinghunpeng",
    ordinary_base=2,
    base_fan=0,
    fixed_values={"FULL_FLUSH": 10, "FULL_FLUSH_PUNGS": 20, "ALL_HONOURS": 20, "ALL_HONOURS_PUNGS": 40},
    ordinary_hand_wins=False,
    dragons_are_flowers=False,
)

# 14.10.9: what `qiaoma` shares with `qiaoma_lezi` is 中发白 as flowers, 垃圾胡 and the flower
# values; everything else is its own.
QIAOMA = replace(
    QIAOMA_LEZI,
    name="qiaoma",
    unit="UNIT_FLOWER",
    lazi_value=20,
    ordinary_base=1,
    base_fan=0,
    additive=False,
    fixed_values={},
    fan=dict(CONCEALED=1, BIG_HANGING=1, HALF_FLUSH=1, FULL_FLUSH=2, ALL_PUNGS=1, KONG_BLOOM=1, ROBBING_KONG=1),
    shape_fan={},
    qualifying=frozenset(
        ("ALL_PUNGS", "HALF_FLUSH", "FULL_FLUSH", "HALF_FLUSH_PUNGS", "FULL_FLUSH_PUNGS", "BIG_HANGING", "CONCEALED")
    ),
    standard_shape_only=True,
    no_flowers_self_draw_only=False,
    earthly_self_draw_only=False,
    eight_flowers_lists_concealed=False,
    cap=None,  # uncapped
    fan_on_fixed=False,
    cap_fixed_values=False,
    max_fan=3,
    no_flowers_value=10,
    min_flowers_self_draw=2,
    min_flowers_discard=3,
    win_requires_declaration=True,
    huangfan_per_level=False,  # huangfan_multiplier 1: a count changes nothing
    huangfan_max_count=0,
    kaibao=False,
    robbing_kong_share=1,
    liability="CONTRACT",
    liability_discard_share=1,
    threshold_unconditional=4,
)

# Sections 4-8: the profiles of the source texts.
_SECTION_5_FLOWERS = dict(FLOWER_VALUES, DRAGON_PUNG=2, DRAGON_EXPOSED_KONG=3, DRAGON_CONCEALED_KONG=4)
_SHAPE_PATTERNS = frozenset(
    ("ALL_PUNGS", "HALF_FLUSH", "FULL_FLUSH", "HALF_FLUSH_PUNGS", "FULL_FLUSH_PUNGS", "ALL_HONOURS",
     "ALL_HONOURS_PUNGS", "EIGHT_FLOWERS")
)  # fmt: skip
CLASSIC = replace(
    QIAOMA_LEZI,
    name="classic",
    unit="UNIT_FLOWER",
    lazi_value=20,
    ordinary_base=3,
    base_fan=0,
    additive=False,
    fixed_values={
        "HEAVENLY": 200,
        "EARTHLY": 160,
        "EIGHT_FLOWERS": 120,
        "ALL_HONOURS_PUNGS": 80,
        "ALL_HONOURS": 40,
        "FULL_FLUSH_PUNGS": 40,
        "FULL_FLUSH": 20,
        "HALF_FLUSH_PUNGS": 20,
        "BIG_HANGING": 20,
    },  # fmt: skip
    fan={"KONG_BLOOM": 1, "CONCEALED": 1},
    shape_fan={},
    qualifying=_SHAPE_PATTERNS | {"BIG_HANGING", "HEAVENLY", "EARTHLY", "KONG_BLOOM"},
    ordinary_hand_wins=False,
    dragons_are_flowers=False,
    no_flowers_self_draw_only=False,
    earthly_self_draw_only=False,
    eight_flowers_lists_concealed=False,
    cap=20,  # 1 喇, on ordinary hands
    fan_on_fixed=False,
    cap_fixed_values=False,
    huangfan_per_level=False,
    huangfan_once=True,
    dice_huangfan=True,
    huangfan_max_count=0,
    kaibao=False,
    liability="NONE",
    multi_win_discarder_deals=False,
    huangfan_reset_after_win=False,
    all_honours_any_shape=True,
    flower_values=_SECTION_5_FLOWERS,
)
SANKOU = replace(CLASSIC, name="sankou", ordinary_base=1, lazi_threshold=8, liability="SANKOU")
LEZI = replace(
    CLASSIC,
    name="lezi",
    unit="UNIT_POINT",
    lazi_value=10,
    ordinary_base=2,
    fixed_values={
        "ALL_HONOURS_PUNGS": 40,
        "ALL_HONOURS": 20,
        "FULL_FLUSH_PUNGS": 20,
        "EIGHT_FLOWERS": 20,
        "FULL_FLUSH": 10,
        "HALF_FLUSH_PUNGS": 10,
    },  # fmt: skip
    fan={},
    qualifying=_SHAPE_PATTERNS,
    cap=10,  # 1 勒
    floor_patterns=frozenset(("KONG_BLOOM", "BIG_HANGING")),
    dice_huangfan=False,
    kaibao=True,
    liability="ADDITIVE",
    liability_self_draw_share=3,
    liability_discard_share=1,
)

PROFILES = {p.name: p for p in (QIAOMA, QIAOMA_LEZI, QINGHUNPENG)}  # section 14's (the advice reference's too)
ALL_PROFILES = PROFILES | {p.name: p for p in (CLASSIC, SANKOU, LEZI)}

# The overrides the generator sends, by their proto3 JSON name, and the field each sets.
OVERRIDES = {
    "sevenPairs": "seven_pairs",
    "minFan": "min_fan",
    "maxFan": "max_fan",
    "ordinaryBase": "ordinary_base",
    "ordinaryBaseFan": "base_fan",
    "noFlowersValue": "no_flowers_value",
    "ordinaryMinFlowersSelfDraw": "min_flowers_self_draw",
    "ordinaryMinFlowersDiscard": "min_flowers_discard",
    "huangfanMaxCount": "huangfan_max_count",
    "fanAdditive": "additive",
    "fanOnFixed": "fan_on_fixed",
    "capFixedValues": "cap_fixed_values",
    "ordinaryHandWins": "ordinary_hand_wins",
    "standardShapeOnly": "standard_shape_only",
    "noFlowersSelfDrawOnly": "no_flowers_self_draw_only",
    "earthlySelfDrawOnly": "earthly_self_draw_only",
    "eightFlowersListsConcealed": "eight_flowers_lists_concealed",
    "winRequiresDeclaration": "win_requires_declaration",
    "multiWinDiscarderDeals": "multi_win_discarder_deals",
    "huangfanResetAfterWin": "huangfan_reset_after_win",
    "ordinaryLaziThreshold": "lazi_threshold",
}
# Tables an override merges entry by entry (profile.proto): wire name -> (field, entry key).
_TABLES = {
    "flowerValues": ("flower_values", "source"),
    "fan": ("fan", "pattern"),
    "shapeFan": ("shape_fan", "pattern"),
    "fixedValues": ("fixed_values", "pattern"),
}
_KEY_PREFIX = {"source": "FLOWER_SOURCE_", "pattern": "PATTERN_"}
_NEGATED = {"allHonoursNeedShape": "all_honours_any_shape"}  # wire spellings whose true is the field's false


def effective(name: str, overrides: dict | None) -> Profile:
    """The named profile with ``overrides`` (proto3 JSON names) applied. ``capLaziExtra`` is the
    wire spelling of `cap_lazi` - 1 (the start of section 14); ``qualifyingPatterns`` replaces the
    list, as a repeated override field does."""
    overrides = dict(overrides or {})
    profile = ALL_PROFILES[name]
    lazi = overrides.pop("laziValue", profile.lazi_value)
    cap_lazi = 1 + overrides.pop("capLaziExtra", (profile.cap or profile.lazi_value) // profile.lazi_value - 1)
    uncapped = overrides.pop("uncapped", profile.cap is None)  # qiaoma's cap_lazi_extra is 0: 1 x lazi_value
    profile = replace(profile, lazi_value=lazi, cap=None if uncapped else cap_lazi * lazi)
    for wire, name in (("qualifyingPatterns", "qualifying"), ("floorPatterns", "floor_patterns")):
        names = overrides.pop(wire, None)
        if names:  # a list replaces the profile's when not empty (enum names on the wire)
            profile = replace(profile, **{name: frozenset(p.removeprefix("PATTERN_") for p in names)})
    for wire, name in _NEGATED.items():
        if wire in overrides:
            profile = replace(profile, **{name: not overrides.pop(wire)})
    for wire, (name, key) in _TABLES.items():
        if wire in overrides:  # a table is merged entry by entry; a value left out is 0
            merged = dict(getattr(profile, name))
            for entry in overrides.pop(wire):
                merged[entry[key].removeprefix(_KEY_PREFIX[key])] = entry.get("value", 0)
            profile = replace(profile, **{name: merged})
    unknown = set(overrides) - set(OVERRIDES)
    if unknown:
        raise ValueError(f"the reference does not model the overrides {sorted(unknown)}")
    return replace(profile, **{OVERRIDES[k]: v for k, v in overrides.items()})

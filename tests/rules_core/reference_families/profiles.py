"""The three profiles of RULES.md section 14 as plain data, copied from the tables of 14.2
("Every field") and 14.10.9, and the few overrides the differential test sends."""

from __future__ import annotations

from dataclasses import dataclass, replace

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
    liability: str  # "BAOSANKOU" or "CONTRACT"
    liability_self_draw_share: int
    liability_discard_share: int
    threshold: int = 3
    threshold_unconditional: int = 0
    fan_on_fixed: bool = True
    cap_fixed_values: bool = True
    multi_win_discarder_deals: bool = True
    huangfan_reset_after_win: bool = True
    all_honours_any_shape: bool = False

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

PROFILES = {p.name: p for p in (QIAOMA, QIAOMA_LEZI, QINGHUNPENG)}

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
}
_NEGATED = {"allHonoursNeedShape": "all_honours_any_shape"}  # wire spellings whose true is the field's false


def effective(name: str, overrides: dict | None) -> Profile:
    """The named profile with ``overrides`` (proto3 JSON names) applied. ``capLaziExtra`` is the
    wire spelling of `cap_lazi` - 1 (the start of section 14); ``qualifyingPatterns`` replaces the
    list, as a repeated override field does."""
    overrides = dict(overrides or {})
    profile = PROFILES[name]
    extra = overrides.pop("capLaziExtra", None)
    uncapped = overrides.pop("uncapped", profile.cap is None)
    if uncapped:
        profile = replace(profile, cap=None)
    elif extra is not None or profile.cap is None:  # qiaoma's cap_lazi_extra is 0: 1 x lazi_value
        profile = replace(profile, cap=(1 + (extra or 0)) * profile.lazi_value)
    if "qualifyingPatterns" in overrides:  # a list replaces the profile's (enum names on the wire)
        names = overrides.pop("qualifyingPatterns")
        profile = replace(profile, qualifying=frozenset(p.removeprefix("PATTERN_") for p in names))
    for wire, name in _NEGATED.items():
        if wire in overrides:
            profile = replace(profile, **{name: not overrides.pop(wire)})
    unknown = set(overrides) - set(OVERRIDES)
    if unknown:
        raise ValueError(f"the reference does not model the overrides {sorted(unknown)}")
    return replace(profile, **{OVERRIDES[k]: v for k, v in overrides.items()})

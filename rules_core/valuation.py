"""The value of a legal hand per share, before multipliers (RULES.md sections 6 and 14.4), itemised.

- A hand with a fixed-value pattern (一、二类胡牌, 勒子 hands) is worth its fixed value F (the
  highest, or the sum, as `combine_fixed` says); with `fan_on_fixed` its 番 Σ (the summed `fan`,
  at most `max_fan`) double it (F × 2^Σ) or, under `fan_additive`, add one 勒 each
  (F + `lazi_value` × Σ); with `cap_fixed_values` the cap applies to it too.
- Any other legal hand is ordinary: (`ordinary_base` + 花) × 2^番, or × max(1, 番) under
  `fan_additive`, where 番 = 兜底番 (`ordinary_base_fan`) + the highest 牌型番 (`shape_fan`) +
  the summed 附加番 (`fan`), at most `max_fan`; then the sankou threshold and the cap of
  (1 + `cap_lazi_extra`) 喇 / 勒 (none when `uncapped`).
- Floor patterns (lezi 杠开, 大吊车) raise a value below 1 勒 to 1 勒.

Every step that changes the value leaves a `ValueItem` (`rules_core.value_items`).
"""

from __future__ import annotations

from functools import lru_cache

from rules_core.patterns import PATTERN_IMPLIES, patterns_of
from rules_core.profile import CombineFixed, FlowerSource, RuleProfile
from rules_core.results import ItemKind, ValueItem
from rules_core.value_items import (
    base_fan_item,
    base_item,
    cap_item,
    change_item,
    fan_cap_item,
    fan_items,
    flower_items,
    no_flowers_item,
    pattern_item,
    shape_fan_item,
)


def hand_value(
    profile: RuleProfile,
    patterns: int,
    sources: dict[FlowerSource, int],
    flowers: int,
    no_flowers: bool = False,
) -> tuple[int, tuple[ValueItem, ...]]:
    """(value, items) of a legal hand with pattern mask ``patterns`` and ``flowers`` 花;
    ``no_flowers``: its 花 are the profile's `no_flowers_value` (无花), shown as one item in
    place of the flower items."""
    fixed = patterns & profile.fixed_mask
    fan, extra, ordinary_items, extra_items = fan_parts(profile, patterns)
    cap = profile.cap
    if fixed:
        value, items = fixed_value(profile, fixed)
        parts = list(items)
        if extra and profile.fan_on_fixed:
            parts.extend(extra_items)
            used = _limited(profile, extra, parts)
            value = value + profile.lazi_value * used if profile.fan_additive else value << used
        if profile.cap_fixed_values and cap and value > cap:
            parts.append(cap_item(profile, cap - value))
            value = cap
    else:
        parts = [no_flowers_item(profile)] if no_flowers else flower_items(profile, sources)
        parts.extend(ordinary_items)
        value = profile.ordinary_base + flowers
        if fan:
            used = _limited(profile, fan, parts)
            value = value * used if profile.fan_additive else value << used
        lazi = profile.lazi_value
        threshold = profile.ordinary_lazi_threshold
        if threshold and threshold <= value < lazi:
            parts.append(change_item(ItemKind.THRESHOLD, "LAZI_THRESHOLD", lazi - value, profile))
            value = lazi
        if cap and value > cap:
            parts.append(cap_item(profile, cap - value))
            value = cap
    if patterns & profile.floor_mask and value < profile.lazi_value:
        parts.append(change_item(ItemKind.FLOOR, "LAZI_FLOOR", profile.lazi_value - value, profile))
        value = profile.lazi_value
    return value, tuple(parts)


@lru_cache(maxsize=4096)
def fan_parts(profile: RuleProfile, patterns: int) -> tuple[int, int, tuple[ValueItem, ...], tuple[ValueItem, ...]]:
    """The 番 of a hand with pattern mask ``patterns``, found once per mask: (番 of an ordinary
    hand before `max_fan`: 兜底番 + the highest 牌型番 (`shape_fan`) + the summed 附加番 (`fan`);
    附加番 alone, what a fixed-value hand reads; an ordinary hand's items from its base on
    (base, 兜底番, 牌型番, each 附加番); the 附加番 items)."""
    shape = 0
    shape_pattern = None
    for pattern in patterns_of(patterns & profile.shape_fan_mask):
        value = profile.shape_fan[pattern]
        if value >= shape:  # on a tie the later pattern, the more telling one (混碰 over 碰碰胡)
            shape, shape_pattern = value, pattern
    extra = sum(profile.fan[p] for p in patterns_of(patterns & profile.fan_mask))
    extra_items = fan_items(profile, patterns & profile.fan_mask)
    base_fan = profile.ordinary_base_fan
    ordinary = [base_item(profile)]
    if base_fan:
        ordinary.append(base_fan_item(base_fan))
    if shape_pattern is not None:
        ordinary.append(shape_fan_item(shape_pattern, shape))
    return base_fan + shape + extra, extra, tuple(ordinary) + extra_items, extra_items


def fan_total(profile: RuleProfile, patterns: int) -> int:
    """The 番 of an ordinary hand before `max_fan`: what `min_fan` compares."""
    return fan_parts(profile, patterns)[0]


def _limited(profile: RuleProfile, fan: int, parts: list[ValueItem]) -> int:
    """The 番 a value uses (at least 1 under `fan_additive`: × max(1, 番)): at most `max_fan`,
    with a FAN_CAP item when that limits them."""
    limit = profile.max_fan
    if limit and fan > limit:
        parts.append(fan_cap_item(limit, fan))
        return limit
    return fan


@lru_cache(maxsize=4096)
def fixed_value(profile: RuleProfile, fixed: int) -> tuple[int, tuple[ValueItem, ...]]:
    """The value of a hand's fixed-value patterns ``fixed`` (combined as the profile says), itemised."""
    present = patterns_of(fixed)
    values = profile.fixed_values
    if profile.combine_fixed == CombineFixed.SUM:
        implied = {q for p in present for q in PATTERN_IMPLIES.get(p, ())}
        counted = [p for p in present if p not in implied]
    else:
        counted = [max(present, key=lambda p: (values[p], -p))]  # the highest; on a tie the first
    items = tuple(pattern_item(p, values[p]) for p in counted)
    return sum(values[p] for p in counted), items

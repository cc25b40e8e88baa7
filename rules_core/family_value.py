"""The value of a legal hand under the fields of RULES.md section 14 (14.4, 14.10.4), itemised.

Used only for a profile that sets one of those fields (`RuleProfile.families`); today's three
profiles keep `rules_core.valuation.hand_value`, whose answers this reproduces at the defaults.

- A fixed-value hand (勒子 hand) is worth its highest fixed value F; with `fan_on_fixed` its
  番 Σ (the summed `fan`, at most `max_fan`) double it (F × 2^Σ) or, under `fan_additive`, add
  one 勒 each (F + `lazi_value` × Σ); with `cap_fixed_values` the cap applies too.
- An ordinary hand is worth (`ordinary_base` + 花) × 2^番, or × max(1, 番) under
  `fan_additive`, where 番 = 兜底番 + the highest 牌型番 + the summed 附加番, at most `max_fan`;
  then the sankou threshold and the cap ((1 + `cap_lazi_extra`) 喇 / 勒; none when `uncapped`).
- Floor patterns raise a value below 1 勒 to 1 勒, as today.
"""

from __future__ import annotations

from functools import lru_cache

from rules_core.patterns import Pattern, patterns_of
from rules_core.profile import FlowerSource, RuleProfile, Unit
from rules_core.results import ItemKind, ValueItem
from rules_core.valuation import base_item, change_item, fan_items, fixed_value, flower_items


@lru_cache(maxsize=4096)
def fan_parts(profile: RuleProfile, patterns: int) -> tuple[int, int, Pattern | None, int]:
    """(兜底番, 牌型番, the pattern that gives the 牌型番 or None, 附加番 summed) of a hand. The
    牌型番 is the highest `shape_fan` entry among the patterns."""
    shape = 0
    shape_pattern = None
    for pattern in patterns_of(patterns & profile.shape_fan_mask):
        value = profile.shape_fan[pattern]
        if value >= shape:  # on a tie the later pattern, the more telling one (混碰 over 碰碰胡)
            shape, shape_pattern = value, pattern
    extra = sum(profile.fan[p] for p in patterns_of(patterns & profile.fan_mask))
    return profile.ordinary_base_fan, shape, shape_pattern, extra


def fan_total(profile: RuleProfile, patterns: int) -> int:
    """The 番 of 14.4 item 2 before `max_fan`: what `min_fan` compares."""
    base, shape, _, extra = fan_parts(profile, patterns)
    return base + shape + extra


def family_value(
    profile: RuleProfile,
    patterns: int,
    sources: dict[FlowerSource, int],
    flowers: int,
    no_flowers: bool,
) -> tuple[int, tuple[ValueItem, ...]]:
    """(value before multipliers, items) of a legal hand; ``no_flowers``: its 花 are the
    profile's `no_flowers_value` (无花), shown as one item in place of the flower items."""
    fixed = patterns & profile.fixed_mask
    base_fan, shape, shape_pattern, extra = fan_parts(profile, patterns)
    cap = profile.cap
    if fixed:
        value, items = fixed_value(profile, fixed)
        parts = list(items)
        if extra and profile.fan_on_fixed:
            parts.extend(fan_items(profile, patterns & profile.fan_mask))
            used = _limited(profile, extra, parts)
            value = value + profile.lazi_value * used if profile.fan_additive else value << used
        if profile.cap_fixed_values and cap and value > cap:
            parts.append(_cap_item(profile, cap - value))
            value = cap
    else:
        parts = [_no_flowers_item(profile)] if no_flowers else flower_items(profile, sources)
        parts.append(base_item(profile))
        if base_fan:
            parts.append(_base_fan_item(base_fan))
        if shape_pattern is not None:
            parts.append(_shape_fan_item(shape_pattern, shape))
        if extra:
            parts.extend(fan_items(profile, patterns & profile.fan_mask))
        used = _limited(profile, base_fan + shape + extra, parts)
        value = profile.ordinary_base + flowers
        if profile.fan_additive:
            value *= max(1, used)
        else:
            value <<= used
        lazi = profile.lazi_value
        threshold = profile.ordinary_lazi_threshold
        if threshold and threshold <= value < lazi:
            parts.append(change_item(ItemKind.THRESHOLD, "LAZI_THRESHOLD", lazi - value, profile))
            value = lazi
        if cap and value > cap:
            parts.append(_cap_item(profile, cap - value))
            value = cap
    if patterns & profile.floor_mask and value < profile.lazi_value:
        parts.append(change_item(ItemKind.FLOOR, "LAZI_FLOOR", profile.lazi_value - value, profile))
        value = profile.lazi_value
    return value, tuple(parts)


def _limited(profile: RuleProfile, fan: int, parts: list[ValueItem]) -> int:
    """The 番 a value uses: at most `max_fan`, with a FAN_CAP item when that limits them."""
    limit = profile.max_fan
    if limit and fan > limit:
        parts.append(ValueItem(ItemKind.CAP, "FAN_CAP", f"封顶{limit}番", f"Capped at {limit} fan", limit - fan))
        return limit
    return fan


_CAP_WORDS = {Unit.FLOWER: ("喇", "lazi"), Unit.POINT: ("勒", "lezi")}


@lru_cache(maxsize=1024)
def _cap_item(profile: RuleProfile, change: int) -> ValueItem:
    if profile.cap_lazi_extra == 0:
        return change_item(ItemKind.CAP, "LAZI_CAP", change, profile)  # today's words: one 喇 / 勒
    zh, en = _CAP_WORDS[profile.unit]
    lazi = 1 + profile.cap_lazi_extra
    return ValueItem(ItemKind.CAP, "LAZI_CAP", f"封顶 {lazi}{zh}", f"Capped at {lazi} {en}", change)


@lru_cache(maxsize=1024)
def _no_flowers_item(profile: RuleProfile) -> ValueItem:
    value = profile.no_flowers_value
    return ValueItem(ItemKind.FLOWERS, "NO_FLOWERS", f"无花（{value}花）", f"No flowers: counts {value}", value)


@lru_cache(maxsize=1024)
def _base_fan_item(fan: int) -> ValueItem:
    return ValueItem(ItemKind.FAN, "BASE_FAN", "兜底番", "Base fan", fan)


@lru_cache(maxsize=1024)
def _shape_fan_item(pattern: Pattern, fan: int) -> ValueItem:
    return ValueItem(ItemKind.FAN, pattern.name, f"{pattern.name_zh}（牌型番）", f"{pattern.name_en} (shape fan)", fan)

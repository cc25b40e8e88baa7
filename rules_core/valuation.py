"""The value of a legal hand per share, before multipliers (RULES.md section 6), itemised.

A hand with a fixed-value pattern (一、二类胡牌) is worth that value; any other
legal hand is ordinary: ``(base + 花) × 2^番``, then the sankou threshold and
the cap of 1 喇 / 勒. Floor patterns (lezi 杠开, 大吊车) raise a value below
1 勒 to 1 勒. Every step that changes the value leaves a `ValueItem`.
"""

from __future__ import annotations

from functools import lru_cache

from rules_core.patterns import PATTERN_IMPLIES, Pattern, patterns_of
from rules_core.profile import CombineFixed, FlowerSource, RuleProfile, Unit
from rules_core.results import ItemKind, ValueItem, new


def hand_value(
    profile: RuleProfile, patterns: int, flower_sources: dict[FlowerSource, int], flowers: int
) -> tuple[int, tuple[ValueItem, ...]]:
    """(value, items) of a legal hand with pattern mask ``patterns`` and ``flowers`` 花."""
    fixed = patterns & profile.fixed_mask
    fan_patterns = patterns & profile.fan_mask
    fan = _fan(profile, fan_patterns)
    if fixed:
        value, items = _fixed_value(profile, fixed)
        if fan and profile.fan_on_fixed:
            value <<= fan
            items = items + _fan_items(profile, fan_patterns)
    else:
        parts = _flower_items(profile, flower_sources)
        parts.append(_base_item(profile))
        value = profile.ordinary_base + flowers
        if fan:
            value <<= fan
            parts.extend(_fan_items(profile, fan_patterns))
        lazi = profile.lazi_value
        threshold = profile.ordinary_lazi_threshold
        if threshold and threshold <= value < lazi:
            parts.append(_change_item(ItemKind.THRESHOLD, "LAZI_THRESHOLD", lazi - value, profile))
            value = lazi
        if value > lazi:
            parts.append(_change_item(ItemKind.CAP, "LAZI_CAP", lazi - value, profile))
            value = lazi
        items = tuple(parts)
    if patterns & profile.floor_mask and value < profile.lazi_value:
        items = items + (_change_item(ItemKind.FLOOR, "LAZI_FLOOR", profile.lazi_value - value, profile),)
        value = profile.lazi_value
    return value, items


def fan_items(profile: RuleProfile, fan_patterns: int) -> tuple[ValueItem, ...]:
    """One FAN item per pattern of ``fan_patterns`` (a mask within `fan_mask`)."""
    return _fan_items(profile, fan_patterns)


def fixed_value(profile: RuleProfile, fixed: int) -> tuple[int, tuple[ValueItem, ...]]:
    """The value of a hand's fixed-value patterns ``fixed`` (combined as the profile says), itemised."""
    return _fixed_value(profile, fixed)


def flower_items(profile: RuleProfile, sources: dict[FlowerSource, int]) -> list[ValueItem]:
    return _flower_items(profile, sources)


def base_item(profile: RuleProfile) -> ValueItem:
    return _base_item(profile)


def change_item(kind: ItemKind, code: str, change: int, profile: RuleProfile) -> ValueItem:
    return _change_item(kind, code, change, profile)


@lru_cache(maxsize=4096)
def _fan(profile: RuleProfile, fan_patterns: int) -> int:
    return sum(profile.fan[p] for p in patterns_of(fan_patterns))


@lru_cache(maxsize=4096)
def _fan_items(profile: RuleProfile, fan_patterns: int) -> tuple[ValueItem, ...]:
    return tuple(
        ValueItem(ItemKind.FAN, p.name, p.name_zh, p.name_en, profile.fan[p]) for p in patterns_of(fan_patterns)
    )


@lru_cache(maxsize=4096)
def _fixed_value(profile: RuleProfile, fixed: int) -> tuple[int, tuple[ValueItem, ...]]:
    present = patterns_of(fixed)
    values = profile.fixed_values
    if profile.combine_fixed == CombineFixed.SUM:
        implied = {q for p in present for q in PATTERN_IMPLIES.get(p, ())}
        counted = [p for p in present if p not in implied]
    else:
        counted = [max(present, key=lambda p: (values[p], -p))]  # the highest; on a tie the first
    items = tuple(_pattern_item(p, values[p]) for p in counted)
    return sum(values[p] for p in counted), items


def _pattern_item(pattern: Pattern, value: int) -> ValueItem:
    return ValueItem(ItemKind.PATTERN, pattern.name, pattern.name_zh, pattern.name_en, value)


@lru_cache(maxsize=65536)
def _source_item(source: FlowerSource, count: int, value: int) -> ValueItem:
    return ValueItem(ItemKind.FLOWERS, source.name, source.name_zh, source.name_en, value * count, count)


def _flower_items(profile: RuleProfile, sources: dict[FlowerSource, int]) -> list[ValueItem]:
    values = profile.flower_values
    items = []
    for source in sorted(sources):
        value = values.get(source, 0)
        if value:
            items.append(_source_item(source, sources[source], value))
    return items


_BASE_NAMES = {Unit.FLOWER: ("底注花", "Base flowers"), Unit.POINT: ("底分", "Base points")}


@lru_cache(maxsize=64)
def _base_item(profile: RuleProfile) -> ValueItem:
    zh, en = _BASE_NAMES[profile.unit]
    return ValueItem(ItemKind.BASE, "ORDINARY_BASE", zh, en, profile.ordinary_base)


_CHANGE_NAMES = {
    ("LAZI_THRESHOLD", Unit.FLOWER): ("≥{t}花算1喇", "Ordinary value of {t} or more counts as one lazi"),
    ("LAZI_THRESHOLD", Unit.POINT): ("≥{t}分算1勒", "Ordinary value of {t} or more counts as one lezi"),
    ("LAZI_CAP", Unit.FLOWER): ("封顶 1喇", "Capped at one lazi"),
    ("LAZI_CAP", Unit.POINT): ("封顶 1勒", "Capped at one lezi"),
    ("LAZI_FLOOR", Unit.FLOWER): ("不足1喇按1喇", "Raised to one lazi"),
    ("LAZI_FLOOR", Unit.POINT): ("不足勒子按勒子算", "Raised to one lezi"),
}


def _change_item(kind: ItemKind, code: str, change: int, profile: RuleProfile) -> ValueItem:
    zh, en = _change_names(code, profile.unit, profile.ordinary_lazi_threshold)
    return new(ValueItem, (kind, code, zh, en, change, 1))


@lru_cache(maxsize=256)
def _change_names(code: str, unit: Unit, threshold: int) -> tuple[str, str]:
    """The Chinese and English names of a change item, formatted once per threshold."""
    zh, en = _CHANGE_NAMES[code, unit]
    return zh.format(t=threshold), en.format(t=threshold)

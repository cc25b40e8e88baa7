"""The explanation items of a hand's value (`ValueItem`): one per step that changes it, named in
both languages. Built once per distinct item where that pays (the hot path asks for few)."""

from __future__ import annotations

from functools import lru_cache

from rules_core.patterns import Pattern, patterns_of
from rules_core.profile import FlowerSource, RuleProfile, Unit
from rules_core.results import ItemKind, ValueItem, new


@lru_cache(maxsize=4096)
def fan_items(profile: RuleProfile, fan_patterns: int) -> tuple[ValueItem, ...]:
    """One FAN item per pattern of ``fan_patterns`` (a mask within `fan_mask`)."""
    return tuple(
        ValueItem(ItemKind.FAN, p.name, p.name_zh, p.name_en, profile.fan[p]) for p in patterns_of(fan_patterns)
    )


def pattern_item(pattern: Pattern, value: int) -> ValueItem:
    return ValueItem(ItemKind.PATTERN, pattern.name, pattern.name_zh, pattern.name_en, value)


@lru_cache(maxsize=65536)
def _source_item(source: FlowerSource, count: int, value: int) -> ValueItem:
    return ValueItem(ItemKind.FLOWERS, source.name, source.name_zh, source.name_en, value * count, count)


def flower_items(profile: RuleProfile, sources: dict[FlowerSource, int]) -> list[ValueItem]:
    values = profile.flower_values
    items = []
    for source in sorted(sources):
        value = values[source] if source in values else 0  # not `.get`: a method call on a mappingproxy
        if value:
            items.append(_source_item(source, sources[source], value))
    return items


@lru_cache(maxsize=1024)
def no_flowers_item(profile: RuleProfile) -> ValueItem:
    """无花: a hand of 0 花 counts the profile's `no_flowers_value`, in place of its flower items."""
    value = profile.no_flowers_value
    return ValueItem(ItemKind.FLOWERS, "NO_FLOWERS", f"无花（{value}花）", f"No flowers: counts {value}", value)


_BASE_NAMES = {Unit.FLOWER: ("底注花", "Base flowers"), Unit.POINT: ("底分", "Base points")}


@lru_cache(maxsize=64)
def base_item(profile: RuleProfile) -> ValueItem:
    zh, en = _BASE_NAMES[profile.unit]
    return ValueItem(ItemKind.BASE, "ORDINARY_BASE", zh, en, profile.ordinary_base)


@lru_cache(maxsize=1024)
def base_fan_item(fan: int) -> ValueItem:
    return ValueItem(ItemKind.FAN, "BASE_FAN", "兜底番", "Base fan", fan)


@lru_cache(maxsize=1024)
def shape_fan_item(pattern: Pattern, fan: int) -> ValueItem:
    return ValueItem(ItemKind.FAN, pattern.name, f"{pattern.name_zh}（牌型番）", f"{pattern.name_en} (shape fan)", fan)


@lru_cache(maxsize=1024)
def fan_cap_item(limit: int, fan: int) -> ValueItem:
    return ValueItem(ItemKind.CAP, "FAN_CAP", f"封顶{limit}番", f"Capped at {limit} fan", limit - fan)


_CAP_WORDS = {Unit.FLOWER: ("喇", "lazi"), Unit.POINT: ("勒", "lezi")}


def cap_item(profile: RuleProfile, change: int) -> ValueItem:
    """The cap of (1 + `cap_lazi_extra`) 喇 / 勒, taking ``change`` off the value."""
    if profile.cap_lazi_extra == 0:
        return change_item(ItemKind.CAP, "LAZI_CAP", change, profile)  # one 喇 / 勒
    return _wide_cap_item(profile, change)


@lru_cache(maxsize=1024)
def _wide_cap_item(profile: RuleProfile, change: int) -> ValueItem:
    zh, en = _CAP_WORDS[profile.unit]
    lazi = 1 + profile.cap_lazi_extra
    return ValueItem(ItemKind.CAP, "LAZI_CAP", f"封顶 {lazi}{zh}", f"Capped at {lazi} {en}", change)


_CHANGE_NAMES = {
    ("LAZI_THRESHOLD", Unit.FLOWER): ("≥{t}花算1喇", "Ordinary value of {t} or more counts as one lazi"),
    ("LAZI_THRESHOLD", Unit.POINT): ("≥{t}分算1勒", "Ordinary value of {t} or more counts as one lezi"),
    ("LAZI_CAP", Unit.FLOWER): ("封顶 1喇", "Capped at one lazi"),
    ("LAZI_CAP", Unit.POINT): ("封顶 1勒", "Capped at one lezi"),
    ("LAZI_FLOOR", Unit.FLOWER): ("不足1喇按1喇", "Raised to one lazi"),
    ("LAZI_FLOOR", Unit.POINT): ("不足勒子按勒子算", "Raised to one lezi"),
}


def change_item(kind: ItemKind, code: str, change: int, profile: RuleProfile) -> ValueItem:
    zh, en = _change_names(code, profile.unit, profile.ordinary_lazi_threshold)
    return new(ValueItem, (kind, code, zh, en, change, 1))


@lru_cache(maxsize=256)
def _change_names(code: str, unit: Unit, threshold: int) -> tuple[str, str]:
    """The Chinese and English names of a change item, formatted once per threshold."""
    zh, en = _CHANGE_NAMES[code, unit]
    return zh.format(t=threshold), en.format(t=threshold)

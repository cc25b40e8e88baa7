"""Resolve a request's profile: a built-in profile by exact name, with overrides merged on.

Overrides are a mapping from `RuleProfile` field names to values. A scalar or a
set replaces the profile's; a table (pattern values, 番, 花 per source, dice
荒番) is merged entry by entry, so ``{"fixed_values": {Pattern.FULL_FLUSH: 30}}``
changes 清一色 alone. A fixed value of 0 makes the pattern an ordinary one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from enum import IntEnum
from threading import Lock
from types import MappingProxyType
from typing import Any

from rules_core.errors import FieldViolation
from rules_core.memo_key import memo_key
from rules_core.patterns import Pattern
from rules_core.profile import (
    PROFILE_FIELDS,
    CombineFixed,
    FlowerSource,
    HuangfanMode,
    LiabilityMode,
    RuleProfile,
    Unit,
    dice_throw,
)
from rules_core.registry import BUILTIN_REGISTRY, ProfileRegistry, unknown_profile

Check = Callable[[Any, Any], Any]  # (new value, current value) -> merged value; raises ValueError


class EntryFaults(ValueError):
    """Faults inside a list or table field: (path below the field, description) pairs, such as
    ``("[0].value", "must be 0 to 8, got 99")`` for ``overrides.fan[0].value``."""

    def __init__(self, faults: list[tuple[str, str]]):
        super().__init__("; ".join(f"{where}: {what}" for where, what in faults))
        self.faults = faults


class _DieFault(ValueError):
    """A die out of range: ``which`` is ``first`` or ``second``."""

    def __init__(self, which: str, message: str):
        super().__init__(message)
        self.which = which


# Bounds that keep every amount finite and every computation quick; realistic profiles stay far
# below 2**53, where every amount is exact. docs/RULES.md (section 3) lists them.
MAX_VALUE = 100_000
MAX_FAN = 8
MAX_MULTIPLIER = 16
MAX_SHARE = 100
MAX_CAP_LAZI = 1000  # the cap of 1 to 1,000 喇 / 勒 (cap_lazi_extra 0 to 999)
MAX_HUANGFAN_LEVELS = 24  # huangfan_max_count and max_fan: 2**24 at most
MAX_FLOWER_COUNT = 100  # no_flowers_value and the 垃圾胡 minimums
MAX_MIN_FAN = 64


def _bounded(limit: int):
    def check(value, _current):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("must be a whole number")
        if not 0 <= value <= limit:
            raise ValueError(f"must be 0 to {limit}, got {value}")
        return value

    return check


_count = _bounded(MAX_VALUE)


def _share(value, _current):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("must be a number")
    if not 0 <= value <= MAX_SHARE or value * 2 != int(value * 2):
        raise ValueError(f"must be a multiple of 0.5 from 0 to {MAX_SHARE}, got {value}")
    return value


def _flag(value, _current):
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def _enum(enum_type: type[IntEnum]) -> Check:
    def check(value, _current):
        if not isinstance(value, enum_type):
            names = ", ".join(m.name for m in enum_type)
            raise ValueError(f"must be one of {names}")
        return value

    return check


def _items(value) -> list:
    """The entries of a list field, or of a table given as a mapping or as (key, value) pairs."""
    if isinstance(value, Mapping):
        return list(value.items())
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ValueError("must be a list")
    return list(value)


def _patterns(value, _current):
    """A set of patterns; a pattern listed twice counts once."""
    items = _items(value)
    faults = [(f"[{i}]", "must be a specified pattern") for i, p in enumerate(items) if not isinstance(p, Pattern)]
    if faults:
        raise EntryFaults(faults)
    return frozenset(items)


def _die(value, which: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise _DieFault(which, f"a die shows 1-6, got {value!r}")
    return value


def _throw(throw) -> tuple[int, int]:
    """An unordered throw from (first, second); a `_DieFault` names a die out of range."""
    try:
        first, second = throw
    except (TypeError, ValueError):
        raise ValueError(f"must be two dice, got {throw!r}") from None
    first = _die(first, "first")
    return dice_throw(first, _die(second, "second"))


def _throws(value, _current):
    """A set of throws (kaibao_throws); a throw listed twice counts once."""
    throws = set()
    faults = []
    for index, throw in enumerate(_items(value)):
        try:
            throws.add(_throw(throw))
        except _DieFault as die_fault:
            faults.append((f"[{index}].{die_fault.which}", str(die_fault)))
        except ValueError as fault:
            faults.append((f"[{index}]", str(fault)))
    if faults:
        raise EntryFaults(faults)
    return frozenset(throws)


def _table(key_field: str, key_check: Callable[[Any], Any], amount_check: Check = _count) -> Check:
    """Entries merged onto the profile's table; a key given twice is a fault at the later entry."""

    def check(value: Any, current: Any) -> Any:
        merged = dict(current)
        seen: dict[Any, int] = {}
        faults = []
        for index, entry in enumerate(_items(value)):
            try:
                key, amount = entry
            except (TypeError, ValueError):
                faults.append((f"[{index}]", f"must be a {key_field} and a value, got {entry!r}"))
                continue
            try:
                key = key_check(key)
            except _DieFault as die_fault:  # its own name: compiled, a name has one type per function
                faults.append((f"[{index}].{key_field}.{die_fault.which}", str(die_fault)))
                key = None
            except ValueError as fault:
                faults.append((f"[{index}].{key_field}", str(fault)))
                key = None
            if key is not None:
                if key in seen:
                    faults.append((f"[{index}].{key_field}", f"{_key_text(key)} is given twice (also [{seen[key]}])"))
                seen.setdefault(key, index)
            try:
                amount = amount_check(amount, None)
            except ValueError as fault:
                faults.append((f"[{index}].value", str(fault)))
                continue
            if key is not None:
                merged[key] = amount
        if faults:
            raise EntryFaults(faults)
        return MappingProxyType(merged)

    return check


def _key_text(key) -> str:
    if isinstance(key, tuple):
        return f"the throw {key[0]} and {key[1]} (in either order)"
    return key.name


def _pattern_key(key):
    if not isinstance(key, Pattern):
        raise ValueError(f"{key!r} is not a pattern")
    return key


def _source_key(key):
    if not isinstance(key, FlowerSource):
        raise ValueError(f"{key!r} is not a flower source")
    return key


def _self_draw_shares(value, _current):
    items = _items(value)
    faults = []
    shares = []
    for index, item in enumerate(items):
        try:
            shares.append(_share(item, None))
        except ValueError as fault:
            faults.append((f"[{index}]", str(fault)))
    if faults:
        raise EntryFaults(faults)
    if len(shares) != 4:
        raise ValueError(f"needs 4 shares, for 0 to 3 related seats, got {len(shares)}")
    return tuple(shares)


def _positive(limit: int) -> Check:
    """1 to ``limit``: 0 is refused where it would erase every value (a cap or a multiplier
    of 0) or relate seats that never claimed (a threshold of 0)."""
    bounded = _bounded(limit)

    def check(value, current):
        value = bounded(value, current)
        if value == 0:
            raise ValueError("must be at least 1")
        return value

    return check


CHECKS: dict[str, Check] = {
    "unit": _enum(Unit),
    "lazi_value": _positive(MAX_VALUE),
    "ordinary_base": _count,
    "ordinary_lazi_threshold": _count,
    "fixed_values": _table("pattern", _pattern_key),
    "fan": _table("pattern", _pattern_key, _bounded(MAX_FAN)),
    "floor_patterns": _patterns,
    "qualifying_patterns": _patterns,
    "combine_fixed": _enum(CombineFixed),
    "fan_on_fixed": _flag,
    "flower_values": _table("source", _source_key),
    "huangfan_mode": _enum(HuangfanMode),
    "huangfan_multiplier": _positive(MAX_MULTIPLIER),
    "dice_huangfan": _table("dice", _throw),
    "kaibao_throws": _throws,
    "kaibao_multiplier": _positive(MAX_MULTIPLIER),
    "self_draw_share": _share,
    "discard_share": _share,
    "robbing_kong_share": _share,
    "liability_mode": _enum(LiabilityMode),
    "liability_threshold": _positive(MAX_VALUE),
    "liability_discard_share": _share,
    "liability_self_draw_share": _share,
    "liability_robbing_kong_share": _share,
    "sankou_self_draw_shares": _self_draw_shares,
    "sankou_related_discarder_share": _share,
    "sankou_related_seat_share": _share,
    "abandon_penalty": _count,
    # The rule families played today (RULES.md sections 14.1 and 14.10.1), with their bounds.
    "dragons_are_flowers": _flag,
    "ordinary_hand_wins": _flag,
    "fan_additive": _flag,
    "ordinary_base_fan": _bounded(MAX_FAN),
    "shape_fan": _table("pattern", _pattern_key, _bounded(MAX_FAN)),
    "cap_lazi_extra": _bounded(MAX_CAP_LAZI - 1),
    "cap_fixed_values": _flag,
    "seven_pairs": _flag,
    "all_honours_need_shape": _flag,
    "no_flowers_self_draw_only": _flag,
    "earthly_self_draw_only": _flag,
    "eight_flowers_lists_concealed": _flag,
    "huangfan_reset_after_win": _flag,
    "huangfan_max_count": _bounded(MAX_HUANGFAN_LEVELS),
    "multi_win_discarder_deals": _flag,
    "liability_skips_kongs": _flag,
    "kong_bloom_needs_kong": _flag,
    "standard_shape_only": _flag,
    "no_flowers_value": _bounded(MAX_FLOWER_COUNT),
    "ordinary_min_flowers_self_draw": _bounded(MAX_FLOWER_COUNT),
    "ordinary_min_flowers_discard": _bounded(MAX_FLOWER_COUNT),
    "max_fan": _bounded(MAX_HUANGFAN_LEVELS),
    "min_fan": _bounded(MAX_MIN_FAN),
    "win_requires_declaration": _flag,
    "liability_threshold_unconditional": _count,
    "uncapped": _flag,
}
assert set(CHECKS) | {"name"} == set(PROFILE_FIELDS), "every profile field has a check"


def resolve_profile(
    name: str, overrides: Mapping[str, Any] | None, profiles: ProfileRegistry = BUILTIN_REGISTRY
) -> tuple[RuleProfile | None, list[FieldViolation]]:
    """The effective profile, or None and the violations that prevent it. ``name`` is looked up
    in ``profiles`` (built-in and house profiles); the overrides apply on top of that profile."""
    base = profiles.get(name)
    if base is None:
        if not name:
            return None, [FieldViolation("profile", f"must be specified: one of {profiles.known}")]
        return None, [FieldViolation("profile", unknown_profile(name, profiles.names))]
    if not overrides:
        return base, []
    key = memo_key(name, overrides)
    hashable = True
    try:
        found = _MERGED.get(key)
    except TypeError:  # a value that cannot be hashed: merged each time
        hashable, found = False, None
    if found is not None and found[0] is base:  # a reloaded house profile of the same name is another base
        return found[1], []
    profile, violations = apply_overrides(base, overrides)
    if profile is not None and hashable:
        with _MERGED_LOCK:
            if len(_MERGED) >= MAX_MERGED_PROFILES:
                del _MERGED[next(iter(_MERGED))]  # the oldest
            _MERGED[key] = (base, profile)
    return profile, violations


# Merged profiles by the value of their overrides: a batch or a house sends the same overrides
# again and again, and a profile kept is a profile whose scoring caches (keyed by the profile)
# stay warm. At most MAX_MERGED_PROFILES are kept, the oldest dropped first; a merged profile
# takes a few kilobytes, so the memo stays within a few megabytes.
MAX_MERGED_PROFILES = 1024
_MERGED: dict[tuple, tuple[RuleProfile, RuleProfile]] = {}  # key -> (the base merged onto, the result)
_MERGED_LOCK = Lock()  # for inserting and dropping; a look-up is one atomic dict.get


def apply_overrides(base: RuleProfile, overrides: Mapping[str, Any]) -> tuple[RuleProfile | None, list[FieldViolation]]:
    changes: dict[str, Any] = {}
    violations: list[FieldViolation] = []
    for field_name, value in overrides.items():
        path = f"overrides.{field_name}"
        check = CHECKS.get(field_name)
        if check is None:
            reason = "the profile name cannot be overridden" if field_name == "name" else "is not a profile field"
            violations.append(FieldViolation(path, reason))
            continue
        try:
            changes[field_name] = check(value, getattr(base, field_name))
        except EntryFaults as faults:
            violations.extend(FieldViolation(path + where, what) for where, what in faults.faults)
        except (ValueError, TypeError) as error:
            violations.append(FieldViolation(path, str(error)))
    if violations:
        return None, violations
    return replace(base, **changes), []

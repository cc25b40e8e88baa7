"""Resolve a request's profile: a built-in profile by exact name, with overrides merged on.

Overrides are a mapping from `RuleProfile` field names to values. A scalar or a
set replaces the profile's; a table (pattern values, 番, 花 per source, dice
荒番) is merged entry by entry, so ``{"fixed_values": {Pattern.FULL_FLUSH: 30}}``
changes 清一色 alone. A fixed value of 0 makes the pattern an ordinary one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from enum import IntEnum
from types import MappingProxyType
from typing import Any

from rules_core.builtin_profiles import BUILTIN_PROFILES
from rules_core.errors import FieldViolation
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

Check = Callable[[Any, Any], Any]  # (new value, current value) -> merged value; raises ValueError


# Bounds that keep every amount finite and every computation quick; realistic profiles stay far
# below 2**53, where every amount is exact.
MAX_VALUE = 100_000
MAX_FAN = 8
MAX_MULTIPLIER = 16
MAX_SHARE = 100


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


def _patterns(value, _current):
    patterns = frozenset(value)
    if not all(isinstance(p, Pattern) for p in patterns):
        raise ValueError("must list patterns")
    return patterns


def _throw(throw) -> tuple[int, int]:
    first, second = throw
    if not (1 <= first <= 6 and 1 <= second <= 6):
        raise ValueError(f"a throw of {first} and {second}: dice run from 1 to 6")
    return dice_throw(first, second)


def _throws(value, _current):
    return frozenset(_throw(t) for t in value)


def _table(key_check: Callable[[Any], Any], amount_check: Check = _count) -> Check:
    def check(value, current):
        merged = dict(current)
        for key, amount in dict(value).items():
            key = key_check(key)
            merged[key] = amount_check(amount, None)
        return MappingProxyType(merged)

    return check


def _pattern_key(key):
    if not isinstance(key, Pattern):
        raise ValueError(f"{key!r} is not a pattern")
    return key


def _source_key(key):
    if not isinstance(key, FlowerSource):
        raise ValueError(f"{key!r} is not a flower source")
    return key


def _self_draw_shares(value, _current):
    shares = tuple(_share(v, None) for v in value)
    if len(shares) != 4:
        raise ValueError(f"needs 4 shares, for 0 to 3 related seats, got {len(shares)}")
    return shares


def _positive(limit: int) -> Check:
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
    "fixed_values": _table(_pattern_key),
    "fan": _table(_pattern_key, _bounded(MAX_FAN)),
    "floor_patterns": _patterns,
    "qualifying_patterns": _patterns,
    "combine_fixed": _enum(CombineFixed),
    "fan_on_fixed": _flag,
    "flower_values": _table(_source_key),
    "huangfan_mode": _enum(HuangfanMode),
    "huangfan_multiplier": _positive(MAX_MULTIPLIER),
    "dice_huangfan": _table(_throw, _bounded(2)),
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
}
assert set(CHECKS) | {"name"} == set(PROFILE_FIELDS), "every profile field has a check"

KNOWN_PROFILES = ", ".join(sorted(BUILTIN_PROFILES))


def resolve_profile(name: str, overrides: Mapping[str, Any] | None) -> tuple[RuleProfile | None, list[FieldViolation]]:
    """The effective profile, or None and the violations that prevent it."""
    base = BUILTIN_PROFILES.get(name)
    if base is None:
        shown = repr(name) if name else "an empty name"
        return None, [FieldViolation("profile", f"unknown profile {shown}; known profiles: {KNOWN_PROFILES}")]
    if not overrides:
        return base, []
    return apply_overrides(base, overrides)


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
        except (ValueError, TypeError) as error:
            violations.append(FieldViolation(path, str(error)))
    if violations:
        return None, violations
    return replace(base, **changes), []

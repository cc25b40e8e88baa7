"""RuleProfile messages and rules_core profiles and overrides, both ways."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mahjong.shanghai.v1 import profile_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

from convert.enums import PATTERN_IN, SOURCE_IN, Violations, enum_table, lookup, lookup_all
from convert.json_names import (
    ENUM_FIELDS,
    FLAG_FIELDS,
    INT_FIELDS,
    PATTERN_LIST_FIELDS,
    PATTERN_TABLE_FIELDS,
    SHARE_FIELDS,
)
from convert.profile_digest import profile_digest
from rules_core.errors import FieldViolation
from rules_core.profile import RuleProfile
from rules_core.registry import ProfileEntry
from rules_core.validation import MAX_LENGTHS, over_limit

_OPTIONAL_SCALARS = INT_FIELDS + SHARE_FIELDS + FLAG_FIELDS  # `optional` in RuleProfile: presence is known
_PROFILE_ENUMS = tuple((name, enum_table(codec)) for name, codec in ENUM_FIELDS.items())
_REPEATED = tuple(f.name for f in profile_pb2.RuleProfile.DESCRIPTOR.fields if f.is_repeated)
assert set(_REPEATED) <= set(MAX_LENGTHS), "every repeated field of RuleProfile has a bound"


def overrides(msg: profile_pb2.RuleProfile, path: str, violations: Violations) -> dict[str, Any] | None:
    """Core overrides from a partial RuleProfile: only the fields that are set."""
    too_long = False
    for name in _REPEATED:
        problem = over_limit(name, len(getattr(msg, name)))
        if problem:
            violations.append(FieldViolation(f"{path}.{name}", problem))
            too_long = True
    if too_long:  # none of the elements is read
        return None
    found: dict[str, Any] = {}
    if msg.name:
        found["name"] = msg.name
    for name in _OPTIONAL_SCALARS:
        if msg.HasField(name):
            found[name] = getattr(msg, name)
    for name, table in _PROFILE_ENUMS:
        member = lookup(table, getattr(msg, name), f"{path}.{name}", violations)
        if member is not None:
            found[name] = member
    for name in PATTERN_TABLE_FIELDS:
        entries = _keyed(getattr(msg, name), "pattern", PATTERN_IN, f"{path}.{name}", violations)
        if entries:
            found[name] = entries
    sources = _keyed(msg.flower_values, "source", SOURCE_IN, f"{path}.flower_values", violations)
    if sources:
        found["flower_values"] = sources
    for name in PATTERN_LIST_FIELDS:
        numbers = getattr(msg, name)
        patterns = lookup_all(PATTERN_IN, numbers, f"{path}.{name}", violations)
        if patterns:
            found[name] = frozenset(p for p in patterns if p is not None)
            for index, number in enumerate(numbers):
                if number == 0:
                    violations.append(FieldViolation(f"{path}.{name}[{index}]", "must be a specified pattern"))
    if msg.dice_huangfan:
        found["dice_huangfan"] = [((e.dice.first, e.dice.second), e.value) for e in msg.dice_huangfan]
    if msg.kaibao_throws:
        found["kaibao_throws"] = [(d.first, d.second) for d in msg.kaibao_throws]
    if msg.sankou_self_draw_shares:
        found["sankou_self_draw_shares"] = tuple(msg.sankou_self_draw_shares)
    return found or None


def _keyed(entries, key_field: str, table, path: str, violations: Violations) -> list:
    """(key, value) pairs in the order given: rules_core names an entry by its index."""
    found = []
    for index, entry in enumerate(entries):
        key_path = f"{path}[{index}].{key_field}"
        number = getattr(entry, key_field)
        key = lookup(table, number, key_path, violations)
        if key is None:
            if number == 0:
                violations.append(FieldViolation(key_path, "must be specified"))
            continue
        found.append((key, entry.value))
    return found


def rule_profile(profile: RuleProfile) -> profile_pb2.RuleProfile:
    """Every field of a profile, as GetProfile returns it."""
    return profile_pb2.RuleProfile(
        name=profile.name,
        unit=profile.unit,
        **{name: getattr(profile, name) for name in _OPTIONAL_SCALARS},
        combine_fixed=profile.combine_fixed,
        huangfan_mode=profile.huangfan_mode,
        liability_mode=profile.liability_mode,
        **{
            name: [profile_pb2.PatternValue(pattern=p, value=v) for p, v in sorted(getattr(profile, name).items())]
            for name in PATTERN_TABLE_FIELDS
        },
        flower_values=[profile_pb2.FlowerValue(source=s, value=v) for s, v in sorted(profile.flower_values.items())],
        floor_patterns=sorted(profile.floor_patterns),
        qualifying_patterns=sorted(profile.qualifying_patterns),
        dice_huangfan=[
            profile_pb2.DiceValue(dice=profile_pb2.Dice(first=a, second=b), value=v)
            for (a, b), v in sorted(profile.dice_huangfan.items())
        ],
        kaibao_throws=[profile_pb2.Dice(first=a, second=b) for a, b in sorted(profile.kaibao_throws)],
        sankou_self_draw_shares=profile.sankou_self_draw_shares,
    )


def get_profile_response(profile: RuleProfile, entry: ProfileEntry) -> svc.GetProfileResponse:
    """GetProfile's answer: the effective profile, with the base and description of its entry."""
    return svc.GetProfileResponse(
        profile=rule_profile(profile), base=entry.base, description=entry.description, digest=profile_digest(profile)
    )


def list_profiles_response(entries: Iterable[ProfileEntry]) -> svc.ListProfilesResponse:
    """ListProfiles' answer: every profile, and in the same order its name, base and description."""
    entries = tuple(entries)
    return svc.ListProfilesResponse(
        profiles=[rule_profile(e.profile) for e in entries],
        summaries=[
            svc.ProfileSummary(name=e.name, base=e.base, description=e.description, digest=profile_digest(e.profile))
            for e in entries
        ],
    )


def overrides_message(found: dict[str, Any] | None) -> profile_pb2.RuleProfile | None:
    """A partial RuleProfile from core overrides (the inverse of `overrides`)."""
    if not found:
        return None
    message = profile_pb2.RuleProfile()
    for name, value in found.items():
        if name in PATTERN_TABLE_FIELDS:
            getattr(message, name).extend(profile_pb2.PatternValue(pattern=p, value=v) for p, v in _entries(value))
        elif name == "flower_values":
            message.flower_values.extend(profile_pb2.FlowerValue(source=s, value=v) for s, v in _entries(value))
        elif name == "dice_huangfan":
            message.dice_huangfan.extend(
                profile_pb2.DiceValue(dice=profile_pb2.Dice(first=a, second=b), value=v)
                for (a, b), v in _entries(value)
            )
        elif name == "kaibao_throws":
            message.kaibao_throws.extend(profile_pb2.Dice(first=a, second=b) for a, b in value)
        elif name in PATTERN_LIST_FIELDS:
            getattr(message, name).extend(sorted(value))
        elif name == "sankou_self_draw_shares":
            message.sankou_self_draw_shares.extend(value)
        else:
            setattr(message, name, value)
    return message


def _entries(table) -> Iterable:
    """A table of core overrides: a mapping, or (key, value) pairs."""
    return table.items() if isinstance(table, Mapping) else table

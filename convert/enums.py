"""Enum numbers to rules_core members: a number the proto does not define is a field violation."""

from __future__ import annotations

from itertools import repeat
from typing import Any

from rules_core.errors import FieldViolation
from rules_core.errors import Violations as BoundedViolations
from rules_core.patterns import Pattern
from rules_core.profile import FlowerSource
from rules_core.requests import MeldKind, Outcome
from rules_core.tiles import ALL_FLOWERS, ALL_TILES

_UNKNOWN = object()


def enum_table(core_members, offset: int = 0) -> dict[int, Any]:
    table: dict[int, Any] = {0: None}
    table.update({int(m) + offset: m for m in core_members})
    return table


TILE_IN = enum_table(ALL_TILES, offset=1)
FLOWER_IN = enum_table(ALL_FLOWERS)
MELD_KIND_IN = enum_table(MeldKind)
OUTCOME_IN = enum_table(Outcome)
PATTERN_IN = enum_table(Pattern)
SOURCE_IN = enum_table(FlowerSource)


class Violations(BoundedViolations):
    """Field violations found while converting a message (the first few kept, the rest counted)."""

    def unknown(self, path: str, number: int) -> None:
        self.append(FieldViolation(path, f"unknown value {number}"))


def lookup(table, number: int, path: str, violations: Violations):
    member = table.get(number, _UNKNOWN)
    if member is _UNKNOWN:
        violations.unknown(path, number)
        return None
    return member


def lookup_all(table, numbers, path: str, violations: Violations) -> tuple:
    members = tuple(map(table.get, numbers, repeat(_UNKNOWN)))
    if _UNKNOWN in members:
        for index, (member, number) in enumerate(zip(members, numbers, strict=True)):
            if member is _UNKNOWN:
                violations.unknown(f"{path}[{index}]", number)
        members = tuple(None if m is _UNKNOWN else m for m in members)
    return members

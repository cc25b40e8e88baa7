"""Enum numbers to rules_core members: a number the proto does not define is a field violation.

The numbers are the generated descriptors' (`convert.json_names`'s codecs), none typed here."""

from __future__ import annotations

from itertools import repeat
from typing import Any

from convert.json_names import FLOWER, FLOWER_SOURCE, MELD_KIND, OUTCOME, PATTERN, TILE, EnumCodec
from rules_core.errors import FieldViolation
from rules_core.errors import Violations as BoundedViolations

_UNKNOWN = object()


def enum_table(codec: EnumCodec) -> dict[int, Any]:
    """The core member of each proto number; None for 0 (unspecified)."""
    table: dict[int, Any] = {0: None}
    table.update(codec.by_number)
    return table


TILE_IN = enum_table(TILE)
FLOWER_IN = enum_table(FLOWER)
MELD_KIND_IN = enum_table(MELD_KIND)
OUTCOME_IN = enum_table(OUTCOME)
PATTERN_IN = enum_table(PATTERN)
SOURCE_IN = enum_table(FLOWER_SOURCE)


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

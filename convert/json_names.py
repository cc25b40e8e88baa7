"""The vocabulary of the proto3 JSON mapping of API.md: enum names, field names, profile fields.

Shared by `convert.json_read` and `convert.json_write`; no gRPC or protobuf needed.
"""

from __future__ import annotations

from enum import IntEnum
from functools import cached_property

from rules_core.errors import FieldViolation, excerpt
from rules_core.patterns import Pattern
from rules_core.profile import (
    FAMILY_FLAG_FIELDS,
    FAMILY_INT_FIELDS,
    FAMILY_PATTERN_TABLE_FIELDS,
    CombineFixed,
    FlowerSource,
    HuangfanMode,
    LiabilityMode,
    Unit,
)
from rules_core.records import EventKind
from rules_core.requests import MeldKind, Outcome
from rules_core.tiles import Flower, Tile


class EnumCodec:
    """Proto enum names and numbers for a core enum (proto number = core value + offset)."""

    def __init__(self, core: type[IntEnum], prefix: str, offset: int = 0):
        self.core = core
        self.prefix = prefix
        self.offset = offset
        self.by_name = {f"{prefix}{m.name}": m for m in core}
        self.by_number = {m.value + offset: m for m in core}
        self.name_of = {m: f"{prefix}{m.name}" for m in core}
        self.unspecified = f"{prefix}UNSPECIFIED"

    def read(self, value, path: str, violations: list) -> IntEnum | None:
        """The core member, or None for the unspecified value (0)."""
        if isinstance(value, str):
            if value == self.unspecified:
                return None
            member = self.by_name.get(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            if value == 0:
                return None
            member = self.by_number.get(value)
        else:
            violations.append(FieldViolation(path, f"expected a {self.prefix}* name, got {excerpt(value)}"))
            return None
        if member is None:
            violations.append(FieldViolation(path, f"unknown value {excerpt(value)}{self._hint(value)}"))
        return member

    def _hint(self, value) -> str:
        """What a person meant by an unknown name: the name it spells in another case or with
        dashes (``'M2'``: TILE_M2, ``'self-draw'``: OUTCOME_SELF_DRAW), or the names accepted."""
        if not isinstance(value, str):
            return ""  # a number: the proto readers say the same, and no name would help
        guess = self.guess(value)
        return f" (did you mean {guess}?)" if guess else f"; expected {self.accepted}"

    def guess(self, value: str) -> str | None:
        """The name ``value`` spells in another case, with dashes or without the prefix, or None."""
        if len(value) <= 64:
            spelled = value.strip().upper().replace("-", "_").replace(" ", "_")
            for guess in (spelled, self.prefix + spelled):
                if guess in self.by_name:
                    return guess
        return None

    @cached_property
    def accepted(self) -> str:
        """``one of OUTCOME_SELF_DRAW, ...``, runs of numbered names shortened (TILE_M1…TILE_M9); a
        long list as ``EVENT_KIND_ and one of DEAL, DRAW, ...``, or just the prefix when even that
        would not fit in a violation's description."""
        names: list[str] = []
        for name in self.name_of.values():
            if names and name[-1] == "9" and names[-1][:-1] == name[:-1] and names[-1][-1] == "1":
                names[-1] = f"{names[-1]}…{name}"
            elif not (names and name[-1].isdigit() and names[-1][:-1] == name[:-1]):
                names.append(name)
        listed = f"one of {', '.join(names)}"
        if len(listed) <= 160:
            return listed
        short = f"{self.prefix} and one of {', '.join(n.removeprefix(self.prefix) for n in names)}"
        return short if len(short) <= 200 else f"a {self.prefix}* name"

    def read_all(self, values: list, path: str, violations: list) -> tuple:
        """The members of a list: names are looked up at C speed, paths are built only for faults."""
        try:
            return tuple(map(self.by_name.__getitem__, values))
        except (KeyError, TypeError):  # a number, an unknown name, something unhashable
            return tuple(self.read(v, f"{path}[{i}]", violations) for i, v in enumerate(values))


TILE = EnumCodec(Tile, "TILE_", offset=1)
FLOWER = EnumCodec(Flower, "FLOWER_")
MELD_KIND = EnumCodec(MeldKind, "MELD_KIND_")
OUTCOME = EnumCodec(Outcome, "OUTCOME_")
PATTERN = EnumCodec(Pattern, "PATTERN_")
EVENT_KIND = EnumCodec(EventKind, "EVENT_KIND_")
FLOWER_SOURCE = EnumCodec(FlowerSource, "FLOWER_SOURCE_")
UNIT = EnumCodec(Unit, "UNIT_")
COMBINE_FIXED = EnumCodec(CombineFixed, "COMBINE_FIXED_")
HUANGFAN_MODE = EnumCodec(HuangfanMode, "HUANGFAN_MODE_")
LIABILITY_MODE = EnumCodec(LiabilityMode, "LIABILITY_MODE_")

# Short spellings of RULES.md section 11 (`MAX`, `ONCE`, `ADDITIVE`) are accepted too.
for _codec in (COMBINE_FIXED, HUANGFAN_MODE, LIABILITY_MODE):
    _codec.by_name.update({m.name: m for m in _codec.core})


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


# --- the fields of RuleProfile, by how they are written --------------------------------------

# All but `name`, the enums and the tables, by their type in a message.
INT_FIELDS = (
    "lazi_value",
    "ordinary_base",
    "ordinary_lazi_threshold",
    "huangfan_multiplier",
    "kaibao_multiplier",
    "liability_threshold",
    "abandon_penalty",
) + FAMILY_INT_FIELDS
SHARE_FIELDS = (
    "self_draw_share",
    "discard_share",
    "robbing_kong_share",
    "liability_discard_share",
    "liability_self_draw_share",
    "liability_robbing_kong_share",
    "sankou_related_discarder_share",
    "sankou_related_seat_share",
)
FLAG_FIELDS = ("fan_on_fixed",) + FAMILY_FLAG_FIELDS
PATTERN_TABLE_FIELDS = ("fixed_values", "fan") + FAMILY_PATTERN_TABLE_FIELDS
PATTERN_LIST_FIELDS = ("floor_patterns", "qualifying_patterns")

_CODECS = {codec.core: codec for codec in (UNIT, COMBINE_FIXED, HUANGFAN_MODE, LIABILITY_MODE)}
ENUM_FIELDS = {
    name: _CODECS[enum]
    for name, enum in (
        ("unit", Unit),
        ("combine_fixed", CombineFixed),
        ("huangfan_mode", HuangfanMode),
        ("liability_mode", LiabilityMode),
    )
}
PROFILE_MESSAGE_FIELDS = (
    ("name",)
    + INT_FIELDS
    + SHARE_FIELDS
    + tuple(ENUM_FIELDS)
    + PATTERN_TABLE_FIELDS
    + PATTERN_LIST_FIELDS
    + FLAG_FIELDS
    + ("flower_values", "dice_huangfan", "kaibao_throws", "sankou_self_draw_shares")
)

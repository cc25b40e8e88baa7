"""The vocabulary of the proto3 JSON mapping of API.md: enum names, field names, profile fields.

Shared by `convert.json_read` and `convert.json_write`. Every enum's names and numbers come
from the generated descriptors of the .proto files, matched to rules_core's enum member by
member (``TILE_M1`` is ``Tile.M1``): none is typed here, and an enum value the proto has and
rules_core lacks, or the reverse, fails at import. The JSON names of fields are the
descriptors' own (``json_name``).
"""

from __future__ import annotations

from enum import IntEnum
from functools import cached_property

from google.protobuf import descriptor_pool
from google.protobuf.descriptor import EnumDescriptor, FieldDescriptor
from mahjong.shanghai.v1 import advice_pb2, profile_pb2, records_pb2, settlement_pb2  # noqa: F401  # their enums

from rules_core.errors import FieldViolation, excerpt
from rules_core.patterns import IllegalReason, Pattern
from rules_core.profile import (
    CombineFixed,
    FlowerSource,
    HuangfanMode,
    LiabilityMode,
    Unit,
)
from rules_core.records import EventKind
from rules_core.requests import MeldKind, Outcome
from rules_core.results import ItemKind, PaymentReason, PenaltyReason
from rules_core.tiles import Flower, Tile

PACKAGE = (
    settlement_pb2.DESCRIPTOR.package
)  # the contract's proto package (a string would be renamed in the client wheel)


def proto_enum(name: str) -> EnumDescriptor:
    """The generated descriptor of the proto enum ``name`` (``Tile``) of the contract's package."""
    return descriptor_pool.Default().FindEnumTypeByName(f"{PACKAGE}.{name}")


class EnumCodec:
    """A proto enum's names and numbers for a core enum, member by member: the proto value
    ``<PREFIX>_<NAME>`` is the core member ``NAME``, and its number is the descriptor's."""

    def __init__(self, core: type[IntEnum], proto: EnumDescriptor | None = None):
        proto = proto or proto_enum(core.__name__)
        self.core = core
        self.proto = proto
        self.unspecified = proto.values_by_number[0].name
        if not self.unspecified.endswith("_UNSPECIFIED"):
            raise ImportError(f"{proto.full_name}: its value 0 is {self.unspecified}, not <PREFIX>_UNSPECIFIED")
        self.prefix = self.unspecified.removesuffix("UNSPECIFIED")
        named = {v.name.removeprefix(self.prefix): v.number for v in proto.values if v.number != 0}
        members = {m.name for m in core}
        if set(named) != members:
            raise ImportError(
                f"{proto.full_name} and {core.__module__}.{core.__name__} differ: "
                f"{sorted(set(named) ^ members)} in one and not the other"
            )
        self.by_name = {f"{self.prefix}{m.name}": m for m in core}
        self.by_number = {named[m.name]: m for m in core}
        self.number_of = {m: named[m.name] for m in core}
        self.name_of = {m: f"{self.prefix}{m.name}" for m in core}

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

    def names_by_value(self) -> list[str]:
        """The proto name of each member at the index of its core value ("" where none has it).
        A writer names an answer's enums by list index: an IntEnum member's ``name`` and
        ``__hash__`` (a dict look-up) are Python functions, called for every pattern, item and
        payment of every answer."""
        names = [""] * (max(self.core) + 1)
        for member, name in self.name_of.items():
            names[member] = name
        return names


TILE = EnumCodec(Tile)
FLOWER = EnumCodec(Flower)
MELD_KIND = EnumCodec(MeldKind)
OUTCOME = EnumCodec(Outcome)
PATTERN = EnumCodec(Pattern)
EVENT_KIND = EnumCodec(EventKind)
FLOWER_SOURCE = EnumCodec(FlowerSource)
UNIT = EnumCodec(Unit)
COMBINE_FIXED = EnumCodec(CombineFixed)
HUANGFAN_MODE = EnumCodec(HuangfanMode)
LIABILITY_MODE = EnumCodec(LiabilityMode)
ILLEGAL_REASON = EnumCodec(IllegalReason)
ITEM_KIND = EnumCodec(ItemKind)
PAYMENT_REASON = EnumCodec(PaymentReason)
PENALTY_REASON = EnumCodec(PenaltyReason)

# Short spellings of RULES.md section 11 (`MAX`, `ONCE`, `ADDITIVE`) are accepted too.
for _codec in (COMBINE_FIXED, HUANGFAN_MODE, LIABILITY_MODE):
    _codec.by_name.update({m.name: m for m in _codec.core})


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


# --- the fields of RuleProfile, by how they are written --------------------------------------
# Grouped from the message's descriptor by type, in field-number order: a field added to the
# .proto joins its group here with no edit (the core RuleProfile must have it, by the same name).

_PROFILE = profile_pb2.RuleProfile.DESCRIPTOR
_PATTERN_VALUE = profile_pb2.PatternValue.DESCRIPTOR
_CODECS = {codec.proto.full_name: codec for codec in (UNIT, COMBINE_FIXED, HUANGFAN_MODE, LIABILITY_MODE)}


def _singular(kind: int) -> tuple[str, ...]:
    return tuple(f.name for f in _PROFILE.fields if f.type == kind and not f.is_repeated)


# All but `name`, the enums and the tables, by their type in a message.
INT_FIELDS = _singular(FieldDescriptor.TYPE_INT32)
SHARE_FIELDS = _singular(FieldDescriptor.TYPE_DOUBLE)
FLAG_FIELDS = _singular(FieldDescriptor.TYPE_BOOL)
PATTERN_TABLE_FIELDS = tuple(f.name for f in _PROFILE.fields if f.message_type is _PATTERN_VALUE)
PATTERN_LIST_FIELDS = tuple(f.name for f in _PROFILE.fields if f.is_repeated and f.enum_type is PATTERN.proto)
ENUM_FIELDS = {
    f.name: _CODECS[f.enum_type.full_name]
    for f in _PROFILE.fields
    if f.type == FieldDescriptor.TYPE_ENUM and not f.is_repeated
}
_GROUPED = INT_FIELDS + SHARE_FIELDS + tuple(ENUM_FIELDS) + PATTERN_TABLE_FIELDS + PATTERN_LIST_FIELDS + FLAG_FIELDS
# Read and written one by one: `name`, and the tables of their own (flowers, dice, shares).
OTHER_FIELDS = tuple(f.name for f in _PROFILE.fields if f.name not in _GROUPED)
PROFILE_MESSAGE_FIELDS = OTHER_FIELDS[:1] + _GROUPED + OTHER_FIELDS[1:]

"""The wire layer's tables of names come from the proto descriptors, and cover them whole: every
enum value of the contract is a rules_core member both ways, every RuleProfile field is in the
group it is read and written by, and every field's JSON name is the one the writers spell."""

from __future__ import annotations

import pytest
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from mahjong.shanghai.v1 import scoring_service_pb2

import convert.json_names as names
import convert.json_write as json_write
from convert.advice_json import SUIT
from convert.enums import FLOWER_IN, MELD_KIND_IN, OUTCOME_IN, PATTERN_IN, SOURCE_IN, TILE_IN
from convert.proto_bytes import FLOWERS, MELD_KINDS, OUTCOMES, TILES
from convert.records import EVENT_KIND_IN
from rules_core.profile import RuleProfile


def contract_files() -> list:
    """The .proto files of the contract: the service's, and every file it imports, at any depth."""
    found: dict[str, object] = {}
    pending = [scoring_service_pb2.DESCRIPTOR]
    while pending:
        file = pending.pop()
        if file.package == scoring_service_pb2.DESCRIPTOR.package and file.name not in found:
            found[file.name] = file
            pending.extend(file.dependencies)
    return list(found.values())


def messages(descriptor_holders) -> list[Descriptor]:
    found = []
    for holder in descriptor_holders:
        for message in holder.message_types_by_name.values() if hasattr(holder, "message_types_by_name") else ():
            found += [message, *messages_nested(message)]
    return found


def messages_nested(message: Descriptor) -> list[Descriptor]:
    return [m for nested in message.nested_types for m in (nested, *messages_nested(nested))]


ENUMS: list[EnumDescriptor] = [e for file in contract_files() for e in file.enum_types_by_name.values()]
MESSAGES = messages(contract_files())
CODECS = {codec.proto.full_name: codec for codec in vars(names).values() if isinstance(codec, names.EnumCodec)}
CODECS[SUIT.proto.full_name] = SUIT


def test_the_contract_is_found_whole():
    assert {file.name.rsplit("/", 1)[-1] for file in contract_files()} >= {
        "tiles.proto",
        "patterns.proto",
        "profile.proto",
        "settlement.proto",
        "records.proto",
        "advice.proto",
        "scoring_service.proto",
    }
    assert not [e.full_name for m in MESSAGES for e in m.enum_types]  # every enum at the top: ENUMS has all


@pytest.mark.parametrize("enum", ENUMS, ids=lambda e: e.name)
def test_every_enum_value_is_a_core_member_both_ways(enum):
    codec = CODECS[enum.full_name]
    numbers = {v.number: v.name for v in enum.values if v.number != 0}
    assert {number: codec.name_of[member] for number, member in codec.by_number.items()} == numbers
    assert {
        name: codec.number_of[member] for name, member in codec.by_name.items() if name in codec.name_of.values()
    } == {name: number for number, name in numbers.items()}
    assert sorted(codec.by_number.values()) == sorted(codec.core)  # every core member has its value
    assert codec.unspecified == enum.values_by_number[0].name


def test_a_core_enum_and_its_proto_enum_that_differ_fail_at_import():
    from enum import IntEnum

    Tile = IntEnum("Tile", ["M1", "M2"])  # the proto has 34 tiles
    with pytest.raises(ImportError, match="Tile differ"):
        names.EnumCodec(Tile)


@pytest.mark.parametrize(
    ("table", "codec"),
    [
        (TILE_IN, names.TILE),
        (FLOWER_IN, names.FLOWER),
        (MELD_KIND_IN, names.MELD_KIND),
        (OUTCOME_IN, names.OUTCOME),
        (PATTERN_IN, names.PATTERN),
        (SOURCE_IN, names.FLOWER_SOURCE),
        (EVENT_KIND_IN, names.EVENT_KIND),
    ],
    ids=lambda x: getattr(x, "prefix", ""),
)
def test_the_proto_readers_tables_are_the_descriptors_numbers(table, codec):
    assert table == {
        0: None,
        **{v.number: codec.core[v.name.removeprefix(codec.prefix)] for v in codec.proto.values[1:]},
    }


def test_the_bytes_reader_indexes_each_member_by_its_number():
    for table, codec in (
        (TILES, names.TILE),
        (FLOWERS, names.FLOWER),
        (MELD_KINDS, names.MELD_KIND),
        (OUTCOMES, names.OUTCOME),
    ):
        assert dict(enumerate(table)) == {0: None, **codec.by_number}


def test_the_writers_name_tables_are_the_descriptors_names():
    tables = {
        "PATTERNS": names.PATTERN,
        "ILLEGAL_REASONS": names.ILLEGAL_REASON,
        "ITEM_KINDS": names.ITEM_KIND,
        "PAYMENT_REASONS": names.PAYMENT_REASON,
        "PENALTY_REASONS": names.PENALTY_REASON,
        "UNITS": names.UNIT,
    }
    for table, codec in tables.items():
        written = getattr(json_write, table)
        assert {written[m]: m for m in codec.core} == {
            v.name: codec.core[v.name.removeprefix(codec.prefix)] for v in codec.proto.values[1:]
        }, table


def test_every_rule_profile_field_is_in_one_group_and_a_core_field():
    profile = names._PROFILE
    groups = [
        names.INT_FIELDS,
        names.SHARE_FIELDS,
        names.FLAG_FIELDS,
        tuple(names.ENUM_FIELDS),
        names.PATTERN_TABLE_FIELDS,
        names.PATTERN_LIST_FIELDS,
        names.OTHER_FIELDS,
    ]
    grouped = [name for group in groups for name in group]
    assert sorted(grouped) == sorted(f.name for f in profile.fields)  # each once
    assert sorted(names.PROFILE_MESSAGE_FIELDS) == sorted(grouped)
    assert set(grouped) <= set(RuleProfile.__dataclass_fields__)
    assert names.OTHER_FIELDS == ("name", "flower_values", "dice_huangfan", "kaibao_throws", "sankou_self_draw_shares")
    for name in names.INT_FIELDS:
        assert profile.fields_by_name[name].type == FieldDescriptor.TYPE_INT32
    for name in names.SHARE_FIELDS:
        assert profile.fields_by_name[name].type == FieldDescriptor.TYPE_DOUBLE


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: m.name)
def test_every_json_name_is_the_one_camel_spells(message):
    assert {f.name: names.camel(f.name) for f in message.fields} == {f.name: f.json_name for f in message.fields}


@pytest.mark.parametrize("codec", sorted(CODECS.values(), key=lambda c: c.prefix), ids=lambda c: c.prefix)
def test_the_message_writers_numbers_are_the_descriptors(codec):
    """convert's message writers (responses, messages, advice) set an enum field to the core
    value, a tile to its index plus one: the numbers the descriptors give them."""
    offset = 1 if codec is names.TILE else 0
    assert {member: int(member) + offset for member in codec.core} == codec.number_of


def core_and_proto_pairs() -> list:
    from mahjong.shanghai.v1 import advice_pb2, profile_pb2, records_pb2, settlement_pb2, tiles_pb2

    import rules_core as rc
    from rules_core.advice_values import AdviseRequest
    from rules_core.records import HandEvent, SettleRecordRequest

    return [
        (rc.Meld, tiles_pb2.Meld),
        (rc.Hand, tiles_pb2.Hand),
        (rc.Winner, settlement_pb2.Winner),
        (rc.Dice, profile_pb2.Dice),
        (rc.LiabilityRelation, settlement_pb2.LiabilityRelation),
        (rc.SettleRequest, settlement_pb2.SettleRequest),
        (rc.ListWaitsRequest, scoring_service_pb2.ListWaitsRequest),
        (rc.CheckWinRequest, scoring_service_pb2.CheckWinRequest),
        (HandEvent, records_pb2.HandEvent),
        (SettleRecordRequest, records_pb2.SettleRecordRequest),
        (AdviseRequest, advice_pb2.AdviseRequest),
    ]


@pytest.mark.parametrize(("core", "message"), core_and_proto_pairs(), ids=lambda x: getattr(x, "__name__", ""))
def test_the_json_reader_takes_the_proto_fields_of_each_request_message(core, message):
    """convert.json_read reads a message's keys by its core type's fields (both spellings): they
    are the message's fields, so a field added to both is a key the reader takes, and one added to
    one alone fails here."""
    assert sorted(core._fields) == sorted(f.name for f in message.DESCRIPTOR.fields)

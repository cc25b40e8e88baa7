"""Every field of a SettleRequest, at any depth, is read by each faster reader as the bounded
reader reads it, or declined to it: none is dropped. The fields come from the generated
descriptor, so a field added to the .proto is checked here with no edit, and a faster reader
that does not know it must decline a request that carries it (docs/DEVELOPING.md, "Adding a
field to SettleRequest").

Each field is set, alone, to a value other than its default in a valid request, which is then
read from proto3 JSON (the msgspec reader, the C reader), from a nested Arrow row (msgspec), from
a nested Arrow batch (column by column) and from SettleBatch's bytes (``convert.proto_bytes``)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.json_format import ParseDict
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
import rules_core as rc
from batch import native
from batch.arrow import request_rows
from batch.arrow_columns import read_requests
from batch.arrow_schema import REQUEST, record_batch
from batch.fast_requests import read_json_request, read_row_request
from batch.request_structs import READ_FIELDS
from convert.json_read import read_settle_request
from convert.proto_bytes import read_batch
from convert.unread import JsonDefault, json_default, unread_json_fields

BASE = {
    "requestId": "r-1",
    "profile": "classic",
    "dealerSeat": 0,
    "dice": {"first": 3, "second": 4},
    "outcome": "OUTCOME_DISCARD",
    "discarderSeat": 2,
    "winners": [
        {
            "seat": 1,
            "hand": {
                "concealed": ["TILE_M1", "TILE_M2", "TILE_M3", "TILE_S7", "TILE_S8", "TILE_S9", "TILE_P5"],
                "winningTile": "TILE_P5",
                "melds": [{"kind": "MELD_KIND_PUNG", "tiles": ["TILE_P1"] * 3, "fromSeat": 2}],
                "flowers": ["FLOWER_SPRING"],
            },
        }
    ],
    "liabilities": [{"claimerSeat": 1, "sourceSeat": 2, "claims": 3}],
}


def _leaf_value(field: FieldDescriptor):
    """A value of the field's type other than its default (and other than BASE's)."""
    if field.type == FieldDescriptor.TYPE_ENUM:
        value = field.enum_type.values[-1].name  # the last name: never BASE's
    elif field.type == FieldDescriptor.TYPE_BOOL:
        value = True
    elif field.type == FieldDescriptor.TYPE_STRING:
        value = "x-9"
    elif field.type == FieldDescriptor.TYPE_MESSAGE:  # a message not walked: overrides
        value = {"laziValue": 2}
    else:
        value = 5  # no int of BASE
    return [value] if field.is_repeated else value


def _walk(descriptor: Descriptor, at: tuple) -> list[tuple[tuple, FieldDescriptor]]:
    """(the path of json names and list indexes 0, the field there) of every field."""
    found = []
    for field in descriptor.fields:
        path = (*at, field.json_name)
        message = field.message_type
        if message is not None and message.full_name.startswith("mahjong.") and message.name != "RuleProfile":
            found += _walk(message, (*path, 0) if field.is_repeated else path)
        else:
            found.append((path, field))
    return found


LEAVES = _walk(pb.SettleRequest.DESCRIPTOR, ())
FIELDS = [(path, _leaf_value(field)) for path, field in LEAVES]
IDS = [".".join(str(step) for step in path) for path, _ in FIELDS]


def with_field(path: tuple, value) -> dict:
    data = copy.deepcopy(BASE)
    parent = data
    for step, following in zip(path, (*path[1:], None), strict=True):
        if following is None:
            parent[step] = value
        elif isinstance(step, int):
            parent = parent[step]
        else:
            parent = parent.setdefault(step, [{}] if isinstance(following, int) else {})
    return data


def bounded(data: dict) -> rc.SettleRequest:
    request = read_settle_request(data)
    assert isinstance(request, rc.SettleRequest)
    return request


NATIVE_JSON = native.load("json_request")


def json_readings(data: dict) -> dict[str, rc.SettleRequest | None]:
    """What each faster reader of a JSON line makes of the request (None where it declines)."""
    line = json.dumps(data).encode()
    found = {"fast_requests (JSON)": read_json_request(line)}
    if NATIVE_JSON is not None:
        found["native json_request"] = NATIVE_JSON.read(line)
    return found


def readings(data: dict) -> dict[str, rc.SettleRequest | None]:
    """What each faster reader makes of the request: its reading, or None where it declines."""
    line = json.dumps(data).encode()
    batch = record_batch(REQUEST, [data])
    columns = read_requests(batch)
    message = ParseDict(data, pb.SettleRequest())
    entries = read_batch(svc.SettleBatchRequest(requests=[message]).SerializeToString())
    found = {
        "fast_requests (JSON)": read_json_request(line),
        "fast_requests (Arrow row)": read_row_request(request_rows(batch)[0]),
        "arrow_columns": None if columns is None else columns[0],
        "proto_bytes": None if entries is None else entries[0],
    }
    if NATIVE_JSON is not None:
        found["native json_request"] = NATIVE_JSON.read(line)
    return found


def test_the_fields_come_from_the_descriptor_and_reach_every_depth():
    paths = {path for path, _ in FIELDS}
    assert ("declaredSeats",) in paths
    assert ("winners", 0, "hand", "melds", 0, "fromSeat") in paths
    assert ("liabilities", 0, "patternKept") in paths
    assert ("dice", "second") in paths
    assert len(FIELDS) == sum(1 for _ in FIELDS)  # every leaf once


def test_the_base_request_is_read_alike_by_every_reader():
    expected = bounded(BASE)
    readings_of_base = readings(BASE)
    assert readings_of_base == dict.fromkeys(readings_of_base, expected)


# The fields of RULES.md section 14 (敲麻) that the msgspec and columnar readers read and the
# reader of protobuf bytes declines: such an entry is read from its parsed message.
LEFT_TO_THE_MESSAGE = {"declared_seats", "last_tile", "dragon_flowers", "pattern_kept"}


def field_of(path: tuple) -> tuple[str, str]:
    """(the message a field's path ends in, the field's .proto name): ("Hand", "winning_tile")."""
    descriptor = pb.SettleRequest.DESCRIPTOR
    for step in path[:-1]:
        if isinstance(step, str):
            descriptor = next(f for f in descriptor.fields if f.json_name == step).message_type
    return descriptor.name, next(f.name for f in descriptor.fields if f.json_name == path[-1])


@pytest.mark.parametrize(("path", "value"), FIELDS, ids=IDS)
def test_every_field_is_read_as_the_bounded_reader_reads_it_or_declined(path, value):
    data = with_field(path, value)
    expected = bounded(data)
    assert expected != bounded(BASE) or path[-1] in {"overrides"}  # the field changes the reading
    found = readings(data)
    for reader, reading in found.items():
        assert reading is None or reading == expected, f"{reader} dropped or misread {'.'.join(map(str, path))}"
    message, name = field_of(path)
    if name in READ_FIELDS[message]:  # a field the msgspec and columnar readers read: they read it, not decline it
        usual = ["fast_requests (JSON)", "fast_requests (Arrow row)", "arrow_columns"]
        if name not in LEFT_TO_THE_MESSAGE:
            usual.append("proto_bytes")
        assert [found[reader] for reader in usual] == [expected] * len(usual)
        if name in LEFT_TO_THE_MESSAGE:
            assert found["proto_bytes"] is None
    message = ParseDict(data, pb.SettleRequest())
    assert convert.settle_request(message) == expected  # the proto message's reading


def _default_forms(field: FieldDescriptor) -> list[tuple[object, bool]]:
    """(the field at its proto3 default in a form proto3 JSON gives it, whether that form is
    JSON's alone) of each form: null, and the typed default (an empty list, false, 0, "", an
    enum's zero value by name, or by number in JSON alone: an Arrow row names it); a field with
    presence (a message, an ``optional`` scalar) has null alone."""
    if field.is_repeated:
        return [(None, False), ([], False)]
    if field.has_presence:
        return [(None, False)]
    if field.type == FieldDescriptor.TYPE_ENUM:
        return [(None, False), (field.enum_type.values_by_number[0].name, False), (0, True)]
    typed = {FieldDescriptor.TYPE_BOOL: False, FieldDescriptor.TYPE_STRING: "", FieldDescriptor.TYPE_BYTES: ""}
    return [(None, False), (typed.get(field.type, 0), False)]


def _not_read(path: tuple) -> bool:
    message, name = field_of(path)
    return name not in READ_FIELDS[message] and name != "overrides"


DEFAULTS_NOT_READ = [
    (path, value, json_only) for path, field in LEAVES if _not_read(path) for value, json_only in _default_forms(field)
]


@pytest.mark.parametrize(
    ("path", "value", "json_only"),
    DEFAULTS_NOT_READ,
    ids=[f"{'.'.join(map(str, path))}={json.dumps(value)}" for path, value, _ in DEFAULTS_NOT_READ],
)
def test_a_field_not_read_at_its_default_is_read_as_absent_by_every_faster_reader(path, value, json_only):
    """As this product writes every request's JSON (``"lastTile": false``, ``[]``): a faster
    reader that does not read a field takes it at its default, in any form, and declines only a
    value (the test above)."""
    data = with_field(path, value)
    expected = bounded(BASE)
    assert bounded(data) == expected
    found = json_readings(data) if json_only else readings(data)
    assert found == dict.fromkeys(found, expected)


def test_the_fields_a_reader_does_not_read_and_their_defaults_come_from_the_descriptor():
    """What the native reader loads at import: a reader of a Hand's concealed tiles alone takes
    the rest at their defaults; an enum's by its zero name."""
    hand = unread_json_fields("mahjong.shanghai.v1.Hand", ["concealed"])
    assert hand[:3] == (
        ("winningTile", JsonDefault.ENUM_ZERO, "TILE_UNSPECIFIED"),
        ("melds", JsonDefault.EMPTY_LIST, ""),
        ("flowers", JsonDefault.EMPTY_LIST, ""),
    )
    descriptor = pb.Winner.DESCRIPTOR.fields_by_name["hand"].message_type
    assert [name for name, _, _ in hand] == [f.json_name for f in descriptor.fields][1:]
    with pytest.raises(ImportError, match=r"mahjong.shanghai.v1.Hand has no field of JSON name \['winning_tile'\]"):
        unread_json_fields(descriptor, ["concealed", "winning_tile"])


def test_how_each_type_of_field_stands_at_its_default():
    request, error = pb.SettleRequest.DESCRIPTOR.fields_by_name, pb.SettleError.DESCRIPTOR.fields_by_name
    profile = pb.SettleRequest.DESCRIPTOR.fields_by_name["overrides"].message_type.fields_by_name
    assert [
        json_default(field)
        for field in (
            request["overrides"],
            request["winners"],
            error["metadata"],
            pb.Winner.DESCRIPTOR.fields_by_name["replacement_draw"],
            request["dealer_seat"],
            request["request_id"],
            request["outcome"],
            profile["lazi_value"],
        )
    ] == [
        JsonDefault.NULL_ONLY,  # a message
        JsonDefault.EMPTY_LIST,
        JsonDefault.EMPTY_OBJECT,  # a map
        JsonDefault.FALSE,
        JsonDefault.ZERO,
        JsonDefault.EMPTY_TEXT,
        JsonDefault.ENUM_ZERO,
        JsonDefault.NULL_ONLY,  # an optional scalar
    ]


def every_field(descriptor: Descriptor = pb.SettleRequest.DESCRIPTOR) -> list[FieldDescriptor]:
    found = list(descriptor.fields)
    for field in descriptor.fields:
        message = field.message_type
        if message is not None and message.full_name.startswith("mahjong.") and message.name != "RuleProfile":
            found += every_field(message)
    return found


ROOT = Path(__file__).resolve().parents[2]
# The faster readers of a SettleRequest: they read the fields of READ_FIELDS and decline the rest.
FASTER_READERS = [
    "batch/fast_requests.py",
    "batch/request_structs.py",
    "batch/arrow_columns.py",
    "convert/proto_bytes.py",
    "batch/native/json_request.c",
]


@pytest.mark.parametrize("reader", FASTER_READERS)
def test_a_faster_reader_names_no_field_it_does_not_read(reader):
    """So adding a field to SettleRequest edits none of them: each declines a request that
    carries the field (the test above) and gives the core field its default (convert.unread)."""
    read = {name for names in READ_FIELDS.values() for name in names} | {"overrides"}
    fields = every_field()
    unread = {f.name for f in fields if f.name not in read} | {f.json_name for f in fields if f.name not in read}
    words = set(re.findall(r"[A-Za-z_]+", (ROOT / reader).read_text()))
    assert sorted(words & unread) == []

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


def _walk(descriptor: Descriptor, at: tuple) -> list[tuple[tuple, object]]:
    """(the path of json names and list indexes 0, the value to set there) of every field."""
    found = []
    for field in descriptor.fields:
        path = (*at, field.json_name)
        message = field.message_type
        if message is not None and message.full_name.startswith("mahjong.") and message.name != "RuleProfile":
            found += _walk(message, (*path, 0) if field.is_repeated else path)
        else:
            found.append((path, _leaf_value(field)))
    return found


FIELDS = _walk(pb.SettleRequest.DESCRIPTOR, ())
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
        usual = ("fast_requests (JSON)", "fast_requests (Arrow row)", "arrow_columns", "proto_bytes")
        assert [found[reader] for reader in usual] == [expected] * 4
    message = ParseDict(data, pb.SettleRequest())
    assert convert.settle_request(message) == expected  # the proto message's reading


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

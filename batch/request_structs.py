"""The msgspec structs a request in its usual form is decoded into, and the enum tables its
names are read by: the declarations of ``batch.fast_requests``, kept apart from it so that
the reader itself can be compiled with mypyc (these types are made at run time, which mypyc
cannot type).

The usual form is what the product, protobuf and the nested schema write: the fields of the
.proto (lowerCamelCase keys in JSON, .proto names in a row: both from the descriptors), enums by
name, whole numbers within int32, lists within their bounds, no ``overrides``, and no value in
a field this reader does not read (each struct holds every field of its message's descriptor:
those not read only at their default, so a field added to the .proto is declined, never
dropped). msgspec checks keys, types, ranges
and lengths in C while it decodes a line (``decode_json_line``) or converts a row
(``ROW_REQUEST``); a null is an absent field, as the bounded reader reads it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from mahjong.shanghai.v1 import profile_pb2, tiles_pb2
from mahjong.shanghai.v1 import settlement_pb2 as pb
from msgspec import Meta

from convert.json_names import FLOWER, MELD_KIND, OUTCOME, TILE, EnumCodec
from convert.unread import JsonDefault, enum_zero, json_default
from rules_core.validation import (
    MAX_CONCEALED,
    MAX_DECLARED,
    MAX_DRAGON_FLOWERS,
    MAX_FLOWERS,
    MAX_LIABILITIES,
    MAX_MELD_TILES,
    MAX_MELDS,
    MAX_PASSED,
    MAX_WINNERS,
)

Seat = Annotated[int, Meta(ge=-(2**31), le=2**31 - 1)]  # any int32: validation judges the seat
Int32 = Seat | None


def _names(codec: EnumCodec) -> dict:
    """The core member of each proto name; the unspecified name, and null, stand for None (as
    the bounded reader reads them)."""
    members = {name: member for name, member in codec.by_name.items() if name.startswith(codec.prefix)}
    return {**members, codec.unspecified: None, None: None}


TILES, FLOWERS, MELD_KINDS, OUTCOMES = (_names(codec) for codec in (TILE, FLOWER, MELD_KIND, OUTCOME))


def _names_list(limit: int) -> Any:
    return Annotated[list[str], Meta(max_length=limit)] | None


# The fields read in the usual form, by message name ("SettleRequest": ("request_id", ...)):
# batch.arrow_columns reads the same columns.
READ_FIELDS: dict[str, tuple[str, ...]] = {}


def _unread(field: FieldDescriptor) -> Any:
    """The type of a field this reader does not read: absent, null or its proto3 default in any
    of its forms (`convert.unread.json_default`, which the bounded reader reads as absent); any
    other value is the bounded reader's to read."""
    default = json_default(field)
    if default == JsonDefault.ENUM_ZERO:
        return Literal[enum_zero(field), 0] | None  # type: ignore[valid-type]
    return _DEFAULTS[default]


_DEFAULTS: dict[JsonDefault, Any] = {
    JsonDefault.NULL_ONLY: None,
    JsonDefault.EMPTY_LIST: Annotated[list[None], Meta(max_length=0)] | None,
    JsonDefault.EMPTY_OBJECT: Annotated[dict[str, None], Meta(max_length=0)] | None,
    JsonDefault.FALSE: Literal[False] | None,
    JsonDefault.ZERO: Literal[0] | None,
    JsonDefault.EMPTY_TEXT: Literal[""] | None,
}


def _message(name: str, descriptor: Descriptor, read: dict[str, Any], rename: bool) -> type:
    """The struct of a message: every field of its descriptor, in its order, under its JSON name
    (``rename``) or its .proto name; the fields of ``read`` with their types, and every other
    (one this reader does not read, such as a field added to the .proto since) at its default
    only: a value there is the bounded reader's, so no field is ever dropped."""
    unknown = set(read) - {f.name for f in descriptor.fields}
    if unknown:
        raise ImportError(f"{descriptor.full_name} has no field {sorted(unknown)}")
    READ_FIELDS[descriptor.name] = tuple(read)
    fields = [(f.name, read[f.name] if f.name in read else _unread(f), None) for f in descriptor.fields]
    renamed = {f.name: f.json_name for f in descriptor.fields} if rename else None
    return msgspec.defstruct(name, fields, forbid_unknown_fields=True, rename=renamed)


def _family(rename: bool) -> type:
    """The struct of a request, keys as JSON writes them (``rename``) or as a row names them."""
    meld = _message(
        "Meld",
        tiles_pb2.Meld.DESCRIPTOR,
        {"kind": str | None, "tiles": _names_list(MAX_MELD_TILES), "from_seat": Int32},
        rename,
    )
    hand = _message(
        "Hand",
        tiles_pb2.Hand.DESCRIPTOR,
        {
            "concealed": _names_list(MAX_CONCEALED),
            "winning_tile": str | None,
            "melds": Annotated[list[meld], Meta(max_length=MAX_MELDS)] | None,  # type: ignore[valid-type]
            "flowers": _names_list(MAX_FLOWERS),
            "dragon_flowers": _names_list(MAX_DRAGON_FLOWERS),  # tiles (中发白), by the tile table
        },
        rename,
    )
    winner = _message(
        "Winner",
        pb.Winner.DESCRIPTOR,
        {
            "seat": Int32,
            "hand": hand | None,
            "passed_tiles": _names_list(MAX_PASSED),
            "replacement_draw": bool | None,
            "first_go_around": bool | None,
            "last_tile": bool | None,
        },
        rename,
    )
    dice = _message("Dice", profile_pb2.Dice.DESCRIPTOR, {"first": Int32, "second": Int32}, rename)
    relation = _message(
        "Relation",
        pb.LiabilityRelation.DESCRIPTOR,
        {"claimer_seat": Int32, "source_seat": Int32, "claims": Int32, "pattern_kept": bool | None},
        rename,
    )
    return _message(
        "Request",
        pb.SettleRequest.DESCRIPTOR,
        {
            "request_id": str | None,
            "profile": str | None,
            "dealer_seat": Int32,
            "dice": dice | None,
            "huangfan_count": Int32,
            "outcome": str | None,
            "discarder_seat": Int32,
            "winners": Annotated[list[winner], Meta(max_length=MAX_WINNERS)] | None,  # type: ignore[valid-type]
            "liabilities": Annotated[list[relation], Meta(max_length=MAX_LIABILITIES)] | None,  # type: ignore[valid-type]
            "abandoning_seat": Int32,
            "profile_digest": str | None,
            "declared_seats": Annotated[list[Seat], Meta(max_length=MAX_DECLARED)] | None,
        },  # overrides, as every field not read here: null or absent (a request with overrides is the bounded reader's)
        rename,
    )


decode_json_line = msgspec.json.Decoder(_family(rename=True)).decode
ROW_REQUEST = _family(rename=False)
# What msgspec raises for a line or row not in the usual form (KeyError: an unknown enum name).
REFUSED = (msgspec.MsgspecError, KeyError, UnicodeDecodeError, RecursionError)

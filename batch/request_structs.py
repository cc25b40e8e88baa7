"""The msgspec structs a request in its usual form is decoded into, and the enum tables its
names are read by: the declarations of ``batch.fast_requests``, kept apart from it so that
the reader itself can be compiled with mypyc (these types are made at run time, which mypyc
cannot type).

The usual form is what the product, protobuf and the nested schema write: the fields of the
.proto (lowerCamelCase keys in JSON, .proto names in a row), enums by name, whole numbers
within int32, lists within their bounds, no ``overrides``. msgspec checks keys, types, ranges
and lengths in C while it decodes a line (``decode_json_line``) or converts a row
(``ROW_REQUEST``); a null is an absent field, as the bounded reader reads it.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from rules_core.json_names import FLOWER, MELD_KIND, OUTCOME, TILE, EnumCodec
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

Int32 = Annotated[int, Meta(ge=-(2**31), le=2**31 - 1)] | None
Seat = Annotated[int, Meta(ge=-(2**31), le=2**31 - 1)]  # a list's: never null (the bounded reader names one)


def _names(codec: EnumCodec) -> dict:
    """The core member of each proto name; the unspecified name, and null, stand for None (as
    the bounded reader reads them)."""
    members = {name: member for name, member in codec.by_name.items() if name.startswith(codec.prefix)}
    return {**members, codec.unspecified: None, None: None}


TILES, FLOWERS, MELD_KINDS, OUTCOMES = (_names(codec) for codec in (TILE, FLOWER, MELD_KIND, OUTCOME))


def _names_list(limit: int) -> Any:
    return Annotated[list[str], Meta(max_length=limit)] | None


def _family(rename: str | None) -> SimpleNamespace:
    """The structs of a request, keys as ``rename`` says (``camel`` for JSON, None for rows)."""

    def struct(name: str, fields: list) -> type:
        return msgspec.defstruct(name, [(f, t, None) for f, t in fields], forbid_unknown_fields=True, rename=rename)

    meld = struct("Meld", [("kind", str | None), ("tiles", _names_list(MAX_MELD_TILES)), ("from_seat", Int32)])
    hand = struct(
        "Hand",
        [
            ("concealed", _names_list(MAX_CONCEALED)),
            ("winning_tile", str | None),
            ("melds", Annotated[list[meld], Meta(max_length=MAX_MELDS)] | None),
            ("flowers", _names_list(MAX_FLOWERS)),
            ("dragon_flowers", _names_list(MAX_DRAGON_FLOWERS)),
        ],
    )
    winner = struct(
        "Winner",
        [
            ("seat", Int32),
            ("hand", hand | None),
            ("passed_tiles", _names_list(MAX_PASSED)),
            ("replacement_draw", bool | None),
            ("first_go_around", bool | None),
            ("last_tile", bool | None),
        ],
    )
    dice = struct("Dice", [("first", Int32), ("second", Int32)])
    relation = struct(
        "Relation", [("claimer_seat", Int32), ("source_seat", Int32), ("claims", Int32), ("pattern_kept", bool | None)]
    )
    request = struct(
        "Request",
        [
            ("request_id", str | None),
            ("profile", str | None),
            ("overrides", None),  # a request with overrides is the bounded reader's
            ("dealer_seat", Int32),
            ("dice", dice | None),
            ("huangfan_count", Int32),
            ("outcome", str | None),
            ("discarder_seat", Int32),
            ("winners", Annotated[list[winner], Meta(max_length=MAX_WINNERS)] | None),
            ("liabilities", Annotated[list[relation], Meta(max_length=MAX_LIABILITIES)] | None),
            ("abandoning_seat", Int32),
            ("profile_digest", str | None),
            ("declared_seats", Annotated[list[Seat], Meta(max_length=MAX_DECLARED)] | None),
        ],
    )
    return SimpleNamespace(request=request)


decode_json_line = msgspec.json.Decoder(_family("camel").request).decode
ROW_REQUEST = _family(None).request
# What msgspec raises for a line or row not in the usual form (KeyError: an unknown enum name).
REFUSED = (msgspec.MsgspecError, KeyError, UnicodeDecodeError, RecursionError)

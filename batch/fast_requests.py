"""Requests in their usual form read by msgspec straight into rules_core's values: JSON Lines
lines, and the rows of a nested Arrow batch.

The usual form is what the product, protobuf and the nested schema write: the fields of the
.proto (lowerCamelCase keys in JSON, .proto names in a row), enums by name, whole numbers
within int32, lists within their bounds, no ``overrides``; a null is an absent field, as the
bounded reader reads it. msgspec decodes a line, or converts a row, into the structs below in
C (keys, types, ranges and lengths checked there), and they become core values with a table
look-up per enum. Anything else (snake_case keys in JSON, enum numbers, numbers in strings, a
request with overrides, any fault at all) is not this reader's business: it answers None and
the request goes to the bounded reader (``rules_core.json_read``), which reads every form and
names every fault. So this reader need only be right where it answers, and a property test
holds it to the bounded reader there (tests/batch/test_readers_agree.py).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from rules_core.json_names import FLOWER, MELD_KIND, OUTCOME, TILE, EnumCodec
from rules_core.requests import Dice, Hand, LiabilityRelation, Meld, SettleRequest, Winner
from rules_core.validation import (
    MAX_CONCEALED,
    MAX_FLOWERS,
    MAX_LIABILITIES,
    MAX_MELD_TILES,
    MAX_MELDS,
    MAX_PASSED,
    MAX_REQUEST_ID_BYTES,
    MAX_WINNERS,
)

Int32 = Annotated[int, Meta(ge=-(2**31), le=2**31 - 1)] | None


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
        ],
    )
    dice = struct("Dice", [("first", Int32), ("second", Int32)])
    relation = struct("Relation", [("claimer_seat", Int32), ("source_seat", Int32), ("claims", Int32)])
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
        ],
    )
    return SimpleNamespace(request=request)


_decode_line = msgspec.json.Decoder(_family("camel").request).decode
_ROW = _family(None).request
_EMPTY_HAND = Hand(concealed=())
_REFUSED = (msgspec.MsgspecError, KeyError, UnicodeDecodeError, RecursionError)


def _tiles(names: list[str] | None) -> tuple:
    return tuple(map(TILES.__getitem__, names)) if names else ()


def _hand(line) -> Hand:
    if line is None:
        return _EMPTY_HAND
    return Hand(
        concealed=_tiles(line.concealed),
        winning_tile=TILES[line.winning_tile],
        melds=tuple([Meld(MELD_KINDS[m.kind], _tiles(m.tiles), m.from_seat or 0) for m in line.melds or ()]),
        flowers=tuple(map(FLOWERS.__getitem__, line.flowers)) if line.flowers else (),
    )


def _core(r) -> SettleRequest | None:
    """The core request of decoded structs; None when the bounded reader must judge it."""
    request_id = r.request_id or ""
    if len(request_id) * 4 > MAX_REQUEST_ID_BYTES:  # perhaps over the bound: the bounded reader says
        return None
    winners = tuple(
        [
            Winner(
                w.seat or 0, _hand(w.hand), _tiles(w.passed_tiles), bool(w.replacement_draw), bool(w.first_go_around)
            )
            for w in r.winners or ()
        ]
    )
    dice = r.dice
    return SettleRequest(
        profile=r.profile or "",
        outcome=OUTCOMES[r.outcome],
        winners=winners,
        dealer_seat=r.dealer_seat or 0,
        dice=None if dice is None else Dice(dice.first or 0, dice.second or 0),
        huangfan_count=r.huangfan_count or 0,
        discarder_seat=r.discarder_seat or 0,
        liabilities=tuple(
            [LiabilityRelation(x.claimer_seat or 0, x.source_seat or 0, x.claims or 0) for x in r.liabilities or ()]
        ),
        abandoning_seat=r.abandoning_seat or 0,
        overrides=None,
        request_id=request_id,
        profile_digest=r.profile_digest or "",
    )


def read_json_request(line: bytes | str) -> SettleRequest | None:
    """The request of a JSON line in the usual form, as the bounded reader would read it; None
    for any other line (the bounded reader's, to read or to explain)."""
    try:
        return _core(_decode_line(line))
    except _REFUSED:
        return None


def read_row_request(row: dict) -> SettleRequest | None:
    """The request of a nested Arrow row (``to_pylist``'s dict), as the bounded reader would
    read it; None for any other row."""
    try:
        return _core(msgspec.convert(row, _ROW))
    except _REFUSED:
        return None

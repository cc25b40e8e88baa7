"""A SettleRequest line in its usual form, read by msgspec straight into rules_core's values.

The usual form is what the product and protobuf write: lowerCamelCase keys, enums by name,
whole numbers as numbers within int32, lists within their bounds, no ``overrides``. msgspec
decodes such a line into the structs below in C (keys, types, ranges and lengths checked
there), and they become core values with a table look-up per enum. Anything else — another
spelling the mapping allows (snake_case keys, enum numbers, numbers in strings, nulls), a
request with overrides, or any fault at all — is not this reader's business: ``read_request``
answers None and the line goes to the bounded reader (``rules_core.json_read``), which reads
every form and names every fault. So this reader need only be right where it answers, and a
property test holds it to the bounded reader there.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta, Struct

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

Int32 = Annotated[int, Meta(ge=-(2**31), le=2**31 - 1)]


def _names(codec: EnumCodec) -> dict:
    """The core member of each proto name, the unspecified one standing for None (as the
    bounded reader reads it)."""
    return {
        **{name: member for name, member in codec.by_name.items() if name.startswith(codec.prefix)},
        codec.unspecified: None,
    }


TILES, FLOWERS, MELD_KINDS, OUTCOMES = (_names(codec) for codec in (TILE, FLOWER, MELD_KIND, OUTCOME))


class _Line(Struct, forbid_unknown_fields=True, rename="camel"):
    """A message of the usual form: its keys lowerCamelCase, nothing else in it."""


class MeldLine(_Line):
    kind: str = MELD_KIND.unspecified
    tiles: Annotated[list[str], Meta(max_length=MAX_MELD_TILES)] = []
    from_seat: Int32 = 0


class HandLine(_Line):
    concealed: Annotated[list[str], Meta(max_length=MAX_CONCEALED)] = []
    winning_tile: str = TILE.unspecified
    melds: Annotated[list[MeldLine], Meta(max_length=MAX_MELDS)] = []
    flowers: Annotated[list[str], Meta(max_length=MAX_FLOWERS)] = []


class WinnerLine(_Line):
    seat: Int32 = 0
    hand: HandLine | None = None
    passed_tiles: Annotated[list[str], Meta(max_length=MAX_PASSED)] = []
    replacement_draw: bool = False
    first_go_around: bool = False


class DiceLine(_Line):
    first: Int32 = 0
    second: Int32 = 0


class RelationLine(_Line):
    claimer_seat: Int32 = 0
    source_seat: Int32 = 0
    claims: Int32 = 0


class RequestLine(_Line):
    request_id: str = ""
    profile: str = ""
    overrides: None = None  # a request with overrides is the bounded reader's
    dealer_seat: Int32 = 0
    dice: DiceLine | None = None
    huangfan_count: Int32 = 0
    outcome: str = OUTCOME.unspecified
    discarder_seat: Int32 = 0
    winners: Annotated[list[WinnerLine], Meta(max_length=MAX_WINNERS)] = []
    liabilities: Annotated[list[RelationLine], Meta(max_length=MAX_LIABILITIES)] = []
    abandoning_seat: Int32 = 0


_decode = msgspec.json.Decoder(RequestLine).decode
_EMPTY_HAND = Hand(concealed=())


def _tiles(names: list[str]) -> tuple:
    return tuple(map(TILES.__getitem__, names))


def _hand(line: HandLine | None) -> Hand:
    if line is None:
        return _EMPTY_HAND
    return Hand(
        concealed=_tiles(line.concealed),
        winning_tile=TILES[line.winning_tile],
        melds=tuple([Meld(MELD_KINDS[m.kind], _tiles(m.tiles), m.from_seat) for m in line.melds]),
        flowers=tuple(map(FLOWERS.__getitem__, line.flowers)),
    )


def read_request(line: bytes | str) -> SettleRequest | None:
    """The request of a line in the usual form, as the bounded reader would read it; None for
    any other line (the bounded reader's, to read or to explain)."""
    try:
        r = _decode(line)
        winners = tuple(
            [
                Winner(w.seat, _hand(w.hand), _tiles(w.passed_tiles), w.replacement_draw, w.first_go_around)
                for w in r.winners
            ]
        )
        outcome = OUTCOMES[r.outcome]
    except (msgspec.MsgspecError, KeyError, UnicodeDecodeError, RecursionError):
        return None
    request_id = r.request_id
    if len(request_id) * 4 > MAX_REQUEST_ID_BYTES:  # perhaps over the bound: the bounded reader says
        return None
    dice = r.dice
    return SettleRequest(
        profile=r.profile,
        outcome=outcome,
        winners=winners,
        dealer_seat=r.dealer_seat,
        dice=None if dice is None else Dice(dice.first, dice.second),
        huangfan_count=r.huangfan_count,
        discarder_seat=r.discarder_seat,
        liabilities=tuple([LiabilityRelation(x.claimer_seat, x.source_seat, x.claims) for x in r.liabilities]),
        abandoning_seat=r.abandoning_seat,
        overrides=None,
        request_id=request_id,
    )

"""Requests in their usual form read by msgspec straight into rules_core's values: JSON Lines
lines, and the rows of a nested Arrow batch.

The usual form is what the product, protobuf and the nested schema write (``batch.request_structs``
says what it allows): msgspec decodes a line, or converts a row, into the structs declared
there, in C (keys, types, ranges and lengths checked there), and this module makes them core
values with a table look-up per enum. Anything else (snake_case keys in JSON, enum numbers,
numbers in strings, a request with overrides, any fault at all) is not this reader's business:
it answers None and the request goes to the bounded reader (``convert.json_read``), which
reads every form and names every fault. So this reader need only be right where it answers, and
a property test holds it to the bounded reader there (tests/batch/test_readers_agree.py).

This module is on the compiled hot path (``compile_core.HOT_PATH``). Core values are
built as tuples of their fields in order (``tuple.__new__``): a named tuple's own constructor is
a Python function, 1.3-1.7 µs a request or hand by keyword, more than the rest of the reading.
"""

from __future__ import annotations

from typing import Any

import msgspec

from batch.request_structs import FLOWERS, MELD_KINDS, OUTCOMES, REFUSED, ROW_REQUEST, TILES, decode_json_line
from convert.unread import defaults_after
from rules_core.requests import Dice, Hand, LiabilityRelation, Meld, SettleRequest, Winner
from rules_core.validation import MAX_REQUEST_ID_BYTES

_new = tuple.__new__
_EMPTY_HAND = Hand(concealed=())
# The fields this reader does not read, after those it does (a value in one is declined by the
# structs): their defaults, whatever fields the core types gain.
_MELD_REST = defaults_after(Meld, "from_seat")
_HAND_REST = defaults_after(Hand, "dragon_flowers")
_DICE_REST = defaults_after(Dice, "second")
_WINNER_REST = defaults_after(Winner, "last_tile")
_RELATION_REST = defaults_after(LiabilityRelation, "pattern_kept")
_REQUEST_REST = defaults_after(SettleRequest, "declared_seats")


def _tiles(names: list[str] | None) -> tuple:
    return tuple([TILES[name] for name in names]) if names else ()


def _hand(line: Any) -> Hand:
    if line is None:
        return _EMPTY_HAND
    melds = line.melds
    flowers = line.flowers
    return _new(
        Hand,
        (
            _tiles(line.concealed),  # concealed
            TILES[line.winning_tile],  # winning_tile
            tuple([_new(Meld, (MELD_KINDS[m.kind], _tiles(m.tiles), m.from_seat or 0) + _MELD_REST) for m in melds])
            if melds
            else (),  # melds
            tuple([FLOWERS[name] for name in flowers]) if flowers else (),  # flowers
            _tiles(line.dragon_flowers),  # dragon_flowers
        )
        + _HAND_REST,
    )


def _winner(w: Any) -> Winner:
    return _new(
        Winner,
        (
            w.seat or 0,
            _hand(w.hand),
            _tiles(w.passed_tiles),
            bool(w.replacement_draw),
            bool(w.first_go_around),
            bool(w.last_tile),
        )
        + _WINNER_REST,
    )


def _core(r: Any) -> SettleRequest | None:
    """The core request of decoded structs; None when the bounded reader must judge it."""
    request_id: str = r.request_id or ""
    if len(request_id) * 4 > MAX_REQUEST_ID_BYTES:  # perhaps over the bound: the bounded reader says
        return None
    winners = r.winners
    dice = r.dice
    liabilities = r.liabilities
    declared = r.declared_seats
    return _new(
        SettleRequest,
        (
            r.profile or "",  # profile
            OUTCOMES[r.outcome],  # outcome
            tuple([_winner(w) for w in winners]) if winners else (),  # winners
            r.dealer_seat or 0,  # dealer_seat
            None if dice is None else _new(Dice, (dice.first or 0, dice.second or 0) + _DICE_REST),  # dice
            r.huangfan_count or 0,  # huangfan_count
            r.discarder_seat or 0,  # discarder_seat
            tuple(
                [
                    _new(
                        LiabilityRelation,
                        (x.claimer_seat or 0, x.source_seat or 0, x.claims or 0, bool(x.pattern_kept)) + _RELATION_REST,
                    )
                    for x in liabilities
                ]
            )
            if liabilities
            else (),  # liabilities
            r.abandoning_seat or 0,  # abandoning_seat
            None,  # overrides: a request with overrides is the bounded reader's
            request_id,  # request_id
            r.profile_digest or "",  # profile_digest
            tuple(declared) if declared else (),  # declared_seats
        )
        + _REQUEST_REST,
    )


def read_json_request(line: bytes | str) -> SettleRequest | None:
    """The request of a JSON line in the usual form, as the bounded reader would read it; None
    for any other line (the bounded reader's, to read or to explain)."""
    try:
        return _core(decode_json_line(line))
    except REFUSED:
        return None


def read_row_request(row: dict) -> SettleRequest | None:
    """The request of a nested Arrow row (``to_pylist``'s dict), as the bounded reader would
    read it; None for any other row."""
    try:
        return _core(msgspec.convert(row, ROW_REQUEST))
    except REFUSED:
        return None

"""Advice and review (RULES.md section 15) between rules_core's values and their messages.

`advise_request` reads an AdviseRequest message (a field the proto does not define, or more
``seen`` tiles than the game has, is a violation naming the field); `advise_request_message` is
its inverse. `advise_response` and `review_record_response` write rules_core's answers;
`advice_result` and `review_result` read a server's answers back (a client's side).
"""

from __future__ import annotations

from mahjong.shanghai.v1 import advice_pb2

import rules_core as rc
from convert.enums import TILE_IN, Violations, lookup_all
from convert.messages import hand_message, table_fields, with_dice
from convert.records import _bounded
from convert.requests import _checked, _hand, _table_fields
from convert.results import _PATTERN, _tile
from rules_core.advice_validation import MAX_SEEN
from rules_core.advice_values import (
    AdviceResult,
    AdviceWait,
    AdviseRequest,
    DiscardOption,
    DiscardReview,
    Path,
    ReviewResult,
    SeatReview,
    Suit,
    UsefulTile,
)
from rules_core.version import ENGINE_VERSION

# --- requests ---------------------------------------------------------------------------------


def advise_request(msg: advice_pb2.AdviseRequest) -> AdviseRequest:
    violations = Violations()
    seen = _bounded(msg.seen, MAX_SEEN, "seen", violations, "tiles (every tile of the game once)")
    request = AdviseRequest(
        **_table_fields(msg, violations),
        seat=msg.seat,
        hand=_hand(msg.hand, "hand", violations),
        seen=lookup_all(TILE_IN, seen, "seen", violations),
    )
    return _checked(request, violations)


def advise_request_message(request: AdviseRequest) -> advice_pb2.AdviseRequest:
    message = advice_pb2.AdviseRequest(
        **table_fields(request),
        seat=request.seat,
        hand=hand_message(request.hand),
        seen=[0 if t is None else t + 1 for t in request.seen],
    )
    return with_dice(message, request.dice)


# --- responses --------------------------------------------------------------------------------


def _fill_option(target: advice_pb2.DiscardOption, option: DiscardOption) -> None:
    target.tile = option.tile + 1
    target.shanten = option.shanten
    for u in option.useful:
        target.useful.add(tile=u.tile + 1, live=u.live)
    target.live_total = option.live_total
    for w in option.waits:
        target.waits.add(tile=w.tile + 1, live=w.live, value=w.value)
    target.live_value = option.live_value
    target.best = option.best


def advise_response(result: AdviceResult) -> advice_pb2.AdviseResponse:
    response = advice_pb2.AdviseResponse(
        request_id=result.request_id,
        reachable=result.reachable,
        live_total=result.live_total,
        live_value=result.live_value,
        engine_version=ENGINE_VERSION,
        profile_digest=result.profile_digest,
    )
    if result.shanten is not None:
        response.shanten = result.shanten
    for p in result.paths:
        response.paths.add(pattern=p.pattern or 0, suit=p.suit or 0, shanten=p.shanten)
    for u in result.useful:
        response.useful.add(tile=u.tile + 1, live=u.live)
    for w in result.waits:
        response.waits.add(tile=w.tile + 1, live=w.live, value=w.value)
    for option in result.options:
        _fill_option(response.options.add(), option)
    return response


def review_record_response(result: ReviewResult) -> advice_pb2.ReviewRecordResponse:
    response = advice_pb2.ReviewRecordResponse(
        request_id=result.request_id, engine_version=ENGINE_VERSION, profile_digest=result.profile_digest
    )
    for d in result.discards:
        message = response.discards.add(
            event_index=d.event_index,
            seat=d.seat,
            reachable=d.reachable,
            discarded=d.discarded + 1,
            best_tiles=[t + 1 for t in d.best_tiles],
            agrees=d.agrees,
            backward=d.backward,
            forced=d.forced,
        )
        if d.shanten is not None:
            message.shanten = d.shanten
        if d.chosen is not None:
            _fill_option(message.chosen, d.chosen)
    for s in result.seats:
        seat = response.seats.add(
            seat=s.seat,
            discards=s.discards,
            agreements=s.agreements,
            backward=s.backward,
            dead_discards=s.dead_discards,
            forced_discards=s.forced_discards,
        )
        for p in s.passes:
            seat.passes.add(seat=p.seat, tile=p.tile + 1, event_index=p.event_index, patterns=list(p.patterns))
    return response


# --- answers read back ------------------------------------------------------------------------


def _useful(m) -> tuple[UsefulTile, ...]:
    return tuple(UsefulTile(_tile(u.tile), u.live) for u in m)


def _waits(m) -> tuple[AdviceWait, ...]:
    return tuple(AdviceWait(_tile(w.tile), w.live, w.value) for w in m)


def _option(m: advice_pb2.DiscardOption) -> DiscardOption:
    return DiscardOption(
        _tile(m.tile), m.shanten, _useful(m.useful), m.live_total, _waits(m.waits), m.live_value, m.best
    )


def advice_result(m: advice_pb2.AdviseResponse) -> AdviceResult:
    return AdviceResult(
        m.request_id,
        m.reachable,
        m.shanten if m.HasField("shanten") else None,
        tuple(
            Path(_PATTERN(p.pattern) if p.pattern else None, Suit(p.suit) if p.suit else None, p.shanten)
            for p in m.paths
        ),
        _useful(m.useful),
        m.live_total,
        _waits(m.waits),
        m.live_value,
        tuple(_option(o) for o in m.options),
        m.profile_digest,
    )


def review_result(m: advice_pb2.ReviewRecordResponse) -> ReviewResult:
    discards = tuple(
        DiscardReview(
            d.event_index,
            d.seat,
            d.reachable,
            d.shanten if d.HasField("shanten") else None,
            _tile(d.discarded),
            _option(d.chosen) if d.HasField("chosen") else None,
            tuple(map(_tile, d.best_tiles)),
            d.agrees,
            d.backward,
            d.forced,
        )
        for d in m.discards
    )
    seats = tuple(
        SeatReview(
            s.seat,
            s.discards,
            s.agreements,
            s.backward,
            s.dead_discards,
            s.forced_discards,
            tuple(rc.Pass(p.seat, _tile(p.tile), p.event_index, tuple(map(_PATTERN, p.patterns))) for p in s.passes),
        )
        for s in m.seats
    )
    return ReviewResult(m.request_id, discards, seats, m.profile_digest)

"""Advice and review (RULES.md section 15) in their proto3 JSON form (API.md, "Advice and review").

`read_advise_request` reads an ``AdviseRequest`` (lowerCamelCase or snake_case keys, enum names or
numbers), collecting a violation with its field path for everything that is wrong; a
``ReviewRecord`` call reads a ``SettleRecordRequest`` as ``settle_record_json`` does.
`advise_response_dict` and `review_record_response_dict` write the answers as protobuf's
``MessageToDict(message, always_print_fields_with_no_presence=True)`` would: every field printed,
save the two with presence, ``shanten`` (absent for a dead holding) and a review's ``chosen``.
"""

from __future__ import annotations

from typing import Any, Final

from convert.json_names import PATTERN, TILE, EnumCodec
from convert.json_read import _bounded_list, _notation, _read_table, _Reader, read_hand
from convert.json_write import pass_dict
from rules_core.advice_validation import MAX_SEEN
from rules_core.advice_values import (
    AdviceResult,
    AdviceWait,
    AdviseRequest,
    DiscardOption,
    ReviewResult,
    Suit,
    UsefulTile,
)
from rules_core.errors import FieldViolation, InvalidRequest, Violations
from rules_core.notation import parse_tiles
from rules_core.version import ENGINE_VERSION

SUIT: Final = EnumCodec(Suit)
_ADVISE_FIELDS = AdviseRequest._fields


def read_advise_request(data: dict) -> AdviseRequest:
    """A core request from its proto3 JSON form, or InvalidRequest."""
    violations = Violations()
    r = _Reader(data, "", _ADVISE_FIELDS, violations)
    request = AdviseRequest(
        **_read_table(r),
        seat=r.int("seat"),
        hand=read_hand(r.values.get("hand"), "hand", violations),
        seen=_seen(r),
    )
    if violations:
        raise InvalidRequest(violations)
    return request


def _seen(r: _Reader) -> tuple:
    """A list of TILE_ names (or numbers), or a string of tiles in notation (``"C C 7s"``), as a
    request's ``passed_tiles``; more than every tile of the game once is refused unread."""
    what = "tiles (every tile of the game once)"
    if not isinstance(r.values.get("seen"), str):
        return TILE.read_all(_bounded_list(r, "seen", MAX_SEEN, what), "seen", r.violations)
    tiles = _notation(r, "seen", parse_tiles) or ()
    if len(tiles) > MAX_SEEN:
        r.violations.append(FieldViolation("seen", f"at most {MAX_SEEN} {what}, got {len(tiles)}"))
        return ()
    return tiles


def useful_dicts(useful: tuple[UsefulTile, ...]) -> list[dict]:
    return [{"tile": TILE.name_of[u.tile], "live": u.live} for u in useful]


def wait_dicts(waits: tuple[AdviceWait, ...]) -> list[dict]:
    return [{"tile": TILE.name_of[w.tile], "live": w.live, "value": float(w.value)} for w in waits]


def option_dict(option: DiscardOption) -> dict:
    return {
        "tile": TILE.name_of[option.tile],
        "shanten": option.shanten,
        "useful": useful_dicts(option.useful),
        "liveTotal": option.live_total,
        "waits": wait_dicts(option.waits),
        "liveValue": float(option.live_value),
        "best": option.best,
    }


def advise_response_dict(result: AdviceResult) -> dict:
    out: dict[str, Any] = {"requestId": result.request_id, "reachable": result.reachable}
    if result.shanten is not None:
        out["shanten"] = result.shanten
    out["paths"] = [
        {
            "pattern": PATTERN.unspecified if p.pattern is None else PATTERN.name_of[p.pattern],
            "suit": SUIT.unspecified if p.suit is None else SUIT.name_of[p.suit],
            "shanten": p.shanten,
        }
        for p in result.paths
    ]
    out["useful"] = useful_dicts(result.useful)
    out["liveTotal"] = result.live_total
    out["waits"] = wait_dicts(result.waits)
    out["liveValue"] = float(result.live_value)
    out["options"] = [option_dict(o) for o in result.options]
    out["engineVersion"] = ENGINE_VERSION
    out["profileDigest"] = result.profile_digest
    return out


def review_record_response_dict(result: ReviewResult) -> dict:
    discards = []
    for d in result.discards:
        entry: dict[str, Any] = {"eventIndex": d.event_index, "seat": d.seat, "reachable": d.reachable}
        if d.shanten is not None:
            entry["shanten"] = d.shanten
        entry["discarded"] = TILE.name_of[d.discarded]
        if d.chosen is not None:
            entry["chosen"] = option_dict(d.chosen)
        entry["bestTiles"] = [TILE.name_of[t] for t in d.best_tiles]
        entry["agrees"] = d.agrees
        entry["backward"] = d.backward
        entry["forced"] = d.forced
        discards.append(entry)
    seats = [
        {
            "seat": s.seat,
            "discards": s.discards,
            "agreements": s.agreements,
            "backward": s.backward,
            "deadDiscards": s.dead_discards,
            "forcedDiscards": s.forced_discards,
            "passes": [pass_dict(p) for p in s.passes],
        }
        for s in result.seats
    ]
    return {
        "requestId": result.request_id,
        "discards": discards,
        "seats": seats,
        "engineVersion": ENGINE_VERSION,
        "profileDigest": result.profile_digest,
    }

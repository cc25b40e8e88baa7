"""Proto requests to rules_core requests: the hot path of every settlement, and the careful one."""

from __future__ import annotations

from typing import Any

from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb
from mahjong.shanghai.v1 import tiles_pb2

import rules_core as rc
from convert.enums import FLOWER_IN, MELD_KIND_IN, OUTCOME_IN, TILE_IN, Violations, lookup, lookup_all
from convert.memo import Memo
from convert.profiles import overrides
from rules_core.errors import FieldViolation, InvalidRequest
from rules_core.requests import CheckWinRequest, ListWaitsRequest
from rules_core.validation import (
    MAX_CONCEALED,
    MAX_DECLARED,
    MAX_DRAGON_FLOWERS,
    MAX_FLOWERS,
    MAX_LIABILITIES,
    MAX_MELDS,
    MAX_PASSED,
    MAX_WINNERS,
    over_limit,
    request_id_violation,
)


def _bounded(values, name: str, path: str, violations: Violations):
    """``values``, or nothing when there are more than a real request holds (then a violation):
    their elements are never read."""
    problem = over_limit(name, len(values))
    if problem is None:
        return values
    violations.append(FieldViolation(path, problem))
    return ()


def _tiles(values, name: str, path: str, violations: Violations, table=TILE_IN) -> tuple:
    return lookup_all(table, _bounded(values, name, path, violations), path, violations)


def _hand(msg: tiles_pb2.Hand, path: str, violations: Violations) -> rc.Hand:
    """The hand, its fields read (and their violations named) in the .proto's order, as the JSON reader's."""
    return rc.Hand(
        _tiles(msg.concealed, "concealed", f"{path}.concealed", violations),
        lookup(TILE_IN, msg.winning_tile, f"{path}.winning_tile", violations),
        tuple(
            rc.Meld(
                lookup(MELD_KIND_IN, m.kind, f"{path}.melds[{i}].kind", violations),
                _tiles(m.tiles, "tiles", f"{path}.melds[{i}].tiles", violations),
                m.from_seat,
            )
            for i, m in enumerate(_bounded(msg.melds, "melds", f"{path}.melds", violations))
        ),
        _tiles(msg.flowers, "flowers", f"{path}.flowers", violations, FLOWER_IN),
        _tiles(msg.dragon_flowers, "dragon_flowers", f"{path}.dragon_flowers", violations),
    )


def _winner(msg: pb.Winner, path: str, violations: Violations) -> rc.Winner:
    return rc.Winner(
        msg.seat,
        _hand(msg.hand, f"{path}.hand", violations),
        _tiles(msg.passed_tiles, "passed_tiles", f"{path}.passed_tiles", violations),
        msg.replacement_draw,
        msg.first_go_around,
        msg.last_tile,
    )


def _liabilities(relations) -> tuple[rc.LiabilityRelation, ...]:
    return tuple([rc.LiabilityRelation(r.claimer_seat, r.source_seat, r.claims, r.pattern_kept) for r in relations])


def _convert_meld(message: tiles_pb2.Meld, tile=TILE_IN.__getitem__, meld_kind=MELD_KIND_IN.__getitem__) -> rc.Meld:
    return rc.Meld(meld_kind(message.kind), tuple(map(tile, message.tiles)), message.from_seat)


def _meld_from_bytes(serialised: bytes) -> rc.Meld:
    return _convert_meld(tiles_pb2.Meld.FromString(serialised))


# A few hundred distinct melds occur (kind, tiles, source): each is converted once, keyed by
# its serialised form (the bytes are far cheaper to get than the fields one by one). An
# unknown enum number raises KeyError and is not kept.
_MELDS = Memo(_meld_from_bytes, limit=20_000)
# A real meld serialises to a dozen bytes; a longer one (too many tiles, unknown fields) is
# converted field by field and never kept, so the memo holds at most 20,000 short keys.
_MAX_MELD_BYTES = 32


def _meld(message: tiles_pb2.Meld, melds=_MELDS) -> rc.Meld:
    serialised = message.SerializeToString()
    if len(serialised) > _MAX_MELD_BYTES:
        raise KeyError("not a meld the memo keeps")
    return melds[serialised]


def _fast_settle_request(
    msg: pb.SettleRequest,
    tile=TILE_IN.__getitem__,
    flower=FLOWER_IN.__getitem__,
    meld=_meld,
    Hand=rc.Hand,
    Winner=rc.Winner,
) -> rc.SettleRequest:
    """The request with every enum number known and every list within its bound, else KeyError
    (then `settle_request` says what is wrong).

    The hot path of every settlement: lookups are bound as defaults, nothing is named twice.
    """
    if (
        len(msg.winners) > MAX_WINNERS
        or len(msg.liabilities) > MAX_LIABILITIES
        or len(msg.declared_seats) > MAX_DECLARED
    ):
        raise KeyError("too long")
    winners = []
    for w in msg.winners[:]:  # slices of repeated fields are read at C speed, iterating is not
        hand = w.hand
        melds, flowers, passed = hand.melds, hand.flowers, w.passed_tiles  # often empty: skip their work
        dragons = hand.dragon_flowers
        if (
            len(hand.concealed) > MAX_CONCEALED
            or len(melds) > MAX_MELDS
            or len(flowers) > MAX_FLOWERS
            or len(passed) > MAX_PASSED
            or len(dragons) > MAX_DRAGON_FLOWERS
        ):
            raise KeyError("too long")
        winners.append(
            Winner(
                w.seat,
                Hand(
                    tuple(map(tile, hand.concealed[:])),
                    tile(hand.winning_tile),
                    tuple(map(meld, melds[:])) if melds else (),
                    tuple(map(flower, flowers[:])) if flowers else (),
                    tuple(map(tile, dragons[:])) if dragons else (),
                ),
                tuple(map(tile, passed[:])) if passed else (),
                w.replacement_draw,
                w.first_go_around,
                w.last_tile,
            )
        )
    liabilities = msg.liabilities
    return rc.SettleRequest(
        msg.profile,
        OUTCOME_IN[msg.outcome],
        tuple(winners),
        msg.dealer_seat,
        rc.Dice(msg.dice.first, msg.dice.second) if msg.HasField("dice") else None,
        msg.huangfan_count,
        msg.discarder_seat,
        _liabilities(liabilities[:]) if liabilities else (),
        msg.abandoning_seat,
        None,
        msg.request_id,
        msg.profile_digest,
        tuple(msg.declared_seats[:]),
    )


def _table_fields(msg, violations: Violations) -> dict[str, Any]:
    """The fields every request shares: profile, overrides, dealer, dice, 荒番 count, id."""
    too_long = request_id_violation(msg.request_id)
    if too_long:
        violations.append(too_long)
    return {
        "profile": msg.profile,
        "overrides": overrides(msg.overrides, "overrides", violations) if msg.HasField("overrides") else None,
        "dealer_seat": msg.dealer_seat,
        "dice": rc.Dice(msg.dice.first, msg.dice.second) if msg.HasField("dice") else None,
        "huangfan_count": msg.huangfan_count,
        "request_id": msg.request_id,
        "profile_digest": msg.profile_digest,
    }


def _checked(request, violations: Violations):
    if violations:
        raise InvalidRequest(violations)
    return request


def settle_request(msg: pb.SettleRequest) -> rc.SettleRequest:
    if not msg.HasField("overrides"):
        try:
            return _fast_settle_request(msg)
        except KeyError:
            pass  # an enum number the proto does not define: convert again, naming the field
    violations = Violations()
    request = rc.SettleRequest(
        **_table_fields(msg, violations),
        outcome=lookup(OUTCOME_IN, msg.outcome, "outcome", violations),
        winners=tuple(
            _winner(w, f"winners[{i}]", violations)
            for i, w in enumerate(_bounded(msg.winners, "winners", "winners", violations))
        ),
        discarder_seat=msg.discarder_seat,
        liabilities=_liabilities(_bounded(msg.liabilities, "liabilities", "liabilities", violations)),
        abandoning_seat=msg.abandoning_seat,
        declared_seats=tuple(_bounded(msg.declared_seats, "declared_seats", "declared_seats", violations)),
    )
    return _checked(request, violations)


def check_win_request(msg: svc.CheckWinRequest) -> CheckWinRequest:
    violations = Violations()
    request = CheckWinRequest(
        **_table_fields(msg, violations),
        outcome=lookup(OUTCOME_IN, msg.outcome, "outcome", violations),
        winner=_winner(msg.winner, "winner", violations),
        declared_seats=tuple(_bounded(msg.declared_seats, "declared_seats", "declared_seats", violations)),
    )
    return _checked(request, violations)


def list_waits_request(msg: svc.ListWaitsRequest) -> ListWaitsRequest:
    violations = Violations()
    request = ListWaitsRequest(
        **_table_fields(msg, violations),
        seat=msg.seat,
        hand=_hand(msg.hand, "hand", violations),
        passed_tiles=_tiles(msg.passed_tiles, "passed_tiles", "passed_tiles", violations),
        replacement_draw=msg.replacement_draw,
        first_go_around=msg.first_go_around,
        last_tile=msg.last_tile,
        declared_seats=tuple(_bounded(msg.declared_seats, "declared_seats", "declared_seats", violations)),
    )
    return _checked(request, violations)

"""The fields RULES.md section 14 added to the request values (`rules_core.requests`), read from a
value that a fast reader may have built positionally with today's fields only: a missing field
is its default. On the hot path (compiled with it), so that reading one costs no Python call.
"""

from __future__ import annotations

from rules_core.requests import Hand, LiabilityRelation, SettleRequest, Winner
from rules_core.tiles import Tile


def dragon_flowers_of(hand: Hand) -> tuple[Tile | None, ...]:
    return hand[4] if len(hand) > 4 else ()


def last_tile_of(winner: Winner) -> bool:
    return winner[5] if len(winner) > 5 else False


def declared_seats_of(request: SettleRequest) -> tuple[int, ...]:
    return request[12] if len(request) > 12 else ()


def pattern_kept_of(relation: LiabilityRelation) -> bool:
    return relation[3] if len(relation) > 3 else False

"""rules_core requests to proto requests: for clients and tests, the inverse of `requests`."""

from __future__ import annotations

from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb
from mahjong.shanghai.v1 import tiles_pb2

import rules_core as rc
from convert.profiles import overrides_message


def _tile_numbers(tiles) -> list[int]:
    return [0 if t is None else t + 1 for t in tiles]


def hand_message(hand: rc.Hand) -> tiles_pb2.Hand:
    return tiles_pb2.Hand(
        concealed=_tile_numbers(hand.concealed),
        winning_tile=0 if hand.winning_tile is None else hand.winning_tile + 1,
        melds=[
            tiles_pb2.Meld(kind=m.kind or 0, tiles=_tile_numbers(m.tiles), from_seat=m.from_seat) for m in hand.melds
        ],
        flowers=[f or 0 for f in hand.flowers],
        dragon_flowers=_tile_numbers(hand.dragon_flowers),
    )


def winner_message(winner: rc.Winner) -> pb.Winner:
    return pb.Winner(
        seat=winner.seat,
        hand=hand_message(winner.hand),
        passed_tiles=_tile_numbers(winner.passed_tiles),
        replacement_draw=winner.replacement_draw,
        first_go_around=winner.first_go_around,
        last_tile=winner.last_tile,
    )


def table_fields(request) -> dict:
    """The message fields every request shares but the dice (see `with_dice`): id, profile,
    overrides, dealer, 荒番 count."""
    return {
        "request_id": request.request_id,
        "profile": request.profile,
        "overrides": overrides_message(request.overrides),
        "dealer_seat": request.dealer_seat,
        "huangfan_count": request.huangfan_count,
        "profile_digest": request.profile_digest,
    }


def with_dice(message, dice: rc.Dice | None):
    """``message`` with the request's dice, when it has any (an absent ``dice`` means none)."""
    if dice is not None:
        message.dice.first = dice.first
        message.dice.second = dice.second
    return message


def settle_request_message(request: rc.SettleRequest) -> pb.SettleRequest:
    message = pb.SettleRequest(
        **table_fields(request),
        outcome=request.outcome or 0,
        discarder_seat=request.discarder_seat,
        winners=[winner_message(w) for w in request.winners],
        liabilities=[
            pb.LiabilityRelation(
                claimer_seat=r.claimer_seat, source_seat=r.source_seat, claims=r.claims, pattern_kept=r.pattern_kept
            )
            for r in request.liabilities
        ],
        abandoning_seat=request.abandoning_seat,
        declared_seats=request.declared_seats,
    )
    return with_dice(message, request.dice)


def check_win_request_message(request: rc.CheckWinRequest) -> svc.CheckWinRequest:
    message = svc.CheckWinRequest(
        **table_fields(request),
        outcome=request.outcome or 0,
        winner=winner_message(request.winner),
        declared_seats=request.declared_seats,
    )
    return with_dice(message, request.dice)


def list_waits_request_message(request: rc.ListWaitsRequest) -> svc.ListWaitsRequest:
    message = svc.ListWaitsRequest(
        **table_fields(request),
        seat=request.seat,
        hand=hand_message(request.hand),
        passed_tiles=_tile_numbers(request.passed_tiles),
        replacement_draw=request.replacement_draw,
        first_go_around=request.first_go_around,
        last_tile=request.last_tile,
        declared_seats=request.declared_seats,
    )
    return with_dice(message, request.dice)

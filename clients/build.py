"""Build request messages from the notation of RULES.md.

>>> hand("123m 456p EEE 77s [555p@1]", win="7s", flowers="1f 5f")
"""

from __future__ import annotations

import functools

from mahjong.shanghai.v1 import settlement_pb2 as pb
from mahjong.shanghai.v1 import tiles_pb2

import convert
import rules_core as rc
from rules_core import build


def hand(text: str, win: str | None = None, flowers: str = "") -> tiles_pb2.Hand:
    """A Hand message from notation; ``win`` names the winning tile."""
    return convert.hand_message(build.hand(text, win, flowers))


@functools.wraps(build.winner, assigned=("__name__", "__qualname__"))
def winner(*args, **kwargs) -> pb.Winner:
    """A Winner message; the arguments of `rules_core.build.winner` (seat, notation, win, flowers, ...)."""
    return convert.winner_message(build.winner(*args, **kwargs))


_OUTCOMES = {o.name.lower().replace("_", "-"): o for o in rc.Outcome}


def outcome(name: str) -> rc.Outcome:
    """An outcome by its CLI spelling: self-draw, discard, robbing-kong, eight-flowers, exhaustive-draw, abandon."""
    key = name.lower().replace("_", "-")
    if key.startswith("outcome-"):
        key = key[len("outcome-") :]
    if key not in _OUTCOMES:
        raise ValueError(f"unknown outcome {name!r}; one of {', '.join(_OUTCOMES)}")
    return _OUTCOMES[key]


def settle_request(
    profile: str,
    outcome_name: str,
    winners: list[pb.Winner] = (),
    *,
    request_id: str = "",
    dealer_seat: int = 0,
    discarder_seat: int = 0,
    dice: tuple[int, int] | None = None,
    huangfan_count: int = 0,
    liabilities: list[tuple[int, int, int]] = (),
    abandoning_seat: int = 0,
) -> pb.SettleRequest:
    request = pb.SettleRequest(
        request_id=request_id,
        profile=profile,
        outcome=outcome(outcome_name),
        winners=list(winners),
        dealer_seat=dealer_seat,
        discarder_seat=discarder_seat,
        huangfan_count=huangfan_count,
        liabilities=[pb.LiabilityRelation(claimer_seat=a, source_seat=b, claims=c) for a, b, c in liabilities],
        abandoning_seat=abandoning_seat,
    )
    if dice is not None:
        request.dice.first, request.dice.second = dice
    return request

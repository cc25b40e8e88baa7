"""Build request messages from the notation of RULES.md, one builder per request type.

>>> hand("123m 456p EEE 77s [555p@1]", win="7s", flowers="1f 5f")
>>> settle_request("classic", "discard", [winner(2, "456p 789p 111p 55p [123p@1]", win="5p")], discarder_seat=1)
>>> check_win_request("classic", "self-draw", winner(0, "111m 555m 999p EEE 77s", win="7s"))
>>> list_waits_request("classic", "111m 555m 999p EEE 7s")
>>> settle_request("qiaoma", "self-draw", [winner(0, "111m 555m 999p EEE 77s", win="7s", flowers="1f Cf")], declared_seats=[0])

``overrides`` is a partial `RuleProfile`: the message, or its JSON form as a dict
(``{"ordinary_base": 3}``, ``{"huangfanMode": "HUANGFAN_MODE_PER_LEVEL"}``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from google.protobuf.json_format import ParseDict
from mahjong.shanghai.v1 import profile_pb2, tiles_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
import rules_core as rc
from rules_core import build

Overrides = profile_pb2.RuleProfile | Mapping[str, Any] | None


def hand(text: str, win: str | None = None, flowers: str = "") -> tiles_pb2.Hand:
    """A Hand message from notation; ``win`` names the winning tile."""
    return convert.hand_message(build.hand(text, win, flowers))


def winner(
    seat: int,
    text: str,
    win: str | None = None,
    flowers: str = "",
    passed: str = "",
    replacement_draw: bool = False,
    first_go_around: bool = False,
    last_tile: bool = False,
) -> pb.Winner:
    """A Winner message: seat, hand in notation, winning tile, flowers (dragon flowers ``Cf Ff Pf``
    among them under the 敲麻 profiles), 漏胡 tiles passed on, a self-draw of the wall's last tile."""
    return convert.winner_message(
        build.winner(seat, text, win, flowers, passed, replacement_draw, first_go_around, last_tile=last_tile)
    )


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
    winners: Iterable[pb.Winner] = (),
    *,
    request_id: str = "",
    dealer_seat: int = 0,
    discarder_seat: int = 0,
    dice: tuple[int, int] | None = None,
    huangfan_count: int = 0,
    liabilities: Iterable[tuple[int, int, int]] = (),
    abandoning_seat: int = 0,
    overrides: Overrides = None,
    declared_seats: Iterable[int] = (),
) -> pb.SettleRequest:
    """A SettleRequest; ``liabilities`` are (claimer seat, source seat, claims) triples;
    ``declared_seats`` the seats that have knocked (敲, read where the profile needs a knock)."""
    request = pb.SettleRequest(
        request_id=request_id,
        profile=profile,
        outcome=outcome(outcome_name),  # type: ignore[arg-type]  # rules_core's numbers are the proto's
        winners=list(winners),
        dealer_seat=dealer_seat,
        discarder_seat=discarder_seat,
        huangfan_count=huangfan_count,
        liabilities=[pb.LiabilityRelation(claimer_seat=a, source_seat=b, claims=c) for a, b, c in liabilities],
        abandoning_seat=abandoning_seat,
        overrides=_overrides(overrides),
        declared_seats=list(declared_seats),
    )
    if dice is not None:
        request.dice.first, request.dice.second = dice
    return request


def check_win_request(
    profile: str,
    outcome_name: str,
    candidate: pb.Winner,
    *,
    request_id: str = "",
    dealer_seat: int = 0,
    dice: tuple[int, int] | None = None,
    huangfan_count: int = 0,
    overrides: Overrides = None,
    declared_seats: Iterable[int] = (),
) -> svc.CheckWinRequest:
    """A CheckWinRequest: is this one claimed win legal, and what is it worth? ``declared_seats``
    as in `settle_request`."""
    return svc.CheckWinRequest(
        request_id=request_id,
        profile=profile,
        outcome=outcome(outcome_name),  # type: ignore[arg-type]
        winner=candidate,
        dealer_seat=dealer_seat,
        dice=_dice(dice),
        huangfan_count=huangfan_count,
        overrides=_overrides(overrides),
        declared_seats=list(declared_seats),
    )


def list_waits_request(
    profile: str,
    text: str,
    *,
    seat: int = 0,
    flowers: str = "",
    passed: str = "",
    replacement_draw: bool = False,
    first_go_around: bool = False,
    request_id: str = "",
    dealer_seat: int = 0,
    dice: tuple[int, int] | None = None,
    huangfan_count: int = 0,
    overrides: Overrides = None,
    last_tile: bool = False,
    declared_seats: Iterable[int] = (),
) -> svc.ListWaitsRequest:
    """A ListWaitsRequest for a hand one tile short, in notation (13 tiles less 3 per meld);
    ``last_tile`` and ``declared_seats`` as in `winner` and `settle_request`."""
    waiting = winner(seat, text, None, flowers, passed, replacement_draw, first_go_around)
    return svc.ListWaitsRequest(
        request_id=request_id,
        profile=profile,
        seat=waiting.seat,
        hand=waiting.hand,
        passed_tiles=waiting.passed_tiles,
        replacement_draw=waiting.replacement_draw,
        first_go_around=waiting.first_go_around,
        dealer_seat=dealer_seat,
        dice=_dice(dice),
        huangfan_count=huangfan_count,
        overrides=_overrides(overrides),
        last_tile=last_tile,
        declared_seats=list(declared_seats),
    )


def get_profile_request(name: str, overrides: Overrides = None) -> svc.GetProfileRequest:
    """A GetProfileRequest: a built-in profile, with ``overrides`` applied when given."""
    return svc.GetProfileRequest(name=name, overrides=_overrides(overrides))


def list_profiles_request() -> svc.ListProfilesRequest:
    """A ListProfilesRequest (it has no fields)."""
    return svc.ListProfilesRequest()


def _dice(dice: tuple[int, int] | None) -> profile_pb2.Dice | None:
    return None if dice is None else profile_pb2.Dice(first=dice[0], second=dice[1])


def _overrides(overrides: Overrides) -> profile_pb2.RuleProfile | None:
    if overrides is None or isinstance(overrides, profile_pb2.RuleProfile):
        return overrides
    return ParseDict(dict(overrides), profile_pb2.RuleProfile())

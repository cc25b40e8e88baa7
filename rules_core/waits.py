"""Judging a candidate win alone (CheckWin), and the waits of a hand one tile short (ListWaits)."""

from __future__ import annotations

from typing import NamedTuple

from rules_core.multipliers import multipliers
from rules_core.registry import BUILTIN_REGISTRY, ProfileRegistry
from rules_core.requests import CheckWinRequest, Hand, ListWaitsRequest, Outcome, Winner
from rules_core.results import WinnerResult
from rules_core.settle import evaluate_winner
from rules_core.tiles import ALL_TILES, FIRST_DRAGON, Tile
from rules_core.validation import validate_check_win, validate_waits


def check_win(request: CheckWinRequest, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> WinnerResult:
    """Legality, patterns, 花 and value of one candidate win, or InvalidRequest."""
    return judge_win(request, profiles)[0]


def judge_win(request: CheckWinRequest, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> tuple[WinnerResult, str]:
    """`check_win`'s result and the digest of the profile that judged it (CheckWinResponse)."""
    profile, counts = validate_check_win(request, profiles)
    multi = multipliers(profile, request.huangfan_count, request.dice)
    declared = request.winner.seat in request.declared_seats  # read under win_requires_declaration
    winner = evaluate_winner(profile, request.outcome, request.dealer_seat, multi, request.winner, counts, declared)
    return winner, profiles.digest(profile)


class Wait(NamedTuple):
    tile: Tile
    result: WinnerResult


class Waits(NamedTuple):
    request_id: str
    discard: tuple[Wait, ...]  # 漏胡 locks applied
    self_draw: tuple[Wait, ...]
    profile_digest: str = ""  # the effective profile's digest


def list_waits(request: ListWaitsRequest, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> Waits:
    """Every tile that completes a legal win, by discard and by self-draw, with its value.

    Each candidate is judged exactly as a settlement of the completed hand would
    judge it: the hand with the tile added, won on that tile (a self-draw on the last tile of
    the wall with ``last_tile``; the seat knocked when ``declared_seats`` names it).
    """
    profile, counts = validate_waits(request, profiles)
    multi = multipliers(profile, request.huangfan_count, request.dice)
    hand = request.hand
    held = counts[:]
    for meld in hand.melds:
        for tile in meld.tiles:
            held[tile] += 1
    discard: list[Wait] = []
    self_draw: list[Wait] = []
    dragons = hand.dragon_flowers
    declared = request.seat in request.declared_seats  # read under win_requires_declaration
    for tile in ALL_TILES:
        if held[tile] >= 4:
            continue  # no copy of it is left to win on
        if profile.dragons_are_flowers and tile >= FIRST_DRAGON:
            break  # a dragon is a flower, never a winning tile (the dragons are the last tiles)
        counts[tile] += 1
        concealed = tuple(sorted(hand.concealed + (tile,)))
        completed = Hand(concealed, tile, hand.melds, hand.flowers, dragons)
        for outcome, found, replacement, last in (
            (Outcome.DISCARD, discard, False, False),
            (Outcome.SELF_DRAW, self_draw, request.replacement_draw, request.last_tile),
        ):
            winner = Winner(request.seat, completed, request.passed_tiles, replacement, request.first_go_around, last)
            result = evaluate_winner(profile, outcome, request.dealer_seat, multi, winner, counts, declared)
            if result.legal:
                found.append(Wait(tile, result))
        counts[tile] -= 1
    return Waits(request.request_id, tuple(discard), tuple(self_draw), profiles.digest(profile))

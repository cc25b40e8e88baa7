"""Who may win, and what a winner is worth, under the fields of RULES.md section 14.

Used only for a profile that sets one of those fields (`RuleProfile.families`): today's three
profiles keep `rules_core.legality.judge`, whose answers this reproduces at the defaults.

A hand is read as four sets and a pair when it can be; else as seven pairs (with
`seven_pairs`, or when every tile is an honour and `all_honours_need_shape` asks for a shape);
else, every tile an honour, as today's shapeless 乱风向 (unless `all_honours_need_shape`);
`standard_shape_only` leaves four sets and a pair alone. When four sets and a pair split both
into pungs only and with a chow, the reading that counts is the one that may win, then the
higher value, then more 番, then the all-pungs one (14.10.4).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, cast

from rules_core.added_fields import dragon_flowers_of, last_tile_of
from rules_core.family_value import family_value, fan_total
from rules_core.flowers import flower_sources, flower_total
from rules_core.legality import shape_patterns, suits_present
from rules_core.multipliers import Multipliers
from rules_core.patterns import PATTERNS_OF_MASK, IllegalReason, Pattern, patterns_of
from rules_core.profile import FlowerSource, RuleProfile
from rules_core.requests import (
    CHOW,
    CLAIMED_DISCARD,
    CONCEALED_KONG,
    ON_EIGHT_FLOWERS,
    ON_ROBBING_KONG,
    ON_SELF_DRAW,
    Outcome,
    Winner,
)
from rules_core.results import ValueItem, WinnerResult, new
from rules_core.shape import Shape, most_pungs_with_a_chow, shape_of
from rules_core.tiles import TILE_KINDS

_ALL_PUNGS: Final = Pattern.ALL_PUNGS.bit
_FULL_FLUSH: Final = Pattern.FULL_FLUSH.bit
_HALF_FLUSH: Final = Pattern.HALF_FLUSH.bit
_FULL_FLUSH_PUNGS: Final = Pattern.FULL_FLUSH_PUNGS.bit | _FULL_FLUSH | _ALL_PUNGS
_HALF_FLUSH_PUNGS: Final = Pattern.HALF_FLUSH_PUNGS.bit | _HALF_FLUSH | _ALL_PUNGS
_ALL_HONOURS: Final = Pattern.ALL_HONOURS.bit
_PUNGS_ONLY: Final = Pattern.ALL_PUNGS.bit | Pattern.HALF_FLUSH_PUNGS.bit | Pattern.FULL_FLUSH_PUNGS.bit
_SEVEN_PAIRS: Final = Pattern.SEVEN_PAIRS.bit
_NO_FLOWERS: Final = Pattern.NO_FLOWERS.bit
_LAST_TILE: Final = Pattern.LAST_TILE.bit
_EIGHT_FLOWERS: Final = Pattern.EIGHT_FLOWERS.bit
_BIG_HANGING: Final = Pattern.BIG_HANGING.bit
_HEAVENLY: Final = Pattern.HEAVENLY.bit
_EARTHLY: Final = Pattern.EARTHLY.bit
_KONG_BLOOM: Final = Pattern.KONG_BLOOM.bit
_CONCEALED: Final = Pattern.CONCEALED.bit
_ROBBING_KONG: Final = Pattern.ROBBING_KONG.bit
_HONOUR_BIT: Final = 8
_CHOW_KIND: Final = int(CHOW)
_CONCEALED_KONG_KIND: Final = int(CONCEALED_KONG)

_R = IllegalReason
_NO_TILES: Final = [0] * TILE_KINDS

# How a hand is read: four sets and a pair, seven pairs, or a shapeless all-honour hand.
_STANDARD, _SEVEN, _SHAPELESS = 1, 2, 3

Valued = tuple[int, tuple[ValueItem, ...]]  # (value before multipliers, items) of a hand that may win
_NOTHING: Final[Valued] = (0, ())
_MISSED_ONLY: Final = (IllegalReason.MISSED_WIN,)


def evaluate_family_winner(
    profile: RuleProfile,
    outcome: Outcome,
    dealer_seat: int,
    multi: Multipliers,
    winner: Winner,
    counts: list[int],
    declared: bool,
    every_reading: bool = False,
) -> WinnerResult:
    """Legality, patterns, 花 and value of one validated winner; ``declared``: it has knocked.
    ``every_reading`` values the chow readings even where the all-pungs one provably counts."""
    hand = winner.hand
    melds = hand.melds
    flower_tiles = len(hand.flowers) + len(dragon_flowers_of(hand))
    concealed = True
    for meld in melds:
        if cast(int, meld.kind) != _CONCEALED_KONG_KIND:
            concealed = False
            break
    not_declared = profile.win_requires_declaration and not declared
    if outcome == ON_EIGHT_FLOWERS:
        # The tiles are not evaluated: 花 from the flower tiles and the melds (14.4).
        mask = _EIGHT_FLOWERS if len(hand.flowers) == 8 else 0
        if mask and concealed and profile.eight_flowers_lists_concealed:
            mask |= _CONCEALED
        sources = flower_sources(_NO_TILES, melds, flower_tiles, 0)
        flowers = flower_total(profile, sources)
        reasons = []
        if not mask & profile.qualifying_mask:
            reasons.append(_R.NO_QUALIFYING_PATTERN)
        if not_declared:
            reasons.append(_R.NOT_DECLARED)
        valued = _NOTHING if reasons else family_value(profile, mask, sources, flowers, False)
        return _result(profile, winner.seat, multi, mask, tuple(reasons), flowers, valued)

    situational = _CONCEALED if concealed else 0
    if winner.replacement_draw and outcome == ON_SELF_DRAW:
        situational |= _KONG_BLOOM
    if outcome == ON_ROBBING_KONG:
        situational |= _ROBBING_KONG
    readings = _readings(profile, outcome, dealer_seat, winner, counts, situational, every_reading)
    if not readings:
        sources = flower_sources(counts, melds, flower_tiles, 0)
        incomplete = (_R.INCOMPLETE_SHAPE,)
        return _result(profile, winner.seat, multi, situational, incomplete, flower_total(profile, sources), _NOTHING)
    if outcome == ON_SELF_DRAW and last_tile_of(winner):
        readings = [(mask | _LAST_TILE, pungs, kind) for mask, pungs, kind in readings]
    missed = outcome in CLAIMED_DISCARD and hand.winning_tile in winner.passed_tiles
    best: tuple[tuple[bool, int, int, bool], int, tuple[IllegalReason, ...], int, Valued] | None = None
    for mask, pungs, kind in readings:
        sources = flower_sources(counts, melds, flower_tiles, pungs)
        raw = flower_total(profile, sources)
        if raw == 0 and profile.no_flowers_named:
            mask |= _NO_FLOWERS
        no_flowers = raw == 0 and profile.no_flowers_value > 0
        flowers = profile.no_flowers_value if no_flowers else raw
        found = tuple(_reasons(profile, outcome, mask, kind, raw, flowers, missed, not_declared))
        may_win = not found or found == _MISSED_ONLY
        valued = family_value(profile, mask, sources, flowers, no_flowers) if may_win else _NOTHING
        if len(readings) == 1:
            return _result(profile, winner.seat, multi, mask, found, flowers, valued)
        rank = (may_win, valued[0], fan_total(profile, mask), bool(mask & _ALL_PUNGS))
        if best is None or rank > best[0]:
            best = (rank, mask, found, flowers, valued)
    assert best is not None  # there was a reading
    return _result(profile, winner.seat, multi, best[1], best[2], best[3], best[4])


def _readings(
    profile, outcome, dealer_seat, winner: Winner, counts, situational: int, every_reading: bool
) -> list[tuple[int, int, int]]:
    """(patterns, concealed suited pungs, kind of reading) of each way to read the hand; none
    when it is incomplete."""
    hand = winner.hand
    melds = hand.melds
    suits = suits_present(hand.concealed, melds)
    shape, suited_pungs = shape_of(counts)
    mask = situational
    if shape:
        all_pungs = shape == Shape.ALL_PUNGS and not any(cast(int, m.kind) == _CHOW_KIND for m in melds)
        mask |= shape_patterns(suits, all_pungs)
        if len(melds) == 4:
            mask |= _BIG_HANGING
        mask |= _first_go_around(profile, outcome, dealer_seat, winner)
        readings = [(mask, suited_pungs, _STANDARD)]
        if all_pungs and (every_reading or not pungs_reading_always_best(profile)):
            chow_pungs = most_pungs_with_a_chow(counts)
            if chow_pungs >= 0:
                readings.append((mask & ~_PUNGS_ONLY, chow_pungs, _STANDARD))
        return readings
    all_honours = suits == _HONOUR_BIT
    if profile.standard_shape_only:
        return []
    if not melds and len(hand.concealed) == 14 and all(c % 2 == 0 for c in counts):
        if profile.seven_pairs or (all_honours and profile.all_honours_need_shape):
            mask |= _ALL_HONOURS if all_honours else _SEVEN_PAIRS
            return [(mask | _first_go_around(profile, outcome, dealer_seat, winner), 0, _SEVEN)]
    if all_honours and not profile.all_honours_need_shape:
        return [(mask | _ALL_HONOURS, 0, _SHAPELESS)]  # 乱风向: any shape, as today
    return []


@lru_cache(maxsize=256)
def pungs_reading_always_best(profile: RuleProfile) -> bool:
    """Whether the all-pungs reading of a hand is never worth less than a reading with a chow
    here, so that the chow readings need no valuing. True for the profiles of section 14.

    The all-pungs reading's patterns are the chow reading's and the pungs patterns. With
    suited pungs worth no 花, both readings have the same 花 (and so the same 无花), and every
    step of `family_value` (the highest fixed value, the highest 牌型番, the summed 番, the
    limits and the cap) never falls when patterns are added, as long as the pungs patterns
    never turn an ordinary chow reading into a fixed-value one: checked for each suit class.
    The reasons a reading may not win fall too with more patterns and 番."""
    if profile.flower_values.get(FlowerSource.SUITED_PUNG, 0):
        return False
    fixed = profile.fixed_mask
    for chow_mask, pungs_mask in ((_FULL_FLUSH, _FULL_FLUSH_PUNGS), (_HALF_FLUSH, _HALF_FLUSH_PUNGS), (0, _ALL_PUNGS)):
        if pungs_mask & fixed and not chow_mask & fixed:
            return False
    return True


def _first_go_around(profile: RuleProfile, outcome: Outcome, dealer_seat: int, winner: Winner) -> int:
    if not winner.first_go_around or winner.hand.melds:
        return 0
    if winner.seat == dealer_seat:
        return _HEAVENLY if outcome == ON_SELF_DRAW else 0
    if profile.earthly_self_draw_only and outcome != ON_SELF_DRAW:
        return 0
    return _EARTHLY


def _reasons(
    profile: RuleProfile, outcome, mask: int, kind: int, raw: int, flowers: int, missed: bool, not_declared: bool
) -> list[IllegalReason]:
    """Every reason the reading may not win, in `IllegalReason` number order (14.10.3)."""
    reasons = []
    qualifying = profile.qualifying_mask & (_ALL_HONOURS if kind == _SHAPELESS else mask)
    ordinary = not qualifying and profile.ordinary_hand_wins and kind != _SHAPELESS  # 垃圾胡
    if not qualifying and not ordinary:
        reasons.append(_R.NO_QUALIFYING_PATTERN)
    if missed:
        reasons.append(_R.MISSED_WIN)
    if profile.no_flowers_self_draw_only and raw == 0 and outcome in CLAIMED_DISCARD:
        reasons.append(_R.NO_FLOWERS_SELF_DRAW_ONLY)
    if ordinary:
        least = (
            profile.ordinary_min_flowers_self_draw if outcome == ON_SELF_DRAW else profile.ordinary_min_flowers_discard
        )
        if flowers < least:
            reasons.append(_R.TOO_FEW_FLOWERS)
    if not_declared:
        reasons.append(_R.NOT_DECLARED)
    if profile.min_fan and fan_total(profile, mask) < profile.min_fan:
        reasons.append(_R.TOO_FEW_FAN)
    return reasons


def _result(profile, seat, multi, mask: int, reasons, flowers, valued) -> WinnerResult:
    """The winner's result; ``valued`` is (value, items) of a hand that may win, else unused."""
    patterns = PATTERNS_OF_MASK.get(mask)
    if patterns is None:
        patterns = patterns_of(mask)
    if reasons:
        return new(WinnerResult, (seat, False, reasons, patterns, flowers, (), 0.0, 0.0))
    value, items = valued
    if multi.items:
        items = items + multi.items
    return new(WinnerResult, (seat, True, (), patterns, flowers, items, float(value), float(value * multi.factor)))

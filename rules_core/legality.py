"""Which patterns a winning hand shows, and whether it may win (RULES.md section 4).

Patterns are kept as a bit mask (bit ``1 << Pattern``) while scoring; the
ordered tuple is made once per distinct mask.
"""

from __future__ import annotations

from typing import NamedTuple

from rules_core.patterns import IllegalReason, Pattern
from rules_core.profile import RuleProfile
from rules_core.requests import CLAIMED_DISCARD, MeldKind, Outcome, Winner
from rules_core.shape import Shape, shape_of
from rules_core.tiles import FIRST_HONOUR

_ALL_PUNGS = Pattern.ALL_PUNGS.bit
_HALF_FLUSH = Pattern.HALF_FLUSH.bit
_FULL_FLUSH = Pattern.FULL_FLUSH.bit
_HALF_FLUSH_PUNGS = Pattern.HALF_FLUSH_PUNGS.bit | _HALF_FLUSH | _ALL_PUNGS
_FULL_FLUSH_PUNGS = Pattern.FULL_FLUSH_PUNGS.bit | _FULL_FLUSH | _ALL_PUNGS
_ALL_HONOURS = Pattern.ALL_HONOURS.bit
_ALL_HONOURS_PUNGS = Pattern.ALL_HONOURS_PUNGS.bit | _ALL_HONOURS | _ALL_PUNGS
_EIGHT_FLOWERS = Pattern.EIGHT_FLOWERS.bit
_BIG_HANGING = Pattern.BIG_HANGING.bit
_HEAVENLY = Pattern.HEAVENLY.bit
_EARTHLY = Pattern.EARTHLY.bit
_KONG_BLOOM = Pattern.KONG_BLOOM.bit
_CONCEALED = Pattern.CONCEALED.bit
_ROBBING_KONG = Pattern.ROBBING_KONG.bit

# Suit presence bits: 1 万, 2 筒, 4 条, 8 honours.
_HONOUR_BIT = 8
_ONE_SUIT = (1, 2, 4)

_INCOMPLETE = (IllegalReason.INCOMPLETE_SHAPE,)
_NO_PATTERN = (IllegalReason.NO_QUALIFYING_PATTERN,)
_MISSED = (IllegalReason.MISSED_WIN,)
_NO_PATTERN_AND_MISSED = (IllegalReason.NO_QUALIFYING_PATTERN, IllegalReason.MISSED_WIN)


class Judgement(NamedTuple):
    patterns: int  # bit mask
    reasons: tuple[IllegalReason, ...]  # empty when the win is legal
    concealed_suited_pungs: int  # for 花, when a profile gives suited pungs a value


def judge(profile: RuleProfile, outcome: Outcome, dealer_seat: int, winner: Winner, counts: list[int]) -> Judgement:
    hand = winner.hand
    melds = hand.melds
    if outcome == Outcome.EIGHT_FLOWERS:
        # The immediate win on the eighth flower: the tiles are not evaluated.
        mask = _EIGHT_FLOWERS if len(hand.flowers) == 8 else 0
        return Judgement(mask, () if mask & profile.qualifying_mask else _NO_PATTERN, 0)

    shape, suited_pungs = shape_of(counts)
    suits = _suits_present(counts, melds)
    mask = 0
    concealed = True
    for meld in melds:
        if meld.kind != MeldKind.CONCEALED_KONG:
            concealed = False
            break
    if concealed:
        mask |= _CONCEALED  # 门清 depends on the melds only
    if winner.replacement_draw and outcome == Outcome.SELF_DRAW:
        mask |= _KONG_BLOOM
    if outcome == Outcome.ROBBING_KONG:
        mask |= _ROBBING_KONG

    if shape:
        all_pungs = shape == Shape.ALL_PUNGS
        if all_pungs:
            for meld in melds:
                if meld.kind == MeldKind.CHOW:
                    all_pungs = False
                    break
        if all_pungs:
            mask |= _ALL_PUNGS
        if suits in _ONE_SUIT:
            mask |= _FULL_FLUSH_PUNGS if all_pungs else _FULL_FLUSH
        elif suits == _HONOUR_BIT:
            mask |= _ALL_HONOURS_PUNGS if all_pungs else _ALL_HONOURS
        elif suits & _HONOUR_BIT and (suits ^ _HONOUR_BIT) in _ONE_SUIT:
            mask |= _HALF_FLUSH_PUNGS if all_pungs else _HALF_FLUSH
        if len(melds) == 4:
            mask |= _BIG_HANGING  # the win pairs the single remaining tile
        if winner.first_go_around and not melds:
            if winner.seat == dealer_seat:
                if outcome == Outcome.SELF_DRAW:
                    mask |= _HEAVENLY
            else:
                mask |= _EARTHLY
    elif suits == _HONOUR_BIT:
        mask |= _ALL_HONOURS  # 乱风向: any shape
    else:
        return Judgement(mask, _INCOMPLETE, 0)

    qualifies = mask & profile.qualifying_mask
    missed = outcome in CLAIMED_DISCARD and hand.winning_tile in winner.passed_tiles
    if qualifies:
        reasons = _MISSED if missed else ()
    else:
        reasons = _NO_PATTERN_AND_MISSED if missed else _NO_PATTERN
    return Judgement(mask, reasons, suited_pungs)


def _suits_present(counts: list[int], melds) -> int:
    suits = 0
    if any(counts[0:9]):
        suits = 1
    if any(counts[9:18]):
        suits |= 2
    if any(counts[18:27]):
        suits |= 4
    if any(counts[27:34]):
        suits |= _HONOUR_BIT
    for meld in melds:
        tile = meld.tiles[0]
        suits |= _HONOUR_BIT if tile >= FIRST_HONOUR else 1 << (tile // 9)
    return suits

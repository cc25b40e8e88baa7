"""Which patterns a winning hand shows, and whether it may win (RULES.md section 4).

Patterns are kept as a bit mask (bit ``1 << Pattern``) while scoring; the
ordered tuple is made once per distinct mask.

When a hand splits both into pungs only and into sets with a chow, the reading
that counts is the one of highest value (RULES.md section 4); see
`pungs_reading_always_best` for when that needs no valuing.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Final, cast

from rules_core.flowers import flower_sources, flower_total
from rules_core.patterns import IllegalReason, Pattern
from rules_core.profile import RuleProfile
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
from rules_core.shape import Shape, most_pungs_with_a_chow, shape_of
from rules_core.tiles import FIRST_HONOUR, TILE_KINDS
from rules_core.valuation import hand_value

# Members of the other enums the hot path compares with, as constants (see rules_core.requests).
_SHAPE_ALL_PUNGS: Final = Shape.ALL_PUNGS
# Meld kinds as ints, compared natively with a kind read as int (see rules_core.validation).
_CHOW_KIND: Final = int(CHOW)
_CONCEALED_KONG_KIND: Final = int(CONCEALED_KONG)

# Final: compiled, each is a C static rather than a look-up in the module's globals.
_ALL_PUNGS: Final = Pattern.ALL_PUNGS.bit
_HALF_FLUSH: Final = Pattern.HALF_FLUSH.bit
_FULL_FLUSH: Final = Pattern.FULL_FLUSH.bit
_HALF_FLUSH_PUNGS: Final = Pattern.HALF_FLUSH_PUNGS.bit | _HALF_FLUSH | _ALL_PUNGS
_FULL_FLUSH_PUNGS: Final = Pattern.FULL_FLUSH_PUNGS.bit | _FULL_FLUSH | _ALL_PUNGS
_ALL_HONOURS: Final = Pattern.ALL_HONOURS.bit
_ALL_HONOURS_PUNGS: Final = Pattern.ALL_HONOURS_PUNGS.bit | _ALL_HONOURS | _ALL_PUNGS
_EIGHT_FLOWERS: Final = Pattern.EIGHT_FLOWERS.bit
_BIG_HANGING: Final = Pattern.BIG_HANGING.bit
_HEAVENLY: Final = Pattern.HEAVENLY.bit
_EARTHLY: Final = Pattern.EARTHLY.bit
_KONG_BLOOM: Final = Pattern.KONG_BLOOM.bit
_CONCEALED: Final = Pattern.CONCEALED.bit
_ROBBING_KONG: Final = Pattern.ROBBING_KONG.bit
# What a chow takes from the all-pungs reading: the pungs patterns (the flushes stay).
_PUNGS_ONLY: Final = Pattern.ALL_PUNGS.bit | Pattern.HALF_FLUSH_PUNGS.bit | Pattern.FULL_FLUSH_PUNGS.bit
_SITUATIONAL: Final = (_BIG_HANGING, _HEAVENLY, _EARTHLY, _KONG_BLOOM, _CONCEALED, _ROBBING_KONG)

# Suit presence bits: 1 万, 2 筒, 4 条, 8 honours.
_HONOUR_BIT: Final = 8
_ONE_SUIT: Final = (1, 2, 4)

_INCOMPLETE: Final = (IllegalReason.INCOMPLETE_SHAPE,)
_NO_PATTERN: Final = (IllegalReason.NO_QUALIFYING_PATTERN,)
_MISSED: Final = (IllegalReason.MISSED_WIN,)
_NO_PATTERN_AND_MISSED: Final = (IllegalReason.NO_QUALIFYING_PATTERN, IllegalReason.MISSED_WIN)


# What `judge` finds: the patterns (bit mask), the reasons the win is not legal (empty when
# it is) and the concealed suited pungs (for 花, when a profile gives suited pungs a value).
# A plain tuple: compiled, it is returned in registers, where a named tuple is built on the heap.
Judgement = tuple[int, tuple[IllegalReason, ...], int]


def judge(profile: RuleProfile, outcome: Outcome, dealer_seat: int, winner: Winner, counts: list[int]) -> Judgement:
    hand = winner.hand
    melds = hand.melds
    if outcome == ON_EIGHT_FLOWERS:
        # The immediate win on the eighth flower: the tiles are not evaluated.
        mask = _EIGHT_FLOWERS if len(hand.flowers) == 8 else 0
        return mask, () if mask & profile.qualifying_mask else _NO_PATTERN, 0

    shape, suited_pungs = shape_of(counts)
    suits = _suits_present(hand.concealed, melds)
    mask = 0
    concealed = True
    for meld in melds:
        if cast(int, meld.kind) != _CONCEALED_KONG_KIND:  # validated: never None
            concealed = False
            break
    if concealed:
        mask |= _CONCEALED  # 门清 depends on the melds only
    if winner.replacement_draw and outcome == ON_SELF_DRAW:
        mask |= _KONG_BLOOM
    if outcome == ON_ROBBING_KONG:
        mask |= _ROBBING_KONG

    if shape:
        all_pungs = shape == _SHAPE_ALL_PUNGS
        if all_pungs:
            for meld in melds:
                if cast(int, meld.kind) == _CHOW_KIND:
                    all_pungs = False
                    break
        mask |= shape_patterns(suits, all_pungs)
        if len(melds) == 4:
            mask |= _BIG_HANGING  # the win pairs the single remaining tile
        if winner.first_go_around and not melds:
            if winner.seat == dealer_seat:
                if outcome == ON_SELF_DRAW:
                    mask |= _HEAVENLY
            else:
                mask |= _EARTHLY
        if all_pungs and not pungs_reading_always_best(profile):
            chow_pungs = most_pungs_with_a_chow(counts)
            if chow_pungs >= 0:
                mask, suited_pungs = _reading_that_counts(profile, winner, counts, mask, suited_pungs, chow_pungs)
        qualifies = mask & profile.qualifying_mask
    elif suits == _HONOUR_BIT:
        # 乱风向: any shape, so never incomplete (RULES.md section 4); only ALL_HONOURS lets a
        # shapeless hand win, whatever else of it qualifies.
        mask |= _ALL_HONOURS
        qualifies = profile.qualifying_mask & _ALL_HONOURS
    else:
        return mask, _INCOMPLETE, 0
    missed = outcome in CLAIMED_DISCARD and hand.winning_tile in winner.passed_tiles
    reasons: tuple[IllegalReason, ...]
    if qualifies:
        reasons = _MISSED if missed else ()
    else:
        reasons = _NO_PATTERN_AND_MISSED if missed else _NO_PATTERN
    return mask, reasons, suited_pungs


def shape_patterns(suits: int, all_pungs: bool) -> int:
    """The shape patterns (碰碰胡, the flushes, 乱风向 / 字一色) of four sets and a pair with
    suit presence bits ``suits``, all of whose sets are pungs or kongs when ``all_pungs``."""
    mask = _ALL_PUNGS if all_pungs else 0
    if suits in _ONE_SUIT:
        mask |= _FULL_FLUSH_PUNGS if all_pungs else _FULL_FLUSH
    elif suits == _HONOUR_BIT:
        mask |= _ALL_HONOURS_PUNGS if all_pungs else _ALL_HONOURS
    elif suits & _HONOUR_BIT and (suits ^ _HONOUR_BIT) in _ONE_SUIT:
        mask |= _HALF_FLUSH_PUNGS if all_pungs else _HALF_FLUSH
    return mask


# A tile's suit presence bit.
_SUIT_BIT: Final = tuple(_HONOUR_BIT if tile >= FIRST_HONOUR else 1 << (tile // 9) for tile in range(TILE_KINDS))


def suits_present(concealed, melds) -> int:
    """Suit presence bits of a hand's tiles: 1 万, 2 筒, 4 条, 8 honours."""
    return _suits_present(concealed, melds)


def _suits_present(concealed, melds) -> int:
    suits = 0
    for tile in cast(Sequence[int], concealed):  # validated: no None
        suits |= _SUIT_BIT[tile]
    for meld in melds:
        suits |= _SUIT_BIT[meld.tiles[0]]
    return suits


def _reading_that_counts(
    profile: RuleProfile, winner: Winner, counts: list[int], pungs_mask: int, pungs: int, chow_pungs: int
) -> tuple[int, int]:
    """(patterns, concealed suited pungs) of the reading that counts: one that may win before
    one that may not, then the higher value (before multipliers, which are the same for both),
    then the all-pungs one. 漏胡 is left out: it locks the tile, whatever the reading."""
    chow_mask = pungs_mask & ~_PUNGS_ONLY
    chow_key = _reading_rank(profile, winner, counts, chow_mask, chow_pungs)
    if chow_key > _reading_rank(profile, winner, counts, pungs_mask, pungs):
        return chow_mask, chow_pungs
    return pungs_mask, pungs


def _reading_rank(profile: RuleProfile, winner: Winner, counts: list[int], mask: int, pungs: int) -> tuple[bool, int]:
    if not mask & profile.qualifying_mask:
        return (False, 0)
    hand = winner.hand
    sources = flower_sources(counts, hand.melds, len(hand.flowers), pungs)
    return (True, hand_value(profile, mask, sources, flower_total(profile, sources))[0])


@lru_cache(maxsize=256)
def pungs_reading_always_best(profile: RuleProfile) -> bool:
    """Whether the all-pungs reading of a hand is never worth less than a reading with a chow,
    so that the chow readings need no valuing. True for the built-in profiles.

    Proof. The two readings differ only in the pungs patterns (the all-pungs mask A is the
    chow mask C plus ALL_PUNGS and 混碰 or 清碰; the situational patterns and the flushes
    are the same) and in the concealed suited pungs (A holds the most). So A's patterns
    include C's: A may win whenever C may, and A's 番 and floors include C's. 花 never
    falls with more pungs (every 花 value is at least 0), and a value never falls with more
    花. Then, for each set S of situational patterns and each suit class (full flush, half
    flush, mixed suits; an all-honour hand has no chow), with C qualifying:
    - C and A both ordinary: same base, more or equal 花 and 番, the same or more floors: A >= C.
    - C ordinary, A fixed: an ordinary value after the cap, the threshold and the floors is
      at most 1 喇 (`lazi_value`), and A's value does not depend on 花: A >= C if A >= 1 喇.
    - C fixed (then A is too): both values are constants, compared directly.
    This function checks the second and third cases over every S and suit class. For the
    built-in profiles every fixed value is at least 1 喇 (so A >= C in the second case), and
    with COMBINE_FIXED_MAX A's fixed patterns include C's (the third case).
    """
    lazi = profile.lazi_value
    for size in range(len(_SITUATIONAL) + 1):
        for situational in combinations(_SITUATIONAL, size):
            s = sum(situational)
            for chow_mask, pungs_mask in (
                (s | _FULL_FLUSH, s | _FULL_FLUSH_PUNGS),
                (s | _HALF_FLUSH, s | _HALF_FLUSH_PUNGS),
                (s, s | _ALL_PUNGS),
            ):
                if not chow_mask & profile.qualifying_mask or not pungs_mask & profile.fixed_mask:
                    continue
                pungs_value = hand_value(profile, pungs_mask, {}, 0)[0]
                if chow_mask & profile.fixed_mask:
                    if pungs_value < hand_value(profile, chow_mask, {}, 0)[0]:
                        return False
                elif pungs_value < lazi:
                    return False
    return True

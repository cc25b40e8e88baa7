"""Which patterns a winning hand shows, whether it may win, its 花 and its value (RULES.md
sections 4, 5 and 14.3).

A hand is read as four sets and a pair when it can be; else as seven pairs (with `seven_pairs`,
or when every tile is an honour and `all_honours_need_shape` asks for a shape); else, every tile
an honour, as a shapeless 乱风向 (unless `all_honours_need_shape`); `standard_shape_only` leaves
four sets and a pair alone. When four sets and a pair split both into pungs only and with a
chow, the reading that counts is the one that may win, then the higher value, then more 番,
then the all-pungs one (sections 4 and 14.10.4); see `pungs_reading_always_best` for when that
needs no valuing.

Patterns are kept as a bit mask (bit ``1 << Pattern``) while scoring; the ordered tuple is made
once per distinct mask.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Final, cast

from rules_core.flowers import flower_sources, flower_total
from rules_core.patterns import IllegalReason, Pattern
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
from rules_core.results import ValueItem
from rules_core.shape import Shape, fewest_suited_pungs, most_pungs_with_a_chow, shape_of
from rules_core.tiles import FIRST_HONOUR, TILE_KINDS
from rules_core.valuation import fan_total, hand_value

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
_SEVEN_PAIRS: Final = Pattern.SEVEN_PAIRS.bit
_NO_FLOWERS: Final = Pattern.NO_FLOWERS.bit
_LAST_TILE: Final = Pattern.LAST_TILE.bit
# What a chow takes from the all-pungs reading: the pungs patterns (the flushes stay).
_PUNGS_ONLY: Final = Pattern.ALL_PUNGS.bit | Pattern.HALF_FLUSH_PUNGS.bit | Pattern.FULL_FLUSH_PUNGS.bit
_SITUATIONAL: Final = (_BIG_HANGING, _HEAVENLY, _EARTHLY, _KONG_BLOOM, _CONCEALED, _ROBBING_KONG, _LAST_TILE)

_FLOWER_TILE: Final = FlowerSource.FLOWER_TILE
_SUITED_PUNG: Final = FlowerSource.SUITED_PUNG

# Suit presence bits: 1 万, 2 筒, 4 条, 8 honours.
_HONOUR_BIT: Final = 8
_ONE_SUIT: Final = (1, 2, 4)

# How a hand is read: four sets and a pair, seven pairs, or a shapeless all-honour hand.
_STANDARD: Final = 1
_SEVEN: Final = 2
_SHAPELESS: Final = 3

_NO_QUALIFYING_PATTERN: Final = IllegalReason.NO_QUALIFYING_PATTERN
_MISSED_WIN: Final = IllegalReason.MISSED_WIN
_NO_FLOWERS_SELF_DRAW_ONLY: Final = IllegalReason.NO_FLOWERS_SELF_DRAW_ONLY
_TOO_FEW_FLOWERS: Final = IllegalReason.TOO_FEW_FLOWERS
_NOT_DECLARED: Final = IllegalReason.NOT_DECLARED
_TOO_FEW_FAN: Final = IllegalReason.TOO_FEW_FAN
_INCOMPLETE: Final = (IllegalReason.INCOMPLETE_SHAPE,)
_NO_PATTERN: Final = (_NO_QUALIFYING_PATTERN,)
_MISSED: Final = (_MISSED_WIN,)
_NO_PATTERN_AND_MISSED: Final = (_NO_QUALIFYING_PATTERN, _MISSED_WIN)
_NO_REASONS: Final[tuple[IllegalReason, ...]] = ()
_NO_ITEMS: Final[tuple[ValueItem, ...]] = ()
_NO_TILES: Final = [0] * TILE_KINDS


# What `judge` finds for the reading that counts: the patterns (bit mask), the reasons the win
# is not legal (empty when it is), 花, and the value before multipliers with its items (0 and
# none unless the hand may win, 漏胡 aside). A plain tuple: compiled, it is returned in registers.
Judgement = tuple[int, tuple[IllegalReason, ...], int, int, tuple[ValueItem, ...]]


def judge(
    profile: RuleProfile,
    outcome: Outcome,
    dealer_seat: int,
    winner: Winner,
    counts: list[int],
    declared: bool = True,
    every_reading: bool = False,
) -> Judgement:
    """Judge one validated winner; ``declared``: it has knocked (read only under
    `win_requires_declaration`); ``every_reading`` values the chow readings even where the
    all-pungs one provably counts."""
    hand = winner.hand
    melds = hand.melds
    flower_tiles = len(hand.flowers) + len(hand.dragon_flowers)
    not_declared = profile.win_requires_declaration and not declared
    concealed = True
    for meld in melds:
        if cast(int, meld.kind) != _CONCEALED_KONG_KIND:  # validated: never None
            concealed = False
            break
    if outcome == ON_EIGHT_FLOWERS:
        return _eight_flowers(profile, melds, len(hand.flowers), flower_tiles, concealed, not_declared)

    mask = _CONCEALED if concealed else 0  # 门清 depends on the melds only
    if winner.replacement_draw and outcome == ON_SELF_DRAW:
        mask |= _KONG_BLOOM
    if outcome == ON_ROBBING_KONG:
        mask |= _ROBBING_KONG
    shape, suited_pungs = shape_of(counts)
    suits = _suits_present(hand.concealed, melds)
    all_pungs = False
    if shape:
        kind = _STANDARD
        all_pungs = shape == _SHAPE_ALL_PUNGS
        if all_pungs:
            for meld in melds:
                if cast(int, meld.kind) == _CHOW_KIND:
                    all_pungs = False
                    break
        mask |= shape_patterns(suits, all_pungs)
        if len(melds) == 4:
            mask |= _BIG_HANGING  # the win pairs the single remaining tile
        mask |= _first_go_around(profile, outcome, dealer_seat, winner)
    else:
        kind = _other_shape(profile, hand, counts, suits)
        if kind == _SEVEN:
            mask |= _ALL_HONOURS if suits == _HONOUR_BIT else _SEVEN_PAIRS
            mask |= _first_go_around(profile, outcome, dealer_seat, winner)
        elif kind == _SHAPELESS:
            mask |= _ALL_HONOURS  # 乱风向: any shape (section 4)
        else:
            sources = flower_sources(counts, melds, flower_tiles, 0)
            return mask, _INCOMPLETE, flower_total(profile, sources), 0, _NO_ITEMS
        suited_pungs = 0
    if outcome == ON_SELF_DRAW and winner.last_tile and profile.section_14_readings:
        mask |= _LAST_TILE  # 海底捞月, for a complete hand
    missed = outcome in CLAIMED_DISCARD and hand.winning_tile in winner.passed_tiles
    found = _reading(profile, outcome, counts, melds, flower_tiles, mask, suited_pungs, kind, missed, not_declared)
    if all_pungs and (every_reading or not pungs_reading_always_best(profile)):
        chow_pungs = most_pungs_with_a_chow(counts)
        if chow_pungs >= 0:
            chow = mask & ~_PUNGS_ONLY
            other = _reading(
                profile, outcome, counts, melds, flower_tiles, chow, chow_pungs, kind, missed, not_declared
            )
            if _rank(profile, other) > _rank(profile, found):
                found = other
    if suited_pungs and profile.no_flowers_named and profile.flower_values.get(_SUITED_PUNG, 0):
        # Suited pungs carry 花: the reading with the fewest may be the one without 花 (无花).
        # Between the most and the fewest, a reading has more 花 than the fewest and fewer than
        # the most, so it is worth no more than one of them.
        fewest = fewest_suited_pungs(counts)
        if fewest < suited_pungs:
            chow = mask & ~_PUNGS_ONLY  # fewer pungs than the most: a chow among the sets
            other = _reading(profile, outcome, counts, melds, flower_tiles, chow, fewest, kind, missed, not_declared)
            if _rank(profile, other) > _rank(profile, found):
                found = other
    return found


def _rank(profile: RuleProfile, found: Judgement) -> tuple[bool, int, int, bool]:
    """How a reading compares: one that may win (漏胡 aside: it locks the tile, whatever the
    reading), then the higher value, then more 番, then the all-pungs one."""
    mask, reasons, _, value, _ = found
    may_win = not reasons or reasons == _MISSED
    return (may_win, value, fan_total(profile, mask), bool(mask & _ALL_PUNGS))


def _reading(
    profile: RuleProfile,
    outcome: Outcome,
    counts: list[int],
    melds,
    flower_tiles: int,
    mask: int,
    suited_pungs: int,
    kind: int,
    missed: bool,
    not_declared: bool,
) -> Judgement:
    """The judgement of one reading of a complete hand."""
    sources = flower_sources(counts, melds, flower_tiles, suited_pungs)
    raw = flower_total(profile, sources)
    flowers = raw
    no_flowers = False
    if raw == 0 and profile.no_flowers_named:
        mask |= _NO_FLOWERS
        if profile.no_flowers_value > 0:
            no_flowers = True
            flowers = profile.no_flowers_value
    qualifying = profile.qualifying_mask & (_ALL_HONOURS if kind == _SHAPELESS else mask)
    if profile.only_patterns_qualify and not not_declared:
        # The usual case: a qualifying pattern and 漏胡 alone decide (section 4).
        if qualifying:
            reasons = _MISSED if missed else _NO_REASONS
        else:
            reasons = _NO_PATTERN_AND_MISSED if missed else _NO_PATTERN
    else:
        reasons = _reasons(profile, outcome, mask, kind, qualifying, raw, flowers, missed, not_declared)
    if reasons and reasons != _MISSED:
        return mask, reasons, flowers, 0, _NO_ITEMS
    value, items = hand_value(profile, mask, sources, flowers, no_flowers)
    return mask, reasons, flowers, value, items


def _reasons(
    profile: RuleProfile,
    outcome: Outcome,
    mask: int,
    kind: int,
    qualifying: int,
    raw: int,
    flowers: int,
    missed: bool,
    not_declared: bool,
) -> tuple[IllegalReason, ...]:
    """Every reason the reading may not win, in `IllegalReason` number order (14.10.3)."""
    reasons = []
    ordinary = not qualifying and profile.ordinary_hand_wins and kind != _SHAPELESS  # 垃圾胡
    if not qualifying and not ordinary:
        reasons.append(_NO_QUALIFYING_PATTERN)
    if missed:
        reasons.append(_MISSED_WIN)
    if profile.no_flowers_self_draw_only and raw == 0 and outcome in CLAIMED_DISCARD:
        reasons.append(_NO_FLOWERS_SELF_DRAW_ONLY)
    if ordinary:
        if outcome == ON_SELF_DRAW:
            least = profile.ordinary_min_flowers_self_draw
        else:
            least = profile.ordinary_min_flowers_discard
        if flowers < least:
            reasons.append(_TOO_FEW_FLOWERS)
    if not_declared:
        reasons.append(_NOT_DECLARED)
    if profile.min_fan and fan_total(profile, mask) < profile.min_fan:
        reasons.append(_TOO_FEW_FAN)
    return tuple(reasons)


def _eight_flowers(
    profile: RuleProfile, melds, seasons: int, flower_tiles: int, concealed: bool, not_declared: bool
) -> Judgement:
    """The immediate win on the eighth flower: the tiles are not evaluated. 花 come from the
    flower tiles, and under the readings of section 14 from the melds too (14.4)."""
    mask = _EIGHT_FLOWERS if seasons == 8 else 0  # dragon flowers never count towards 八花
    if mask and concealed and profile.eight_flowers_lists_concealed:
        mask |= _CONCEALED
    if profile.section_14_readings:
        sources = flower_sources(_NO_TILES, melds, flower_tiles, 0)
    else:
        sources = {_FLOWER_TILE: flower_tiles} if flower_tiles else {}
    flowers = flower_total(profile, sources)
    if not mask & profile.qualifying_mask:
        reasons = (_NO_QUALIFYING_PATTERN, _NOT_DECLARED) if not_declared else _NO_PATTERN
        return mask, reasons, flowers, 0, _NO_ITEMS
    if not_declared:
        return mask, (_NOT_DECLARED,), flowers, 0, _NO_ITEMS
    value, items = hand_value(profile, mask, sources, flowers)
    return mask, _NO_REASONS, flowers, value, items


def _other_shape(profile: RuleProfile, hand, counts: list[int], suits: int) -> int:
    """How a hand that is not four sets and a pair is read: seven pairs, shapeless, or 0
    (incomplete)."""
    all_honours = suits == _HONOUR_BIT
    if profile.standard_shape_only:
        return 0
    if profile.seven_pairs or (all_honours and profile.all_honours_need_shape):
        if not hand.melds and len(hand.concealed) == 14 and all([c % 2 == 0 for c in counts]):
            return _SEVEN
    if all_honours and not profile.all_honours_need_shape:
        return _SHAPELESS
    return 0


def _first_go_around(profile: RuleProfile, outcome: Outcome, dealer_seat: int, winner: Winner) -> int:
    if not winner.first_go_around or winner.hand.melds:
        return 0
    if winner.seat == dealer_seat:
        return _HEAVENLY if outcome == ON_SELF_DRAW else 0
    if profile.earthly_self_draw_only and outcome != ON_SELF_DRAW:
        return 0
    return _EARTHLY


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


def _suits_present(concealed, melds) -> int:
    """Suit presence bits of a hand's tiles: 1 万, 2 筒, 4 条, 8 honours."""
    suits = 0
    for tile in cast(Sequence[int], concealed):  # validated: no None
        suits |= _SUIT_BIT[tile]
    for meld in melds:
        suits |= _SUIT_BIT[meld.tiles[0]]
    return suits


@lru_cache(maxsize=256)
def pungs_reading_always_best(profile: RuleProfile) -> bool:
    """Whether the all-pungs reading of a hand is never worth less than a reading with a chow,
    so that the chow readings need no valuing. True for the built-in profiles.

    The two readings differ only in the pungs patterns (the all-pungs mask A is the chow mask C
    plus ALL_PUNGS and 混碰 or 清碰; the situational patterns and the flushes are the same) and
    in the concealed suited pungs (A holds the most). So A's patterns include C's: A may win
    whenever C may (every reason a reading may not win falls with more patterns, 番 and 花),
    and A's 番 (兜底番, the highest 牌型番, the summed 附加番), limits and floors are C's or more.

    - With suited pungs worth no 花, both readings have the same 花 (and 无花), and every step
      of `hand_value` never falls when patterns are added, as long as the pungs patterns never
      turn an ordinary chow reading into a fixed-value one: checked for each suit class.
    - Otherwise, with no 无花 (more 花 never lowers a value then) and a cap of at most 1 喇: for
      each set S of situational patterns and each suit class, with C qualifying, C and A both
      ordinary give A >= C; C ordinary and A fixed give A >= C when A >= 1 喇 (an ordinary value
      after the cap, the threshold and the floors is at most 1 喇, and A's value does not
      depend on 花); C fixed (then A is too) gives two constants, compared directly.

    Both fixed is compared even with the same 花, since A's pungs pattern may supersede C's flush
    (混碰 over 混一色) and an override may value the flush higher. Worked out once per profile and
    kept on it (`RuleProfile.pungs_reading_best`).
    """
    known = profile.pungs_reading_best
    if known < 0:
        known = int(_pungs_reading_always_best(profile))
        object.__setattr__(profile, "pungs_reading_best", known)  # frozen: set once, always alike
    return known == 1


def _pungs_reading_always_best(profile: RuleProfile) -> bool:
    fixed = profile.fixed_mask
    classes = ((_FULL_FLUSH, _FULL_FLUSH_PUNGS), (_HALF_FLUSH, _HALF_FLUSH_PUNGS), (0, _ALL_PUNGS))
    # A situational pattern the profile gives no role changes no value and no legality.
    named = profile.qualifying_mask | fixed | profile.fan_mask | profile.floor_mask | profile.shape_fan_mask
    roles = [bit for bit in _SITUATIONAL if bit & named]
    if not profile.flower_values.get(FlowerSource.SUITED_PUNG, 0):
        if all(not (pungs & fixed) for _, pungs in classes):
            return True
        both_fixed = [(chow, pungs) for chow, pungs in classes if chow & fixed]
        if all(not (pungs & fixed) or chow & fixed for chow, pungs in classes):
            return _fixed_pungs_never_lower(profile, both_fixed, roles)
    if profile.no_flowers_named or not profile.cap or profile.cap > profile.lazi_value:
        return False
    lazi = profile.lazi_value
    for size in range(len(roles) + 1):
        for situational in combinations(roles, size):
            s = sum(situational)
            for chow, pungs in classes:
                chow_mask, pungs_mask = s | chow, s | pungs
                if not (chow_mask & profile.qualifying_mask or profile.ordinary_hand_wins) or not pungs_mask & fixed:
                    continue
                pungs_value = hand_value(profile, pungs_mask, {}, 0)[0]
                if chow_mask & fixed:
                    if pungs_value < hand_value(profile, chow_mask, {}, 0)[0]:
                        return False
                elif pungs_value < lazi:
                    return False
    return True


def _fixed_pungs_never_lower(profile: RuleProfile, classes, roles) -> bool:
    """Whether, for each (chow, pungs) class whose readings are both fixed, the all-pungs reading
    is worth at least the chow one with every set of situational patterns and with or without
    无花果, at a few 花 totals (both readings have the same 花 here)."""
    flowers = [(0, n) for n in (0, 1, 4, 12, 40)] + ([(_NO_FLOWERS, 0)] if profile.no_flowers_named else [])
    for size in range(len(roles) + 1):
        for situational in combinations(roles, size):
            for extra, n in flowers:
                s = sum(situational) | extra
                sources = {_FLOWER_TILE: n} if n else {}
                for chow, pungs in classes:
                    if hand_value(profile, s | pungs, sources, n)[0] < hand_value(profile, s | chow, sources, n)[0]:
                        return False
    return True

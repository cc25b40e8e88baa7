"""The distances of the paths that the fields of RULES.md section 14 add (15.2-15.3).

`rules_core.distance` combines per-part tables for the paths of sections 1-13. Section 14 adds
paths whose targets those tables cannot tell apart, each computed here exactly, over every
target:

- `SEVEN_PAIRS` (七对, with `seven_pairs`): no melds, 14 tiles in seven pairs (four of a kind
  two of them), not every tile an honour, and not four sets and a pair (14.3 reads such a hand
  only as four sets and a pair). A search over the pairs, best first, skipping the targets
  that are not seven pairs alone.
- `ALL_HONOURS` needing a shape (`all_honours_need_shape`, or `standard_shape_only`): honours
  in four sets and a pair, or (not under `standard_shape_only`, no melds) in seven pairs.
- `ORDINARY` (垃圾胡, `ordinary_hand_wins`): four sets and a pair some reading of which carries
  no qualifying pattern (its suits, whether a chow is among its sets, 门清, 大吊车) and has the
  花 of a self-draw's minimum (`ordinary_min_flowers_self_draw`, after `no_flowers_value`),
  counting the target's own pungs (15.2). A dynamic programme over the tiles of each part,
  carrying the sets, the pair, a chow, the 花 of the pungs and the parts present.

Under `dragons_are_flowers` no target holds a dragon: the melds' summary counts four of each
(`FamilyRules.dragons_are_flowers`). The useful tiles of these paths are found by their
definition (15.4): the tiles whose draw raises the path's overlap by one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from rules_core.flowers import flower_sources, flower_total
from rules_core.legality import shape_patterns
from rules_core.patterns import Pattern
from rules_core.profile import FlowerSource, RuleProfile
from rules_core.requests import CONCEALED_KONG, Hand
from rules_core.shape import shape_of
from rules_core.tiles import FIRST_DRAGON, FIRST_HONOUR, TILE_KINDS

NO_TARGET: Final = -1000
_HONOUR_BIT: Final = 8
_NO_TILES: Final = [0] * TILE_KINDS


class FamilyRules(NamedTuple):
    """What the section 14 fields of a profile, and a holding's flowers and melds, say about its
    targets. ``ordinary_classes``: bit (suits << 1 | chow) is set where a reading with those suit
    presence bits (1 万, 2 筒, 4 条, 8 honours, the melds' included) and a chow or none carries no
    qualifying pattern. ``base_flowers``: the 花 of the flower tiles (dragon flowers too) and the
    melds; ``pung_flowers``: of a concealed suited, wind and dragon pung."""

    dragons_are_flowers: bool
    seven_pairs: bool
    honours_need_shape: bool
    honour_seven_pairs: bool
    ordinary: bool
    ordinary_classes: int
    base_flowers: int
    pung_flowers: tuple[int, int, int]
    least_flowers: int
    no_flowers_value: int
    no_flowers_qualifies: bool


def uses_family_rules(profile: RuleProfile) -> bool:
    """Whether a profile sets a field of section 14 that changes targets."""
    return bool(
        profile.dragons_are_flowers
        or profile.seven_pairs
        or profile.all_honours_need_shape
        or profile.standard_shape_only
        or profile.ordinary_hand_wins
    )


def family_rules(profile: RuleProfile, hand: Hand) -> FamilyRules | None:
    """The section 14 rules of a holding's targets, or None under a profile with none."""
    if not uses_family_rules(profile):
        return None
    qualifying = profile.qualifying_mask
    melds = hand.melds
    all_concealed = all(meld.kind == CONCEALED_KONG for meld in melds)
    situational = 0
    if all_concealed:
        situational |= Pattern.CONCEALED.bit
    if len(melds) == 4:
        situational |= Pattern.BIG_HANGING.bit
    classes = 0
    for suits in range(1, 16):
        for chow in range(2):
            if not (shape_patterns(suits, not chow) | situational) & qualifying:
                classes |= 1 << (suits << 1 | chow)
    dragons = hand.dragon_flowers if len(hand) > 4 else ()
    base = flower_total(profile, flower_sources(_NO_TILES, melds, len(hand.flowers) + len(dragons), 0))
    values = profile.flower_values
    pungs = (
        values.get(FlowerSource.SUITED_PUNG, 0),
        values.get(FlowerSource.WIND_PUNG, 0),
        values.get(FlowerSource.DRAGON_PUNG, 0),
    )
    shaped = bool(profile.all_honours_need_shape or profile.standard_shape_only)
    return FamilyRules(
        bool(profile.dragons_are_flowers),
        bool(profile.seven_pairs and not profile.standard_shape_only),
        shaped,
        shaped and not profile.standard_shape_only,
        bool(profile.ordinary_hand_wins),
        classes,
        base,
        pungs,
        profile.ordinary_min_flowers_self_draw,
        profile.no_flowers_value,
        bool(qualifying >> Pattern.NO_FLOWERS & 1),
    )


# --- seven pairs -------------------------------------------------------------------------------


def seven_pairs_overlap(counts: list[int], held: list[int], honours_only: bool) -> int:
    """The most of ``counts`` a seven-pairs target keeps: of honours alone (``honours_only``,
    乱风向) or else not all honours and not four sets and a pair (七对)."""
    tiles = range(FIRST_HONOUR, TILE_KINDS) if honours_only else range(TILE_KINDS)
    firsts = []  # (gain of a first pair, gain of a second, tile)
    for tile in tiles:
        room = 4 - held[tile]
        if room < 2:
            continue
        count = counts[tile]
        first = count if count < 2 else 2
        second = (count if count < 4 else 4) - first if room >= 4 else -1
        firsts.append((first, second, tile))
    if honours_only:
        gains = sorted([g for f, s, _ in firsts for g in (f, s) if g >= 0], reverse=True)
        return sum(gains[:7]) if len(gains) >= 7 else NO_TARGET
    firsts.sort(reverse=True)
    return _best_seven_pairs(counts, firsts)


def _best_seven_pairs(counts: list[int], items: list[tuple[int, int, int]]) -> int:
    """Branch and bound over the pairs, best gains first: the first target found at the bound is
    the answer; a target read as four sets and a pair, or of honours alone, does not count."""
    best = NO_TARGET
    chosen = [0] * TILE_KINDS
    size = len(items)

    # tops[start][k]: the most k pairs from items[start:] can keep, chosen freely (a bound).
    tops = []
    for start in range(size + 1):
        gains = sorted([g for f, s, _ in items[start:] for g in (f, s) if g >= 0], reverse=True)
        sums = [0]
        for k in range(7):
            sums.append(sums[-1] + gains[k] if k < len(gains) else NO_TARGET)
        tops.append(sums)

    def bound(start: int, left: int) -> int:
        return tops[start][left]

    def search(start: int, left: int, kept: int) -> bool:
        nonlocal best
        if left == 0:
            if kept > best and any(chosen[t] for t in range(FIRST_HONOUR)) and not shape_of(chosen)[0]:
                best = kept
                return True
            return False
        if start == size:
            return False
        if kept + bound(start, left) <= best:
            return False
        first, second, tile = items[start]
        for pairs in (2, 1, 0):
            if pairs > left or (pairs == 2 and second < 0):
                continue
            chosen[tile] = 2 * pairs
            gain = (first + second) if pairs == 2 else first if pairs == 1 else 0
            found = search(start + 1, left - pairs, kept + gain)
            chosen[tile] = 0
            if found and best == top:
                return True
        return False

    top = bound(0, 7)
    if top < 0:
        return NO_TARGET
    search(0, 7, 0)
    return best


# --- ordinary hands (垃圾胡) ----------------------------------------------------------------------


def ordinary_overlap(rules: FamilyRules, counts: list[int], held: list[int], melds) -> int:
    """The most of ``counts`` a 垃圾胡 target keeps (``melds``: `rules_core.distance.Melds`)."""
    least = rules.least_flowers
    cap = least if least > 1 else 1
    sets = 4 - melds.meld_count
    states: dict[tuple[int, int, int, int, int], int] = {(0, 0, 0, 0, 0): 0}
    for part in range(4):
        start = part * 9
        end = TILE_KINDS if part == 3 else start + 9
        table = _part(counts, held, start, end, part == 3, rules.pung_flowers, cap)
        shown = bool(melds.suits >> part & 1)
        bit = 1 << part
        folded: dict[tuple[int, int, int, int, int], int] = {}
        for (j, q, chow, fl, suits), kept in states.items():
            for pj, pq, pchow, pfl, added in table:
                nj = j + pj
                nq = q + pq
                if nj > sets or nq > 1:
                    continue
                present = suits | bit if (pj or pq or shown) else suits
                key = (nj, nq, chow | pchow, min(fl + pfl, cap), present)
                total = kept + added
                if folded.get(key, NO_TARGET) < total:
                    folded[key] = total
        states = folded
    best = NO_TARGET
    for (j, q, chow, fl, suits), kept in states.items():
        if j != sets or q != 1:
            continue
        if not rules.ordinary_classes >> (suits << 1 | (chow | melds.has_chow)) & 1:
            continue
        raw = rules.base_flowers + fl
        if raw == 0 and rules.no_flowers_qualifies:
            continue  # 无花 qualifies: the target is no 垃圾胡
        flowers = rules.no_flowers_value if raw == 0 and rules.no_flowers_value else raw
        if flowers < least:
            continue
        if kept > best:
            best = kept
    return best


MAX_PARTS: Final = 65_536
# A part's answer: (sets, pairs, a chow, 花 of its pungs up to the cap, the most kept) per state.
PartStates = list[tuple[int, int, int, int, int]]
_PARTS: dict[tuple, PartStates] = {}
_SUFFIXES: dict[tuple, dict[int, int]] = {}


def _part(
    counts: list[int],
    held: list[int],
    start: int,
    end: int,
    honours: bool,
    pung_flowers: tuple[int, int, int],
    cap: int,
) -> PartStates:
    """Per (sets, pairs, a chow, 花 of its pungs up to ``cap``): the most of a part's tiles a
    target part keeps within the four copies (honours never chow). Remembered, and so are the
    answers of the tiles from each tile on: a draw or a discard changes one part, one tile."""
    key = (tuple(counts[start:end]), tuple(held[start:end]), start, pung_flowers, cap)
    table = _PARTS.get(key)
    if table is None:
        if len(_PARTS) >= MAX_PARTS:
            _PARTS.clear()
        if len(_SUFFIXES) >= MAX_PARTS:
            _SUFFIXES.clear()
        width = cap + 1
        found = _suffix(counts, held, end, honours, pung_flowers, cap, start, 0, 0)
        table = _PARTS[key] = [
            (packed // (4 * width), packed // (2 * width) & 1, packed // width & 1, packed % width, kept)
            for packed, kept in found.items()
        ]
    return table


def _suffix(
    counts: list[int],
    held: list[int],
    end: int,
    honours: bool,
    flowers: tuple[int, int, int],
    cap: int,
    i: int,
    two_back: int,
    one_back: int,
) -> dict[int, int]:
    """The tiles from ``i`` on, with ``two_back`` chows begun on tile i - 2 and ``one_back`` on
    i - 1: per packed state ((sets * 2 + pairs) * 2 + chow) * (cap + 1) + 花, the most kept."""
    key = (tuple(counts[i:end]), tuple(held[i:end]), i if honours else end - i, two_back, one_back, flowers, cap)
    known = _SUFFIXES.get(key)
    if known is not None:
        return known
    width = cap + 1
    found: dict[int, int] = {}
    if i == end:
        if not two_back and not one_back:
            found[0] = 0
        _SUFFIXES[key] = found
        return found
    room = 4 - held[i]
    carried = two_back + one_back
    count = counts[i]
    if honours:
        value = flowers[1] if i < FIRST_DRAGON else flowers[2]
    else:
        value = flowers[0]
    most = 0
    if not honours and end - i >= 3:
        most = min(4, room - carried, 4 - held[i + 1] - one_back, 4 - held[i + 2])
    set_step = 4 * width
    pair_step = 2 * width
    for chows in range(max(most, 0) + 1):
        after = _suffix(counts, held, end, honours, flowers, cap, i + 1, one_back, chows)
        if not after:
            continue
        chow_bit = width if chows else 0
        for pung, pair in ((0, 0), (1, 0), (0, 1)):
            used = carried + chows + 3 * pung + 2 * pair
            if used > room:
                continue
            gain = used if used < count else count
            shift = (chows + pung) * set_step + pair * pair_step
            added = value * pung
            for packed, kept in after.items():
                if pair and packed // pair_step & 1:
                    continue  # one pair at most
                if packed // set_step + chows + pung > 4:
                    continue  # four sets at most
                fl = packed % width
                if added:
                    fl2 = fl + added
                    if fl2 > cap:
                        fl2 = cap
                    packed = packed - fl + fl2
                if chow_bit and not packed // width & 1:
                    packed += chow_bit
                packed += shift
                total = kept + gain
                if found.get(packed, NO_TARGET) < total:
                    found[packed] = total
    _SUFFIXES[key] = found
    return found


# --- useful tiles ------------------------------------------------------------------------------


def raised_by(
    overlap: Callable[[list[int]], int],
    counts: list[int],
    held: list[int],
    before: int,
    bound: Callable[[list[int]], int] | None = None,
) -> int:
    """The tiles whose draw raises ``overlap(counts)`` from ``before`` by one, as a mask;
    ``bound``, never below ``overlap``, spares the tiles it shows cannot."""
    mask = 0
    for tile in range(TILE_KINDS):
        if counts[tile] + held[tile] >= 4:
            continue
        counts[tile] += 1
        if (bound is None or bound(counts) > before) and overlap(counts) == before + 1:
            mask |= 1 << tile
        counts[tile] -= 1
    return mask

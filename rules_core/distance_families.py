"""The distances of the paths that the fields of RULES.md section 14 add (15.2-15.3).

`rules_core.distance` combines per-part tables for the paths of sections 1-13. Section 14 adds
targets those tables cannot tell apart, each computed here exactly, over every target. A target
is a hand legal as a plain self-draw (15.2): what makes it legal is judged here as
`rules_core.legality` judges it, once per class of targets (`FamilyRules`), never per hand:

- four sets and a pair, by its suits, whether a chow is among its sets and its 花: its shape
  patterns, 门清 and 大吊车 where the melds give them, 无花 where its 花 is 0 and the profile
  evaluates it; legal with a qualifying pattern, or as 垃圾胡 (`ordinary_hand_wins`) with the 花
  of a self-draw's minimum (`ordinary_min_flowers_self_draw`, after `no_flowers_value`),
  counting the target's own pungs; and in either case with `min_fan` 番 at least.
- seven pairs (七对, where `seven_pairs` makes them a shape, or of honours alone where
  `all_honours_need_shape` asks for a shape): no melds, 14 tiles in seven pairs (four of a kind
  two of them), not four sets and a pair (14.3 reads such a hand only as four sets and a pair);
  `SEVEN_PAIRS`, or `ALL_HONOURS` when every tile is an honour, and 门清; legal as above, so
  through `CONCEALED` where that qualifies and as 垃圾胡 where `SEVEN_PAIRS` does not qualify.

A path (a pattern, and a suit for the flushes) takes the targets that are legal and carry its
pattern; `ORDINARY` the legal ones that carry no qualifying pattern. `FamilyRules.accepts` says
which classes each path takes. A path whose targets the tables of `rules_core.distance` already
are (every class carrying its pattern is legal, and no seven pairs join it) is left to them; the
others are searched here: a dynamic programme over the tiles of each part for four sets and a
pair, carrying the sets, the pair, a chow, the 花 of the pungs and the parts present, with the
useful tiles of its best targets; a search over the pairs, best first, for seven pairs.

Under `dragons_are_flowers` no target holds a dragon: the melds' summary counts four of each
(`FamilyRules.dragons_are_flowers`). The useful tiles of a path are the tiles some best target
holds more of than the holding (15.4): exactly the tiles whose draw raises its overlap by one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Final, NamedTuple

from rules_core.flowers import flower_sources, flower_total
from rules_core.legality import shape_patterns
from rules_core.patterns import Pattern
from rules_core.profile import FlowerSource, RuleProfile
from rules_core.requests import CHOW, CONCEALED_KONG, Hand
from rules_core.shape import shape_of
from rules_core.tiles import FIRST_DRAGON, FIRST_HONOUR, TILE_KINDS
from rules_core.valuation import fan_total

NO_TARGET: Final = -1000
ORDINARY_PATTERN: Final = 255  # the path ORDINARY (垃圾胡): after every pattern
NO_SUIT: Final = -1
_HONOUR_BIT: Final = 8
_NO_TILES: Final = [0] * TILE_KINDS
_ALL_HONOURS: Final = Pattern.ALL_HONOURS.bit
_NO_FLOWERS: Final = Pattern.NO_FLOWERS.bit
_SEVEN_PAIRS: Final = Pattern.SEVEN_PAIRS.bit
_CONCEALED: Final = Pattern.CONCEALED.bit
_FLUSHES: Final = (
    Pattern.HALF_FLUSH.bit | Pattern.FULL_FLUSH.bit | Pattern.HALF_FLUSH_PUNGS.bit | Pattern.FULL_FLUSH_PUNGS.bit
)
_SUIT_OF_BITS: Final = {1: 0, 2: 1, 4: 2}
# The patterns that only a table's order ever reads from a mask: every pattern a path may have.
_PATH_PATTERNS: Final = tuple(int(p) for p in Pattern if p.value > 0)


def path_key(pattern: int, suit: int) -> int:
    """A path as one int: its pattern (`ORDINARY_PATTERN` for 垃圾胡) and its suit (or `NO_SUIT`)."""
    return pattern << 2 | (suit + 1)


class FamilyRules(NamedTuple):
    """What the section 14 fields of a profile, and a holding's flowers and melds, say about its
    targets. A class of four sets and a pair is ``((suits << 1 | chow) * width + 花)``: its suit
    presence bits (1 万, 2 筒, 4 条, 8 honours, the melds' included), a chow among its sets or
    melds, and the 花 of its own concealed pungs up to ``width - 1``. A class of seven pairs is
    ``all_honours * width + 花``. ``accepts`` / ``pair_accepts``: per `path_key`, the classes
    whose targets are legal and on that path, as bits; ``carried``: per `path_key`, the classes
    of four sets and a pair that carry its pattern, legal or not; ``searched``: the path keys
    searched here rather than by `rules_core.distance`'s tables. ``base_flowers``: the 花 of the
    flower tiles (dragon flowers too) and the melds; ``pung_flowers``: of a concealed suited,
    wind and dragon pung."""

    dragons_are_flowers: bool
    seven_pairs: bool
    honours_need_shape: bool
    ordinary: bool
    no_flowers_path: bool
    width: int
    base_flowers: int
    pung_flowers: tuple[int, int, int]
    accepts: dict[int, int]
    pair_accepts: dict[int, int]
    carried: dict[int, int]
    searched: frozenset[int]


def uses_family_rules(profile: RuleProfile) -> bool:
    """Whether a profile sets a field of section 14 that changes targets."""
    return bool(
        profile.dragons_are_flowers
        or profile.seven_pairs
        or profile.all_honours_need_shape
        or profile.standard_shape_only
        or profile.ordinary_hand_wins
        or profile.min_fan
        or _no_flowers_qualifies(profile)
    )


def _no_flowers_qualifies(profile: RuleProfile) -> bool:
    return bool(profile.qualifying_mask >> Pattern.NO_FLOWERS & 1 and profile.no_flowers_named)


def family_rules(profile: RuleProfile, hand: Hand) -> FamilyRules | None:
    """The section 14 rules of a holding's targets, or None under a profile with none."""
    if not uses_family_rules(profile):
        return None
    melds = hand.melds
    all_concealed = all(meld.kind == CONCEALED_KONG for meld in melds)
    has_chow = any(meld.kind == CHOW for meld in melds)
    situational = 0
    if all_concealed:
        situational |= Pattern.CONCEALED.bit
    if len(melds) == 4:
        situational |= Pattern.BIG_HANGING.bit
    dragons = hand.dragon_flowers if len(hand) > 4 else ()
    base = flower_total(profile, flower_sources(_NO_TILES, melds, len(hand.flowers) + len(dragons), 0))
    return _family_rules(profile, situational, has_chow, not melds, base)


@lru_cache(maxsize=4096)
def _family_rules(profile: RuleProfile, situational: int, has_chow: bool, no_melds: bool, base: int) -> FamilyRules:
    """The rules of the targets of every holding with these melds' patterns and these 花."""
    least = profile.ordinary_min_flowers_self_draw if profile.ordinary_hand_wins else 0
    width = (least if least > 1 else 1) + 1
    values = profile.flower_values
    pungs = (
        values.get(FlowerSource.SUITED_PUNG, 0),
        values.get(FlowerSource.WIND_PUNG, 0),
        values.get(FlowerSource.DRAGON_PUNG, 0),
    )
    accepts: dict[int, int] = {}
    carried: dict[int, int] = {}
    for suits in range(1, 16):
        for chow in range(2):
            shape = shape_patterns(suits, not (chow or has_chow)) | situational
            for flowers in range(width):
                index = ((suits << 1 | chow) * width) + flowers
                for key in _path_keys(shape, suits, True):
                    carried[key] = carried.get(key, 0) | 1 << index
                for key in _legal_keys(profile, shape, suits, base + flowers, False):
                    accepts[key] = accepts.get(key, 0) | 1 << index
    pair_accepts: dict[int, int] = {}
    standard_only = profile.standard_shape_only
    seven_pairs = bool(profile.seven_pairs and not standard_only)
    shaped = bool(profile.all_honours_need_shape or standard_only)
    if no_melds:
        for all_honours in range(2):
            if not (seven_pairs or (all_honours and shaped and not standard_only)):
                continue
            shape = (_ALL_HONOURS if all_honours else _SEVEN_PAIRS) | _CONCEALED
            for flowers in range(width):
                index = all_honours * width + flowers
                for key in _legal_keys(profile, shape, _HONOUR_BIT if all_honours else 1, base + flowers, False):
                    pair_accepts[key] = pair_accepts.get(key, 0) | 1 << index
    ordinary = path_key(ORDINARY_PATTERN, NO_SUIT)
    searched = {key for key in set(accepts) | set(carried) if accepts.get(key, 0) != carried.get(key, 0)}
    searched |= set(pair_accepts)
    if profile.ordinary_hand_wins:
        searched.add(ordinary)
    honours = path_key(Pattern.ALL_HONOURS, NO_SUIT)
    if shaped:
        searched.add(honours)
    elif _shapeless_always_legal(profile, situational, base, pungs):
        # 乱风向 of any shape: `rules_core.distance` keeps any honours, and every other reading of
        # them carries more patterns
        searched.discard(honours)
    return FamilyRules(
        bool(profile.dragons_are_flowers),
        seven_pairs,
        shaped,
        bool(profile.ordinary_hand_wins),
        _no_flowers_qualifies(profile),
        width,
        base,
        pungs,
        accepts,
        pair_accepts,
        carried,
        frozenset(searched),
    )


def _shapeless_always_legal(profile: RuleProfile, situational: int, base: int, pungs: tuple[int, int, int]) -> bool:
    """Whether every shapeless all-honour target is legal, whatever its 花."""
    possible = []
    if base == 0:
        possible.append(0)
    if base > 0 or pungs[1] or pungs[2]:
        possible.append(base if base > 0 else 1)
    shape = _ALL_HONOURS | (situational & _CONCEALED)
    return all(_legal_keys(profile, shape, _HONOUR_BIT, raw, True) for raw in possible)


def _path_keys(mask: int, suits: int, with_no_flowers: bool) -> list[int]:
    """The paths of the patterns of ``mask`` (a flush's with the suit of ``suits``)."""
    keys = []
    for pattern in _PATH_PATTERNS:
        if mask >> pattern & 1:
            if (1 << pattern) & _FLUSHES:
                keys.append(path_key(pattern, _SUIT_OF_BITS[suits & 7]))
            elif with_no_flowers or pattern != Pattern.NO_FLOWERS:
                keys.append(path_key(pattern, NO_SUIT))
    return keys


def _legal_keys(profile: RuleProfile, mask: int, suits: int, raw: int, shapeless: bool) -> list[int]:
    """The paths of a complete target with shape and situational patterns ``mask`` and 花
    ``raw``, judged as `rules_core.legality` judges a plain self-draw: none if it is not legal."""
    flowers = raw
    if raw == 0 and profile.no_flowers_named:
        mask |= _NO_FLOWERS
        if profile.no_flowers_value > 0:
            flowers = profile.no_flowers_value
    qualifying = profile.qualifying_mask & (_ALL_HONOURS if shapeless else mask)
    if not qualifying:
        if shapeless or not profile.ordinary_hand_wins or flowers < profile.ordinary_min_flowers_self_draw:
            return []
    if profile.min_fan and fan_total(profile, mask) < profile.min_fan:
        return []
    if not qualifying:
        return [path_key(ORDINARY_PATTERN, NO_SUIT)]
    return _path_keys(qualifying, suits, True)


# --- seven pairs -------------------------------------------------------------------------------


def seven_pairs_overlap(rules: FamilyRules, accept: int, counts: list[int], held: list[int]) -> int:
    """The most of ``counts`` a seven-pairs target of a class in ``accept`` keeps (no melds:
    ``held`` counts only the dragons that are flowers). A target read as four sets and a pair
    is not one; four of an honour are one concealed pung of 花 (14.4)."""
    width = rules.width
    honours_only = not accept & ((1 << width) - 1)  # no class but all honours
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
    full = (1 << (2 * width)) - 1
    if honours_only and accept >> width == full >> width and not (rules.pung_flowers[1] or rules.pung_flowers[2]):
        # 乱风向 of any 花: the seven best pairs of honours (they never read as four sets and a pair)
        gains = sorted([g for f, s, _ in firsts for g in (f, s) if g >= 0], reverse=True)
        return sum(gains[:7]) if len(gains) >= 7 else NO_TARGET
    firsts.sort(reverse=True)
    return _best_seven_pairs(rules, accept, firsts)


def _pairs_class(rules: FamilyRules, chosen: list[int]) -> int:
    """The class of a seven-pairs target: all honours or not, and the 花 of its honour fours."""
    flowers = 0
    for tile in range(FIRST_HONOUR, TILE_KINDS):
        if chosen[tile] == 4:
            flowers += rules.pung_flowers[1] if tile < FIRST_DRAGON else rules.pung_flowers[2]
    cap = rules.width - 1
    all_honours = not any(chosen[t] for t in range(FIRST_HONOUR))
    return (rules.width if all_honours else 0) + (flowers if flowers < cap else cap)


def _best_seven_pairs(rules: FamilyRules, accept: int, items: list[tuple[int, int, int]]) -> int:
    """Branch and bound over the pairs, best gains first: the first target found at the bound is
    the answer; a target read as four sets and a pair, or of a class not in ``accept``, does
    not count."""
    best = NO_TARGET
    chosen = [0] * TILE_KINDS
    size = len(items)

    # tops[start][k]: the most k pairs from items[start:] can keep, chosen freely (a bound).
    tops = []
    gains: list[int] = []
    for start in range(size, -1, -1):
        if start < size:
            first, second, _ = items[start]
            gains.append(first)
            if second >= 0:
                gains.append(second)
            gains.sort(reverse=True)
        sums = [0]
        for k in range(7):
            sums.append(sums[-1] + gains[k] if k < len(gains) else NO_TARGET)
        tops.append(sums)
    tops.reverse()

    def search(start: int, left: int, kept: int) -> bool:
        nonlocal best
        if left == 0:
            if kept > best and accept >> _pairs_class(rules, chosen) & 1 and not shape_of(chosen)[0]:
                best = kept
                return True
            return False
        if start == size:
            return False
        if kept + tops[start][left] <= best:
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

    top = tops[0][7]
    if top < 0:
        return NO_TARGET
    search(0, 7, 0)
    return best


# --- four sets and a pair, by class ------------------------------------------------------------------

# Overlap and useful tiles travel packed as one int: kept << _MASK_BITS | the useful tiles' mask.
_MASK_BITS: Final = 34
_MASK: Final = (1 << _MASK_BITS) - 1


def standard_overlap(rules: FamilyRules, accept: int, counts: list[int], held: list[int], melds) -> tuple[int, int]:
    """The most of ``counts`` a target of four sets and a pair of a class in ``accept`` keeps,
    and the useful tiles of those that keep most (``melds``: `rules_core.distance.Melds`)."""
    width = rules.width
    cap = width - 1
    sets = 4 - melds.meld_count
    shown = melds.suits
    meld_chow = 1 if melds.has_chow else 0
    # The parts some accepted class holds: the others keep nothing.
    allowed = 0
    for suits in range(16):
        if accept >> (suits << 1) * width & ((1 << 2 * width) - 1):
            allowed |= suits
    states: dict[tuple[int, int, int, int, int], int] = {(0, 0, meld_chow, 0, shown): 0}
    for part in range(4):
        bit = 1 << part
        if not allowed & bit:
            continue
        start = part * 9
        end = TILE_KINDS if part == 3 else start + 9
        table = _part(counts, held, start, end, part == 3, rules.pung_flowers, cap)
        folded: dict[tuple[int, int, int, int, int], int] = {}
        for (j, q, chow, fl, suits), packed in states.items():
            kept = packed >> _MASK_BITS
            useful = packed & _MASK
            for pj, pq, pchow, pfl, added, part_useful in table:
                nj = j + pj
                nq = q + pq
                if nj > sets or nq > 1:
                    continue
                present = suits | bit if (pj or pq) else suits
                nfl = fl + pfl
                key = (nj, nq, chow | pchow, nfl if nfl < cap else cap, present)
                total = (kept + added) << _MASK_BITS | useful | part_useful << start
                before = folded.get(key, -1)
                if before < 0 or total >> _MASK_BITS > before >> _MASK_BITS:
                    folded[key] = total
                elif total >> _MASK_BITS == before >> _MASK_BITS:
                    folded[key] = before | total
        states = folded
    best = NO_TARGET
    useful = 0
    for (j, q, chow, fl, suits), packed in states.items():
        if j != sets or q != 1 or not accept >> ((suits << 1 | chow) * width + fl) & 1:
            continue
        kept = packed >> _MASK_BITS
        if kept > best:
            best = kept
            useful = packed & _MASK
        elif kept == best:
            useful |= packed & _MASK
    return best, useful


MAX_PARTS: Final = 65_536
# A part's answer: (sets, pairs, a chow, 花 of its pungs up to the cap, the most kept, the useful
# tiles of the targets that keep it, from the part's first tile) per state.
PartStates = list[tuple[int, int, int, int, int, int]]
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
    target part keeps within the four copies (honours never chow), and the useful tiles of the
    target parts that keep it. Remembered, and so are the answers of the tiles from each tile
    on: a draw or a discard changes one part, one tile."""
    key = (tuple(counts[start:end]), tuple(held[start:end]), start, pung_flowers, cap)
    table = _PARTS.get(key)
    if table is None:
        if len(_PARTS) >= MAX_PARTS:
            _PARTS.clear()
        if len(_SUFFIXES) >= MAX_PARTS:
            _SUFFIXES.clear()
        width = cap + 1
        first = start if honours else end - 9
        found = _suffix(counts, held, end, honours, pung_flowers, cap, first, start, 0, 0)
        table = _PARTS[key] = [
            (
                packed // (4 * width),
                packed // (2 * width) & 1,
                packed // width & 1,
                packed % width,
                kept >> _MASK_BITS,
                kept & _MASK,
            )
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
    first: int,
    i: int,
    two_back: int,
    one_back: int,
) -> dict[int, int]:
    """The tiles from ``i`` on (the part's tiles begin at ``first``), with ``two_back`` chows
    begun on tile i - 2 and ``one_back`` on i - 1: per packed state ((sets * 2 + pairs) * 2 +
    chow) * (cap + 1) + 花, the most kept, packed with the useful tiles of the target parts that
    keep it (bit t - ``first`` for tile t)."""
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
    tile_bit = 1 << (i - first)
    for chows in range(max(most, 0) + 1):
        after = _suffix(counts, held, end, honours, flowers, cap, first, i + 1, one_back, chows)
        if not after:
            continue
        chow_bit = width if chows else 0
        for pung, pair in ((0, 0), (1, 0), (0, 1)):
            used = carried + chows + 3 * pung + 2 * pair
            if used > room:
                continue
            gain = used if used < count else count
            deficit = tile_bit if used > count else 0
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
                total = (kept + (gain << _MASK_BITS)) | deficit
                before = found.get(packed, -1)
                if before < 0 or total >> _MASK_BITS > before >> _MASK_BITS:
                    found[packed] = total
                elif total >> _MASK_BITS == before >> _MASK_BITS:
                    found[packed] = before | total
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

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
    wind and dragon pung. ``shapeless_legal``: where 乱风向 of any shape is legal by its 花
    alone, bit P set when a shapeless all-honour target whose honours of three or more copies
    are the set P (bit t - 27 for tile t) is legal; 0 where no such target is, or every one is
    (then `rules_core.distance`'s tables have them). ``searches`` and ``folds``: the searches of one holding and the folds
    of its parts, remembered while it is advised on (its options ask for the same path of the
    same tiles twice, and a discard changes one part)."""

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
    shapeless_legal: int
    searches: dict[tuple[int, int], tuple[int, int, bool]]
    folds: dict[tuple[int, int, int], dict[int, int]]


# Whether each profile seen uses the rules of section 14 (`uses_family_rules`): a profile is
# hashed by identity, where reading its fields costs a generic attribute look-up each.
_USES: dict[RuleProfile, bool] = {}
MAX_PROFILES: Final = 4096


def uses_family_rules(profile: RuleProfile) -> bool:
    """Whether a profile sets a field of section 14 that changes targets."""
    uses = _USES.get(profile)
    if uses is None:
        if len(_USES) >= MAX_PROFILES:
            _USES.clear()
        uses = _USES[profile] = bool(
            profile.dragons_are_flowers
            or profile.seven_pairs
            or profile.all_honours_need_shape
            or profile.standard_shape_only
            or profile.ordinary_hand_wins
            or profile.min_fan
            or _no_flowers_qualifies(profile)
        )
    return uses


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
    return _family_rules(profile, situational, has_chow, not melds, base)._replace(searches={}, folds={})


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
    shapeless_legal = 0
    if shaped:
        searched.add(honours)
    elif _shapeless_always_legal(profile, situational, base, pungs):
        # 乱风向 of any shape: `rules_core.distance` keeps any honours, and every other reading of
        # them carries more patterns
        searched.discard(honours)
    elif not standard_only:
        shapeless_legal = _shapeless_legal(profile, situational, base, pungs)
        if shapeless_legal:
            searched.add(honours)
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
        shapeless_legal,
        {},
        {},
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


def _shapeless_legal(profile: RuleProfile, situational: int, base: int, pungs: tuple[int, int, int]) -> int:
    """Per set of honours held three or more times (bit t - 27 for tile t), whether a shapeless
    all-honour target holding them is legal: its 花 are the base's and those honour pungs'."""
    shape = _ALL_HONOURS | (situational & _CONCEALED)
    legal = 0
    for held_thrice in range(1 << (TILE_KINDS - FIRST_HONOUR)):
        raw = base
        for tile in range(FIRST_HONOUR, TILE_KINDS):
            if held_thrice >> (tile - FIRST_HONOUR) & 1:
                raw += pungs[1] if tile < FIRST_DRAGON else pungs[2]
        if _legal_keys(profile, shape, _HONOUR_BIT, raw, True):
            legal |= 1 << held_thrice
    return legal


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
    honours_only = _honours_only(rules, accept)
    items = _pair_items(counts, held, honours_only)
    if honours_only and _every_honour_class(rules, accept):
        # 乱风向 of any 花: the seven best pairs of honours (they never read as four sets and a pair)
        gains = sorted([g for f, s, _ in items for g in (f, s) if g >= 0], reverse=True)
        return sum(gains[:7]) if len(gains) >= 7 else NO_TARGET
    items.sort(reverse=True)
    return _best_seven_pairs(rules, accept, items)


def seven_pairs_useful(rules: FamilyRules, accept: int, counts: list[int], held: list[int], best: int) -> int:
    """The tiles whose draw raises `seven_pairs_overlap` from ``best`` by one, as a mask. A draw
    raises it only if it raises the best seven pairs chosen freely (no class, any reading), which
    the counts of the pairs' gains tell at once; only those draws are searched."""
    honours_only = _honours_only(rules, accept)
    first_tile = FIRST_HONOUR if honours_only else 0
    tally = [0, 0, 0]  # pair slots that keep 0, 1, 2 of the holding's tiles
    for tile in range(first_tile, TILE_KINDS):
        room = 4 - held[tile]
        if room >= 2:
            count = counts[tile]
            tally[count if count < 2 else 2] += 1
            if room >= 4:
                tally[(count if count < 4 else 4) - (count if count < 2 else 2)] += 1
    mask = 0
    for tile in range(first_tile, TILE_KINDS):
        room = 4 - held[tile]
        count = counts[tile]
        if room < 2 or count >= room or (count >= 2 and room < 4):
            continue  # no copy left, or no slot keeps the drawn copy
        # the draw moves one slot of this tile up by one: its first below two, else its second
        moved = count if count < 2 else count - 2
        tally[moved] -= 1
        tally[moved + 1] += 1
        freely = _top_pairs(tally[2], tally[1], tally[0], 7)
        tally[moved + 1] -= 1
        tally[moved] += 1
        if freely <= best:
            continue
        counts[tile] += 1
        if seven_pairs_overlap(rules, accept, counts, held) == best + 1:
            mask |= 1 << tile
        counts[tile] -= 1
    return mask


def _honours_only(rules: FamilyRules, accept: int) -> bool:
    """Whether only all-honour classes are accepted."""
    return not accept & ((1 << rules.width) - 1)


def _every_honour_class(rules: FamilyRules, accept: int) -> bool:
    width = rules.width
    full = (1 << width) - 1
    return accept >> width & full == full


def _pair_items(counts: list[int], held: list[int], honours_only: bool) -> list[tuple[int, int, int]]:
    """Per tile with room for a pair: (what its first pair keeps, what a second keeps, or -1
    without room for four, the tile)."""
    items = []
    for tile in range(FIRST_HONOUR if honours_only else 0, TILE_KINDS):
        room = 4 - held[tile]
        if room < 2:
            continue
        count = counts[tile]
        first = count if count < 2 else 2
        second = (count if count < 4 else 4) - first if room >= 4 else -1
        items.append((first, second, tile))
    return items


def _top_pairs(twos: int, ones: int, zeros: int, pairs: int) -> int:
    """The most ``pairs`` slots keep, of ``twos`` slots keeping 2, ``ones`` 1, ``zeros`` none."""
    if twos + ones + zeros < pairs:
        return NO_TARGET
    taken = twos if twos < pairs else pairs
    left = pairs - taken
    return 2 * taken + (ones if ones < left else left)


def _pairs_class(rules: FamilyRules, chosen: list[int]) -> int:
    """The class of a seven-pairs target: all honours or not, and the 花 of its honour fours."""
    flowers = 0
    for tile in range(FIRST_HONOUR, TILE_KINDS):
        if chosen[tile] == 4:
            flowers += rules.pung_flowers[1] if tile < FIRST_DRAGON else rules.pung_flowers[2]
    cap = rules.width - 1
    all_honours = True
    for tile in range(FIRST_HONOUR):
        if chosen[tile]:
            all_honours = False
            break
    return (rules.width if all_honours else 0) + (flowers if flowers < cap else cap)


def _best_seven_pairs(rules: FamilyRules, accept: int, items: list[tuple[int, int, int]]) -> int:
    """Branch and bound over the pairs, best gains first: the first target found at the bound is
    the answer; a target read as four sets and a pair, or of a class not in ``accept``, does
    not count."""
    size = len(items)
    # The slots of items[start:] keeping 2, 1 and 0: the most k pairs from them keep (a bound).
    twos = [0] * (size + 1)
    ones = [0] * (size + 1)
    zeros = [0] * (size + 1)
    for start in range(size - 1, -1, -1):
        first, second, _ = items[start]
        tally = [zeros[start + 1], ones[start + 1], twos[start + 1]]
        tally[first] += 1
        if second >= 0:
            tally[second] += 1
        zeros[start], ones[start], twos[start] = tally
    top = _top_pairs(twos[0], ones[0], zeros[0], 7)
    if top < 0:
        return NO_TARGET
    best = NO_TARGET
    chosen = [0] * TILE_KINDS

    def search(start: int, left: int, kept: int) -> bool:
        nonlocal best
        if left == 0:
            if kept > best and accept >> _pairs_class(rules, chosen) & 1 and not shape_of(chosen)[0]:
                best = kept
                return True
            return False
        if start == size:
            return False
        if kept + _top_pairs(twos[start], ones[start], zeros[start], left) <= best:
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

    search(0, 7, 0)
    return best


# --- four sets and a pair, by class ------------------------------------------------------------------

# Overlap and useful tiles travel packed as one int: kept << _MASK_BITS | the useful tiles' mask.
_MASK_BITS: Final = 34
_MASK: Final = (1 << _MASK_BITS) - 1


def standard_overlap(
    rules: FamilyRules, accept: int, counts: list[int], held: list[int], melds, last: int = 3
) -> tuple[int, int]:
    """The most of ``counts`` a target of four sets and a pair of a class in ``accept`` keeps,
    and the useful tiles of those that keep most (``melds``: `rules_core.distance.Melds`). The
    parts are folded in order, the part ``last`` at the end: the fold of the others is kept for
    the holding, so that the options of one part's discards each fold that part alone."""
    width = rules.width
    cap = width - 1
    sets = 4 - melds.meld_count
    canon = _canonical_classes(accept, width)
    allowed = _allowed_parts(accept, width)  # the parts some accepted class holds: the others keep nothing
    if not allowed >> last & 1:
        last = 3 if allowed & 8 else (2 if allowed & 4 else (1 if allowed & 2 else 0))
    start = last * 9
    end = TILE_KINDS if last == 3 else start + 9
    code = 0
    for tile in range(TILE_KINDS):
        if tile < start or tile >= end:
            code = code << 3 | counts[tile]
    key = (accept, last, code)
    states = rules.folds.get(key)
    if states is None:
        states = {canon[(melds.suits << 1 | (1 if melds.has_chow else 0)) * width]: 0}
        for part in range(4):
            if part != last and allowed >> part & 1:
                table = _part(counts, held, part, rules.pung_flowers, cap)
                states = _fold(states, table, part, sets, width, canon)
        rules.folds[key] = states
    table = _part(counts, held, last, rules.pung_flowers, cap)
    bit = 1 << last
    best = NO_TARGET
    useful = 0
    for state, packed in states.items():
        slot, suits, chow, fl = _state_parts(state, width)
        j = slot >> 1
        q = slot & 1
        if j < sets or not q:
            suits |= bit
        kept = packed >> _MASK_BITS
        for pchow, pfl, added, part_useful in table[(sets - j) * 2 + 1 - q]:
            nfl = fl + pfl
            if not accept >> ((suits << 1 | chow | pchow) * width + (nfl if nfl < cap else cap)) & 1:
                continue
            total = kept + added
            if total > best:
                best = total
                useful = packed & _MASK | part_useful << start
            elif total == best:
                useful |= packed & _MASK | part_useful << start
    return best, useful


def _allowed_parts(accept: int, width: int) -> int:
    """The parts (bits 1 万, 2 筒, 4 条, 8 honours) some class in ``accept`` holds."""
    allowed = 0
    classes = (1 << 2 * width) - 1
    for suits in range(16):
        if accept >> (suits << 1) * width & classes:
            allowed |= suits
    return allowed


MAX_CANONICAL_WIDTH: Final = 8


@lru_cache(maxsize=1024)
def _canonical_classes(accept: int, width: int) -> list[int]:
    """Per class of part of a target (its parts present, a chow, 花 up to ``width`` - 1): the
    first class that ``accept`` cannot tell from it, whatever the rest of the target adds.
    Folding such classes as one keeps the same best targets with fewer states (a 垃圾胡 cares
    whether two suits are present, not which). Beyond `MAX_CANONICAL_WIDTH`, each class its own."""
    count = 32 * width
    if width > MAX_CANONICAL_WIDTH:
        return list(range(count))
    cap = width - 1
    first_of: dict[int, int] = {}
    canon = [0] * count
    for index in range(count):
        suits = index // (2 * width)
        chow = index // width & 1
        fl = index % width
        signature = 0
        position = 0
        for added in range(16):
            for more_chow in range(2):
                for more in range(width):
                    total = fl + more
                    joined = ((suits | added) << 1 | chow | more_chow) * width + (total if total < cap else cap)
                    signature |= (accept >> joined & 1) << position
                    position += 1
        canon[index] = first_of.setdefault(signature, index)
    return canon


FoldStates = dict[int, int]  # (sets * 2 + pairs) * 32 * width + class -> packed kept and useful tiles


def _state_parts(state: int, width: int) -> tuple[int, int, int, int]:
    """A fold state's slot (sets * 2 + pairs), parts present, chow and 花."""
    kind = state % (32 * width)
    return state // (32 * width), kind // (2 * width), kind // width & 1, kind % width


def _fold(states: FoldStates, table: PartSlots, part: int, sets: int, width: int, canon: list[int]) -> FoldStates:
    """One more part folded into the states (sets, pairs, the class of the target so far: its
    parts present, a chow, 花 up to the cap): per state the most kept, packed with the useful
    tiles of the targets that keep it."""
    bit = 1 << part
    shift = part * 9
    cap = width - 1
    classes = 32 * width
    folded: FoldStates = {}
    for state, packed in states.items():
        slot, suits, chow, fl = _state_parts(state, width)
        j = slot >> 1
        q = slot & 1
        kept = packed >> _MASK_BITS
        useful = packed & _MASK
        for pj in range(sets - j + 1):
            for pq in range(2 - q):
                entries = table[pj * 2 + pq]
                if not entries:
                    continue
                present = (suits | bit if (pj or pq) else suits) << 1 | chow
                after = (slot + pj * 2 + pq) * classes
                for pchow, pfl, added, part_useful in entries:
                    nfl = fl + pfl
                    key = after + canon[(present | pchow) * width + (nfl if nfl < cap else cap)]
                    total = (kept + added) << _MASK_BITS | useful | part_useful << shift
                    before = folded.get(key, -1)
                    if before < 0 or total >> _MASK_BITS > before >> _MASK_BITS:
                        folded[key] = total
                    elif total >> _MASK_BITS == before >> _MASK_BITS:
                        folded[key] = before | total
    return folded


MAX_PARTS: Final = 65_536
# A part's answer per slot (sets * 2 + pairs): per (a chow, 花 of its pungs up to the cap), the
# most kept and the useful tiles of the target parts that keep it, from the part's first tile.
PartSlots = list[list[tuple[int, int, int, int]]]
_PARTS: dict[tuple, PartSlots] = {}
_SUFFIXES: dict[tuple, dict[int, int]] = {}


def _part(counts: list[int], held: list[int], part: int, pung_flowers: tuple[int, int, int], cap: int) -> PartSlots:
    """Per (sets, pairs), then (a chow, 花 of its pungs up to ``cap``): the most of a part's
    tiles (0-2 a suit, 3 the honours) a target part keeps within the four copies (honours
    never chow), and the useful tiles of the target parts that keep it. Remembered, and so are
    the answers of the tiles from each tile on: a draw or a discard changes one part, one tile."""
    start = part * 9
    end = TILE_KINDS if part == 3 else start + 9
    key = (tuple(counts[start:end]), tuple(held[start:end]), start, pung_flowers, cap)
    table = _PARTS.get(key)
    if table is None:
        if len(_PARTS) >= MAX_PARTS:
            _PARTS.clear()
        if len(_SUFFIXES) >= MAX_PARTS:
            _SUFFIXES.clear()
        width = cap + 1
        found = _suffix(counts, held, end, part == 3, pung_flowers, cap, start, start, 0, 0)
        table = [[] for _ in range(10)]
        for packed, kept in found.items():
            table[packed // (2 * width)].append((packed // width & 1, packed % width, kept >> _MASK_BITS, kept & _MASK))
        _PARTS[key] = table
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

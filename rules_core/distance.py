"""The distance of a holding to a legal win, path by path (RULES.md 15.2-15.3).

A target of a holding with m melds keeps its melds and has n = 14 - 3m concealed tiles. The
distance d is n minus the most of the holding's concealed tiles a target keeps (its overlap):
for a 14 - 3m holding, the tiles that must go; for a 13 - 3m one, the tiles still to come. A
path is a pattern (and, for the flushes, a suit) that targets qualify through; its distance is
over the targets that carry it. Each path is a way to combine the parts of
`rules_core.target_parts` (the suits and the honours) into k = 4 - m sets and one pair:

- `ALL_PUNGS`: every part, pungs only; no chow among the melds.
- `FULL_FLUSH` (and `_PUNGS`) of a suit: that suit alone; every meld of it.
- `HALF_FLUSH` (and `_PUNGS`) of a suit: that suit and the honours, each present in the
  target or its melds; every meld of the two.
- `ALL_HONOURS`: any n honours (乱风向 holds whatever the shape); every meld of honours.
- `ALL_HONOURS_PUNGS`: the honours, pungs only.
- `BIG_HANGING`, with four melds only: a pair, of any tile.
- `CONCEALED`, where it qualifies and every meld is a concealed kong: every part, chows allowed.
- Under the fields of section 14: `SEVEN_PAIRS`, `ALL_HONOURS` needing a shape, `NO_FLOWERS`
  where it qualifies, `ORDINARY` (垃圾胡), and every path some of whose targets are not legal
  (a 番 minimum) or that seven pairs join (`CONCEALED`), searched by
  `rules_core.distance_families`; and no dragon in any target under `dragons_are_flowers` (the
  melds' summary counts four of each held).

A path is one only when its pattern qualifies under the profile. The holding's overlap is the
best of its paths'; a holding no path reaches is dead. Alongside each overlap comes the mask of
useful tiles (bit t for tile t): the tiles some best target of the path holds more of than the
holding does, which are exactly the tiles whose draw raises the path's overlap by one (15.4).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from rules_core.distance_families import (
    ORDINARY_PATTERN,
    FamilyRules,
    path_key,
    seven_pairs_overlap,
    seven_pairs_useful,
    standard_overlap,
)
from rules_core.patterns import Pattern
from rules_core.pung_parts import pung_overlaps
from rules_core.requests import CHOW, CONCEALED_KONG, Meld
from rules_core.shapeless_honours import shapeless_overlap
from rules_core.target_parts import NO_TARGET, PartTable, honour_table, slot, suit_table
from rules_core.tiles import FIRST_DRAGON, FIRST_HONOUR, TILE_KINDS

# How a path combines the parts.
_ALL_PARTS_PUNGS: Final = 1
_ALL_PARTS_MIXED: Final = 2
_ONE_SUIT: Final = 3
_SUIT_AND_HONOURS: Final = 4
_HONOURS_ANY_SHAPE: Final = 5
_HONOURS_PUNGS: Final = 6
_SEARCHED: Final = 7  # a path searched by `rules_core.distance_families`
ORDINARY: Final = ORDINARY_PATTERN  # the pattern number of the path ORDINARY (垃圾胡): after every pattern

_HONOUR_BIT: Final = 8  # in a meld signature's suits: bits 1, 2, 4 the suits
NO_SUIT: Final = -1


class PathRule(NamedTuple):
    """One path of a holding: its pattern, its suit (0-2; `NO_SUIT` if none), how it combines
    the parts, and whether the target keeps pungs only."""

    pattern: int  # a `Pattern`, or `ORDINARY`
    suit: int
    combine: int
    pungs: bool

    @property
    def code(self) -> int:
        """The rule as one int (what the hot loops read): pattern, suit + 1, combine, pungs."""
        return int(self.pattern) | (self.suit + 1) << 8 | self.combine << 12 | int(self.pungs) << 16


def rule_pattern(code: int) -> int:
    return code & 255


def rule_suit(code: int) -> int:
    """0-2, or `NO_SUIT`."""
    return (code >> 8 & 15) - 1


class Melds:
    """What a holding's melds say about its targets: how many, their tile counts (the four-copies
    limit; four of each dragon under `dragons_are_flowers`), the suits they show, whether one is
    a chow, whether all are concealed kongs; ``keyed``: the parts whose tables depend on
    ``held`` (bits as ``suits``); ``family``: the rules of section 14's fields, if any. A class,
    not a named tuple: compiled, one is made and read without a call into Python."""

    def __init__(
        self,
        meld_count: int,
        held: list[int],
        suits: int,
        has_chow: bool,
        all_concealed: bool,
        keyed: int = 0,
        family: FamilyRules | None = None,
    ):
        self.meld_count = meld_count
        self.held = held
        self.suits = suits
        self.has_chow = has_chow
        self.all_concealed = all_concealed
        self.keyed = keyed
        self.family = family


def meld_summary(melds: tuple[Meld, ...], family: FamilyRules | None = None) -> Melds:
    if family is not None:
        summary = meld_summary(melds)
        keyed = summary.suits
        held = summary.held
        if family.dragons_are_flowers:
            held = held[:]
            for dragon in range(FIRST_DRAGON, TILE_KINDS):
                held[dragon] = 4  # no target holds a dragon: they are flowers
            keyed |= _HONOUR_BIT
        return Melds(summary.meld_count, held, summary.suits, summary.has_chow, summary.all_concealed, keyed, family)
    if not melds:
        return _NO_MELDS
    held = [0] * TILE_KINDS
    suits = 0
    has_chow = False
    all_concealed = True
    for meld in melds:
        for tile in meld.tiles:
            held[tile] = held[tile] + 1  # type: ignore[index]  # validated: no None; not +=: mypyc adds generically
        first: int = meld.tiles[0]  # type: ignore[assignment]
        suits |= _HONOUR_BIT if first >= FIRST_HONOUR else 1 << (first // 9)
        if meld.kind == CHOW:
            has_chow = True
        if meld.kind != CONCEALED_KONG:
            all_concealed = False
    return Melds(len(melds), held, suits, has_chow, all_concealed, suits)


_NO_MELDS: Final = Melds(0, [0] * TILE_KINDS, 0, False, True)  # its counts are only ever read

_FLUSHES: Final = (
    (Pattern.HALF_FLUSH, _SUIT_AND_HONOURS, False),
    (Pattern.FULL_FLUSH, _ONE_SUIT, False),
    (Pattern.HALF_FLUSH_PUNGS, _SUIT_AND_HONOURS, True),
    (Pattern.FULL_FLUSH_PUNGS, _ONE_SUIT, True),
)
_RULES: dict[tuple, list[int]] = {}


def path_rules(qualifying_mask: int, melds: Melds) -> list[int]:
    """The paths a holding with these melds may take under a profile's qualifying patterns, in
    pattern order, then suit order, as `PathRule.code`s (cached: few combinations occur)."""
    family = melds.family
    key: tuple = (qualifying_mask, melds.meld_count, melds.suits, melds.has_chow, melds.all_concealed)
    if family is not None:
        key += (family.seven_pairs, family.ordinary, family.no_flowers_path, family.searched)
    rules = _RULES.get(key)
    if rules is None:
        found = sorted(_path_rules(qualifying_mask, melds), key=lambda r: (r.pattern, r.suit))
        rules = _RULES[key] = [rule.code for rule in found]
    return rules


def _path_rules(qualifying_mask: int, melds: Melds) -> list[PathRule]:
    def qualifies(pattern: Pattern) -> bool:
        return bool(qualifying_mask >> pattern & 1)

    suits = melds.suits
    family = melds.family
    found = []
    if qualifies(Pattern.ALL_PUNGS) and not melds.has_chow:
        found.append(PathRule(Pattern.ALL_PUNGS, NO_SUIT, _ALL_PARTS_PUNGS, True))
    for suit in range(3):
        bit = 1 << suit
        for pattern, combine, pungs in _FLUSHES:
            if not qualifies(pattern) or (pungs and melds.has_chow):
                continue
            allowed = bit | _HONOUR_BIT if combine == _SUIT_AND_HONOURS else bit
            if suits & ~allowed == 0:
                found.append(PathRule(pattern, suit, combine, pungs))
    if suits & ~_HONOUR_BIT == 0:
        if qualifies(Pattern.ALL_HONOURS):
            found.append(PathRule(Pattern.ALL_HONOURS, NO_SUIT, _HONOURS_ANY_SHAPE, False))
        if qualifies(Pattern.ALL_HONOURS_PUNGS):
            found.append(PathRule(Pattern.ALL_HONOURS_PUNGS, NO_SUIT, _HONOURS_PUNGS, True))
    if qualifies(Pattern.BIG_HANGING) and melds.meld_count == 4:
        found.append(PathRule(Pattern.BIG_HANGING, NO_SUIT, _ALL_PARTS_PUNGS, True))
    if qualifies(Pattern.CONCEALED) and melds.all_concealed:
        found.append(PathRule(Pattern.CONCEALED, NO_SUIT, _ALL_PARTS_MIXED, False))
    if family is not None:
        if family.seven_pairs and qualifies(Pattern.SEVEN_PAIRS) and melds.meld_count == 0:
            found.append(PathRule(Pattern.SEVEN_PAIRS, NO_SUIT, _SEARCHED, False))
        if family.no_flowers_path:
            found.append(PathRule(Pattern.NO_FLOWERS, NO_SUIT, _SEARCHED, False))
        if family.ordinary:
            found.append(PathRule(ORDINARY, NO_SUIT, _SEARCHED, False))
        searched = family.searched
        found = [
            rule._replace(combine=_SEARCHED) if path_key(rule.pattern, rule.suit) in searched else rule
            for rule in found
        ]
    return found


def part_tables(counts: list[int], melds: Melds) -> list[PartTable]:
    """The tables of the four parts: 万, 筒, 条, honours."""
    held = melds.held
    keyed = melds.keyed
    return [
        suit_table(counts, held, 0, bool(keyed & 1)),
        suit_table(counts, held, 9, bool(keyed & 2)),
        suit_table(counts, held, 18, bool(keyed & 4)),
        honour_table(counts, held, bool(keyed & _HONOUR_BIT)),
    ]


_UNREAD: Final[PartTable] = ([], [], [], [])  # a part no path reads: any read of it fails


def overlap_tables(rules: list[int], counts: list[int], melds: Melds) -> list[PartTable]:
    """The tables `path_overlaps` reads for ``rules``, overlaps only (their useful masks may be
    unsearched); `_UNREAD` for a part none of the paths reads to count its overlap."""
    parts = 0
    for rule in rules:
        parts |= _overlap_parts(rule)
    held = melds.held
    keyed = melds.keyed
    tables = [_UNREAD, _UNREAD, _UNREAD, _UNREAD]
    for part in range(3):
        if parts >> part & 1:
            tables[part] = suit_table(counts, held, part * 9, bool(keyed >> part & 1), False)
    if parts & _HONOUR_BIT:
        tables[3] = honour_table(counts, held, bool(keyed & _HONOUR_BIT), False)
    return tables


def path_overlaps(
    rules: list[int],
    tables: list[PartTable],
    counts: list[int],
    melds: Melds,
    before: list[int] | None = None,
    changed_part: int = -1,
) -> list[int]:
    """Each path's overlap (`NO_TARGET` where no target carries it), in the order of ``rules``.
    Given the overlaps ``before`` one part changed (``changed_part``: 0-2 a suit, 3 the honours),
    only the paths that read that part are combined again."""
    held = melds.held
    suits = melds.suits
    sets = 4 - melds.meld_count
    size = 14 - 3 * melds.meld_count
    if before is None:
        return [
            _overlap(rule, tables, counts, held, suits, sets, size)
            if rule >> 12 & 15 != _SEARCHED
            else _searched(rule, tables, counts, melds, False, 3)[0]
            for rule in rules
        ]
    bit = 1 << changed_part
    overlaps = before[:]
    for index in range(len(rules)):
        rule = rules[index]
        if _parts_read(rule) & bit:
            if rule >> 12 & 15 != _SEARCHED:
                overlaps[index] = _overlap(rule, tables, counts, held, suits, sets, size)
            else:
                overlaps[index] = _searched(rule, tables, counts, melds, False, changed_part)[0]
    return overlaps


def useful_of_best(
    rules: list[int], overlaps: list[int], tables: list[PartTable], counts: list[int], melds: Melds
) -> tuple[int, int]:
    """The best of the paths' ``overlaps`` and the useful tiles of the paths that reach it."""
    held = melds.held
    suits = melds.suits
    sets = 4 - melds.meld_count
    size = 14 - 3 * melds.meld_count
    best = NO_TARGET  # a loop: mypyc calls the builtin max through Python
    for overlap in overlaps:
        if overlap > best:
            best = overlap
    useful = 0
    for index in range(len(rules)):
        if overlaps[index] == best:
            rule = rules[index]
            if rule >> 12 & 15 != _SEARCHED:
                useful |= _combine(rule, tables, counts, held, suits, sets, size, True)[1]
            else:
                useful |= _searched(rule, tables, counts, melds, True, 3)[1]
    return best, useful


def _searched(
    rule: int, tables: list[PartTable] | None, counts: list[int], melds: Melds, useful: bool, changed_part: int
) -> tuple[int, int]:
    """The overlap of a path searched by `rules_core.distance_families`, and with ``useful`` its
    useful tiles (``tables``: the parts' tables of ``counts``, or None to build what is needed;
    ``changed_part``: the part in which ``counts`` differ from the holding's, folded last).
    Remembered for the holding (`FamilyRules.searches`): its options ask for each twice."""
    family = melds.family
    assert family is not None  # only its paths are searched
    key = path_key(rule & 255, (rule >> 8 & 15) - 1)
    accept = family.accepts.get(key, 0)
    pairs = family.pair_accepts.get(key, 0) if melds.meld_count == 0 else 0
    memo = (key, _counts_code(counts))
    known = family.searches.get(memo)
    if known is not None and (known[2] or not useful):
        return known[0], known[1]
    held = melds.held
    best = NO_TARGET
    mask = 0
    if accept:
        if key == _ALL_HONOURS_KEY and accept == family.carried.get(key, 0):  # the honours' table has them
            honours = (
                tables[3] if tables is not None else honour_table(counts, held, bool(melds.keyed & _HONOUR_BIT), useful)
            )
            best, mask = _one_part([honours, honours, honours, honours], 3, 1, 4 - melds.meld_count, useful)
        else:
            best, mask = standard_overlap(family, accept, counts, held, melds, changed_part)
    if key == _ALL_HONOURS_KEY and family.shapeless_legal and not melds.suits & 7:
        size = 14 - 3 * melds.meld_count
        shapeless, over = shapeless_overlap(family.shapeless_legal, family.seven_pairs, counts, held, size)
        if shapeless > best:
            best, mask = shapeless, over
        elif shapeless == best:
            mask |= over
    if pairs:
        paired = seven_pairs_overlap(family, pairs, counts, held)
        if paired > best:
            best = paired
            mask = 0
        if useful and paired == best and best >= 0:
            mask |= seven_pairs_useful(family, pairs, counts, held, best)
    family.searches[memo] = (best, mask, useful or not pairs)
    return best, mask


def _counts_code(counts: list[int]) -> int:
    """Concealed counts as one int, three bits a tile."""
    code = 0
    for count in counts:
        code = code << 3 | count
    return code


_ALL_HONOURS_KEY: Final = path_key(Pattern.ALL_HONOURS, NO_SUIT)


def _overlap_parts(rule: int) -> int:
    """The parts whose tables a path's overlap alone reads (`_overlap`, `_searched`), as
    `_parts_read`'s bits: the pung paths and 乱风向 count tiles, and a searched path reads the
    honours' table at most."""
    combine = rule >> 12 & 15
    if combine == _ALL_PARTS_PUNGS or combine == _HONOURS_ANY_SHAPE:
        return 0
    if combine == _SEARCHED:
        return 8
    return _parts_read(rule)


def _parts_read(rule: int) -> int:
    """The parts a path combines, as bits: 1 万, 2 筒, 4 条, 8 the honours."""
    combine = rule >> 12 & 15
    if combine == _ALL_PARTS_PUNGS or combine == _ALL_PARTS_MIXED or combine == _SEARCHED:
        return 15
    suit = (rule >> 8 & 15) - 1
    if combine == _ONE_SUIT:
        return 1 << suit
    if combine == _SUIT_AND_HONOURS:
        return 1 << suit | 8
    return 8  # the honours, any shape or not


_SHIFT: Final = (0, 9, 18, 27)


def _overlap(
    rule: int, tables: list[PartTable], counts: list[int], held: list[int], meld_suits: int, sets: int, size: int
) -> int:
    """A path's overlap alone: `_combine` without the useful tiles, and without building them."""
    combine = rule >> 12 & 15
    if combine == _ALL_PARTS_PUNGS:
        return _pungs_overlap(counts, held, sets)
    if combine == _ONE_SUIT or combine == _HONOURS_PUNGS:  # `_one_part`'s overlap, read at once
        if combine == _ONE_SUIT:
            value = tables[(rule >> 8 & 15) - 1][rule >> 16 & 1][2 * sets + 1]
        else:
            value = tables[3][1][2 * sets + 1]
        return value if value >= 0 else NO_TARGET
    if combine == _SUIT_AND_HONOURS:
        suit = (rule >> 8 & 15) - 1
        suited = tables[suit][rule >> 16 & 1]
        return _half_flush_overlap(
            suited, tables[3][1], sets, bool(meld_suits >> suit & 1), bool(meld_suits & _HONOUR_BIT)
        )
    return _combine(rule, tables, counts, held, meld_suits, sets, size, False)[0]


def _half_flush_overlap(suited: list[int], honours: list[int], sets: int, suit_shown: bool, honour_shown: bool) -> int:
    """The best split of ``sets`` sets and the pair between a suit and the honours, each side
    holding a set or the pair unless the melds show it (`_suit_and_honours` without the useful
    tiles)."""
    best = NO_TARGET
    for here in range(sets + 1):
        for pairs in range(2):
            if here == 0 and pairs == 0 and not suit_shown:
                continue
            there = sets - here
            if there == 0 and pairs == 1 and not honour_shown:
                continue
            kept = suited[here * 2 + pairs]
            added = honours[there * 2 + 1 - pairs]
            if kept >= 0 and added >= 0 and kept + added > best:
                best = kept + added
    return best


def _combine(
    rule: int,
    tables: list[PartTable],
    counts: list[int],
    held: list[int],
    meld_suits: int,
    sets: int,
    size: int,
    useful: bool,
) -> tuple[int, int]:
    combine = rule >> 12 & 15
    which = rule >> 16 & 1
    suit = (rule >> 8 & 15) - 1
    if combine == _ALL_PARTS_PUNGS and not useful:
        return _pungs_overlap(counts, held, sets), 0
    if combine == _ALL_PARTS_PUNGS or combine == _ALL_PARTS_MIXED:
        return _all_parts(tables, which, sets, useful)
    if combine == _ONE_SUIT:
        return _one_part(tables, suit, which, sets, useful)
    if combine == _SUIT_AND_HONOURS:
        return _suit_and_honours(tables, suit, which, sets, meld_suits, useful)
    if combine == _HONOURS_PUNGS:
        return _one_part(tables, 3, 1, sets, useful)
    return _honours_any_shape(counts, held, size)


def _pungs_overlap(counts: list[int], held: list[int], sets: int) -> int:
    """`_all_parts` with pungs only, without its useful tiles: the best ``sets`` pungs and a pair
    on another tile, counted tile by tile over every part (`pung_parts`)."""
    return pung_overlaps(counts, held, 0, TILE_KINDS, sets)[2 * sets + 1]


def _one_part(tables: list[PartTable], part: int, which: int, sets: int, useful: bool = True) -> tuple[int, int]:
    """The whole target in one part: ``sets`` sets and the pair (and, with ``useful``, its mask)."""
    table = tables[part]
    index = slot(sets, 1)
    value = table[which][index]
    if value < 0:
        return NO_TARGET, 0
    if not useful:
        return value, 0
    return value, table[which + 2][index] << _SHIFT[part]


def _splits(sets: int, final: bool) -> list[int]:
    """The ways to split j sets and p pairs between what is folded so far and one more part, for
    j up to ``sets`` and p up to 1 (with ``final``, only those that make ``sets`` sets and the
    pair), as triples laid end to end: slot so far, slot of the part, slot together."""
    found = []
    for total in range(sets + 1):
        for pairs in range(2):
            if final and (total != sets or pairs != 1):
                continue
            for here in range(total + 1):
                for here_pairs in range(pairs + 1):
                    found += [slot(total - here, pairs - here_pairs), slot(here, here_pairs), slot(total, pairs)]
    return found


_ALL_SPLITS: Final = [_splits(sets, False) for sets in range(5)]
_FINAL_SPLITS: Final = [_splits(sets, True) for sets in range(5)]


def _fold(
    values: list[int],
    masks: list[int],
    shift: int,
    part_values: list[int],
    part_masks: list[int],
    part_shift: int,
    splits: list[int],
    useful: bool,
    present: bool = False,
) -> tuple[list[int], list[int]]:
    """One more part folded in (a max-plus convolution) and, with ``useful``, the union of useful
    tiles over the best splits (each side's masks shifted to its tiles). Overlaps are never
    negative, so a negative one is `NO_TARGET`. With ``present``, each side holds a set or the
    pair (a half flush's suit and honours not shown by the melds)."""
    new_values = [NO_TARGET] * 10
    new_masks = [0] * 10
    for index in range(0, len(splits), 3):
        before = splits[index]
        here = splits[index + 1]
        if present and (before == 0 or here == 0):
            continue
        kept = values[before]
        added = part_values[here]
        if kept < 0 or added < 0:
            continue
        total = kept + added
        out = splits[index + 2]
        best = new_values[out]
        if total > best:
            new_values[out] = total
            if useful:
                new_masks[out] = (masks[before] << shift) | (part_masks[here] << part_shift)
        elif useful and total == best:
            new_masks[out] |= (masks[before] << shift) | (part_masks[here] << part_shift)
    return new_values, new_masks


def _all_parts(tables: list[PartTable], which: int, sets: int, useful: bool) -> tuple[int, int]:
    """Every part together: the most kept with ``sets`` sets and one pair in all, and the union of
    useful tiles over the best splits; the honours pungs only whatever ``which`` says."""
    first = tables[0]
    second = tables[1]
    third = tables[2]
    honours = tables[3]
    splits = _ALL_SPLITS[sets]
    values, masks = _fold(first[which], first[which + 2], 0, second[which], second[which + 2], 9, splits, useful)
    values, masks = _fold(values, masks, 0, third[which], third[which + 2], 18, splits, useful)
    values, masks = _fold(values, masks, 0, honours[1], honours[3], 27, _FINAL_SPLITS[sets], useful)
    index = slot(sets, 1)
    return values[index], masks[index]


def _suit_and_honours(
    tables: list[PartTable], suit: int, which: int, sets: int, meld_suits: int, useful: bool
) -> tuple[int, int]:
    """A half flush of ``suit``: the suit and the honours, each present in the target or the melds."""
    suited = tables[suit]
    honours = tables[3]
    splits = _FINAL_SPLITS[sets]
    if meld_suits >> suit & 1 and meld_suits & _HONOUR_BIT:
        present = False
    elif not meld_suits >> suit & 1 and not meld_suits & _HONOUR_BIT:
        present = True
    else:  # one side shown by the melds: only the other must hold a set or the pair
        return _half_shown(suited, honours, suit, which, sets, bool(meld_suits >> suit & 1), useful)
    values, masks = _fold(
        suited[which], suited[which + 2], _SHIFT[suit], honours[1], honours[3], 27, splits, useful, present
    )
    index = slot(sets, 1)
    return values[index], masks[index]


def _half_shown(
    suited: PartTable, honours: PartTable, suit: int, which: int, sets: int, suit_shown: bool, useful: bool
) -> tuple[int, int]:
    """A half flush whose melds show one of its two sides: the other holds a set or the pair."""
    suited_values = suited[which]
    honour_values = honours[1]
    if suit_shown:
        honour_values = honour_values[:]
        honour_values[0] = NO_TARGET
    else:
        suited_values = suited_values[:]
        suited_values[0] = NO_TARGET
    values, masks = _fold(
        suited_values, suited[which + 2], _SHIFT[suit], honour_values, honours[3], 27, _FINAL_SPLITS[sets], useful
    )
    index = slot(sets, 1)
    return values[index], masks[index]


def _honours_any_shape(counts: list[int], held: list[int], size: int) -> tuple[int, int]:
    """乱风向: any ``size`` honours within the four copies. A best target keeps every honour held
    and fills the rest with any honour that has a copy left."""
    kept = 0
    room = 0
    for tile in range(FIRST_HONOUR, TILE_KINDS):
        kept += counts[tile]
        room += 4 - held[tile]
    if room < size:
        return NO_TARGET, 0
    if kept >= size:
        return size, 0
    mask = 0
    for tile in range(FIRST_HONOUR, TILE_KINDS):
        if counts[tile] + held[tile] < 4:
            mask |= 1 << tile
    return kept, mask

"""Advice on a holding (RULES.md 15.3-15.5): shanten and paths, useful tiles with live counts,
waits with values, and for a 14-tile holding every discard option, in order, with the best.

`advise(AdviseRequest) -> AdviceResult` validates and advises; `advise_holding` advises on a
holding already known to be real (the record review's, replayed). The distances come from
`rules_core.distance`; the waits are valued by the settlement's own `evaluate_winner`, as a
self-draw by the request's seat, as ListWaits values a self-draw wait.
"""

from __future__ import annotations

from typing import Final

from rules_core.advice_validation import held_counts, validate_advice
from rules_core.advice_values import (
    AdviceResult,
    AdviceWait,
    AdviseRequest,
    DiscardOption,
    Path,
    Suit,
    UsefulTile,
)
from rules_core.distance import (
    NO_SUIT,
    ORDINARY,
    Melds,
    meld_summary,
    overlap_tables,
    part_tables,
    path_overlaps,
    path_rules,
    rule_pattern,
    rule_suit,
    useful_of_best,
)
from rules_core.distance_families import family_rules
from rules_core.multipliers import Multipliers, multipliers
from rules_core.patterns import Pattern
from rules_core.profile import RuleProfile
from rules_core.registry import BUILTIN_REGISTRY, ProfileRegistry
from rules_core.requests import ON_SELF_DRAW, Hand, Winner
from rules_core.results import new
from rules_core.settle import evaluate_winner
from rules_core.target_parts import PartTable, honour_table, suit_table
from rules_core.tiles import ALL_TILES, FIRST_HONOUR, TILE_KINDS, Tile

_SUITS: Final = (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO)
_NO_OPTIONS: tuple[DiscardOption, ...] = ()
_NO_USEFUL: tuple[UsefulTile, ...] = ()
_NO_WAITS: tuple[AdviceWait, ...] = ()


def advise(request: AdviseRequest, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> AdviceResult:
    """Advice on a holding, or `rules_core.InvalidRequest` naming each bad field."""
    profile, counts, seen = validate_advice(request, profiles)
    multi = multipliers(profile, request.huangfan_count, request.dice)
    result = advise_holding(profile, multi, request.seat, request.dealer_seat, request.hand, counts, seen)
    return result._replace(request_id=request.request_id, profile_digest=profiles.digest(profile))


def advise_holding(
    profile: RuleProfile,
    multi: Multipliers,
    seat: int,
    dealer_seat: int,
    hand: Hand,
    counts: list[int],
    seen: list[int],
) -> AdviceResult:
    """Advice on a real holding: ``counts`` its concealed tile counts, ``seen`` the counts of the
    tiles seen outside it. Its ``profile_digest`` is empty: `advise` adds its registry's."""
    melds = meld_summary(hand.melds, family_rules(profile, hand))
    rules = path_rules(profile.qualifying_mask, melds)
    tables = part_tables(counts, melds)
    size = 14 - 3 * melds.meld_count
    overlaps = path_overlaps(rules, tables, counts, melds)
    paths = _paths(rules, overlaps, size)
    if not paths:  # 死手: no target with these melds
        return AdviceResult("", False, None, (), _NO_USEFUL, 0, _NO_WAITS, 0.0, _NO_OPTIONS, "")
    shanten = paths[0].shanten
    own = held_counts(hand, counts)
    valuer = _Valuer(profile, multi, seat, dealer_seat, hand)
    if sum(counts) < size:  # waiting: it draws or claims next
        useful, live_total = _useful(useful_of_best(rules, overlaps, tables, counts, melds)[1], own, seen)
        waits: tuple[AdviceWait, ...] = _NO_WAITS
        live_value = 0.0
        if shanten == 0:
            waits, live_value = _waits(useful, valuer, counts)
        return AdviceResult("", True, shanten, paths, useful, live_total, waits, live_value, _NO_OPTIONS, "")
    options = _options(counts, tables, rules, overlaps, melds, size, own, seen, valuer)
    return AdviceResult("", True, shanten, paths, _NO_USEFUL, 0, _NO_WAITS, 0.0, options, "")


def holding_paths(profile: RuleProfile, hand: Hand, counts: list[int]) -> tuple[Path, ...]:
    """The paths of a real holding (``counts`` its concealed counts), by shanten, then pattern,
    then suit; none for a dead holding. The first path's shanten is the holding's."""
    melds = meld_summary(hand.melds, family_rules(profile, hand))
    rules = path_rules(profile.qualifying_mask, melds)
    overlaps = path_overlaps(rules, overlap_tables(rules, counts, melds), counts, melds)
    return _paths(rules, overlaps, 14 - 3 * melds.meld_count)


# By sort key (below 16 << 12: a distance is at most 14): a Path is immutable, made once.
_PATHS: list[Path | None] = [None] * (16 << 12)


def _paths(rules: list[int], overlaps: list[int], size: int) -> tuple[Path, ...]:
    """The paths some target carries, by shanten, then pattern, then suit: ``rules`` come in
    pattern order, then suit order (`path_rules`), so they are taken in turn for each distance,
    from the least (a few distances, where a sort would compare every pair)."""
    least = size + 1
    most = -1
    for overlap in overlaps:
        if overlap >= 0:
            if size - overlap < least:
                least = size - overlap
            if size - overlap > most:
                most = size - overlap
    paths = []
    known = _PATHS  # a local: compiled, each read of a module's variable is a look-up
    for distance in range(least, most + 1):
        overlap = size - distance
        for index in range(len(rules)):
            if overlaps[index] == overlap:
                rule = rules[index]
                key = distance << 12 | rule_pattern(rule) << 4 | (rule_suit(rule) + 1)
                path = known[key]
                if path is None:
                    suit = (key & 15) - 1
                    pattern = key >> 4 & 255
                    path = known[key] = Path(
                        None if pattern == ORDINARY else Pattern(pattern),
                        None if suit == NO_SUIT else _SUITS[suit],
                        distance - 1,
                    )
                paths.append(path)
    return tuple(paths)


def _useful(mask: int, own: list[int], seen: list[int]) -> tuple[tuple[UsefulTile, ...], int]:
    """The useful tiles of a mask in tile order, each with its live count, and their total."""
    useful = []
    total = 0
    for tile in range(TILE_KINDS):
        if mask >> tile & 1:
            live = 4 - own[tile] - seen[tile]
            if live < 0:
                live = 0
            useful.append(new(UsefulTile, (ALL_TILES[tile], live)))
            total += live
    return tuple(useful), total


def _waits(useful: tuple[UsefulTile, ...], valuer: _Valuer, counts: list[int]) -> tuple[tuple[AdviceWait, ...], float]:
    """A ready holding's waits (its useful tiles) with the value of each as a self-draw."""
    waits = []
    live_value = 0.0
    for tile, live in useful:
        value = valuer.value(counts, tile)
        waits.append(AdviceWait(tile, live, value))
        live_value += live * value
    return tuple(waits), live_value


class _Valuer:
    """The value of a self-draw win on a tile, by the settlement's own judgement, remembered per
    completed hand (different discards and draws often complete the same hand)."""

    def __init__(self, profile: RuleProfile, multi: Multipliers, seat: int, dealer_seat: int, hand: Hand):
        self.profile = profile
        self.multi = multi
        self.seat = seat
        self.dealer_seat = dealer_seat
        self.hand = hand
        self.known: dict[tuple[int, ...], float] = {}

    def value(self, counts: list[int], tile: Tile) -> float:
        counts[tile] = counts[tile] + 1  # not +=: mypyc adds to a list's item generically
        key = tuple(counts)
        value = self.known.get(key)
        if value is None:
            concealed = tuple(ALL_TILES[t] for t in range(TILE_KINDS) for _ in range(counts[t]))
            hand = self.hand
            completed = Hand(concealed, tile, hand.melds, hand.flowers, hand.dragon_flowers if len(hand) > 4 else ())
            winner = Winner(self.seat, completed, (), False, False)
            result = evaluate_winner(self.profile, ON_SELF_DRAW, self.dealer_seat, self.multi, winner, counts)
            value = self.known[key] = result.value
        counts[tile] = counts[tile] - 1
        return value


def _options(
    counts: list[int],
    tables: list[PartTable],
    rules: list[int],
    overlaps: list[int],
    melds: Melds,
    size: int,
    own: list[int],
    seen: list[int],
    valuer: _Valuer,
) -> tuple[DiscardOption, ...]:
    """One option per distinct concealed tile, in the order of 15.5, the best marked. The
    discarded tile lies on the table: live counts are those of the 14-tile holding."""
    held = melds.held
    found = []
    for tile in range(TILE_KINDS):
        if not counts[tile]:
            continue
        counts[tile] = counts[tile] - 1  # not -=: mypyc adds to a list's item generically
        part = 3 if tile >= FIRST_HONOUR else tile // 9
        changed = tables[:]
        melded = bool(melds.keyed >> part & 1)
        changed[part] = honour_table(counts, held, melded) if part == 3 else suit_table(counts, held, part * 9, melded)
        after = path_overlaps(rules, changed, counts, melds, overlaps, part)
        overlap, mask = useful_of_best(rules, after, changed, counts, melds)
        shanten = size - 1 - overlap
        useful, live_total = _useful(mask, own, seen)
        waits: tuple[AdviceWait, ...] = _NO_WAITS
        live_value = 0.0
        if shanten == 0:
            waits, live_value = _waits(useful, valuer, counts)
        counts[tile] = counts[tile] + 1
        found.append(DiscardOption(ALL_TILES[tile], shanten, useful, live_total, waits, live_value, False))
    found.sort(key=lambda o: (o.shanten, -o.live_value, -o.live_total, o.tile))
    first = found[0]
    best_key = (first.shanten, first.live_value, first.live_total)
    return tuple(o._replace(best=True) if (o.shanten, o.live_value, o.live_total) == best_key else o for o in found)

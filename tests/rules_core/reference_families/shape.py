"""Readings of a winner's tiles (RULES.md sections 3, 4 and 14.3), and their 花 (sections 5, 14.4).

A reading is the concealed tiles split into sets and one pair (melds are sets as they stand),
or the seven-pairs form. Every split is enumerated; nothing is clever."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tests.rules_core.reference_families.profiles import FLOWER_SOURCES
from tests.rules_core.reference_families.tiles import is_dragon, is_honour, is_wind, suit


@dataclass(frozen=True)
class Meld:
    kind: str  # chow, pung, exposed_kong, added_kong, concealed_kong
    tiles: tuple[str, ...]
    from_seat: int

    @property
    def is_chow(self) -> bool:
        return self.kind == "chow"

    @property
    def is_kong(self) -> bool:
        return self.kind.endswith("kong")


@dataclass(frozen=True)
class Reading:
    """``sets``: the concealed sets, ("pung" | "chow", first tile); ``pair``: the pair's tile;
    ``seven_pairs``: the seven-pairs form, ``shapeless``: an all-honour hand in no shape, which
    `all_honours_any_shape` lets count (then ``sets`` is empty and ``pair`` None)."""

    sets: tuple[tuple[str, str], ...]
    pair: str | None
    seven_pairs: bool = False
    shapeless: bool = False

    @property
    def standard(self) -> bool:
        return not (self.seven_pairs or self.shapeless)


def _next(tile: str, step: int) -> str | None:
    if is_honour(tile) or int(tile[0]) + step > 9:
        return None
    return f"{int(tile[0]) + step}{tile[1]}"


def _split_sets(counts: Counter) -> list[list[tuple[str, str]]]:
    """Every way to split ``counts`` into pungs and chows."""
    live = sorted(t for t, n in counts.items() if n > 0)
    if not live:
        return [[]]
    first = live[0]
    out: list[list[tuple[str, str]]] = []
    if counts[first] >= 3:
        counts[first] -= 3
        out += [[("pung", first), *rest] for rest in _split_sets(counts)]
        counts[first] += 3
    second, third = _next(first, 1), _next(first, 2)
    if second and third and counts[second] > 0 and counts[third] > 0:
        for t in (first, second, third):
            counts[t] -= 1
        out += [[("chow", first), *rest] for rest in _split_sets(counts)]
        for t in (first, second, third):
            counts[t] += 1
    return out


def standard_readings(concealed: list[str]) -> list[Reading]:
    """Every split of the concealed tiles into sets and exactly one pair."""
    counts = Counter(concealed)
    if len(concealed) % 3 != 2:
        return []
    found = set()
    for pair in sorted(counts):
        if counts[pair] < 2:
            continue
        counts[pair] -= 2
        for sets in _split_sets(counts):
            found.add(Reading(tuple(sorted(sets)), pair))
        counts[pair] += 2
    return sorted(found, key=lambda r: (r.sets, r.pair))


def is_seven_pairs(concealed: list[str], melds: list[Meld]) -> bool:
    """No melds, 14 concealed tiles, seven pairs (four of a kind is two pairs)."""
    return not melds and len(concealed) == 14 and all(n % 2 == 0 for n in Counter(concealed).values())


def flower_sources(
    reading: Reading | None, concealed: list[str], melds: list[Meld], flower_tiles: int, values: dict
) -> dict[str, tuple[int, int]]:
    """花 by source: {source: (花, how many sources)}, sources worth 0 left out.

    ``reading`` None: a hand not read as four sets and a pair (seven pairs, or incomplete):
    three or more concealed copies of an honour count as one concealed pung (14.4). ``values``:
    the profile's `flower_values`."""
    found: Counter = Counter()
    found["FLOWER_TILE"] += flower_tiles
    for meld in melds:
        tile = meld.tiles[0]
        kind = "WIND" if is_wind(tile) else "DRAGON" if is_dragon(tile) else "SUITED"
        if meld.is_chow:
            continue
        if meld.kind == "pung":
            found[f"{kind}_PUNG"] += 1
        elif meld.kind == "concealed_kong":
            found[f"{kind}_CONCEALED_KONG"] += 1
        else:
            found[f"{kind}_EXPOSED_KONG"] += 1
    if reading is not None and reading.standard:
        pungs = [t for kind, t in reading.sets if kind == "pung"]
    else:
        pungs = [t for t, n in Counter(concealed).items() if is_honour(t) and n >= 3]
    for tile in pungs:
        kind = "WIND" if is_wind(tile) else "DRAGON" if is_dragon(tile) else "SUITED"
        found[f"{kind}_PUNG"] += 1
    return {  # in FlowerSource order, as the items list them
        source: (values.get(source, 0) * found[source], found[source])
        for source in FLOWER_SOURCES
        if values.get(source, 0) * found[source]
    }


def shape_patterns(reading: Reading, concealed: list[str], melds: list[Meld]) -> set[str]:
    """The shape patterns of a complete reading (sections 4 and 14.3)."""
    tiles = concealed + [t for m in melds for t in m.tiles]
    suits = {suit(t) for t in tiles} - {None}
    honours = any(is_honour(t) for t in tiles)
    found: set[str] = set()
    if not suits:
        found.add("ALL_HONOURS")
    if not reading.standard:
        return found
    pungs = all(kind == "pung" for kind, _ in reading.sets) and not any(m.is_chow for m in melds)
    if pungs:
        found.add("ALL_PUNGS")
    if len(suits) == 1:
        found.add("HALF_FLUSH" if honours else "FULL_FLUSH")
    for flush, with_pungs in (
        ("HALF_FLUSH", "HALF_FLUSH_PUNGS"),
        ("FULL_FLUSH", "FULL_FLUSH_PUNGS"),
        ("ALL_HONOURS", "ALL_HONOURS_PUNGS"),
    ):
        if flush in found and pungs:
            found.add(with_pungs)
    return found

"""花: flowers, honour pungs and kongs (RULES.md section 5).

Concealed honours with three or more copies count as one concealed pung
(honours never chow, so every decomposition shares them; in a shapeless
all-honour hand the rules say so outright). Concealed suited pungs are worth 0
in every built-in profile; when a profile gives them 花, their count is the
one of the reading that counts (the highest-value decomposition, chosen in
`rules_core.legality`).
"""

from __future__ import annotations

from typing import Final

from rules_core.profile import FlowerSource, RuleProfile
from rules_core.requests import CHOW, MeldKind
from rules_core.tiles import FIRST_DRAGON, FIRST_HONOUR, TILE_KINDS

_S = FlowerSource
# (meld kind, tile class) -> source; tile class 0 suited, 1 wind, 2 dragon
_MELD_SOURCE: dict[tuple[MeldKind, int], FlowerSource] = {
    (MeldKind.PUNG, 0): _S.SUITED_PUNG,
    (MeldKind.PUNG, 1): _S.WIND_PUNG,
    (MeldKind.PUNG, 2): _S.DRAGON_PUNG,
    (MeldKind.EXPOSED_KONG, 0): _S.SUITED_EXPOSED_KONG,
    (MeldKind.EXPOSED_KONG, 1): _S.WIND_EXPOSED_KONG,
    (MeldKind.EXPOSED_KONG, 2): _S.DRAGON_EXPOSED_KONG,
    (MeldKind.ADDED_KONG, 0): _S.SUITED_EXPOSED_KONG,
    (MeldKind.ADDED_KONG, 1): _S.WIND_EXPOSED_KONG,
    (MeldKind.ADDED_KONG, 2): _S.DRAGON_EXPOSED_KONG,
    (MeldKind.CONCEALED_KONG, 0): _S.SUITED_CONCEALED_KONG,
    (MeldKind.CONCEALED_KONG, 1): _S.WIND_CONCEALED_KONG,
    (MeldKind.CONCEALED_KONG, 2): _S.DRAGON_CONCEALED_KONG,
}


def tile_class(tile: int) -> int:
    return 0 if tile < FIRST_HONOUR else (1 if tile < FIRST_DRAGON else 2)


# The same by meld kind (its int value, a chow's row empty), then by tile: two tuple indexings.
_SOURCE_BY_KIND: Final[tuple[tuple[FlowerSource, ...], ...]] = tuple(
    tuple(_MELD_SOURCE[MeldKind(code), tile_class(tile)] for tile in range(TILE_KINDS))
    if code in {kind for kind, _ in _MELD_SOURCE}
    else ()
    for code in range(max(MeldKind) + 1)
)


# Members the hot path keys by, as constants (see rules_core.requests).
_FLOWER_TILE: Final = FlowerSource.FLOWER_TILE
_CHOW: Final = int(CHOW)  # compared natively with a kind read as int (see rules_core.validation)
_SUITED_PUNG: Final = FlowerSource.SUITED_PUNG
_WIND_PUNG: Final = FlowerSource.WIND_PUNG
_DRAGON_PUNG: Final = FlowerSource.DRAGON_PUNG


def flower_sources(counts: list[int], melds, flower_count: int, concealed_suited_pungs: int) -> dict[FlowerSource, int]:
    """How many of each 花 source the hand holds (sources it lacks are absent)."""
    sources: dict[FlowerSource, int] = {}
    if flower_count:
        sources[_FLOWER_TILE] = flower_count
    if concealed_suited_pungs:
        sources[_SUITED_PUNG] = concealed_suited_pungs
    for tile in range(FIRST_HONOUR, TILE_KINDS):
        if counts[tile] >= 3:
            source = _WIND_PUNG if tile < FIRST_DRAGON else _DRAGON_PUNG
            sources[source] = sources.get(source, 0) + 1
    for meld in melds:
        kind: int = meld.kind  # validated: never None
        if kind != _CHOW:
            source = _SOURCE_BY_KIND[kind][meld.tiles[0]]
            sources[source] = sources.get(source, 0) + 1
    return sources


def flower_total(profile: RuleProfile, sources: dict[FlowerSource, int]) -> int:
    values = profile.flower_values  # a read-only mapping: `in` and `[]` are C slots, `.get` a method call
    total = 0
    for source, count in sources.items():
        if source in values:
            total += values[source] * count
    return total

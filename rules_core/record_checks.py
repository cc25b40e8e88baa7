"""What a hand record's fields may hold (RULES.md section 13), before it is replayed.

Each event is checked alone here: a kind given, a seat 0-3 (an exhaustive draw's is not read),
no field set that its kind does not use, every tile and flower specified, a `DRAW` with exactly
one of ``tile`` and ``flower``. `rules_core.replay` checks the order and the tiles held.

The bounds are those of the largest legal record, so that a hostile one (10,000 events, a deal
of 1,000 tiles) is refused before any of its entries is read:

- a record shows at most 144 tiles and flowers (more would be a fifth copy or a second
  flower), and the four deals show at least 13 x 3 + 14 = 53 of them: at most 91 `DRAW`s;
- a `DISCARD` follows a tile drawn, a chow or a pung, or opens the hand (the dealer's): at
  most 91 + 16 + 1 = 108, since the four seats lay down at most 16 melds;
- those 16 melds take at most 16 chows, pungs and kongs, and at most 16 added kongs upgrade
  pungs among them: 32 meld events;
- the end: up to three `WIN`s on one discard, or one exhaustive draw or abandon.

4 deals + 91 + 108 + 32 + 3 = 238 events.
"""

from __future__ import annotations

import math
from typing import Final

from rules_core.errors import FieldViolation, excerpt
from rules_core.records import EventKind, HandEvent

MAX_DRAWS = 144 - (13 * 3 + 14)
MAX_EVENTS = 4 + MAX_DRAWS + (MAX_DRAWS + 16 + 1) + 32 + 3
MAX_DEAL_TILES = 14
MAX_DEAL_FLOWERS = 8
MAX_DEAL_DRAGON_FLOWERS = 12  # 中发白 as flowers (dragons_are_flowers): four of each
CHOW_TILES = 2
# The longest each repeated field of an event can be, by field name (refused unread when longer).
MAX_EVENT_LENGTHS = {"tiles": MAX_DEAL_TILES, "flowers": MAX_DEAL_FLOWERS, "dragon_flowers": MAX_DEAL_DRAGON_FLOWERS}

# The fields each kind uses, beyond its seat.
_USES: dict[EventKind, frozenset[str]] = {
    EventKind.DEAL: frozenset({"tiles", "flowers", "dragon_flowers"}),
    EventKind.DRAW: frozenset({"tile", "flower"}),
    EventKind.DISCARD: frozenset({"tile"}),
    EventKind.CHOW: frozenset({"tiles"}),
    EventKind.PUNG: frozenset(),
    EventKind.EXPOSED_KONG: frozenset(),
    EventKind.ADDED_KONG: frozenset({"tile"}),
    EventKind.CONCEALED_KONG: frozenset({"tile"}),
    EventKind.WIN: frozenset({"last_tile"}),
    EventKind.EXHAUSTIVE_DRAW: frozenset(),
    EventKind.ABANDON: frozenset(),
    EventKind.DECLARE: frozenset(),
}
# The fields that must be set for the kind (a DRAW: one of tile and flower, checked apart).
_NEEDS: dict[EventKind, tuple[str, ...]] = {
    EventKind.DEAL: ("tiles",),
    EventKind.DISCARD: ("tile",),
    EventKind.CHOW: ("tiles",),
    EventKind.ADDED_KONG: ("tile",),
    EventKind.CONCEALED_KONG: ("tile",),
}
_OPTIONAL_FIELDS = ("tile", "tiles", "flower", "flowers", "dragon_flowers", "last_tile")


def event_fits(event: HandEvent) -> bool:
    """Whether an event's fields, taken alone, are right (the usual case, answered without a
    path or a list made): `event_violations` says what is wrong otherwise."""
    kind = event.kind
    if kind is None:
        return False
    seat = event.seat
    if kind != _EXHAUSTIVE_DRAW and not (type(seat) is int and 0 <= seat <= 3):
        return False
    tile, tiles, flower, flowers = event.tile, event.tiles, event.flower, event.flowers
    if len(event) > 6 and (event[6] or event[7]):  # dragon flowers or last_tile (RULES.md 14.6)
        return _family_fields_fit(event)
    if kind == _DRAW:
        return (tile is None) != (flower is None) and not tiles and not flowers
    if flower is not None:
        return False
    if kind in _WITH_TILE:
        return tile is not None and not tiles and not flowers
    if tile is not None:
        return False
    if kind == _DEAL:
        return 0 < len(tiles) <= MAX_DEAL_TILES and len(flowers) <= MAX_DEAL_FLOWERS and _specified_all(tiles, flowers)
    if kind == _CHOW:
        return 0 < len(tiles) <= CHOW_TILES and not flowers and _specified_all(tiles, ())
    return not tiles and not flowers


def _family_fields_fit(event: HandEvent) -> bool:
    """An event that sets `dragon_flowers` (a DEAL's) or `last_tile` (a WIN's)."""
    if event.kind == _DEAL:
        dragons = event.dragon_flowers
        return (
            not event.last_tile
            and event.tile is None
            and event.flower is None
            and 0 < len(event.tiles) <= MAX_DEAL_TILES
            and len(event.flowers) <= MAX_DEAL_FLOWERS
            and len(dragons) <= MAX_DEAL_DRAGON_FLOWERS
            and _specified_all(event.tiles, event.flowers)
            and _specified_all(dragons, ())
        )
    return (
        event.kind == _WIN
        and not event.dragon_flowers
        and event.tile is None
        and event.flower is None
        and not event.tiles
        and not event.flowers
    )


_WITH_TILE: Final = frozenset({EventKind.DISCARD, EventKind.ADDED_KONG, EventKind.CONCEALED_KONG})
_DEAL: Final = EventKind.DEAL
_DRAW: Final = EventKind.DRAW
_CHOW: Final = EventKind.CHOW
_WIN: Final = EventKind.WIN
_EXHAUSTIVE_DRAW: Final = EventKind.EXHAUSTIVE_DRAW


def _specified_all(tiles: tuple, flowers: tuple) -> bool:
    for tile in tiles:
        if tile is None:
            return False
    for flower in flowers:
        if flower is None:
            return False
    return True


def event_violations(event: HandEvent, path: str) -> list[FieldViolation]:
    """Everything wrong with one event's fields taken alone."""
    found: list[FieldViolation] = []
    kind = event.kind
    if kind is None:
        return [FieldViolation(f"{path}.kind", "must be specified")]
    if kind != EventKind.EXHAUSTIVE_DRAW and not (type(event.seat) is int and 0 <= event.seat <= 3):
        found.append(FieldViolation(f"{path}.seat", "must be a seat 0-3"))
    uses = _USES[kind]
    for name in _OPTIONAL_FIELDS:
        value = getattr(event, name)
        is_set = value is not None and value != () and value is not False
        if is_set and name not in uses:
            found.append(FieldViolation(f"{path}.{name}", f"a {kind.name} event has no {name}: leave it unset"))
    for name in _NEEDS.get(kind, ()):
        value = getattr(event, name)
        if value is None or value == ():
            found.append(FieldViolation(f"{path}.{name}", f"a {kind.name} event needs its {name}"))
    if kind == EventKind.DRAW and (event.tile is None) == (event.flower is None):
        found.append(FieldViolation(path, "a DRAW has exactly one of tile and flower"))
    if "tiles" in uses:
        limit = CHOW_TILES if kind == EventKind.CHOW else MAX_DEAL_TILES
        found.extend(_specified(event.tiles, f"{path}.tiles", "tile", limit))
    if "flowers" in uses:
        found.extend(_specified(event.flowers, f"{path}.flowers", "flower", MAX_DEAL_FLOWERS))
    if "dragon_flowers" in uses:
        found.extend(_specified(event.dragon_flowers, f"{path}.dragon_flowers", "tile", MAX_DEAL_DRAGON_FLOWERS))
    return found


def _specified(values: tuple, path: str, what: str, limit: int) -> list[FieldViolation]:
    if len(values) > limit:
        if limit == CHOW_TILES:
            return [FieldViolation(path, f"a chow takes {CHOW_TILES} tiles from the hand, got {len(values)}")]
        return [FieldViolation(path, f"at most {limit} entries, got {len(values)}")]
    return [FieldViolation(f"{path}[{i}]", f"must be a specified {what}") for i, v in enumerate(values) if v is None]


def recorded_deltas_violations(deltas: tuple[float, ...]) -> list[FieldViolation]:
    """None, or the four seat deltas, each a finite number."""
    if len(deltas) not in (0, 4):
        return [FieldViolation("recorded_deltas", f"none, or the four seat deltas: got {len(deltas)}")]
    return [
        FieldViolation(f"recorded_deltas[{seat}]", f"expected a finite number, got {excerpt(delta)}")
        for seat, delta in enumerate(deltas)
        if not math.isfinite(delta)
    ]


def events_length_violation(count: int) -> FieldViolation | None:
    if count <= MAX_EVENTS:
        return None
    return FieldViolation("events", f"at most {MAX_EVENTS} entries (the longest legal hand), got {count}")

"""The costliest hand record known to the replay: a legal hand in which nearly every discard is
a tile another seat could win on, so that nearly every discard is judged (`legality.judge`)
and passed (漏胡), and every seat's waits are found again after each of its turns.

Seats 0-2 hold a nine-gates hand (九莲, waiting on all nine tiles of a suit), each in its own
suit, seat 3 four pungs of winds and a red dragon. Each seat in turn draws a tile of another
seat's suit, the one with the most copies left, and throws it: that seat could have won on
it and passes. The hand ends in an exhaustive draw when no such tile is left. It is a hand no
table plays, but a hostile game server may send it: `make bench-records` measures it beside
the simulated hands (docs/PERFORMANCE.md, hand records).
"""

from __future__ import annotations

from collections import Counter

from rules_core.build import deal, discard, draw, exhaustive_draw
from rules_core.notation import parse_tiles
from rules_core.records import SettleRecordRequest
from rules_core.tiles import FIRST_HONOUR, TILE_NOTATION

_HANDS = {0: "11123456789999m", 1: "1112345678999p", 2: "1112345678999s", 3: "EEESSSWWWNNNC"}


def _suit(tile: int) -> int:
    return 3 if tile >= FIRST_HONOUR else tile // 9


def costliest_record(profile: str = "classic") -> SettleRecordRequest:
    left = Counter({tile: 4 for tile in range(34)})
    for tiles in _HANDS.values():
        left.subtract(parse_tiles(tiles))
    events = [deal(seat, tiles) for seat, tiles in _HANDS.items()]
    events.append(discard(0, "9m"))  # the dealer's fourth 9m: its nine gates remain
    seat = 1
    while True:
        others = [tile for tile in range(34) if left[tile] and _suit(tile) != seat]
        if not others:
            break
        tile = max(others, key=lambda t: left[t])
        left[tile] -= 1
        events += [draw(seat, TILE_NOTATION[tile]), discard(seat, TILE_NOTATION[tile])]
        seat = (seat + 1) % 4
    events.append(exhaustive_draw())
    return SettleRecordRequest(profile, tuple(events), request_id="costliest")

"""Seeded holdings under the profiles of RULES.md section 14 (`qiaoma`, `qiaoma_lezi`,
`qinghunpeng`), as AdviseRequest proto3 JSON: four sets and a pair of a style (垃圾胡 chows, pungs,
one suit with or without honours) or seven pairs (mixed, or honours alone), some sets laid down as
melds, a few tiles exchanged, season flowers (or none, for 无花), dragon flowers where dragons are
flowers (and then no dragon anywhere else), a `seen` list, and now and then the overrides whose
targets section 14 changes (`seven_pairs`, with or without `SEVEN_PAIRS` qualifying, and
`min_fan`)."""

from __future__ import annotations

import random

from .advice import TILE_NAMES
from .holdings import FLOWERS, exchange, sets_and_pair

FAMILY_PROFILES = ("qiaoma", "qiaoma_lezi", "qinghunpeng")
DRAGONS = (31, 32, 33)
STYLES = ("mixed", "mixed", "mixed", "pungs", "flush", "half_flush", "pairs", "honour_pairs")
QUALIFYING_14_2 = [
    f"PATTERN_{p}"
    for p in (
        "ALL_PUNGS HALF_FLUSH FULL_FLUSH HALF_FLUSH_PUNGS FULL_FLUSH_PUNGS ALL_HONOURS ALL_HONOURS_PUNGS "
        "EIGHT_FLOWERS SEVEN_PAIRS"
    ).split()
]


def _groups(rng: random.Random, style: str, pool: list) -> list:
    """Four sets and a pair, or seven pairs, as lists of tiles (sets first, the pair last)."""
    suit = rng.randrange(3) * 9
    honours = [t for t in pool if t >= 27]
    if style in ("flush", "half_flush"):
        pool = list(range(suit, suit + 9)) + (honours if style == "half_flush" else [])
    if style == "pairs":
        return [[t, t] for t in rng.choices(pool, k=7)]
    if style == "honour_pairs":
        return [[t, t] for t in rng.choices(honours, k=7)]
    sets, pair = sets_and_pair(rng, pool, chows=style != "pungs")
    return sets + [pair]


def _meld(rng: random.Random, tiles: list, seat: int) -> dict:
    if tiles[0] != tiles[1]:
        return {"kind": "MELD_KIND_CHOW", "tiles": [TILE_NAMES[t] for t in tiles], "fromSeat": (seat + 3) % 4}
    kind = rng.choice(("MELD_KIND_PUNG", "MELD_KIND_PUNG", "MELD_KIND_EXPOSED_KONG", "MELD_KIND_CONCEALED_KONG"))
    meld = {"kind": kind, "tiles": [TILE_NAMES[tiles[0]]] * (3 if kind == "MELD_KIND_PUNG" else 4)}
    if kind != "MELD_KIND_CONCEALED_KONG":
        meld["fromSeat"] = rng.choice([s for s in range(4) if s != seat])
    return meld


def _overrides(rng: random.Random, switches: str) -> dict:
    """``switches``: "none" (the profile's rules, now and then with `seven_pairs`), "min_fan"
    (一番和 and more) or "seven_pairs_ordinary" (七对 complete but not qualifying: 垃圾胡 where
    ordinary hands win)."""
    if switches == "min_fan":
        return {"minFan": rng.choice((1, 2, 2, 3))}
    if switches == "seven_pairs_ordinary":
        return {"sevenPairs": True, "qualifyingPatterns": [p for p in QUALIFYING_14_2 if p != "PATTERN_SEVEN_PAIRS"]}
    return {"sevenPairs": True} if rng.random() < 0.2 else {}


def random_family_request(rng: random.Random, waiting: bool, profile: str, switches: str = "none") -> dict:
    """A holding under ``profile``, with the overrides ``switches`` names (see `_overrides`)."""
    dragons_are_flowers = profile != "qinghunpeng"
    pool = [t for t in range(34) if not (dragons_are_flowers and t in DRAGONS)]
    seat = rng.randrange(4)
    while True:
        groups = _groups(rng, rng.choice(STYLES), pool)
        count = 0 if len(groups) == 7 else rng.choice((0, 0, 0, 1, 1, 2, 3, 4))
        melds = [_meld(rng, tiles, seat) for tiles in groups[:count]]
        held = [0] * 34
        for meld in melds:
            for name in meld["tiles"]:
                held[TILE_NAMES.index(name)] += 1
        concealed = [t for tiles in groups[count:] for t in tiles]
        for t in concealed:
            held[t] += 1
        if max(held) > 4:
            continue
        exchange(rng, concealed, held, pool, most=3)
        if waiting:
            held[concealed.pop(rng.randrange(len(concealed)))] -= 1
        seen = []
        for _ in range(rng.choice((0, 0, 3, 8, 20))):
            t = rng.choice(pool)
            if held[t] < 4:
                held[t] += 1
                seen.append(t)
        hand = {"concealed": [TILE_NAMES[t] for t in sorted(concealed)], "melds": melds}
        if rng.random() < 0.5:
            hand["flowers"] = rng.sample(FLOWERS, rng.randint(1, 3))
        if dragons_are_flowers and rng.random() < 0.4:
            hand["dragonFlowers"] = [TILE_NAMES[t] for t in sorted(rng.choices(DRAGONS, k=rng.randint(1, 3)))]
        request = {
            "requestId": f"f{rng.randrange(10**6)}",
            "profile": profile,
            "seat": seat,
            "dealerSeat": rng.randrange(4),
            "hand": hand,
            "seen": [TILE_NAMES[t] for t in sorted(seen)],
        }
        chosen = _overrides(rng, switches)
        if chosen:
            request["overrides"] = chosen
        if rng.random() < 0.2:
            request["dice"] = {"first": rng.randint(1, 6), "second": rng.randint(1, 6)}
        if rng.random() < 0.15:
            request["huangfanCount"] = rng.randint(1, 3)
        return request

"""Seeded holdings for the differential test, as AdviseRequest proto3 JSON: four sets and a pair of
a style (mixed, pungs, one suit with or without honours, honours), some sets laid down as melds,
a few tiles exchanged, flowers, a `seen` list, a profile and overrides that matter."""

from __future__ import annotations

import random

from .advice import PATTERN_NAMES, TILE_NAMES

FLOWERS = [f"FLOWER_{name}" for name in "SPRING SUMMER AUTUMN WINTER PLUM ORCHID BAMBOO CHRYSANTHEMUM".split()]
ALL_SHAPE = [PATTERN_NAMES[number] for number in range(1, 9)]  # the shape patterns and EIGHT_FLOWERS


def _sets(rng: random.Random, style: str) -> tuple[list, list]:
    suit = rng.randrange(3) * 9

    def tiles_of():
        if style == "honours":
            return list(range(27, 34))
        if style == "flush":
            return list(range(suit, suit + 9))
        if style == "half_flush":
            return list(range(suit, suit + 9)) + list(range(27, 34))
        return list(range(34))

    return sets_and_pair(rng, tiles_of(), chows=style != "pungs")


def sets_and_pair(rng: random.Random, pool: list, chows: bool) -> tuple[list, list]:
    """Four sets of the tiles of ``pool`` (a chow six times in ten where one fits) and a pair."""
    sets = []
    for _ in range(4):
        t = rng.choice(pool)
        if chows and t < 27 and t % 9 <= 6 and t + 2 in pool and rng.random() < 0.6:
            sets.append([t, t + 1, t + 2])
        else:
            sets.append([t] * 3)
    return sets, [rng.choice(pool)] * 2


def exchange(rng: random.Random, concealed: list, held: list, pool: list, most: int) -> None:
    """Up to ``most`` of the concealed tiles exchanged for tiles of ``pool`` (four copies at most)."""
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4)[: most + 3])):
        out = rng.randrange(len(concealed))
        new = rng.choice([t for t in pool if held[t] < 4])
        held[concealed[out]] -= 1
        held[new] += 1
        concealed[out] = new


def _profile(rng: random.Random, switches: str) -> tuple[str, dict]:
    """A profile and overrides. ``switches``: "none" (the profile's own rules, now and then
    another `qualifying_patterns`), "seven_pairs" or "ordinary" (section 14's switches)."""
    profile = rng.choice(("classic", "classic", "sankou", "lezi"))
    if switches == "ordinary":
        return profile, {"ordinaryHandWins": True}
    if switches == "seven_pairs":
        base = ALL_SHAPE + (["PATTERN_BIG_HANGING"] if profile != "lezi" else [])
        return profile, {"sevenPairs": True, "qualifyingPatterns": base + ["PATTERN_SEVEN_PAIRS"]}
    roll = rng.random()
    if roll < 0.06:
        return profile, {"qualifyingPatterns": [p for p in ALL_SHAPE if "FULL" not in p]}
    if roll < 0.12:
        return profile, {"qualifyingPatterns": ALL_SHAPE + ["PATTERN_CONCEALED"]}
    return profile, {}


def random_request(rng: random.Random, waiting: bool, switches: str = "none") -> dict:
    seat = rng.randrange(4)
    while True:
        sets, pair = _sets(rng, rng.choice(("mixed", "mixed", "pungs", "flush", "half_flush", "honours")))
        count = rng.choice((0, 0, 0, 1, 1, 2, 3, 4))
        melds = []
        for tiles in sets[:count]:
            if tiles[0] != tiles[1]:
                melds.append(
                    {"kind": "MELD_KIND_CHOW", "tiles": [TILE_NAMES[t] for t in tiles], "fromSeat": (seat + 3) % 4}
                )
                continue
            kind = rng.choice(
                ("MELD_KIND_PUNG", "MELD_KIND_PUNG", "MELD_KIND_EXPOSED_KONG", "MELD_KIND_CONCEALED_KONG")
            )
            meld = {"kind": kind, "tiles": [TILE_NAMES[tiles[0]]] * (3 if kind == "MELD_KIND_PUNG" else 4)}
            if kind != "MELD_KIND_CONCEALED_KONG":
                meld["fromSeat"] = (seat + 2) % 4
            melds.append(meld)
        held = [0] * 34
        for meld in melds:
            for name in meld["tiles"]:
                held[TILE_NAMES.index(name)] += 1
        concealed = [t for tiles in sets[count:] for t in tiles] + pair
        for t in concealed:
            held[t] += 1
        if max(held) > 4:
            continue
        exchange(rng, concealed, held, list(range(34)), most=4)
        if waiting:
            held[concealed.pop(rng.randrange(len(concealed)))] -= 1
        seen = []
        for _ in range(rng.choice((0, 0, 3, 8, 20))):
            t = rng.randrange(34)
            if held[t] < 4:
                held[t] += 1
                seen.append(t)
        profile, overrides = _profile(rng, switches)
        hand = {"concealed": [TILE_NAMES[t] for t in sorted(concealed)], "melds": melds}
        if rng.random() < 0.4:
            hand["flowers"] = rng.sample(FLOWERS, rng.randint(1, 4))
        request = {
            "requestId": f"h{rng.randrange(10**6)}",
            "profile": profile,
            "seat": seat,
            "dealerSeat": rng.randrange(4),
            "hand": hand,
            "seen": [TILE_NAMES[t] for t in sorted(seen)],
        }
        if overrides:
            request["overrides"] = overrides
        if rng.random() < 0.2:
            request["dice"] = {"first": rng.randint(1, 6), "second": rng.randint(1, 6)}
        return request

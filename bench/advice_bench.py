"""Benchmark: advice (RULES.md section 15) against `mahjong`'s regular shanten on the same holdings.

    make bench-advice      # or: python -m bench.advice_bench --reference-path .bench-deps

Seeded holdings of 13 tiles less three per meld, as many with melds as without, spread evenly
over shanten 0-3 (by rules_core's own count, under classic, sankou and lezi in turn), and the
same holdings with one more tile drawn. Per holding, in one process, each timed alone:

(a) rules_core's shanten with every path (`advice.holding_paths`) against `mahjong` 2.1.0's
    `Shanten.calculate_shanten_for_regular_hand` of the same concealed tiles (one path, no
    legality), both given their input ready-made;
(b) `advise` on the 14-tile holding (validation, every option with its useful tiles and live
    counts, waits with values when ready) against 20 times `mahjong`'s median of (a);
(c) the review of simulated records (`generators.record_simulator`): CPU time per discard reviewed.

With ``--profiles`` (for example ``qiaoma,qiaoma_lezi,qinghunpeng+seven_pairs``: a profile, and
after ``+`` any of its boolean fields set by an override), the holdings are chosen under those
profiles in turn (no dragon among the tiles where dragons are flowers), and `advise` is timed per
profile on the 13-tile and the 14-tile holdings: median and maximum of each.

rules_core keeps per-suit tables of what a target can keep, filled on first sight of a suit's
tiles: each figure is given on first sight (as in a fresh process: every table empty, the suits'
table file not mapped) and again on a second pass over the same holdings (the tables a service
has after its first calls). `mahjong` keeps nothing between calls: its first pass is its own.
`mahjong`'s top-level package would shadow the generated `mahjong.shanghai.v1`: rules_core
never imports that, so the reference path goes first on this process's path.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

from generators.record_simulator import simulate_records
from rules_core import BUILD, unmelded_suits
from rules_core.advice import advise, holding_paths
from rules_core.advice_values import AdviseRequest
from rules_core.builtin_profiles import BUILTIN_PROFILES
from rules_core.overrides import resolve_profile
from rules_core.profile import RuleProfile
from rules_core.requests import Hand
from rules_core.review import review_record
from rules_core.target_parts import clear_tables
from rules_core.tiles import ALL_TILES, FIRST_DRAGON, TILE_KINDS
from tests.rules_core.advice_holdings import SEAT, random_holding

PROFILES = ("classic", "sankou", "lezi")
# rules_core's tile index -> `mahjong`'s 34-index: the suits and winds agree; the dragons are
# red, green, white here and white (haku), green (hatsu), red (chun) there.
_TO_RIICHI = list(range(31)) + [33, 32, 31]


class Holding:
    __slots__ = ("counts", "hand", "profile", "riichi", "shanten")

    def __init__(self, hand: Hand, profile: str, shanten: int):
        self.hand = hand
        self.profile = profile
        self.shanten = shanten
        self.counts = [0] * TILE_KINDS
        for tile in hand.concealed:
            self.counts[tile] += 1
        self.riichi = [0] * TILE_KINDS
        for tile in hand.concealed:
            self.riichi[_TO_RIICHI[tile]] += 1


def profile_spec(spec: str) -> tuple[str, dict | None]:
    """``qinghunpeng+seven_pairs`` -> ("qinghunpeng", {"seven_pairs": True}); a name alone, no overrides."""
    name, *switches = spec.split("+")
    return name, ({switch: True for switch in switches} or None)


def profile_of(spec: str) -> RuleProfile:
    name, overrides = profile_spec(spec)
    return resolve_profile(name, overrides)[0] if overrides else BUILTIN_PROFILES[name]


def _tiles_allowed(profile: RuleProfile, hand: Hand) -> bool:
    """No dragon among the tiles where dragons are flowers."""
    if not profile.dragons_are_flowers:
        return True
    tiles = list(hand.concealed) + [t for meld in hand.melds for t in meld.tiles]
    return all(tile < FIRST_DRAGON for tile in tiles)


def make_holdings(count: int, seed: int, profiles: tuple[str, ...] = PROFILES) -> list[Holding]:
    """``count`` waiting holdings, one eighth for each shanten 0-3 with and without melds, under
    ``profiles`` in turn."""
    resolved = {spec: profile_of(spec) for spec in profiles}
    rng = random.Random(seed)
    quota = {(shanten, melded): count // 8 for shanten in range(4) for melded in (False, True)}
    for extra in range(count - 8 * (count // 8)):
        quota[(extra % 4, False)] += 1
    found: list[Holding] = []
    number = 0
    while len(found) < count:
        profile = profiles[number % len(profiles)]
        number += 1
        hand = random_holding(
            rng, waiting=True, exchanges=rng.choice((0, 1, 2, 3, 4)), melds=rng.choice((0, 1, 2, 3, 4))
        )
        if not _tiles_allowed(resolved[profile], hand):
            continue
        holding = Holding(hand, profile, 0)
        paths = holding_paths(resolved[profile], hand, holding.counts)
        if not paths:
            continue
        key = (paths[0].shanten, bool(hand.melds))
        if quota.get(key, 0):
            quota[key] -= 1
            holding.shanten = paths[0].shanten
            found.append(holding)
    return found


def with_a_draw(holding: Holding, rng: random.Random) -> Holding:
    """The same holding with one more tile, any that has a copy left (no dragon where they are flowers)."""
    held = holding.counts[:]
    for meld in holding.hand.melds:
        for tile in meld.tiles:
            held[tile] += 1
    kinds = FIRST_DRAGON if profile_of(holding.profile).dragons_are_flowers else TILE_KINDS
    tile = rng.choice([t for t in range(kinds) if held[t] < 4])
    concealed = tuple(sorted((*holding.hand.concealed, ALL_TILES[tile])))
    return Holding(holding.hand._replace(concealed=concealed), holding.profile, holding.shanten)


def _median_us(times: list[float]) -> float:
    return statistics.median(times) * 1e6


def time_paths(holdings: list[Holding], shanten) -> dict:
    """(a) Per holding: rules_core's every path, then `mahjong`'s regular shanten; rules_core's
    median also over the holdings without melds and over those with."""
    clock = time.perf_counter
    profiles = {spec: profile_of(spec) for spec in {h.profile for h in holdings}}
    ours: list[float] = []
    theirs: list[float] = []
    for holding in holdings:
        profile, hand, counts, riichi = profiles[holding.profile], holding.hand, holding.counts, holding.riichi
        start = clock()
        holding_paths(profile, hand, counts)
        middle = clock()
        shanten(riichi)
        ours.append(middle - start)
        theirs.append(clock() - middle)
    figures = {"rules_core_us": _median_us(ours), "mahjong_us": _median_us(theirs)}
    for group, melded in (("without_melds", False), ("with_melds", True)):
        chosen = [index for index, holding in enumerate(holdings) if bool(holding.hand.melds) == melded]
        if chosen:
            figures[f"rules_core_us_{group}"] = _median_us([ours[index] for index in chosen])
            figures[f"mahjong_us_{group}"] = _median_us([theirs[index] for index in chosen])
    return figures


def time_advice(holdings: list[Holding], shanten) -> dict:
    """(b) Per 14-tile holding: `advise`, then `mahjong`'s regular shanten of the same tiles."""
    clock = time.perf_counter
    ours: list[float] = []
    theirs: list[float] = []
    requests = [_request(h) for h in holdings]
    for holding, request in zip(holdings, requests, strict=True):
        start = clock()
        advise(request)
        middle = clock()
        shanten(holding.riichi)
        ours.append(middle - start)
        theirs.append(clock() - middle)
    return {"rules_core_us": _median_us(ours), "mahjong_us": _median_us(theirs)}


def _request(holding: Holding) -> AdviseRequest:
    name, overrides = profile_spec(holding.profile)
    return AdviseRequest(name, SEAT, holding.hand, overrides=overrides)


def time_by_profile(waiting: list[Holding], acting: list[Holding]) -> dict:
    """`advise` per profile, on the 13-tile and on the 14-tile holdings: median and maximum CPU time, in µs."""
    clock = time.process_time  # CPU time: other processes on the machine do not count
    found: dict[str, dict] = {}
    for size, holdings in (("13", waiting), ("14", acting)):
        times: dict[str, list[float]] = {}
        for holding in holdings:
            request = _request(holding)
            start = clock()
            advise(request)
            times.setdefault(holding.profile, []).append(clock() - start)
        for spec, spent in times.items():
            found.setdefault(spec, {})[size] = {"median_us": _median_us(spent), "max_us": max(spent) * 1e6}
    return found


def time_reviews(records) -> dict:
    """(c) CPU time of each record's review per discard reviewed."""
    clock = time.process_time
    per_discard: list[float] = []
    discards = 0
    for record in records:
        start = clock()
        review = review_record(record)
        spent = clock() - start
        if review.discards:
            per_discard.append(spent / len(review.discards))
            discards += len(review.discards)
    return {"records": len(per_discard), "discards": discards, "ms_per_discard": statistics.median(per_discard) * 1e3}


def run(count: int, records: int, seed: int, reference_path: str, profiles: tuple[str, ...] = PROFILES) -> dict:
    if reference_path:
        sys.path.insert(0, os.path.abspath(reference_path))
    from mahjong.shanten import Shanten  # the reference: after the path is set

    shanten = Shanten().calculate_shanten_for_regular_hand
    generated = time.perf_counter()
    holdings = make_holdings(count, seed, profiles)
    rng = random.Random(seed + 1)
    acting = [with_a_draw(h, rng) for h in holdings]
    simulated = simulate_records(records, seed)
    generated = time.perf_counter() - generated
    # The tables were filled while the holdings were chosen (by their shanten): empty them, and
    # drop the suits' table file's mapping, so that the first pass is a first sight.
    clear_tables()
    unmelded_suits.unmap()
    first = {
        "paths": time_paths(holdings, shanten),
        "advice": time_advice(acting, shanten),
        "review": time_reviews(simulated),
    }
    second = {
        "paths": time_paths(holdings, shanten),
        "advice": time_advice(acting, shanten),
        "review": time_reviews(simulated),
    }
    if profiles != PROFILES:
        second["by_profile"] = time_by_profile(holdings, acting)
    return {
        "build": BUILD,
        "profiles": list(profiles),
        "holdings": count,
        "with_melds": sum(bool(h.hand.melds) for h in holdings),
        "by_shanten": {n: sum(h.shanten == n for h in holdings) for n in range(4)},
        "records": records,
        "seed": seed,
        "generation_s": generated,
        "first_sight": first,
        "second_pass": second,
        "targets": {
            "paths_vs_mahjong": 1.0,
            "advice_vs_mahjong": 20.0,
            "review_ms_per_discard": 2.0,
        },
    }


def report(figures: dict) -> None:
    print(
        f"rules_core build: {figures['build']}; {figures['holdings']:,} holdings "
        f"({figures['with_melds']:,} with melds; by shanten 0-3: {list(figures['by_shanten'].values())}), "
        f"{figures['records']} simulated records"
    )
    for name in ("first_sight", "second_pass"):
        run_figures = figures[name]
        paths, advice, review = run_figures["paths"], run_figures["advice"], run_figures["review"]
        print(f"\n{name.replace('_', ' ')} (medians per holding):")
        print(
            f"  (a) 13-tile shanten, every path: {paths['rules_core_us']:.1f} us; mahjong regular shanten "
            f"{paths['mahjong_us']:.1f} us: {paths['rules_core_us'] / paths['mahjong_us']:.2f}x (target <= 1.0x)"
        )
        for group in ("without_melds", "with_melds"):
            if f"rules_core_us_{group}" in paths:
                ours, theirs = paths[f"rules_core_us_{group}"], paths[f"mahjong_us_{group}"]
                print(
                    f"      {group.replace('_', ' ')}: {ours:.1f} us; mahjong {theirs:.1f} us: {ours / theirs:.2f}x "
                    f"({ours / paths['mahjong_us']:.2f}x its median over all)"
                )
        print(
            f"  (b) advise, 14 tiles: {advice['rules_core_us']:.1f} us = "
            f"{advice['rules_core_us'] / paths['mahjong_us']:.1f}x mahjong's 13-tile median "
            f"({advice['rules_core_us'] / advice['mahjong_us']:.1f}x its 14-tile median {advice['mahjong_us']:.1f} us; "
            "target <= 20x)"
        )
        print(
            f"  (c) review: {review['ms_per_discard']:.3f} ms CPU per discard reviewed "
            f"({review['records']} records, {review['discards']:,} discards; target <= 2 ms)"
        )
    by_profile = figures["second_pass"].get("by_profile", {})
    if by_profile:
        print("\nadvise per profile, second pass (median / max):")
    for spec, sizes in by_profile.items():
        print(
            f"  {spec:28} 13 tiles {sizes['13']['median_us']:8.1f} / {sizes['13']['max_us']:8.1f} us; "
            f"14 tiles {sizes['14']['median_us']:8.1f} / {sizes['14']['max_us']:8.1f} us"
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000, help="holdings (13 tiles, and the same with a draw)")
    parser.add_argument("--records", type=int, default=300, help="simulated records reviewed")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--reference-path", default=".bench-deps", help="where `mahjong` is installed")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--profiles",
        default=",".join(PROFILES),
        help="profiles to choose holdings under, comma-separated; NAME+FIELD sets a boolean field by an override "
        "(e.g. qiaoma,qiaoma_lezi,qinghunpeng,qinghunpeng+seven_pairs); other than the default, also times "
        "advise per profile",
    )
    args = parser.parse_args(argv)
    profiles = tuple(spec for spec in args.profiles.split(",") if spec)
    for spec in profiles:
        try:
            profile_of(spec)
        except (KeyError, ValueError) as error:
            parser.error(f"--profiles: {spec}: {error}")
    figures = run(args.count, args.records, args.seed, args.reference_path, profiles)
    report(figures)
    if args.json:
        os.makedirs(os.path.dirname(args.json) or ".", exist_ok=True)
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())

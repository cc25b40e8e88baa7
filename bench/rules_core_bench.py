"""Benchmark: rules_core settlements per second on one core, against MahjongRepository's `mahjong`.

    make bench            # or: python -m bench.rules_core_bench --reference-path .bench-deps

Settles a fixed, seeded mix of generated requests (every profile and outcome,
legal, illegal and malformed) in this process, timing each call, then times
`mahjong`'s HandCalculator.estimate_hand_value on the legal 14-tile hands of
the same mix in a subprocess (its top-level package is also named `mahjong`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from rules_core import InvalidRequest, Outcome, Pattern, settle
from rules_core.profile import FlowerSource
from rules_core.random_hands import generate_requests
from rules_core.requests import replace
from rules_core.tiles import TILE_NOTATION

REFERENCE = r"""
import json, sys, time
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.tile import TilesConverter
hands = json.load(sys.stdin)
calculator = HandCalculator()
converted = []
for man, pin, sou, honors, win in hands:
    tiles = TilesConverter.string_to_136_array(man=man, pin=pin, sou=sou, honors=honors)
    win_tile = TilesConverter.string_to_136_array(**win)[0]
    converted.append((tiles, win_tile))
times = []
start = time.perf_counter()
for tiles, win_tile in converted:
    t0 = time.perf_counter()
    calculator.estimate_hand_value(tiles, win_tile)
    times.append(time.perf_counter() - t0)
print(json.dumps({"seconds": time.perf_counter() - start, "times": times}))
"""


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * fraction))]


def run_rules_core(requests) -> dict:
    times = []
    clock = time.perf_counter
    start = clock()
    for request in requests:
        t0 = clock()
        try:
            settle(request)
        except InvalidRequest:
            pass
        times.append(clock() - t0)
    seconds = clock() - start
    times.sort()
    return {
        "count": len(requests),
        "seconds": seconds,
        "per_second": len(requests) / seconds,
        "median_us": statistics.median(times) * 1e6,
        "p99_us": percentile(times, 0.99) * 1e6,
    }


# Overrides as a request carries them (each request its own dict, as the converters make):
# one that keeps the built-in profile's shortcut (the all-pungs reading provably counts), and
# the sankou repro of issue 14, under which hands that split two ways are valued both ways.
OVERRIDES = {
    "shortcut kept": lambda: {"ordinary_base": 2, "flower_values": [(FlowerSource.WIND_PUNG, 2)]},
    "readings valued": lambda: {"lazi_value": 40, "fixed_values": [(Pattern.HALF_FLUSH_PUNGS, 30)]},
}


def run_overrides(requests, rounds: int = 5) -> dict:
    """CPU time of the same requests without and with overrides, the best of interleaved rounds
    (so that the host's load falls alike on each), as ratios to the plain requests."""
    variants = {"none": list(requests)}
    for name, make in OVERRIDES.items():
        variants[name] = [replace(r, overrides=make()) for r in requests]
    best = dict.fromkeys(variants, float("inf"))
    clock = time.process_time
    for _ in range(rounds):
        for name, batch in variants.items():
            start = clock()
            for request in batch:
                try:
                    settle(request)
                except InvalidRequest:
                    pass
            best[name] = min(best[name], clock() - start)
    return {
        "count": len(requests),
        "per_second": {name: len(requests) / seconds for name, seconds in best.items()},
        "ratio": {name: seconds / best["none"] for name, seconds in best.items() if name != "none"},
    }


def run_shape_tables(requests) -> dict:
    """The shape search with the per-suit table against the same search recomputed each time."""
    from rules_core import shape

    hands = []
    for request in requests:
        for winner in request.winners:
            if None in winner.hand.concealed or len(winner.hand.concealed) % 3 != 2:
                continue
            counts = [0] * 34
            for tile in winner.hand.concealed:
                counts[tile] += 1
            hands.append(counts)
    table = shape._SUIT_TABLE

    class NoTable(dict):
        """A table that never remembers: every suit is searched again."""

        def get(self, key, default=None):
            return None

    def timed(suit_table) -> float:
        shape._SUIT_TABLE = suit_table
        start = time.perf_counter()
        for counts in hands:
            shape.shape_of(counts)
        return time.perf_counter() - start

    try:
        timed(table)  # fill the table with every suit pattern of the mix
        with_table = min(timed(table) for _ in range(3))
        without_table = min(timed(NoTable()) for _ in range(3))
    finally:
        shape._SUIT_TABLE = table
    return {
        "hands": len(hands),
        "table_entries": len(table),
        "with_table_per_second": len(hands) / with_table,
        "without_table_per_second": len(hands) / without_table,
    }


def reference_hands(requests, limit: int) -> list:
    """Closed 14-tile hands (no melds) from the mix, in `mahjong`'s string notation."""
    hands = []
    for request in requests:
        for winner in request.winners:
            hand = winner.hand
            if request.outcome == Outcome.EIGHT_FLOWERS or hand.melds or len(hand.concealed) != 14:
                continue
            suits = {"m": "", "p": "", "s": "", "z": ""}
            for tile in sorted(hand.concealed):
                suits["z" if tile >= 27 else TILE_NOTATION[tile][1]] += str(tile - 26 if tile >= 27 else tile % 9 + 1)
            win = TILE_NOTATION[hand.winning_tile]
            win_arg = (
                {"honors": str(hand.winning_tile - 26)}
                if hand.winning_tile >= 27
                else {{"m": "man", "p": "pin", "s": "sou"}[win[1]]: win[0]}
            )
            if max(hand.concealed.count(t) for t in hand.concealed) <= 4:
                hands.append((suits["m"], suits["p"], suits["s"], suits["z"], win_arg))
            if len(hands) >= limit:
                return hands
    return hands


def run_reference(hands, reference_path: str) -> dict | None:
    env = dict(os.environ, PYTHONPATH=reference_path)
    process = subprocess.run(
        [sys.executable, "-c", REFERENCE], input=json.dumps(hands), capture_output=True, text=True, env=env
    )
    if process.returncode:
        print(process.stderr, file=sys.stderr)
        return None
    data = json.loads(process.stdout)
    times = sorted(data["times"])
    return {
        "count": len(times),
        "seconds": data["seconds"],
        "per_second": len(times) / data["seconds"],
        "median_us": statistics.median(times) * 1e6,
        "p99_us": percentile(times, 0.99) * 1e6,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--reference-count", type=int, default=5_000)
    parser.add_argument("--overrides-count", type=int, default=20_000, help="requests timed with overrides")
    parser.add_argument("--reference-path", default=".bench-deps", help="where `mahjong` is installed")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    requests = generate_requests(args.count, args.seed)
    ours = run_rules_core(requests)
    shapes = run_shape_tables(requests)
    overrides = run_overrides(requests[: args.overrides_count])
    reference = run_reference(reference_hands(requests, args.reference_count), args.reference_path)
    figures = {"rules_core": ours, "shape_tables": shapes, "overrides": overrides, "mahjong": reference}
    if reference:
        figures["ratio"] = ours["per_second"] / reference["per_second"]
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"rules_core  {ours['count']:>7} requests  {ours['per_second']:>10,.0f} settlements/s  "
        f"median {ours['median_us']:.1f} us  p99 {ours['p99_us']:.1f} us"
    )
    print(
        f"shape search {shapes['hands']:>6} hands     with the per-suit table {shapes['with_table_per_second']:,.0f}/s, "
        f"recomputed {shapes['without_table_per_second']:,.0f}/s "
        f"({shapes['with_table_per_second'] / shapes['without_table_per_second']:.1f}x; "
        f"{shapes['table_entries']} suit patterns)"
    )
    for name, ratio in overrides["ratio"].items():
        print(
            f"overrides   {overrides['count']:>7} requests  {overrides['per_second'][name]:>10,.0f} settlements/s  "
            f"{ratio:.2f}x the CPU time without ({name}; best of interleaved rounds)"
        )
    if reference:
        print(
            f"mahjong     {reference['count']:>7} hands     {reference['per_second']:>10,.0f} hands/s        "
            f"median {reference['median_us']:.1f} us  p99 {reference['p99_us']:.1f} us"
        )
        print(f"ratio       {figures['ratio']:.1f}x the throughput of mahjong's estimate_hand_value")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: rules_core on one core, against `mahjong` and PyMahjongGB on the same hands.

    make bench-rules      # or: python -m bench.rules_core_bench --reference-path .bench-deps

Settles a fixed, seeded mix of generated requests (every profile and outcome, legal,
illegal and malformed) in this process, timing each call: the full-mix figure. Then the
fair comparison (`bench.fair_hands`, in a child process: `mahjong`'s top-level package
would shadow the generated `mahjong.shanghai.v1`): the complete hands of the same mix,
converted to each library's input, per category, in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from generators.random_hands import generate_requests
from rules_core import BUILD, InvalidRequest, Pattern, settle
from rules_core.profile import FlowerSource
from rules_core.requests import replace


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


def run_overrides(requests, rounds: int = 7) -> dict:
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


FAMILY_PROFILES = ("qiaoma", "qiaoma_lezi", "qinghunpeng")


def run_families(requests, rounds: int = 7) -> dict:
    """The same requests settled under `classic` and under each profile of RULES.md section 14
    (every seat knocked, so that `qiaoma`'s wins are judged in full): the best CPU time of
    interleaved rounds, as ratios to `classic`'s. Requests a profile refuses (a dragon among
    the tiles under dragons_are_flowers) count as they cost."""
    variants = {
        name: [replace(r, profile=name, declared_seats=(0, 1, 2, 3)) for r in requests]
        for name in ("classic", *FAMILY_PROFILES)
    }
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
        "ratio": {name: best[name] / best["classic"] for name in FAMILY_PROFILES},
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
    clock = time.perf_counter

    def with_table() -> float:
        start = clock()
        for counts in hands:
            shape.shape_of(counts)
        return clock() - start

    def recomputed() -> float:  # the table emptied before each hand: every suit searched again
        clear = table.clear
        start = clock()
        for counts in hands:
            clear()
            shape.shape_of(counts)
        return clock() - start

    with_table()  # fill the table with every suit pattern of the mix
    table_entries = len(table)
    best_with = min(with_table() for _ in range(3))
    best_without = min(recomputed() for _ in range(3))
    with_table()  # filled again for what follows
    return {
        "hands": len(hands),
        "table_entries": table_entries,
        "with_table_per_second": len(hands) / best_with,
        "without_table_per_second": len(hands) / best_without,
    }


def run_fair(reference_path: str, count: int, seed: int, rounds: int, pure: bool = False) -> dict | None:
    """The same complete hands through rules_core, `mahjong` and PyMahjongGB (`bench.fair_hands`),
    in a child process with the reference libraries first on its path. With ``pure``, rules_core's
    pure-Python build against PyMahjongGB alone."""
    path = os.pathsep.join([reference_path, os.getcwd()])
    env = dict(os.environ, PYTHONPATH=path)
    env.pop("SHMJ_PURE_PYTHON", None)
    command = [sys.executable, "-m", "bench.fair_hands", "--count", str(count), "--seed", str(seed)]
    if pure:
        env["SHMJ_PURE_PYTHON"] = "1"
        command += ["--references", "PyMahjongGB"]
    process = subprocess.run([*command, "--rounds", str(rounds)], capture_output=True, text=True, env=env)
    if process.returncode:
        print(process.stderr, file=sys.stderr)
        return None
    return json.loads(process.stdout)


def print_fair(fair: dict) -> None:
    names = list(fair["categories"]["all complete hands"]["us_per_hand"])
    print(
        f"\nThe same {fair['hands']:,} complete hands in each library's own input (CPU time per hand, "
        f"best of {fair['rounds']} interleaved rounds):"
    )
    header = f"{'category':<22}{'hands':>6}" + "".join(f"{name + ' us':>16}" for name in names)
    if "mahjong" in names:
        header += f"{'vs mahjong':>12}"
    if "PyMahjongGB" in names:
        header += f"{'vs GB':>8}"
    print(header)
    for category, figures in fair["categories"].items():
        us = figures["us_per_hand"]
        line = f"{category:<22}{figures['hands']:>6}" + "".join(f"{us[name]:>16.1f}" for name in names)
        if "mahjong" in us:
            line += f"{us['mahjong'] / us['rules_core']:>11.1f}x"  # how many times faster than mahjong
        if "PyMahjongGB" in us:
            line += f"{us['rules_core'] / us['PyMahjongGB']:>7.1f}x"  # how many times slower than GB
        print(line)
    print("vs mahjong: mahjong's time / rules_core's (higher is better, target >= 4x);")
    print("vs GB: rules_core's time / PyMahjongGB's (lower is better, target <= 3x)")
    for name, why in fair["missing"].items():
        print(f"{name} not measured: {why}")


def print_compiled_gain(fair: dict, pure: dict) -> None:
    """The compiled build against the pure-Python one, each as a multiple of PyMahjongGB's time in
    its own run (so that a change in the host's load between the two runs cancels out)."""
    print("\nrules_core compiled (mypyc) against its pure-Python source, the same hands, a second child process:")
    print(f"{'category':<22}{'pure us':>10}{'compiled us':>13}{'pure / GB':>11}{'compiled / GB':>15}{'gain':>7}")
    for category, figures in fair["categories"].items():
        compiled_us = figures["us_per_hand"]
        pure_us = pure["categories"][category]["us_per_hand"]
        if "PyMahjongGB" not in compiled_us or "PyMahjongGB" not in pure_us:
            continue
        compiled_x = compiled_us["rules_core"] / compiled_us["PyMahjongGB"]
        pure_x = pure_us["rules_core"] / pure_us["PyMahjongGB"]
        print(
            f"{category:<22}{pure_us['rules_core']:>10.1f}{compiled_us['rules_core']:>13.1f}"
            f"{pure_x:>10.1f}x{compiled_x:>14.1f}x{pure_x / compiled_x:>6.2f}x"
        )
    print("gain: (pure / GB) / (compiled / GB); the compiled build is kept only if it pays >= 1.5x")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--fair-count", type=int, default=6_000, help="complete hands in the fair comparison")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the fair comparison")
    parser.add_argument("--overrides-count", type=int, default=20_000, help="requests timed with overrides")
    parser.add_argument(
        "--families-count", type=int, default=20_000, help="requests timed under qiaoma, qiaoma_lezi, qinghunpeng"
    )
    parser.add_argument("--reference-path", default=".bench-deps", help="where `mahjong` is installed")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    requests = generate_requests(args.count, args.seed)
    ours = run_rules_core(requests)
    shapes = run_shape_tables(requests)
    overrides = run_overrides(requests[: args.overrides_count])
    families = run_families(requests[: args.families_count])
    fair = run_fair(args.reference_path, args.fair_count, args.seed, args.rounds)
    pure = None
    if fair and fair["build"] == "compiled":
        pure = run_fair(args.reference_path, args.fair_count, args.seed, args.rounds, pure=True)
    figures = {
        "build": BUILD,
        "rules_core": ours,
        "shape_tables": shapes,
        "overrides": overrides,
        "families": families,
        "fair": fair,
        "fair_pure": pure,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"rules_core build: {BUILD} (SHMJ_PURE_PYTHON=1 forces the pure-Python source)")
    print(
        f"full mix    {ours['count']:>7} requests  {ours['per_second']:>10,.0f} settlements/s  "
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
    for name, ratio in families["ratio"].items():
        print(
            f"{name:<11} {families['count']:>7} requests  {families['per_second'][name]:>10,.0f} settlements/s  "
            f"{ratio:.2f}x the CPU time of classic (the same requests; best of interleaved rounds)"
        )
    if fair:
        print_fair(fair)
    if pure:
        print_compiled_gain(fair, pure)
    return 0


if __name__ == "__main__":
    sys.exit(main())

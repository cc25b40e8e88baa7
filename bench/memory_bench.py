"""Memory: a worker's resident set while it settles millions of distinct hands, and its caches.

    make bench-memory     # or: python -m bench.memory_bench --count 3000000

One process does, per hand, what a server worker does per SettleBatch entry: parse the
request's bytes, convert it (`convert.settle_request`), settle it, and write the answer's
entry (`convert.batch_entry`), which fills every memo on that path. The hands are generated
one at a time from a seed (every profile and outcome, about 5% malformed), so none is held
beyond its turn and each has its own request id. After each `--sample-every` hands the
process collects garbage and reads its resident set size (VmRSS) and the size of every cache.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time

from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
import rules_core
from convert import requests as convert_requests
from convert import responses as convert_responses
from convert import wire
from convert.messages import settle_request_message
from generators.random_hands import HandGenerator
from rules_core import InvalidRequest, legality, multipliers, overrides, patterns, settle, shape, valuation, value_items
from server.errors import invalid_request


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def cache_sizes() -> dict[str, tuple[int, int | None]]:
    """Every cache on a worker's settling path: (entries now, bound)."""
    sizes: dict[str, tuple[int, int | None]] = {
        "shape._SUIT_TABLE": (len(shape._SUIT_TABLE), shape.MAX_SUIT_PATTERNS),
        "shape._SPLITS_TABLE": (len(shape._SPLITS_TABLE), shape.MAX_SUIT_PATTERNS),
        "patterns.PATTERNS_OF_MASK": (len(patterns.PATTERNS_OF_MASK), 1 << (len(patterns.Pattern) + 1)),
        "overrides._MERGED": (len(overrides._MERGED), overrides.MAX_MERGED_PROFILES),
        "multipliers._MULTIPLIERS": (len(multipliers._MULTIPLIERS), multipliers.MAX_MULTIPLIERS),
        "convert.requests._MELDS": (len(convert_requests._MELDS), convert_requests._MELDS.limit),
        "convert.responses._ITEM_TEMPLATES": (
            len(convert_responses._ITEM_TEMPLATES),
            convert_responses._ITEM_TEMPLATES.limit,
        ),
        "convert.wire.HEADS": (len(wire.HEADS), wire.HEADS.limit),
        "convert.wire.WINNERS": (len(wire.WINNERS), wire.WINNERS.limit),
        "convert.wire.TAILS": (len(wire.TAILS), wire.TAILS.limit),
    }
    for module, name in (
        (valuation, "fan_parts"),
        (valuation, "fixed_value"),
        (value_items, "fan_items"),
        (value_items, "_source_item"),
        (value_items, "no_flowers_item"),
        (value_items, "base_item"),
        (value_items, "base_fan_item"),
        (value_items, "shape_fan_item"),
        (value_items, "_wide_cap_item"),
        (value_items, "_change_names"),
        (legality, "pungs_reading_always_best"),
    ):
        info = getattr(module, name).cache_info()
        sizes[f"{module.__name__.removeprefix('rules_core.')}.{name}"] = (info.currsize, info.maxsize)
    return sizes


def run(count: int, seed: int, sample_every: int, path: str = "worker") -> dict:
    generator = HandGenerator(seed)
    samples = []
    gc.collect()
    start = time.perf_counter()
    samples.append({"hands": 0, "rss_mb": rss_mb(), "seconds": 0.0})
    worker = path == "worker"
    for index in range(1, count + 1):
        request = generator.request(index)
        if worker:
            message = pb.SettleRequest.FromString(settle_request_message(request).SerializeToString())
            request = convert.settle_request(message)
        try:
            outcome = settle(request)
        except InvalidRequest as error:
            outcome = invalid_request(error)
        if worker:
            convert.batch_entry(message.request_id, outcome)
        if index % sample_every == 0:
            gc.collect()
            samples.append(
                {
                    "hands": index,
                    "rss_mb": rss_mb(),
                    "seconds": time.perf_counter() - start,
                    "caches": cache_sizes(),
                }
            )
            print(f"{index:>10,} hands  RSS {samples[-1]['rss_mb']:7.1f} MB", file=sys.stderr, flush=True)
    return {"build": rules_core.BUILD, "path": path, "count": count, "seed": seed, "samples": samples}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--sample-every", type=int, default=250_000)
    parser.add_argument(
        "--path",
        choices=("worker", "core"),
        default="worker",
        help="worker: bytes in, convert, settle, answer bytes out (about 110 us of CPU a hand); "
        "core: rules_core's settle alone (about 55 us with generating the hand)",
    )
    parser.add_argument("--report", help="write the samples as JSON to this file")
    args = parser.parse_args(argv)
    figures = run(args.count, args.seed, args.sample_every, args.path)
    if args.report:
        with open(args.report, "w") as out:
            json.dump(figures, out, indent=2)
    samples = figures["samples"]
    by_hands = {s["hands"]: s for s in samples}
    print(f"build {figures['build']}, {args.path} path, {args.count:,} distinct hands, seed {args.seed}")
    for sample in samples:
        print(f"{sample['hands']:>10,} hands  RSS {sample['rss_mb']:7.1f} MB  after {sample['seconds']:7.1f} s")
    if 1_000_000 in by_hands and args.count in by_hands and args.count > 1_000_000:
        growth = by_hands[args.count]["rss_mb"] / by_hands[1_000_000]["rss_mb"] - 1
        print(f"RSS from 1M to {args.count / 1e6:g}M hands: {growth:+.1%} (target within 5%)")
    print("caches at the end (entries / bound):")
    for name, (size, bound) in samples[-1].get("caches", {}).items():
        print(f"  {name:<38} {size:>7,} / {bound if bound is not None else 'unbounded'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

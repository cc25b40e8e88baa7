"""Benchmark: an answer's JSON line, written in C against the answer dict and msgspec (issue 23).

    python -m bench.answer_writer [--count N] [--passes P]

On the benchmark's generated hands (``bench.batch_bench``'s, seed 11), settled once: each pass
writes every answer's line with ``batch/native/json_answer.c`` (``settle_line``, and
``counted_line``, which adds to the counts too) and then with its Python twin,
``output_line(settle_response_dict(result))``, one at a time as a worker does, and the counts
in Python (``count_answer``) alone beside them; the passes interleave, and the best pass of each is kept
(CPU µs an answer, this process's CPU time). The two writers' lines are checked equal first.
"""

from __future__ import annotations

import argparse
import os
import time

import rules_core as rc
from batch import native
from batch.records import count_answer, new_counts, output_line
from convert.json_write import settle_response_dict
from convert.profile_digest import BUILTIN_REGISTRY
from generators.random_hands import generate_requests
from rules_core.results import SettleResult


def settled(count: int) -> list[SettleResult]:
    out = []
    for request in generate_requests(count, seed=11):
        try:
            out.append(rc.settle(request, BUILTIN_REGISTRY))
        except rc.InvalidRequest:
            pass
    return out


def cpu_us_each(write, results: list) -> float:
    start = time.process_time()
    for result in results:
        write(result)
    return (time.process_time() - start) / len(results) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20_000, help="hands generated (default 20,000)")
    parser.add_argument("--passes", type=int, default=7, help="interleaved passes of each writer (default 7)")
    args = parser.parse_args()
    module = native.load("json_answer")
    if module is None:
        parser.exit(1, "batch/native/json_answer.c is not built, or SHMJ_PURE_PYTHON=1: run make install\n")
    results = settled(args.count)
    native_line = module.settle_line

    def python_line(result):
        return output_line(settle_response_dict(result))

    declined = sum(native_line(r) is None for r in results)
    if any(native_line(r) not in (None, python_line(r)) for r in results):
        parser.exit(1, "the writers differ: run tests/batch/test_native_json_answer.py\n")
    counts, counted = new_counts(), new_counts()
    counted_line = module.counted_line
    best: dict[str, list[float]] = {"native": [], "counted": [], "python": [], "counts": []}
    for _ in range(args.passes):
        best["native"].append(cpu_us_each(native_line, results))
        best["counted"].append(cpu_us_each(lambda r: counted_line(r, counted), results))
        best["python"].append(cpu_us_each(python_line, results))
        best["counts"].append(cpu_us_each(lambda r: count_answer(counts, r), results))
    load = os.getloadavg()[0]
    print(f"{len(results):,} answers, {declined} declined by the native writer, load {load:.1f}")
    for name, label in (
        ("native", "json_answer.settle_line"),
        ("counted", "json_answer.counted_line"),
        ("python", "settle_response_dict + msgspec"),
        ("counts", "count_answer"),
    ):
        passes = best[name]
        print(f"{label:32} best {min(passes):.3f} CPU us an answer (passes {min(passes):.3f}-{max(passes):.3f})")
    print(f"the native writer: {min(best['python']) / min(best['native']):.1f}x faster by the best passes")
    saved = min(best["native"]) + min(best["counts"]) - min(best["counted"])
    print(f"the counts in C: {saved:.3f} CPU us an answer less than settle_line and count_answer")


if __name__ == "__main__":
    main()

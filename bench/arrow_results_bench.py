"""Benchmark: a batch's result columns written in C against Arrow's conversion of the results.

    .venv/bin/python -m bench.arrow_results_bench [--count N] [--passes P] [--core-rounds R]

On the batch benchmark's hands (``bench.batch_bench.write_inputs``: generated, 5% malformed)
settled as the Arrow core settles them, in batches of ``CHUNK_ROWS``: ``answers_batch``'s two
paths, ``native_answers_batch`` (``batch/native/arrow_results.c``) and ``python_answers_batch``,
each batch timed in CPU time by both in turn (the order swapped every other pass), best of
``--passes`` each, in one process, so that the load of a shared machine falls on both alike; the
cycle collector paused, as the core runs. Then the native path's parts: the C alone, the
``from_buffers`` assembly of its buffers, and, for what the other form of the writer would pay
instead of that assembly, the import of a batch of the same layout through the Arrow C Data
Interface (``RecordBatch._import_from_c_capsule`` of a batch's own export).

Last, ``--core-rounds`` rounds of the whole Arrow core (``bench.batch_bench.arrow_core``: the
Parquet read, settle, the result batch) with the native writer and without it (the Python path,
everything else alike), and the engine's own settle (``engine_settle``), in turn: each one's
cost over the engine, best of the rounds, as ``bench.batch_bench --engine-only`` figures it.
"""

from __future__ import annotations

import argparse
import gc
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from batch import arrow_results
from batch.arrow import settle_answers
from batch.arrow_buffers import assembled
from batch.arrow_results import NATIVE, WRITTEN_PLANS, native_answers_batch, python_answers_batch
from batch.parts import CHUNK_ROWS
from bench.arrow_floor import least
from bench.batch_bench import arrow_core, engine_settle, write_inputs


def interleaved(variants: dict[str, Callable[[], object]], passes: int) -> dict[str, float]:
    """Each variant's best CPU seconds over ``passes``, the variants taking turns."""
    best = dict.fromkeys(variants, float("inf"))
    for index in range(passes):
        for name in list(variants) if index % 2 == 0 else list(reversed(variants)):
            best[name] = min(best[name], least(variants[name], 1))
    return best


def parts(answers: list, passes: int) -> dict[str, float]:
    """The native path's parts on one batch, and the C Data Interface's import of its result."""
    size = len(answers)
    buffers = NATIVE.result_buffers(answers)

    def assemble():
        each = iter(buffers)
        return [assembled(how, size, each) for _, how in WRITTEN_PLANS]

    batch = native_answers_batch(answers)
    return {
        "the C alone (result_buffers)": least(lambda: NATIVE.result_buffers(answers), passes),
        "its buffers put together, enums named": least(assemble, passes),
        "C Data Interface import of such a batch": least(
            lambda: pa.RecordBatch._import_from_c_capsule(*batch.__arrow_c_array__()), passes
        ),
    }


def core_ratios(jsonl: Path, parquet: Path, rounds: int) -> dict[str, float]:
    """The Arrow core's cost over the engine with the native writer and without, best of ``rounds``."""
    best = {"engine": 0.0, "native writer": 0.0, "python writer": 0.0}

    def core(module):
        arrow_results.NATIVE = module
        try:
            return arrow_core(parquet)
        finally:
            arrow_results.NATIVE = NATIVE

    runs = {
        "engine": lambda: engine_settle(jsonl),
        "native writer": lambda: core(NATIVE),
        "python writer": lambda: core(None),
    }
    for index in range(rounds):
        for name in list(runs) if index % 2 == 0 else list(reversed(runs)):
            best[name] = max(best[name], runs[name]())
        print(
            f"round {index + 1}: "
            + ", ".join(f"{k} {v:,.0f}" for k, v in best.items())
            + " records/CPU-s (best so far)"
        )
    return {name: best["engine"] / best[name] for name in ("native writer", "python writer")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--passes", type=int, default=9)
    parser.add_argument("--core-rounds", type=int, default=4)
    args = parser.parse_args()
    if NATIVE is None:
        raise SystemExit("batch.native.arrow_results is not built: make install")
    with tempfile.TemporaryDirectory(prefix="shmj-arrow-results-") as work:
        jsonl, parquet = write_inputs(Path(work), args.count)
        batches = [settle_answers(b) for b in pq.ParquetFile(parquet).iter_batches(batch_size=CHUNK_ROWS)]
        writers(batches, args.passes)
        if args.core_rounds:
            for name, ratio in core_ratios(jsonl, parquet, args.core_rounds).items():
                print(f"Arrow core, {name}: {ratio:.2f}x the engine")


def writers(batches: list[list], passes: int) -> None:
    """``answers_batch``'s two paths and the native one's parts, each batch's best of ``passes``."""
    rows = sum(map(len, batches))
    declined = sum(native_answers_batch(answers) is None for answers in batches)
    gc.disable()
    totals = {"native": 0.0, "python": 0.0}
    shares = dict.fromkeys(parts(batches[0], 1), 0.0)
    for answers in batches:
        best = interleaved(
            {"native": partial(native_answers_batch, answers), "python": partial(python_answers_batch, answers)},
            passes,
        )
        for name, seconds in best.items():
            totals[name] += seconds
        for name, seconds in parts(answers, passes).items():
            shares[name] += seconds
    gc.enable()
    native_us, python_us = (totals[k] / rows * 1e6 for k in ("native", "python"))
    print(f"{rows:,} rows in {len(batches)} batches of up to {CHUNK_ROWS:,} ({declined} batches declined)")
    print(f"native_answers_batch  {native_us:.2f} CPU µs a row")
    print(f"python_answers_batch  {python_us:.2f} CPU µs a row ({python_us / native_us:.2f}x)")
    for name, seconds in shares.items():
        print(f"  {name:42} {seconds / rows * 1e6:.3f} CPU µs a row")


if __name__ == "__main__":
    main()

"""Benchmark: the floor of the Arrow core in Python, part by part, against rules_core's settle.

    .venv/bin/python -m bench.arrow_floor [--count N] [--rounds R] [--batch-rows B]

On `bench.batch_bench`'s hands (nested Parquet, 5% malformed), in one process, each part timed
on every batch in every round, the parts interleaved (their order reversed every other round),
the least CPU time of each batch kept: what a part costs when the shared machine leaves it
alone. Printed in CPU µs a row:

- the engine (`rules_core.settle`, each result dropped at once, as `make bench-batch` times it)
  and settle with its results kept for the batch, as the Arrow core must keep them;
- the core's parts: reading the columns into core values (`batch.arrow_columns`), the result
  columns, the whole
  `settle_arrow_batch`, the Parquet read, a batch's fixed cost (one of a single row);
- the same core values built by C alone, from a pickled copy whose named tuples are made by
  `tuple.__new__` (no Python code), and the same tuples as plain tuples: what building a
  request's values costs at a minimum, whatever reads them;
- Arrow's own conversion of the results (`pa.array` under the core's types).

The floor is what a row would cost if all else were free: the Parquet read, settle keeping its
results, the core values built by C and Arrow's conversion of the results (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import argparse
import copyreg
import gc
import pickle
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

import rules_core as rc
from batch.arrow import settle_answers, settle_arrow_batch
from batch.arrow_columns import read_requests
from batch.arrow_results import CORE_TYPE, answers_batch
from bench.batch_bench import write_inputs
from convert.profile_digest import BUILTIN_REGISTRY
from rules_core import requests as core_requests
from rules_core.results import SettleResult

# An error row as Arrow converts it: every answer field at its default.
_ERROR_ROW = SettleResult("", "", 0, (), (), (), None, (), 0, "")  # type: ignore[arg-type]


def _named_tuple_classes() -> list[type]:
    return [
        kind
        for kind in vars(core_requests).values()
        if isinstance(kind, type) and issubclass(kind, tuple) and hasattr(kind, "_fields")
    ]


def _plain(value):
    """A core value with each named tuple as a plain tuple of its fields."""
    return tuple(map(_plain, value)) if isinstance(value, tuple) else value


def pickled_by_c(requests: list) -> bytes:
    """The requests pickled so that unpickling makes each named tuple by ``tuple.__new__``."""
    table = copyreg.dispatch_table.copy()
    for kind in _named_tuple_classes():
        table[kind] = lambda value, kind=kind: (tuple.__new__, (kind, tuple(value)))
    with tempfile.TemporaryFile() as file:
        pickler = pickle.Pickler(file, protocol=5)
        pickler.dispatch_table = table
        pickler.dump(requests)
        file.seek(0)
        return file.read()


def _settled(requests: list, keep: bool) -> list:
    kept: list = []
    for request in requests:
        try:
            result = rc.settle(request, BUILTIN_REGISTRY)
        except rc.InvalidRequest:
            result = None
        if keep:
            kept.append(result)
    return kept


def parts(batches: list[pa.RecordBatch]) -> dict:
    """What each part does to batch ``i``."""
    requests = [read_requests(batch) for batch in batches]
    answers = [settle_answers(batch) for batch in batches]
    by_c = [pickled_by_c(r) for r in requests]
    plain = [pickle.dumps([_plain(request) for request in r], 5) for r in requests]
    assert pickle.loads(by_c[0]) == requests[0]
    rows = [[a if isinstance(a, SettleResult) else _ERROR_ROW for a in batch] for batch in answers]
    return {
        "engine: settle, each result dropped": lambda i: _settled(requests[i], keep=False),
        "settle, results kept for the batch": lambda i: _settled(requests[i], keep=True),
        "columns to core values (read_requests)": lambda i: read_requests(batches[i]),
        "the same values built by C (unpickled)": lambda i: pickle.loads(by_c[i]),
        "the same as plain tuples (unpickled)": lambda i: pickle.loads(plain[i]),
        "result columns (answers_batch)": lambda i: answers_batch(answers[i]),
        "Arrow's conversion of the results": lambda i: pa.array(rows[i], CORE_TYPE),
        "the whole core (settle_arrow_batch)": lambda i: settle_arrow_batch(batches[i]),
    }


def least_times(steps: dict, count: int, rounds: int) -> dict[str, float]:
    """CPU µs a row of each step: the least time of each batch over the rounds, summed."""
    best = {name: [float("inf")] * count for name in steps}
    for round_ in range(rounds):
        names = list(steps) if round_ % 2 == 0 else list(reversed(steps))
        for name in names:
            for index in range(count):
                start = time.process_time()
                steps[name](index)
                best[name][index] = min(best[name][index], time.process_time() - start)
    return {name: sum(times) for name, times in best.items()}


def least(action, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        action()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000, help="hands")
    parser.add_argument("--rounds", type=int, default=10, help="rounds; each batch's least time is kept")
    parser.add_argument("--batch-rows", type=int, default=2_000, help="rows a batch (the Dask tasks' 2,000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="shmj-arrow-floor-") as work:
        _, parquet = write_inputs(Path(work), args.count)
        batches = list(pq.ParquetFile(parquet).iter_batches(batch_size=args.batch_rows))
        steps = parts(batches)
        read = least(lambda: list(pq.ParquetFile(parquet).iter_batches(batch_size=args.batch_rows)), args.rounds)
    one_row = batches[0].slice(0, 1)
    fixed = least(lambda: settle_arrow_batch(one_row), 20 * args.rounds)
    gc.collect()
    gc.freeze()  # what was built before is not the steps' cost, as in bench.engine_rate
    paused = gc.isenabled()
    gc.disable()
    try:
        times = least_times(steps, len(batches), args.rounds)
    finally:
        if paused:
            gc.enable()
        gc.unfreeze()
    rows = sum(batch.num_rows for batch in batches)
    per_row = {name: seconds / rows * 1e6 for name, seconds in times.items()}
    per_row["the Parquet read"] = read / rows * 1e6
    engine = per_row["engine: settle, each result dropped"]
    for name, micros in per_row.items():
        print(f"{name:42} {micros:6.2f} µs a row  {micros / engine:5.2f}x the engine")
    print(
        f"a batch's fixed cost (one of a single row): {fixed * 1e6:,.0f} µs, {fixed / args.batch_rows * 1e6:.2f} µs a row"
    )
    floor = (
        per_row["the Parquet read"]
        + per_row["settle, results kept for the batch"]
        + per_row["the same values built by C (unpickled)"]
        + per_row["Arrow's conversion of the results"]
    )
    whole = per_row["the whole core (settle_arrow_batch)"] + per_row["the Parquet read"]
    print(
        f"the core with its Parquet read {whole:.2f} µs a row, {whole / engine:.2f}x the engine; the floor in "
        f"Python (read + settle kept + values built by C + Arrow's conversion) {floor:.2f} µs, {floor / engine:.2f}x"
    )


if __name__ == "__main__":
    main()

"""What each native module of batch/native pays: the batch paths with it on and off, side by side.

One process, the same generated records for every variant (5% of them malformed, as a data lake
has them; written as protobuf's MessageToDict writes them, or with ``--every-field`` as this
product writes its JSON, every field printed at its default too), the variants run in turn within each run so that the machine's load falls on each
alike, and the median of ``--runs`` runs of each:

- the JSON Lines core of ``shmj rescore --local``: each line read (``batch.records.read_line``),
  settled and written with its counts (``batch.local.answer_output``), with the native reader
  (``json_request``) and writer (``json_answer``) on, each off, and both off;
- the Arrow core: ``batch.arrow.settle_arrow_batch`` of each batch of a nested RecordBatch, with
  the native reader (``arrow_requests``) and writer (``arrow_results``) on, each off, both off;
- the engine alone: rules_core's ``settle`` of the same requests read already, with the cycle
  collector paused as the Arrow core pauses it.

A module is off when the name its caller loaded it under is None, as where it is not built
(``batch.native.load``): the caller then takes its Python twin. Figures are CPU microseconds per
record of this process; ``pays`` is a module's removal's cost over the path with it (1.25 or more
pays its keep), ``over_engine`` a record's cost over the engine's settle (at most 2 for a batch
record). Ratios are of one run's figures: the machine may be loaded, absolute times alone say
little. It runs in any tree that has these modules (``cd TREE && python -m bench.native_ab``).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
from google.protobuf.json_format import MessageToDict

import convert
import rules_core as rc
from batch import arrow, arrow_columns, arrow_results, local, records
from batch.arrow_schema import REQUEST, record_batch
from batch.collector import collector_paused

try:
    from generators.random_hands import generate_requests
except ImportError:  # a tree from before the generators left rules_core
    from rules_core.random_hands import generate_requests  # type: ignore[no-redef]

BATCH_ROWS = 2_000  # the rows of a Dask task's batch (batch.parts.CHUNK_ROWS)
# Where each module's caller holds it: (module object, attribute names) set to None to turn it off.
SWITCHES = {
    "json_request": (records, ("_read_native",)),
    "json_answer": (records, ("_write_native", "_count_native")),
    "arrow_requests": (arrow_columns, ("NATIVE",)),
    "arrow_results": (arrow_results, ("NATIVE",)),
}
VARIANTS = {
    "jsonl": {
        "native": (),
        "json_request off": ("json_request",),
        "json_answer off": ("json_answer",),
        "both off": ("json_request", "json_answer"),
    },
    "arrow": {
        "native": (),
        "arrow_requests off": ("arrow_requests",),
        "arrow_results off": ("arrow_results",),
        "both off": ("arrow_requests", "arrow_results"),
    },
}


def present(name: str) -> bool:
    """Whether this tree has the module's switch (a module removed has none: its variants are left out)."""
    owner, attrs = SWITCHES[name]
    return all(hasattr(owner, attr) for attr in attrs)


for _form, _variants in VARIANTS.items():
    VARIANTS[_form] = {variant: off for variant, off in _variants.items() if all(map(present, off))}


def generated(count: int, seed: int, every_field: bool = False) -> tuple[list[bytes], list[pa.RecordBatch]]:
    """``count`` generated hands as JSON Lines lines and as nested RecordBatches: as protobuf's
    MessageToDict writes them (a field at its default left out), or with ``every_field`` as this
    product writes its JSON (``convert.json_form.message_dict``: every field without presence
    printed, defaults included, as in a record's derived request)."""
    messages = [convert.settle_request_message(r) for r in generate_requests(count, seed=seed)]
    requests = [MessageToDict(m, always_print_fields_with_no_presence=every_field) for m in messages]
    for index in range(0, count, 20):  # 5% malformed
        requests[index] = {"requestId": f"bad-{index}", "profile": "classic", "winners": [{"seat": 9}]}
    lines = [json.dumps(r, separators=(",", ":")).encode() for r in requests]
    batches = [record_batch(REQUEST, requests[i : i + BATCH_ROWS]) for i in range(0, count, BATCH_ROWS)]
    return lines, batches


@contextmanager
def modules_off(names: tuple[str, ...]):
    """The batch paths with the native modules ``names`` off: their Python twins answer."""
    saved = [(owner, attr, getattr(owner, attr)) for name in names for owner in [SWITCHES[name][0]] for attr in SWITCHES[name][1]]  # fmt: skip
    for owner, attr, _ in saved:
        setattr(owner, attr, None)
    try:
        yield
    finally:
        for owner, attr, value in saved:
            setattr(owner, attr, value)


def jsonl_core(lines: list[bytes]) -> bytes:
    """The output of ``rescore --local``'s core for ``lines``: read, settled, written, counted."""
    counts = records.new_counts()
    out = []
    for number, line in enumerate(lines, start=1):
        request, error = records.read_line(number, line, None, {})
        out.append(local.answer_output(error if request is None else local.settle_answer(request), counts))
    return b"".join(out)


def arrow_core(batches: list[pa.RecordBatch]) -> list[pa.RecordBatch]:
    return [arrow.settle_arrow_batch(batch) for batch in batches]


def engine(requests: list) -> int:
    """rules_core's settle of each request, with the cycle collector paused as the Arrow core
    pauses it (``batch.collector``): the same state for both, or the engine would pay a
    collector the batch it is compared with does not (about 2% of its time)."""
    settled = 0
    with collector_paused():
        for request in requests:
            try:
                rc.settle(request, local.BUILTIN_REGISTRY)
                settled += 1
            except rc.InvalidRequest:
                pass
    return settled


def requests_of(lines: list[bytes]) -> list[rc.SettleRequest]:
    """The lines' requests the engine settles: those read into core values."""
    read = (records.read_line(number, line, None, {})[0] for number, line in enumerate(lines, start=1))
    return [request for request in read if isinstance(request, rc.SettleRequest)]


def cpu_us(work, *args) -> float:
    start = time.process_time()
    work(*args)
    return (time.process_time() - start) * 1e6


def measure(count: int, runs: int, seed: int, every_field: bool = False) -> dict:
    lines, batches = generated(count, seed, every_field)
    requests = requests_of(lines)
    loaded = {
        name: present(name) and all(getattr(owner, a) is not None for a in attrs)
        for name, (owner, attrs) in SWITCHES.items()
    }
    expected = {"jsonl": jsonl_core(lines), "arrow": arrow_core(batches)}
    for form, work, data in (("jsonl", jsonl_core, lines), ("arrow", arrow_core, batches)):
        for off in VARIANTS[form].values():  # every variant answers the same bytes, and warms up
            with modules_off(off):
                got = work(data)
            same = (
                got == expected[form]
                if form == "jsonl"
                else all(a.equals(b) for a, b in zip(got, expected[form], strict=True))
            )
            if not same:
                raise SystemExit(f"{form} with {off} off answers otherwise than with the native modules")
    gc.collect()
    gc.freeze()  # the generated data is not the paths' cost (a worker freezes what it built first)
    # Each run goes through the data a slice at a time (one Arrow batch, and its rows as lines),
    # every variant of the slice in turn, the order turned each slice: a change of load meets all.
    slices = [
        (lines[i : i + BATCH_ROWS], [b], requests_of(lines[i : i + BATCH_ROWS]))
        for i, b in zip(range(0, count, BATCH_ROWS), batches, strict=True)
    ]
    jobs = [("engine", engine, 2, ())] + [
        (f"{form}: {variant}", work, index, off)
        for form, work, index in (("jsonl", jsonl_core, 0), ("arrow", arrow_core, 1))
        for variant, off in VARIANTS[form].items()
    ]
    samples: dict[str, list[float]] = {name: [] for name, *_ in jobs}
    run_ratios: dict[str, list[float]] = {}
    for run in range(runs):
        totals = dict.fromkeys(samples, 0.0)
        for turn, data in enumerate(slices):
            shift = (run + turn) % len(jobs)
            for name, work, index, off in jobs[shift:] + jobs[:shift]:
                with modules_off(off):
                    totals[name] += cpu_us(work, data[index])
        per_record = {name: total / (len(requests) if name == "engine" else count) for name, total in totals.items()}
        for name, value in per_record.items():
            samples[name].append(value)
            if name == "engine":
                continue
            form, variant = name.split(": ")
            if variant != "native":
                run_ratios.setdefault(f"{name} / native", []).append(value / per_record[f"{form}: native"])
            run_ratios.setdefault(f"{name} / engine", []).append(value / per_record["engine"])
    gc.unfreeze()
    return {
        "records": count,
        "every_field": every_field,
        "settled_by_engine": len(requests),
        "runs": runs,
        "modules_loaded": loaded,
        "cpu_us_per_record_median": {k: round(statistics.median(v), 2) for k, v in samples.items()},
        "ratio_median_of_runs": {k: round(statistics.median(v), 3) for k, v in run_ratios.items()},
        "ratio_range_of_runs": {k: [round(min(v), 3), round(max(v), 3)] for k, v in run_ratios.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=4_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--out", type=Path, help="a JSON file to merge the figures into")
    parser.add_argument("--key", default="native_ab", help="the key they go under in --out")
    parser.add_argument(
        "--every-field",
        action="store_true",
        help="write the records as this product writes JSON (every field, defaults included), not as MessageToDict",
    )
    args = parser.parse_args()
    report = measure(args.records, args.runs, args.seed, args.every_field)
    report["commit"] = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    report["compiled_rules_core"] = rc.BUILD
    print(json.dumps(report, indent=2))
    if args.out:
        existing = json.loads(args.out.read_text()) if args.out.exists() else {}
        existing[args.key] = report
        args.out.write_text(json.dumps(existing, indent=2) + "\n")


if __name__ == "__main__":
    main()

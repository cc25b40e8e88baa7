"""Benchmark: `shmj review IN.jsonl -o OUT.jsonl` in this process, against the review itself.

    python -m bench.review_batch_bench [--records 300] [--seed 2026]

Seeded simulated records (`generators.record_simulator`, as `bench/advice_bench.py` reviews
them) are written as JSON Lines, then:

(a) each record reviewed by `rules_core.review_record`, its CPU time per discard reviewed:
    the median over records (the issue's measure, `make bench-advice`'s (c)) and the whole
    CPU time over every discard;
(b) the file reviewed by the job runner of `shmj review -o --local --workers 1`
    (`clients.rescore.run_rescore`: reading, the review, each line written, the counts): its
    records per second (of the clock, and of its CPU time: a loaded machine slows the first
    only) and its CPU time over every discard reviewed.

Both are timed after a first pass over the same records has filled rules_core's per-suit
tables and caches, as a long job has them after its first records (a first pass in a fresh
process costs more, both ways alike).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from bench.advice_bench import time_reviews
from clients.rescore import run_rescore
from convert.json_write import settle_record_request_dict
from generators.record_simulator import simulate_records
from rules_core import BUILD
from rules_core.review import review_record


def time_alone(records) -> dict:
    """(a) The review of each record, timed as `bench.advice_bench` times it (its median CPU
    time per discard), and the CPU time of them all over every discard."""
    cpu = time.process_time()
    figures = time_reviews(records)
    cpu = time.process_time() - cpu
    return {
        "discards": figures["discards"],
        "median_ms_per_discard": figures["ms_per_discard"],
        "ms_per_discard": cpu / figures["discards"] * 1e3,
    }


def time_job(path: Path, out: Path) -> dict:
    """(b) The file reviewed by `shmj review -o --local --workers 1`'s runner."""
    settings = {"job": "review", "local": True, "profile": None, "overrides": {}, "house": []}
    cpu = time.process_time()
    summary = run_rescore(path, out, settings, workers=1, chunk=500, progress=False)
    cpu = time.process_time() - cpu
    counts = summary.counts
    assert summary.complete and counts["failed"] == 0, summary
    return {
        "records": counts["reviewed"],
        "discards": counts["discards"],
        "records_per_second": summary.lines / summary.seconds,
        "records_per_cpu_second": summary.lines / cpu,
        "ms_per_discard": cpu / counts["discards"] * 1e3,
    }


def run(records: int, seed: int) -> dict:
    simulated = simulate_records(records, seed)
    with tempfile.TemporaryDirectory() as directory:
        path, out = Path(directory) / "records.jsonl", Path(directory) / "reviews.jsonl"
        path.write_text("".join(json.dumps(settle_record_request_dict(r)) + "\n" for r in simulated))
        for record in simulated:  # the tables and caches filled
            review_record(record)
        direct = time_alone(simulated)
        job = time_job(path, out)
    return {"build": BUILD, "records": records, "seed": seed, "review": direct, "job": job}


def report(figures: dict) -> None:
    direct, job = figures["review"], figures["job"]
    print(f"rules_core build: {figures['build']}; {figures['records']} simulated records (seed {figures['seed']})")
    print(
        f"  (a) review_record: {direct['median_ms_per_discard']:.3f} ms CPU per discard, median over records"
        f" (target <= 2 ms); {direct['ms_per_discard']:.3f} ms over all {direct['discards']:,} discards"
    )
    print(
        f"  (b) shmj review -o --local --workers 1: {job['records_per_second']:.1f} records/s"
        f" ({job['records_per_cpu_second']:.1f} per CPU-second),"
        f" {job['ms_per_discard']:.3f} ms CPU per discard over all {job['discards']:,} discards"
        f" ({job['ms_per_discard'] / direct['ms_per_discard']:.2f}x the review's own)"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=300, help="simulated records reviewed")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    report(run(args.records, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""bench.review_batch_bench as BATCH.md runs it: the review alone and the job over the same
records, the same discards counted both ways, each figure said."""

from __future__ import annotations

import re

from tests.bench import bench_lines


def test_the_job_and_the_review_alone_count_the_same_discards():
    lines = bench_lines("review_batch_bench", "--records", "4", "--seed", "3")
    assert re.fullmatch(r"rules_core build: (pure|compiled); 4 simulated records \(seed 3\)", lines[0])
    alone = re.fullmatch(
        r"  \(a\) review_record: \d+\.\d{3} ms CPU per discard, median over records \(target <= 2 ms\);"
        r" \d+\.\d{3} ms over all (\d+) discards",
        lines[1],
    )
    job = re.fullmatch(
        r"  \(b\) shmj review -o --local --workers 1: \d+\.\d records/s \(\d+\.\d per CPU-second\),"
        r" \d+\.\d{3} ms CPU per discard"
        r" over all (\d+) discards \(\d+\.\d\dx the review's own\)",
        lines[2],
    )
    assert alone and job and len(lines) == 3
    assert alone.group(1) == job.group(1) and int(job.group(1)) > 4

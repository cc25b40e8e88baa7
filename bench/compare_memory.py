"""Memory of the ``--compare`` index on the workers: held whole on every worker (as it was)
against spread in shards (as it is). Not a test: a measurement.

    .venv/bin/python -m bench.compare_memory [--records N] [--workers W]

Writes N earlier result records (JSON Lines part files, ids unique), then on a fresh ``LocalCluster`` of W worker processes for each way: the resident memory
each worker gains holding the index, after the same imports on every worker.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import tempfile
from pathlib import Path

from batch.compare import load_previous
from batch.dask_job import previous_shards


def write_previous(directory: Path, records: int, files: int) -> int:
    """Earlier results as a job leaves them: part files. Returns their bytes."""
    winner = {"seat": 1, "legal": True, "patterns": ["PATTERN_FULL_FLUSH"], "value": 12.0}
    directory.mkdir()
    for part in range(files):
        with (directory / f"part-{part:05d}.jsonl").open("w") as out:
            for number in range(part, records, files):
                record = {
                    "requestId": f"hand-{number:012d}",
                    "profile": "classic",
                    "winners": [dict(winner, value=float(number % 50))],
                    "seatDeltas": [-12.0, 36.0, -12.0, -12.0],
                }
                out.write(json.dumps(record, separators=(",", ":")) + "\n")
    return sum(p.stat().st_size for p in directory.iterdir())


def _rss_mb() -> float:
    import psutil

    gc.collect()
    return psutil.Process().memory_info().rss / 2**20


def _warm() -> None:
    import batch.compare  # noqa: F401  the same imports everywhere before the baseline


def measure(location: str, workers: int, way: str, records: int) -> list[float]:
    from distributed import Client, LocalCluster, wait

    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=logging.ERROR,
            memory_limit=0,
        ) as cluster,
        Client(cluster) as client,
    ):
        client.run(_warm)
        before = client.run(_rss_mb)
        if way == "whole":  # as the job did: one index, fetched by every worker's tasks
            index = client.submit(load_previous, [location], pure=False)
            held = [client.submit(len, index, workers=[w], pure=False) for w in sorted(before)]
            assert client.gather(held) == [records] * workers
        else:
            shards = previous_shards(client, location)
            wait(shards)
            assert sum(client.gather(client.map(len, shards))) == records
        after = client.run(_rss_mb)
        return [round(after[w] - before[w], 1) for w in sorted(before)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--files", type=int, default=16, help="part files the earlier results are in")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="shmj-compare-memory-") as work:
        previous = Path(work) / "previous"
        size = write_previous(previous, args.records, args.files)
        report = {"records": args.records, "files": args.files, "mb": round(size / 2**20, 1), "workers": args.workers}
        for way in ("whole", "shards"):
            gained = measure(str(previous), args.workers, way, args.records)
            report[f"{way}_mb_per_worker"] = gained
            print(f"{way:6}: MB gained by each worker: {gained}", flush=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

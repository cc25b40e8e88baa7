"""Benchmark: a JSON Lines line read into core values, the native reader against msgspec's.

    .venv/bin/python -m bench.json_read [--count N] [--passes P] [--profile NAME]

On the batch benchmark's lines (``bench.batch_bench.write_inputs``: generated hands, 5% malformed),
one line at a time as a worker reads them: ``batch.native.json_request.read`` against
``batch.fast_requests.read_json_request`` (msgspec into structs, then core values), each 500-line
chunk timed in CPU time by both in turn, best of ``--passes`` passes each, in one process, so
that the load of a shared machine falls on both alike. The figures are the sums of the chunks'
bests over the lines; also the lines the native reader declined (to msgspec's, in read_line).
``--profile``: as ``rescore --profile`` reads them, the job's profile put in (the native reader's
argument, against ``_replace`` after msgspec's reading, as ``read_line`` does).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from batch import native
from batch.fast_requests import read_json_request
from bench.batch_bench import write_inputs

CHUNK = 500


def best_pass(read, chunk: list[bytes], passes: int) -> float:
    best = float("inf")
    for _ in range(passes):
        start = time.process_time()
        for line in chunk:
            read(line)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--profile", default=None)
    args = parser.parse_args()
    module = native.load("json_request")
    if module is None:
        raise SystemExit("batch.native.json_request is not built: make install")
    with tempfile.TemporaryDirectory(prefix="shmj-json-read-") as work:
        jsonl, _ = write_inputs(Path(work), args.count)
        lines = jsonl.read_bytes().splitlines()
    profile = args.profile

    def native_read(line: bytes):
        return module.read(line, profile)

    def msgspec_read(line: bytes):
        request = read_json_request(line)
        return request._replace(profile=profile) if profile and request is not None else request

    readers = (native_read, msgspec_read) if profile else (module.read, read_json_request)
    totals = {"native": 0.0, "msgspec": 0.0}
    for start in range(0, len(lines), CHUNK):
        chunk = lines[start : start + CHUNK]
        totals["native"] += best_pass(readers[0], chunk, args.passes)
        totals["msgspec"] += best_pass(readers[1], chunk, args.passes)
    declined = sum(module.read(line) is None for line in lines)
    usual = sum(read_json_request(line) is not None for line in lines)
    native_us, msgspec_us = (totals[k] / len(lines) * 1e6 for k in ("native", "msgspec"))
    print(f"{len(lines):,} lines, {sum(map(len, lines)) / len(lines):.0f} bytes a line, {usual:,} in the usual form")
    print(f"native reader        {native_us:.2f} CPU µs a line ({declined:,} lines declined)")
    print(f"msgspec + structs    {msgspec_us:.2f} CPU µs a line ({msgspec_us / native_us:.2f}x)")


if __name__ == "__main__":
    main()

"""Memory of a batch worker over millions of records: its resident set while the JSON Lines
reader and the Arrow core settle them, chunk after chunk, as a ``rescore`` or Dask worker does.

    python -m bench.batch_memory --records 10000000

20,000 generated hands (every profile and outcome, 5% malformed) are cycled, each record with
a request id of its own; the rules' caches, bounded and measured by ``bench/memory_bench.py``,
fill from the hands, so what grows here beyond them is the batch code's. A JSON Lines chunk goes
through ``shmj rescore``'s own worker function (``settle_chunk``: read, settle, one block of
output bytes and the counts), an Arrow batch through ``settle_arrow_batch``. After each tenth
of the records the process collects garbage and reads its resident set size (VmRSS).

Each form runs in a process of its own, the two at once (``--form`` runs one here): one
process's RSS is one worker's, and the two cores of the machine settle the 20 million records
in about a quarter of an hour rather than half an hour.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
from google.protobuf.json_format import MessageToDict

import convert
from batch.arrow import settle_arrow_batch
from batch.arrow_schema import REQUEST, record_batch
from bench.memory_bench import rss_mb
from clients import rescore_workers
from generators.random_hands import generate_requests

CHUNK = 2000
FORMS = ("jsonl", "arrow")
ID_MARK = "\x00id\x00"  # stands for the request id in a line's template


def hands(count: int) -> list[dict]:
    requests = [MessageToDict(convert.settle_request_message(r)) for r in generate_requests(count, seed=11)]
    for index in range(0, count, 20):  # 5% malformed
        requests[index] = {"requestId": f"bad-{index}", "profile": "classic", "winners": [{"seat": 9}]}
    return requests


def line_templates(pool: list[dict]) -> list[tuple[bytes, bytes]]:
    """Each hand's JSON line cut where its request id goes: a record's line is the two halves
    around its own id, so making it costs a join, not an encoding of the whole request."""
    halves = []
    for request in pool:
        text = json.dumps(dict(request, requestId=ID_MARK), separators=(",", ":"))
        before, after = text.split(json.dumps(ID_MARK)[1:-1])
        halves.append((before.encode(), after.encode()))
    return halves


def jsonl_chunks(pool: list[dict], records: int):
    """Chunks as ``rescore`` hands them to a worker: the first line's number and the lines."""
    templates = line_templates(pool)
    for start in range(0, records, CHUNK):
        lines = []
        for number in range(start, min(start + CHUNK, records)):
            before, after = templates[number % len(templates)]
            lines.append(b"%sid-%d%s" % (before, number, after))
        yield start + 1, lines


def arrow_batches(pool: list[dict], records: int):
    batches = [record_batch(REQUEST, pool[i : i + CHUNK]) for i in range(0, len(pool), CHUNK)]
    index = 0
    for start in range(0, records, CHUNK):
        batch = batches[index % len(batches)]
        index += 1
        rows = min(batch.num_rows, records - start)
        ids = pa.array([f"id-{n}" for n in range(start, start + rows)])
        batch = batch.slice(0, rows)
        yield batch.set_column(batch.schema.get_field_index("request_id"), "request_id", ids)


def _settle_jsonl(chunk: tuple[int, list[bytes]]) -> int:
    """A chunk settled and written by ``rescore --local``'s worker function; the block is let go."""
    _block, written, _counts = rescore_workers.settle_chunk(chunk)
    return written


def run(form: str, pool: list[dict], records: int) -> list[dict]:
    rescore_workers.settings.update(local=True)
    gc.collect()
    samples = [{"records": 0, "rss_mb": round(rss_mb(), 1), "cpu_seconds": 0.0}]
    step, done, start = max(records // 10, 1), 0, time.process_time()
    if form == "jsonl":
        work = (_settle_jsonl(chunk) for chunk in jsonl_chunks(pool, records))
    else:
        work = (settle_arrow_batch(batch).num_rows for batch in arrow_batches(pool, records))
    for settled in work:
        done += settled
        if done // step > (done - settled) // step:
            gc.collect()
            samples.append(
                {"records": done, "rss_mb": round(rss_mb(), 1), "cpu_seconds": round(time.process_time() - start, 1)}
            )
            print(
                f"{form:6} {done:>11,} records  RSS {samples[-1]['rss_mb']:7.1f} MB"
                f"  {samples[-1]['cpu_seconds']:7.1f} CPU-s  {time.strftime('%H:%M:%S')}",
                flush=True,
            )
    return samples


def verdict(samples: list[dict]) -> dict:
    first, last = samples[1]["rss_mb"], samples[-1]["rss_mb"]
    peak = max(s["rss_mb"] for s in samples[1:])
    return {
        "samples": samples,
        "growth_after_the_first_tenth": f"{(last - first) / first:+.1%}",
        "peak_over_the_first_tenth": f"{(peak - first) / first:+.1%}",
    }


def one_form(form: str, records: int) -> dict:
    return verdict(run(form, hands(20_000), records))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000_000, help="records per form")
    parser.add_argument("--form", choices=FORMS, help="run this form alone, in this process")
    parser.add_argument("--output", help="write the samples and verdicts here as JSON")
    args = parser.parse_args(argv)
    if args.form:
        report = {args.form: one_form(args.form, args.records)}
    else:  # each form in a worker process of its own, both at once; their progress lines interleave
        report = {}
        with tempfile.TemporaryDirectory(prefix="shmj-batch-memory-") as scratch:
            processes = {
                form: subprocess.Popen(
                    [sys.executable, "-m", "bench.batch_memory", "--form", form, "--records", str(args.records)]
                    + ["--output", f"{scratch}/{form}.json"]
                )
                for form in FORMS
            }
            for form, process in processes.items():
                if process.wait() != 0:
                    print(f"the {form} process failed (exit {process.returncode})", file=sys.stderr)
                    return 1
                report.update(json.loads(Path(f"{scratch}/{form}.json").read_text()))
    for form, figures in report.items():
        samples = figures["samples"]
        print(
            f"{form}: RSS {samples[1]['rss_mb']} MB after the first tenth, {samples[-1]['rss_mb']} MB at the end"
            f" ({figures['growth_after_the_first_tenth']}; peak {figures['peak_over_the_first_tenth']})"
        )
    if args.output:
        Path(args.output).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

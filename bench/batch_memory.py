"""Memory of a batch worker over millions of records: its resident set while the JSON Lines
reader and the Arrow core settle them, chunk after chunk, as a ``rescore`` or Dask worker does.

    python -m bench.batch_memory --records 10000000

20,000 generated hands (every profile and outcome, 5% malformed) are cycled, each record with
a request id of its own; the rules' caches, bounded and measured by ``bench/memory_bench.py``,
fill from the hands, so what grows here beyond them is the batch code's. After each tenth of
the records the process collects garbage and reads its resident set size (VmRSS).
"""

from __future__ import annotations

import argparse
import gc
import json
import time

import pyarrow as pa
from google.protobuf.json_format import MessageToDict

import convert
from batch.arrow import settle_arrow_batch
from batch.arrow_schema import REQUEST, record_batch
from batch.local import settle_lines
from batch.records import output_line
from bench.memory_bench import rss_mb
from rules_core.random_hands import generate_requests

CHUNK = 2000


def hands(count: int) -> list[dict]:
    requests = [MessageToDict(convert.settle_request_message(r)) for r in generate_requests(count, seed=11)]
    for index in range(0, count, 20):  # 5% malformed
        requests[index] = {"requestId": f"bad-{index}", "profile": "classic", "winners": [{"seat": 9}]}
    return requests


def jsonl_chunks(pool: list[dict], records: int):
    """Chunks of numbered lines, each record's id its own."""
    for start in range(0, records, CHUNK):
        chunk = []
        for number in range(start, min(start + CHUNK, records)):
            request = dict(pool[number % len(pool)], requestId=f"id-{number}")
            chunk.append((number + 1, json.dumps(request, separators=(",", ":")).encode()))
        yield chunk


def arrow_batches(pool: list[dict], records: int):
    batches = [record_batch(REQUEST, pool[i : i + CHUNK]) for i in range(0, len(pool), CHUNK)]
    index = 0
    for start in range(0, records, CHUNK):
        batch = batches[index % len(batches)]
        index += 1
        ids = pa.array([f"id-{n}" for n in range(start, start + batch.num_rows)])
        yield batch.set_column(batch.schema.get_field_index("request_id"), "request_id", ids)


def _settle_jsonl(chunk: list) -> int:
    """A chunk settled and written as a ``rescore`` worker does; the lines are let go."""
    b"".join(output_line(record) for record in settle_lines(chunk, None, {}))
    return len(chunk)


def run(form: str, pool: list[dict], records: int) -> list[dict]:
    gc.collect()
    samples = [{"records": 0, "rss_mb": round(rss_mb(), 1)}]
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
            print(f"{form:6} {done:>11,} records  RSS {samples[-1]['rss_mb']:7.1f} MB", flush=True)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000_000, help="records per form")
    args = parser.parse_args()
    pool = hands(20_000)
    report = {}
    for form in ("jsonl", "arrow"):
        samples = run(form, pool, args.records)
        first, last = samples[1]["rss_mb"], samples[-1]["rss_mb"]
        report[form] = {"samples": samples, "growth_after_the_first_tenth": f"{(last - first) / first:+.1%}"}
        print(
            f"{form}: RSS {first} MB after the first tenth, {last} MB at the end ({report[form]['growth_after_the_first_tenth']})"
        )
    print(json.dumps({form: r["growth_after_the_first_tenth"] for form, r in report.items()}))


if __name__ == "__main__":
    main()

"""Benchmark: batch rescoring records per second, one process against Dask local:1 and local:2.

    make bench-batch      # or: python -m bench.batch_bench [--count N] [--repeat K] [--rounds R]

On the same generated hands (every profile and outcome; legal, illegal and malformed), in
one run, in rounds whose order is interleaved so that the load of a shared machine falls
on every figure alike:

- ``--local --workers 1`` (``shmj rescore``'s own path, settled in this process), JSON Lines;
- the Dask tasks' own code in this one process, without Dask (``settle_part`` of every
  partition in turn), JSON Lines in and out and Parquet in and out: the cost of a record in
  each format, with nothing else around it;
- ``--dask local:1`` and ``--dask local:2``, JSON Lines in and out, Parquet in and out.

Cluster start-up is outside the timings (its time is printed); each job's time includes
planning, counting lines and writing summary.json, and its input is the hands ``--repeat``
times over (100,000 records by default), so that this fixed part is not most of a job on
two workers. The best round of each is kept. The
ratios are what counts on a shared machine: the targets are local:2 >= 1.8x local:1 (issue 23) and
local:1 >= 80% of one --local process. Beside records per second, each figure is also
given per CPU-second of every process that took part (this one, the scheduler and the Dask
workers): the cost of a record, which the load of other users
changes far less than the wall clock.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from google.protobuf.json_format import MessageToDict

import convert
from batch.arrow import settle_arrow_batch
from batch.arrow_schema import REQUEST, record_batch
from batch.dask_job import connect, run_job, settle_part
from batch.parts import CHUNK_ROWS, count_lines, expand_inputs, numbered, plan_partitions
from bench.engine_rate import settle_rate
from clients.rescore import run_rescore
from generators.random_hands import generate_requests

ROOT = Path(__file__).resolve().parents[1]
PARTS = 16  # partitions per job: enough for two workers to share evenly


def write_inputs(directory: Path, count: int, repeat: int = 1) -> tuple[Path, Path]:
    """``count`` generated hands in both forms, written ``repeat`` times over (one after the other)."""
    requests = [MessageToDict(convert.settle_request_message(r)) for r in generate_requests(count, seed=11)]
    for index in range(0, count, 20):  # 5% malformed: as a data lake has them
        requests[index] = {"requestId": f"bad-{index}", "profile": "classic", "winners": [{"seat": 9}]}
    directory.mkdir(parents=True, exist_ok=True)
    jsonl = directory / "hands.jsonl"
    jsonl.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in requests) * repeat)
    parquet = directory / "hands.parquet"
    table = pa.Table.from_batches([record_batch(REQUEST, requests)] * repeat)
    pq.write_table(table, parquet, row_group_size=max(1, count * repeat // PARTS))
    return jsonl, parquet


def _cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _process_cpu() -> float:
    import psutil

    times = psutil.Process().cpu_times()
    return times.user + times.system


def _cluster_cpu(client) -> float:
    """CPU time of the scheduler and every worker process so far."""
    return sum(client.run(_process_cpu).values()) + client.run_on_scheduler(_process_cpu)


def local_one_process(jsonl: Path, out: Path) -> tuple[float, float]:
    """(records per second, records per CPU-second): ``--workers 1`` settles in this process."""
    settings = {"local": True, "profile": None, "overrides": {}}
    cpu = _cpu_seconds()
    summary = run_rescore(jsonl, out, settings, workers=1, chunk=500, progress=False)
    return summary.lines / summary.seconds, summary.lines / (_cpu_seconds() - cpu)


def engine_settle(jsonl: Path) -> float:
    """Records per CPU-second of rules_core's own ``settle`` on the requests already read into
    core values (those the reader refuses are not settled): what a batch record is measured
    against, by the same function as SettleBatch's ceiling in `bench.service_bench`."""
    import rules_core as rc
    from convert.json_read import read_settle_request

    requests = []
    for line in jsonl.read_bytes().splitlines():
        try:
            requests.append(read_settle_request(json.loads(line)))
        except rc.InvalidRequest:
            pass
    return settle_rate(requests)


def local_less_startup(jsonl: Path, out: Path) -> float:
    """Records per CPU-second of ``rescore --local --workers 1``, the whole job (this process, where
    it settles since issue 23's fifth round, and any child) less what the same job costs on one
    line: its start-up."""
    one = out.with_name("one-line.jsonl")
    one.write_bytes(jsonl.read_bytes().split(b"\n", 1)[0] + b"\n")
    settings = {"local": True, "profile": None, "overrides": {}}
    cpu = _cpu_seconds()
    run_rescore(one, out.with_name("one-line-out.jsonl"), settings, workers=1, chunk=500, progress=False)
    startup = _cpu_seconds() - cpu
    cpu = _cpu_seconds()
    summary = run_rescore(jsonl, out, settings, workers=1, chunk=500, progress=False)
    return (summary.lines - 1) / (_cpu_seconds() - cpu - startup)


def arrow_core(parquet: Path) -> float:
    """Records per CPU-second of the Arrow core on nested Parquet, read in the Dask tasks'
    batches: ``settle_arrow_batch`` of each."""
    cpu, records = time.process_time(), 0
    for batch in pq.ParquetFile(parquet).iter_batches(batch_size=CHUNK_ROWS):
        records += settle_arrow_batch(batch).num_rows
    return records / (time.process_time() - cpu)


def engine_ratios(jsonl: Path, parquet: Path, work: Path, rounds: int) -> dict:
    """The cost of a batch record over the engine's own settle of it, both forms, best of
    ``rounds`` (a round runs the three in turn, so that the load falls on each alike)."""
    best = {"engine_settle": 0.0, "local_jsonl_less_startup": 0.0, "arrow_core_parquet": 0.0}
    for round_ in range(rounds):
        out = work / f"engine-{round_}"
        out.mkdir()
        figures = {
            "engine_settle": engine_settle(jsonl),
            "local_jsonl_less_startup": local_less_startup(jsonl, out / "out.jsonl"),
            "arrow_core_parquet": arrow_core(parquet),
        }
        for name, value in figures.items():
            best[name] = max(best[name], value)
        print(
            f"round {round_ + 1} records/CPU-s: engine {figures['engine_settle']:,.0f}, rescore --local "
            f"{figures['local_jsonl_less_startup']:,.0f}, Arrow core {figures['arrow_core_parquet']:,.0f}  "
            f"load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        shutil.rmtree(out)
    return {
        "records_per_cpu_second": {k: round(v) for k, v in best.items()},
        "cost_over_engine": {
            "local_jsonl": round(best["engine_settle"] / best["local_jsonl_less_startup"], 2),
            "arrow_core_parquet": round(best["engine_settle"] / best["arrow_core_parquet"], 2),
        },
    }


def _block(source: Path, fmt: str) -> int:
    """PARTS partitions: a JSON Lines file cut in byte ranges, a Parquet file a row group each."""
    return max(1, source.stat().st_size // PARTS + 1) if fmt == "jsonl" else 1


def tasks_in_process(source: Path, out: Path, fmt: str, count: int) -> tuple[float, float]:
    """The job's tasks run one after the other here, without Dask: planning, reading, settling,
    writing each part file and its statistics."""
    start, cpu = time.perf_counter(), _cpu_seconds()
    partitions = plan_partitions(expand_inputs([str(source)]), _block(source, fmt))
    lines = {p.index: count_lines(p.url, p.start, p.stop) for p in partitions if p.kind == "jsonl"}
    (out / "_stats").mkdir()
    job = {"output": str(out), "format": fmt, "profile": None, "overrides": {}, "topic": "bench"}
    records = sum(settle_part(p, job, None)["records"] for p in numbered(partitions, lines))
    assert records == count
    return count / (time.perf_counter() - start), count / (_cpu_seconds() - cpu)


def dask_job(client, source: Path, out: Path, fmt: str) -> tuple[float, float]:
    block = _block(source, fmt)
    cpu = _cluster_cpu(client) + _cpu_seconds()
    summary = run_job([str(source)], str(out), "", fmt=fmt, block_bytes=block, progress=False, client=client)
    cpu = _cluster_cpu(client) + _cpu_seconds() - cpu
    assert summary["parts_complete"] == summary["parts"] and not summary["failed_parts"]
    return summary["records_this_run"] / summary["seconds"], summary["records_this_run"] / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000, help="hands per job")
    parser.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="the timed jobs' input is the hands this many times over (the costs over the engine take them once)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best of each figure is kept")
    parser.add_argument("--output", type=Path, default=ROOT / "bench" / "results" / "batch-bench.json")
    parser.add_argument("--engine-only", action="store_true", help="only the costs over the engine's settle")
    parser.add_argument("--dask-only", action="store_true", help="only the Dask jobs: local:2 against local:1")
    args = parser.parse_args()
    logging.getLogger("distributed").setLevel(logging.ERROR)
    work = Path(tempfile.mkdtemp(prefix="shmj-batch-bench-"))
    try:
        jsonl, parquet = write_inputs(work, args.count)
        over_engine = {}
        if not args.dask_only:
            over_engine = engine_ratios(jsonl, parquet, work, args.rounds)
            print(
                f"a batch record over the engine's settle of it: rescore --local --workers 1 on JSON Lines "
                f"{over_engine['cost_over_engine']['local_jsonl']:.2f}x, the Arrow core on nested Parquet "
                f"{over_engine['cost_over_engine']['arrow_core_parquet']:.2f}x (target <= 2x)",
                flush=True,
            )
        if args.engine_only:
            print(json.dumps(over_engine, indent=2))
            return
        # A job of the 20,000 hands alone takes about a second on one Dask worker now, and its fixed
        # part (planning, counting lines, scheduling, the summary: 0.2-0.4 s) would cap local:2 /
        # local:1 near 1.7x whatever the workers do: the timed jobs take them ``--repeat`` times.
        records = args.count * args.repeat
        timed_jsonl, timed_parquet = write_inputs(work / "timed", args.count, args.repeat)
        clients, startup = {}, {}
        for workers in (1, 2):
            start = time.perf_counter()
            clients[workers] = connect(f"local:{workers}")
            startup[workers] = time.perf_counter() - start
            dask_job(clients[workers], jsonl, work / f"warm-{workers}", "jsonl")  # imports on every worker
        best: dict[str, float] = {}
        per_cpu: dict[str, float] = {}
        load = [os.getloadavg()[0]]
        runs = {
            "local_jsonl_1_process": lambda out: local_one_process(timed_jsonl, out / "out.jsonl"),
            "tasks_jsonl_1_process": lambda out: tasks_in_process(timed_jsonl, out, "jsonl", records),
            "tasks_parquet_1_process": lambda out: tasks_in_process(timed_parquet, out, "parquet", records),
            "dask_local1_jsonl": lambda out: dask_job(clients[1], timed_jsonl, out, "jsonl"),
            "dask_local2_jsonl": lambda out: dask_job(clients[2], timed_jsonl, out, "jsonl"),
            "dask_local1_parquet": lambda out: dask_job(clients[1], timed_parquet, out, "parquet"),
            "dask_local2_parquet": lambda out: dask_job(clients[2], timed_parquet, out, "parquet"),
        }
        if args.dask_only:
            runs = {name: run for name, run in runs.items() if name.startswith("dask_")}
        for round_ in range(args.rounds):
            names = list(runs) if round_ % 2 == 0 else list(reversed(runs))
            for name in names:
                out = work / f"{name}-{round_}"
                out.mkdir()
                rate, efficiency = runs[name](out)
                best[name] = max(best.get(name, 0.0), rate)
                per_cpu[name] = max(per_cpu.get(name, 0.0), efficiency)
                load.append(os.getloadavg()[0])
                print(
                    f"round {round_ + 1} {name:26} {rate:>9,.0f} records/s  {efficiency:>9,.0f} records/CPU-s  "
                    f"load {load[-1]:.1f}",
                    flush=True,
                )
                shutil.rmtree(out)
        for client in clients.values():
            cluster = client.cluster
            client.close()
            cluster.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.dask_only:
        _report_scaling(args, best, per_cpu, load)
        return
    ratios = {
        "local2_over_local1_jsonl": best["dask_local2_jsonl"] / best["dask_local1_jsonl"],
        "local2_over_local1_parquet": best["dask_local2_parquet"] / best["dask_local1_parquet"],
        "local1_jsonl_over_local_process": best["dask_local1_jsonl"] / best["local_jsonl_1_process"],
        "local1_parquet_over_local_process": best["dask_local1_parquet"] / best["local_jsonl_1_process"],
        "local1_parquet_over_tasks_process": best["dask_local1_parquet"] / best["tasks_parquet_1_process"],
        "parquet_over_jsonl_tasks_per_cpu_second": per_cpu["tasks_parquet_1_process"]
        / per_cpu["tasks_jsonl_1_process"],
        "parquet_over_jsonl_local2": best["dask_local2_parquet"] / best["dask_local2_jsonl"],
        "parquet_over_jsonl_local2_per_cpu_second": per_cpu["dask_local2_parquet"] / per_cpu["dask_local2_jsonl"],
    }
    per_core = max(per_cpu["dask_local2_parquet"], per_cpu["dask_local2_jsonl"])
    report = {
        **_measured(args, best, per_cpu, load),
        "ratios": {k: round(v, 3) for k, v in ratios.items()},
        "cpu_efficiency_over_local_process": {
            k: round(v / per_cpu["local_jsonl_1_process"], 3) for k, v in per_cpu.items()
        },
        "cluster_startup_seconds": {f"local:{k}": round(v, 2) for k, v in startup.items()},
        "cores_for_a_billion_an_hour_at_the_best_records_per_cpu_second": round(1e9 / 3600 / per_core),
        "over_the_engine": over_engine,
    }
    _write(args, report)
    print(
        f"targets: local:2 / local:1 = {ratios['local2_over_local1_jsonl']:.2f}x JSONL, "
        f"{ratios['local2_over_local1_parquet']:.2f}x Parquet (>= 1.8x); local:1 / --local = "
        f"{ratios['local1_jsonl_over_local_process']:.0%} JSONL, {ratios['local1_parquet_over_local_process']:.0%} "
        "Parquet (>= 80%); Parquet / JSON Lines per CPU-second = "
        f"{ratios['parquet_over_jsonl_tasks_per_cpu_second']:.2f}x in one process, "
        f"{ratios['parquet_over_jsonl_local2_per_cpu_second']:.2f}x on local:2; a record over the engine's "
        f"settle = {over_engine['cost_over_engine']['local_jsonl']:.2f}x rescore --local, "
        f"{over_engine['cost_over_engine']['arrow_core_parquet']:.2f}x the Arrow core (<= 2x)"
    )


def _measured(args, best: dict, per_cpu: dict, load: list) -> dict:
    """What every report of a run starts with: its size, the host's load and the rates."""
    return {
        "count": args.count,
        "repeat": args.repeat,
        "rounds": args.rounds,
        "load_average_1min": {"min": round(min(load), 1), "max": round(max(load), 1)},
        "records_per_second": {k: round(v) for k, v in best.items()},
        "records_per_cpu_second": {k: round(v) for k, v in per_cpu.items()},
    }


def _write(args, report: dict) -> None:
    print(json.dumps(report, indent=2))
    args.output.write_text(json.dumps(report, indent=2) + "\n")


def _report_scaling(args, best: dict, per_cpu: dict, load: list) -> None:
    """``--dask-only``'s figures: the jobs' best rates and local:2 over local:1 in each format."""
    scaling = {fmt: best[f"dask_local2_{fmt}"] / best[f"dask_local1_{fmt}"] for fmt in ("jsonl", "parquet")}
    report = {
        **_measured(args, best, per_cpu, load),
        "local2_over_local1": {k: round(v, 3) for k, v in scaling.items()},
    }
    _write(args, report)
    print(f"local:2 / local:1 = {scaling['jsonl']:.2f}x JSON Lines, {scaling['parquet']:.2f}x Parquet (>= 1.8x)")


if __name__ == "__main__":
    main()

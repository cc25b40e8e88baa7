"""``shmj rescore INPUT... -o OUTDIR --dask ADDRESS|local[:N]``: the same rescoring on a Dask cluster.

The client plans partitions, has the cluster count the lines of JSON Lines ranges, then
submits one task per partition not yet complete. A task reads its range, settles it chunk by
chunk with the Arrow core (``batch.arrow``), writes its part file under a temporary name and
renames it, and reports progress to the client as it goes (Dask events). A task that fails is
retried; one lost with its worker is re-run by the scheduler. ``summary.json`` adds up the
per-part statistics in ``_stats/``, so it covers every part however many runs it took.
"""

from __future__ import annotations

import logging
import posixpath
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from multiprocessing import resource_tracker

from fsspec.core import url_to_fs

from batch.arrow import is_json_column, settle_answers, settled_in_turn
from batch.arrow_results import answers_batch
from batch.arrow_schema import RESULT, RESULT_SCHEMA, json_record
from batch.collector import collector_paused
from batch.compare import (
    CHANGES_SCHEMA,
    ChangeTally,
    Unreadable,
    bucket_of,
    check_previous,
    comparables,
    compare_comparables,
    left_out,
    lookup,
    merge_shard,
    piece,
    split_previous,
)
from batch.interrupts import Interrupts, StoppedBeforeWriting
from batch.job_kinds import REVIEW, kind_of
from batch.job_tracing import job_span, partition_span
from batch.local import answer_output, answer_record
from batch.parts import (
    Partition,
    check_output,
    count_lines,
    expand_inputs,
    input_sizes,
    numbered,
    plan_partitions,
    read_json,
    read_partition,
    url_of,
    write_json,
    writer,
)
from batch.paths import InputError
from batch.records import VERSIONED, add_counts, add_versions, count_any, new_counts
from profile_files import registry_of

PROGRESS_TOPIC = "shmj-rescore-progress"
SIZES = "input_bytes"  # the job record's sizes of its inputs, by URL (none in an earlier release's)
SHARDS_PER_WORKER = 4  # of the --compare index: enough that a worker joining later gets a share


# --- on the workers -------------------------------------------------------------------------


def _request_records(batch) -> list[dict | None]:
    """The requests of a batch (or of a JSON Lines partition's lines) as JSON records (None
    where a line is not a JSON object)."""
    from convert import json_text

    if isinstance(batch, list):
        texts = batch
    elif not is_json_column(batch.schema):
        return [json_record(row, RESULT) for row in batch.to_pylist()]
    else:
        texts = batch.column(0).to_pylist()
    out: list[dict | None] = []
    for text in texts:
        try:
            data = json_text.read_json(text or "")
        except json_text.JsonTextError:
            data = None
        out.append(data if isinstance(data, dict) else None)
    return out


class _Progress:
    """Counts sent to the client as Dask events, at most a few a second."""

    def __init__(self, topic: str):
        from distributed import get_worker

        try:
            self.worker = get_worker()
        except ValueError:  # not on a worker (called directly)
            self.worker = None
        self.topic, self.pending, self.last = topic, 0, time.monotonic()

    def add(self, records: int, final: bool = False) -> None:
        self.pending += records
        now = time.monotonic()
        if self.worker is not None and self.pending and (final or now - self.last > 0.25):
            self.worker.log_event(self.topic, {"records": self.pending})
            self.pending, self.last = 0, now


def _look_up(shard_keys: list[str], keys: list[str]) -> dict:
    """The earlier snapshots of ``keys``, each asked of the shard that holds it, on the worker
    that holds that shard (this task leaves its thread meanwhile, so that a worker of one
    thread can answer for its own shards)."""
    from distributed import Future, worker_client

    by_shard: dict[int, list[str]] = {}
    for key in dict.fromkeys(keys):
        by_shard.setdefault(bucket_of(key, len(shard_keys)), []).append(key)
    if not by_shard:
        return {}
    with worker_client() as client:
        asked = {
            b: client.submit(lookup, Future(shard_keys[b], client), wanted, pure=False)
            for b, wanted in by_shard.items()
        }
        answers = client.gather(list(asked.values()))
    found = {}
    for wanted, snapshots in zip((by_shard[b] for b in asked), answers, strict=True):
        found.update((key, snap) for key, snap in zip(wanted, snapshots, strict=True) if snap is not None)
    return found


def _settle_batch(batch, number: int, job: dict, counts: dict, part, comparing: bool) -> tuple[int, list]:
    """Settle one batch of a partition into its part file, adding to ``counts``: (its records,
    their comparables when comparing). Run with the collector paused: what it builds is freed as
    it returns, before the collector runs again, whose first allocation after the pause would
    otherwise walk it all (the answers, their dicts), once a batch."""
    fmt = job["format"]
    nested = not isinstance(batch, list)  # a list: a JSON Lines partition's lines
    if fmt == "parquet" and not comparing and not job.get("house") and nested:  # each row built in turn, counted
        batch_counts = new_counts()
        results = settled_in_turn(batch, job["profile"], job["overrides"], batch_counts)
        if results is not None:
            add_counts(counts, batch_counts)
            part.write(None, results)
            return results.num_rows, []
    answers = settle_answers(batch, number, job["profile"], job["overrides"], job.get("house"))
    if fmt == "jsonl" and not comparing:  # each answer's line written from its core result: no dict
        part.write_lines(b"".join([answer_output(answer, counts) for answer in answers]))
        return len(answers), []
    for answer in answers:
        count_any(counts, answer)
    # Parquet parts are built from the core results column by column: no answer dict
    records = None if fmt == "parquet" and not comparing else list(map(answer_record, answers))
    part.write(records, answers_batch(answers) if fmt == "parquet" else None)
    return len(answers), comparables(_request_records(batch), records) if comparing else []


def _review_batch(batch, number: int, job: dict, counts: dict, part) -> int:
    """Review one batch of a partition's hand records into its part file, adding to ``counts``:
    JSON Lines' lines, or a Parquet file's JSON column (a nested Parquet row is a SettleRequest,
    no hand record: its error record says so)."""
    from batch.records import output_line
    from batch.reviews import count_record, review_answer, review_lines

    profiles = registry_of(job["house"]) if job.get("house") else None
    if isinstance(batch, list) or is_json_column(batch.schema):
        lines = batch if isinstance(batch, list) else batch.column(0).to_pylist()
        answers = review_lines(lines, number, profiles)
    else:
        answers = [review_answer(request) for request in _request_records(batch)]
    for answer in answers:
        count_record(counts, answer)
    part.write_lines(b"".join(map(output_line, answers)))
    return len(answers)


def settle_part(partition: Partition, job: dict, previous: list[str] | None) -> dict:
    """Settle one partition into its part file; returns the part's statistics. ``previous``
    names the shards of the --compare index (their keys), or is None."""
    start = time.perf_counter()
    fs, outdir = url_to_fs(job["output"])
    fmt = job["format"]
    kind = kind_of(job)
    counts, tally = kind.new_counts(), ChangeTally()
    progress = _Progress(job["topic"])
    with ExitStack() as stack:
        part = stack.enter_context(writer(fs, posixpath.join(outdir, partition.name(fmt)), fmt, RESULT_SCHEMA))
        changes = None
        if previous is not None:
            changes_path = posixpath.join(outdir, "changes", partition.name(fmt))
            changes = stack.enter_context(writer(fs, changes_path, fmt, CHANGES_SCHEMA))
        items = []  # what the report needs of each record, a few numbers each
        for batch, number in read_partition(partition):
            with collector_paused():
                if kind is REVIEW:
                    settled, compared = _review_batch(batch, number, job, counts, part), []
                else:
                    settled, compared = _settle_batch(batch, number, job, counts, part, changes is not None)
            items += compared
            progress.add(settled)
        if changes is not None:
            found = _look_up(previous, [item.key for item in items if item.key])
            changes.write(compare_comparables(items, found, tally))
        stats = {
            "part": partition.name(fmt),
            "input": partition.url,
            "records": counts[kind.answers] + counts[kind.errors],
            **counts,
            "seconds": round(time.perf_counter() - start, 3),
        }
        if changes is not None:
            stats["changes"] = tally.as_json()
            changes.commit()
        write_json(fs, posixpath.join(outdir, "_stats", partition.name(fmt) + ".json"), stats)
        part.commit()  # last: a part file that exists is complete
    progress.add(0, final=True)
    return stats


def settle_part_task(partition: Partition, job: dict, previous: list[str] | None, trace: dict | None) -> dict:
    """`settle_part` as a task: within its span, a child of the job's span whose context
    ``trace`` carries (None: untraced; `batch.job_tracing`)."""
    attributes = {"shmj.partition": partition.name(job["format"]), "shmj.input": partition.url}
    with partition_span(trace, attributes) as span:
        stats = settle_part(partition, job, previous)
        if span is not None:
            span.set_attributes(
                {"shmj.records": stats["records"], "shmj.errors": stats["rejected"], "shmj.settled": stats["settled"]}
            )
    return stats


# --- the client -----------------------------------------------------------------------------


def is_local(address: str) -> bool:
    """``--dask local`` or ``local:N``: a cluster of worker processes on this machine."""
    return address == "local" or address.startswith("local:")


def connect(address: str):
    """A Client of the scheduler at ``address``, or of a local cluster of N worker processes."""
    from distributed import Client, LocalCluster

    if is_local(address):
        text = address.partition(":")[2] or "2"
        if not text.isdigit() or int(text) < 1:
            raise InputError(f"--dask local:N takes a number of workers, got {address!r}")
        cluster = LocalCluster(
            n_workers=int(text),
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
            silence_logs=logging.CRITICAL,
        )
        return Client(cluster)
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError) as error:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {error}") from None


def dashboard_address(client) -> str | None:
    """The scheduler's dashboard, when it serves one. A scheduler started with --no-dashboard,
    or without bokeh, still answers /health and /metrics on the dashboard's port; with the
    dashboard, ``/`` redirects to its page (a cheap answer, where the page itself takes
    seconds to render on a loaded machine)."""
    import http.client
    from urllib.parse import urlsplit

    if "dashboard" not in client.scheduler_info().get("services", {}):
        return None
    link = client.dashboard_link
    url = urlsplit(link)
    try:
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
        try:
            connection.request("GET", "/")
            answer = connection.getresponse()
            served = answer.status in (301, 302) and (answer.getheader("Location") or "").endswith("status")
        finally:
            connection.close()
    except (OSError, ValueError, http.client.HTTPException):
        return None
    return link if served else None


def _check_output_state(fs, outdir: str, job_record: dict, resume: bool, force: bool) -> None:
    """Refuse an output directory holding something else, or a file where the directory would
    be (listed, it looked like a directory not empty, and --force then failed making _stats/ in
    it); with --force, clear a job's files."""
    if fs.isfile(outdir):
        raise InputError(f"-o {outdir} is a file: --dask writes a directory of part files; name a directory")
    manifest = posixpath.join(outdir, "_job.json")
    if fs.exists(outdir) and fs.ls(outdir):
        if resume and fs.exists(manifest):
            earlier = read_json(fs, manifest)
            earlier = {"job": "rescore", **earlier}  # a record from before there were two kinds of job
            differs = [key for key in job_record if key != SIZES and earlier.get(key) != job_record[key]]
            if differs:
                raise InputError(
                    f"--resume: {outdir} holds another job's output ({', '.join(differs)} differ); "
                    "use a new directory or --force"
                )
            _refuse_changed_inputs(outdir, earlier.get(SIZES), job_record[SIZES])
        elif force:
            for name in fs.ls(outdir, detail=False):
                base = posixpath.basename(name.rstrip("/"))
                if base.startswith(("part-", ".part-", "_stats", "_job.json", "changes", "summary.json")):
                    fs.rm(name, recursive=True)
        elif not resume:
            raise InputError(f"{outdir} is not empty: --resume to continue the job in it, --force to start over")
        else:
            raise InputError(f"--resume: {outdir} holds no job manifest (_job.json); use a new directory")


def _refuse_changed_inputs(outdir: str, then: dict | None, now: dict) -> None:
    """Refuse to resume a job whose inputs are no longer the size they were when it began: its
    parts were cut from those bytes, so lines added or removed since would be missed or written
    twice, and the job still said complete. A record of an earlier release has no sizes (None):
    it resumes as it did."""
    if then is None:
        return
    for url, size in now.items():
        if then.get(url) != size:
            raise InputError(
                f"--resume: the input {url} has changed since the job in {outdir} began "
                f"({then.get(url)} bytes then, {size} now); use a new directory or --force"
            )


def _write_manifest(fs, outdir: str, job_record: dict) -> None:
    fs.makedirs(posixpath.join(outdir, "_stats"), exist_ok=True)
    if job_record["compare"]:
        fs.makedirs(posixpath.join(outdir, "changes"), exist_ok=True)
    write_json(fs, posixpath.join(outdir, "_job.json"), job_record)


def _stale_temporaries(fs, outdir: str) -> None:
    for directory in (outdir, posixpath.join(outdir, "changes"), posixpath.join(outdir, "_stats")):
        if fs.exists(directory):
            for name in fs.ls(directory, detail=False):
                if posixpath.basename(name).startswith(".") and name.endswith(".tmp"):
                    fs.rm(name)


def run_job(
    inputs: list[str],
    output: str,
    address: str,
    fmt: str = "jsonl",
    profile: str | None = None,
    overrides: dict | None = None,
    house: list | None = None,
    previous: str | None = None,
    resume: bool = False,
    force: bool = False,
    block_bytes: int = 64 << 20,
    retries: int = 2,
    progress: bool = True,
    client=None,
    tracer=None,
    kind: str = "rescore",
) -> dict:
    """Run the job; returns the summary (also written to OUTDIR/summary.json). Its seconds
    count from when the cluster is reached: starting a local one is not the job's time. With
    an OpenTelemetry ``tracer``, the job is a span and each partition task a child span on its
    worker (`batch.job_tracing`)."""
    check_output(output, inputs, [previous] if previous else [])
    if previous:  # here, on the client, before anything is written: the workers read it once the job has begun
        check_previous([previous])
    files = expand_inputs(inputs)
    fs, outdir = url_to_fs(output)
    job_record = {
        "job": kind,  # rescore, or review (batch.job_kinds)
        "inputs": [url for url, _ in files],
        SIZES: input_sizes(files),
        "format": fmt,
        "profile": profile,
        "overrides": overrides or {},
        "house": house or [],  # the house profiles as data: a worker may not see the directory
        "compare": previous,
        "block_bytes": block_bytes,
    }
    partitions = plan_partitions(files, block_bytes)
    _check_output_state(fs, outdir, job_record, resume, force)
    with Interrupts() as interrupts:
        own_client = client is None
        if own_client:  # before writing anything: a scheduler out of reach leaves no trace
            client = _connected(address, interrupts)
        interrupts.noted_only()  # from here a signal stops the job between its steps and in its waits (_run)
        start = time.perf_counter()
        try:
            attributes = {"shmj.inputs": len(files), "shmj.output": output, "shmj.format": fmt}
            with job_span(tracer, f"shmj {kind}", attributes) as trace:
                carrier = None if trace is None else trace.carrier
                # where the workers write, whatever their directory: a local path made absolute
                # here, as the inputs' are (`expand_inputs`), a URL as it is
                job = dict(job_record, output=url_of(fs, outdir))
                summary = _run(client, partitions, job, previous, retries, progress, start, interrupts, carrier)
                if trace is not None:
                    failed = summary["failed_parts"]
                    outcome = summary["stopped"] or (f"{len(failed)} part(s) failed" if failed else None)
                    trace.ended_with(job_attributes(summary), outcome)
            return summary
        finally:
            if own_client:
                _close(client)


def _connected(address: str, interrupts: Interrupts):
    """``connect(address)``; StoppedBeforeWriting if a signal comes first. A local cluster is left
    to finish starting, then closed (stopped midway, distributed prints a traceback of its own);
    its worker processes, and the thread of its event loop that starts them, are started with
    SIGINT and SIGTERM blocked: a terminal's Ctrl-C reaches the whole process group, and the job
    alone decides what a signal stops. Reaching a scheduler stops at once."""
    try:
        if is_local(address):
            interrupts.noted_only()
            # multiprocessing's resource tracker, started from a thread, unblocks SIGINT and
            # SIGTERM in it after (the cluster's event loop, which starts the workers): started
            # here first, before they are blocked, it is already running then
            resource_tracker.ensure_running()
            with interrupts.deaf_children():
                client = connect(address)
        else:
            client = connect(address)
        interrupts.noted_only()
    except KeyboardInterrupt:
        raise StoppedBeforeWriting(interrupts.reason) from None
    if interrupts.came:
        _close(client)
        raise StoppedBeforeWriting(interrupts.reason)
    return client


def _close(client) -> None:
    """The client, and the local cluster it started."""
    cluster = client.cluster
    client.close()
    if cluster is not None:
        cluster.close()


def job_attributes(summary: dict) -> dict:
    """What the job's span says of its outcome."""
    return {
        "shmj.parts": summary["parts"],
        "shmj.parts_complete": summary["parts_complete"],
        "shmj.failed_parts": len(summary["failed_parts"]),
        "shmj.records": summary["records_this_run"],
        "shmj.errors": summary["rejected"],
        "shmj.skipped_by_resume": summary["skipped_by_resume"],
    }


def _run(client, partitions, job, previous, retries, progress, start, interrupts, trace=None) -> dict:
    """The job on the cluster; ``trace``: the job span's context, sent with each task. Ctrl-C or
    SIGTERM (``interrupts``) at any step stops it: the tasks sent are cancelled, and the summary
    counts the parts complete on disk, which --resume keeps."""
    fs, outdir = url_to_fs(job["output"])
    fmt = job["format"]
    futures: dict = {}
    failed: list[dict] = []
    unreadable: list = []  # of each earlier-results file, the lines it left out (futures)
    skipped = 0
    done: set[int] | None = None  # the parts complete when this run began, once looked at
    bar, lock = None, threading.Lock()
    try:
        _write_manifest(fs, outdir, {key: value for key, value in job.items() if key != "output"})
        _stale_temporaries(fs, outdir)
        interrupts.check()
        link = dashboard_address(client)
        if link and progress:
            print(f"Dask dashboard: {link}", file=sys.stderr)
        lines = [p for p in partitions if p.kind == "jsonl"]
        counting = client.map(
            count_lines, [p.url for p in lines], [p.start for p in lines], [p.stop for p in lines], pure=False
        )
        for _ in _completed(counting, interrupts):
            pass
        counted = client.gather(counting)
        interrupts.check()
        partitions = numbered(partitions, {p.index: n for p, n in zip(lines, counted, strict=True)})
        fs.invalidate_cache()  # an object store's listing cached before this run is out of date
        done = {p.index for p in partitions if fs.exists(posixpath.join(outdir, p.name(fmt)))}
        todo = [p for p in partitions if p.index not in done]
        total = sum(p.records for p in partitions)
        skipped = sum(p.records for p in partitions if p.index in done)
        shards, unreadable = previous_index(client, previous) if previous else (None, [])
        index = [shard.key for shard in shards] if shards else None
        job = dict(job, topic=f"{PROGRESS_TOPIC}-{uuid.uuid4().hex}")
        if progress and sys.stderr.isatty():  # a bar in a log file is a line of carriage returns
            from tqdm import tqdm

            bar = tqdm(total=total, initial=skipped, unit=" hands", file=sys.stderr, dynamic_ncols=True, smoothing=0.1)

            def on_event(event) -> None:
                with lock:
                    bar.update(event[1]["records"])

            client.subscribe_topic(job["topic"], on_event)

        for p in todo:
            key = f"shmj-{p.name(fmt)}-{uuid.uuid4().hex}"
            futures[client.submit(settle_part_task, p, job, index, trace, retries=retries, pure=False, key=key)] = p
        for future in _completed(futures, interrupts):
            partition = futures[future]
            if future.status == "error":
                failed.append(
                    {"part": partition.name(fmt), "input": partition.url, "error": failure_said(future.exception())}
                )
        for _ in _completed(unreadable, interrupts):  # split by now, unless every part was done before
            pass
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: stop, say where the job stands; --resume goes on from there
        client.cancel(list(futures))  # a task already writing its part may still finish it
    seconds = time.perf_counter() - start
    summary = _summary(fs, outdir, fmt, partitions, job, failed, skipped, done, seconds, _left_out(client, unreadable))
    if bar is not None:
        client.unsubscribe_topic(job["topic"])
        with lock:
            bar.n = skipped + summary["records_this_run"]
            bar.close()
    stopped = interrupts.reason if interrupts.came and summary["parts_complete"] < len(partitions) else None
    summary["interrupted"] = stopped is not None
    summary["stopped"] = stopped
    write_json(fs, posixpath.join(outdir, "summary.json"), summary)
    return summary


def failure_said(error: BaseException) -> str:
    """A part's failure in one line of at most 300 characters, its type then its message, for the
    terminal and summary.json: ``repr`` of a UnicodeDecodeError holds every byte it was decoding
    (8 KB of a user's file), and an error of Arrow's runs over several lines."""
    message = " ".join(str(error).split())
    said = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return said if len(said) <= 300 else said[:299] + "…"


def _completed(futures, interrupts: Interrupts) -> Iterator:
    """The futures as they complete. A signal stops the wait, whether it comes while it waits
    or came before: only there, never inside a call of the client's, which a KeyboardInterrupt
    can leave with a callback failing in its event loop (distributed's sync)."""
    from distributed import as_completed

    waiting = as_completed(futures)
    while (future := interrupts.interruptible(lambda: next(waiting, None))) is not None:
        yield future


def previous_shards(client, previous: str) -> list:
    """The --compare index as shards spread over the workers (``previous_index``)."""
    return previous_index(client, previous)[0]


def previous_index(client, previous: str) -> tuple[list, list]:
    """The --compare index as shards spread over the workers, SHARDS_PER_WORKER each, and the
    lines each earlier-results file left out (a future of its ``Unreadable``): each file is
    split by a hash of the request id, then each shard gathers its piece of every file. The
    pieces are let go once the shards hold them: of a split, the client keeps a few numbers."""
    files = expand_inputs([previous])
    workers = sorted(client.scheduler_info()["workers"]) or [None]
    shards = len(workers) * SHARDS_PER_WORKER
    splits = client.map(
        split_previous, [url for url, _ in files], [kind for _, kind in files], buckets=shards, pure=False
    )
    index = [
        client.submit(
            merge_shard,
            [client.submit(piece, s, b, pure=False) for s in splits],
            pure=False,
            # shard b on worker b mod N (where the pieces of one file are, all of them would
            # go otherwise); elsewhere when that worker is gone
            workers=None if workers[b % len(workers)] is None else [workers[b % len(workers)]],
            allow_other_workers=True,
        )
        for b in range(shards)
    ]
    return index, [client.submit(left_out, s, pure=False) for s in splits]


def _left_out(client, futures: list) -> Unreadable | None:
    """The lines the earlier results left out, in file order; None when a file of them was not
    split (a job stopped before, a file gone since it was checked): the report then says nothing
    of them rather than a count of none."""
    if not futures or any(future.status != "finished" for future in futures):
        return None
    total = Unreadable()
    for unreadable in client.gather(futures):
        total.add(unreadable)
    return total


def _summary(fs, outdir, fmt, partitions, job, failed, skipped, earlier, seconds, unreadable=None) -> dict:
    """The counts of every part complete on disk; this run's records, those of the parts that
    were not complete when it began (``earlier``: their indices, None before it looked); with
    --compare, the lines the earlier results left out (``unreadable``, None when not known)."""
    kind = kind_of(job)
    totals = kind.new_counts() if kind is REVIEW else dict(records=0, **new_counts())
    tally = ChangeTally()
    complete = written = 0
    fs.invalidate_cache()  # the workers wrote the parts: listings cached here are out of date
    for p in partitions:
        path = posixpath.join(outdir, "_stats", p.name(fmt) + ".json")
        if fs.exists(posixpath.join(outdir, p.name(fmt))) and fs.exists(path):
            stats = read_json(fs, path)
            complete += 1
            if earlier is not None and p.index not in earlier:
                written += stats.get("records", 0)
            if kind is REVIEW:
                kind.add_counts(totals, kind.counts_of_summary(stats) or kind.new_counts())
                continue
            for key in totals:
                if key not in VERSIONED:
                    totals[key] += stats.get(key, 0)  # a part written before a count was added has none
            add_versions(totals, stats)
            if "changes" in stats:
                tally.add(ChangeTally.from_json(stats["changes"]))
    summary = dict(
        kind.reported(totals),
        parts=len(partitions),
        parts_complete=complete,
        failed_parts=failed,
        records_this_run=written,
        skipped_by_resume=skipped,
        seconds=round(seconds, 3),
        records_per_second=round(written / seconds, 1) if seconds else 0.0,
        inputs=job["inputs"],
        output=job["output"],
        format=fmt,
        profile=job["profile"],
        overrides=job["overrides"],
    )
    if kind is REVIEW:
        summary["job"] = kind.name
    if job["compare"]:
        summary["compare"] = job["compare"]
        summary["changes"] = dict(tally.as_json(), **(unreadable.as_json() if unreadable else {}))
    return summary

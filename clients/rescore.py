"""``shmj rescore IN.jsonl -o OUT.jsonl``: re-settle recorded hands, one output line per input line.

The input is read as a stream of numbered lines (``batch.lines``); worker processes
(``rescore_workers``) settle them in chunks, with rules_core or through SettleBatch calls to
a server, and a bounded window of chunks in flight keeps memory flat and the output in input
order. ``--local --workers 1`` settles the chunks in this process, one after the other. ``--dask`` runs the same job on a cluster (``batch.dask_job``).

- A line that cannot be settled (bad JSON included) becomes an error line; it
  never stops the job or costs another line.
- A failure of the server itself (unavailable, deadline) stops the job after
  writing every line before the failed chunk; ``--resume`` continues from the
  first line not written, so nothing is redone or duplicated.
- ``--resume`` goes on only with this job's output: settled under the settings its
  summary records, its last complete line answering the input's line at its place.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

from batch.interrupts import EXIT_CODES, Interrupts
from batch.job_kinds import RESCORE, JobKind, kind_of
from batch.lines import InputChanged, InputState, count_lines, is_parquet, numbered_chunks
from batch.paths import refuse_same_file, same_file
from clients.cli_args import UsageError
from clients.rescore_report import changes_lines, dask_summary_line, local_summary_line
from clients.rescore_resume import earlier_counts, last_summary, lines_kept
from clients.rescore_workers import ServerFailure, init_worker, local_settings, settle_chunk


@dataclass
class Summary:
    """The counts of the whole output, across the runs that wrote it (``--resume``), and this run's."""

    lines: int = 0  # in the output
    input_lines: int = 0
    lines_this_run: int = 0
    skipped_by_resume: int = 0  # lines already in the output when this run started
    seconds: float = 0.0  # this run
    stopped: str | None = None  # why this run ended before the input did: "interrupted", the server's error
    settings: dict = field(default_factory=dict)  # what decides the answers (`answer_settings`), for --resume
    kind: JobKind = RESCORE  # how the answers are counted
    counts: dict = field(default_factory=RESCORE.new_counts)  # the kind's: settled, rejected, ... or reviewed, ...

    @property
    def complete(self) -> bool:
        """Every line of the input in the output, the input unchanged since it was read."""
        return self.lines == self.input_lines and self.stopped is None

    @property
    def lines_per_second(self) -> float:
        return self.lines_this_run / self.seconds if self.seconds else 0.0

    def add(self, counts: dict) -> None:
        self.kind.add_counts(self.counts, counts)

    def as_json(self) -> dict:
        """The summary's fields, the kind's counts among them (rescore's as they always were)."""
        out = {"lines": self.lines, **self.kind.reported(self.counts)}
        for key in ("input_lines", "lines_this_run", "skipped_by_resume", "seconds", "stopped", "settings"):
            out[key] = getattr(self, key)
        return out


def answer_settings(settings: dict) -> dict:
    """What decides a job's answers: the rules (profile, overrides, house profiles) and what
    settles (this process, or which server). The summary records them, as JSON has them, and
    --resume goes on only under the same: one output never mixes two jobs' answers."""
    local = bool(settings["local"])
    chosen = {
        "job": kind_of(settings).name,
        "local": local,
        "target": None if local else settings.get("target"),
        "profile": settings.get("profile"),
        "overrides": settings.get("overrides") or {},
        "house": settings.get("house") or [],
    }
    return json.loads(json.dumps(chosen))


def summary_path_of(output_path: Path, summary: str | None = None) -> Path:
    return Path(summary or f"{output_path}.summary.json")


def run_rescore(
    input_path: Path,
    output_path: Path,
    settings: dict,
    workers: int = 2,
    chunk: int = 500,
    resume: bool = False,
    progress: bool = True,
    summary_path: Path | None = None,
) -> Summary:
    """Settle the input into the output; the summary covers the whole output. A run that ends
    early (Ctrl-C, a server failure, a worker killed) says why in ``stopped``, every line before
    it written whole, so that ``--resume`` goes on from there."""
    kind = kind_of(settings)
    summary = Summary(settings=answer_settings(settings), kind=kind, counts=kind.new_counts())
    summary_path = summary_path or summary_path_of(output_path)
    start = time.perf_counter()
    with Interrupts() as interrupts:
        state, counted = None, False
        try:
            state = InputState.of(input_path)
            last = last_summary(summary_path)
            skip = 0
            if resume and output_path.exists():  # the output's lines checked against the input's
                skip, summary.input_lines = lines_kept(input_path, state, output_path, last, summary.settings)
                counted = bool(skip)
            bar = progress and sys.stderr.isatty()  # a bar in a log file is a line of carriage returns
            if bar and not counted:  # the bar's total
                summary.input_lines = count_lines(input_path, state.size)
                counted = True
            if not skip:  # a summary of no line kept, a job this one replaces: gone before it writes
                summary_path.unlink(missing_ok=True)
            earlier = earlier_counts(output_path, last, skip, kind)
            with interrupts.held():  # the lines kept and their counts, both or neither
                summary.lines = summary.skipped_by_resume = skip
                summary.add(earlier)
            _settle_into(input_path, state, output_path, settings, workers, chunk, resume, bar, summary, interrupts)
        except KeyboardInterrupt:
            summary.stopped = interrupts.reason
        interrupts.noted_only()  # the job is over: a signal from here on stops nothing
        if state is not None:
            _ended(input_path, state, summary, counted)
    summary.seconds = time.perf_counter() - start
    return summary


def _ended(input_path: Path, state: InputState, summary: Summary, counted: bool) -> None:
    """The input's lines, where the job did not count them first (no pass over the whole file,
    0.2 CPU µs a line, where none needs it: a job that ended as it should read every line). A
    signal that came once every line was written stopped nothing, as --dask has it: the job is
    complete, not one to resume."""
    if not counted:
        summary.input_lines = summary.lines if summary.stopped is None else count_lines(input_path, state.size)
    if summary.stopped in EXIT_CODES and summary.lines == summary.input_lines and _unchanged(input_path, state):
        summary.stopped = None


def _unchanged(input_path: Path, state: InputState) -> bool:
    """The input as the job found it (the check at the job's end, which a signal may have cut)."""
    try:
        return InputState.of(input_path) == state
    except OSError:
        return False


def _settle_into(
    input_path, state, output_path, settings, workers, chunk, resume, show_bar, summary, interrupts
) -> None:
    bar = _progress_bar(summary) if show_bar else None
    here = workers == 1 and settings["local"]
    try:
        with open(output_path, "ab" if resume else "wb") as out:

            def write(answered: tuple[bytes, int, dict]) -> None:
                block, written, counts = answered
                out.write(block)
                out.flush()
                summary.lines += written
                summary.lines_this_run += written
                summary.add(counts)
                if bar is not None:
                    bar.update(written)

            chunks = numbered_chunks(input_path, state, summary.lines, chunk)
            if here:
                changed = _settled_here(chunks, local_settings(settings), write, interrupts)
            else:
                changed = _settled_in_pool(chunks, settings, workers, write, interrupts)
        if changed is None:
            state.check(input_path)  # the whole file as it was: did it stay so?
        summary.stopped = changed
    except InputChanged as error:
        summary.stopped = str(error)
    except ServerFailure as error:
        summary.stopped = str(error)
    except BrokenProcessPool:
        summary.stopped = "a worker process died"
    except KeyboardInterrupt:
        summary.stopped = interrupts.reason
    finally:
        if bar is not None:
            bar.close()


def _progress_bar(summary: Summary):
    from tqdm import tqdm

    return tqdm(
        total=summary.input_lines,
        initial=summary.lines,
        unit=" hands",
        file=sys.stderr,
        dynamic_ncols=True,
        smoothing=0.1,
    )


def _settled_here(chunks, job: dict, write, interrupts: Interrupts) -> str | None:
    """``--local --workers 1``: each chunk settled in this process by the pool workers' own
    function, then written, with no process to start and feed (the lines pickled to it, its
    blocks back: 2-4 CPU µs a record, docs/PERFORMANCE.md). Ctrl-C or SIGTERM waits for the
    chunk under way to be written whole, so that no signal lands inside the rules or the
    collector's pause; returns why the input stopped early (it changed), or None."""
    try:
        for work in chunks:
            with interrupts.held():
                write(settle_chunk(work, job))
    except InputChanged as error:
        return str(error)  # the lines read before are settled and written all the same
    return None


def _settled_in_pool(chunks, settings: dict, workers: int, write, interrupts: Interrupts) -> str | None:
    """The chunks settled by worker processes, a bounded window of them in flight, each written
    in input order as it comes back; returns why the input stopped early (it changed), or None."""
    window: deque[Future] = deque()
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=get_context("spawn"),
        initializer=init_worker,
        initargs=(settings, os.getpid()),
    )

    def write_one() -> None:
        answered = window.popleft().result()
        with interrupts.held():
            write(answered)

    finished = False
    try:
        try:
            for work in chunks:
                with interrupts.held(), interrupts.deaf_children():
                    window.append(pool.submit(settle_chunk, work))
                if len(window) >= workers * 2:
                    write_one()
        except InputChanged as error:
            changed = str(error)  # the lines read before are settled and written all the same
        else:
            changed = None
        while window:
            write_one()
        finished = changed is None
        return changed
    finally:
        for pending in window:
            pending.cancel()
        # After a failure or Ctrl-C, do not wait here for the chunks still being settled: the
        # summary is written first (the workers finish their chunk and exit with this process).
        with interrupts.held():  # a finished pool's workers reaped, whenever a signal comes
            pool.shutdown(wait=finished, cancel_futures=True)


def job_attributes(summary: Summary) -> dict:
    """What the job's span says of its outcome (the counts cover the whole output)."""
    kind = summary.kind
    return {
        "shmj.records": summary.lines_this_run,
        f"shmj.{kind.answers}": summary.counts[kind.answers],
        "shmj.errors": summary.counts[kind.errors],
        "shmj.skipped_by_resume": summary.skipped_by_resume,
    }


def rescore_command(args, overrides: dict, house: list) -> int:
    """``overrides``: the ``--override`` pairs as a partial RuleProfile; ``house``: the house
    profiles of ``--profiles-dir`` as data (both read and checked by the CLI)."""
    if args.dask:
        return dask_command(args, overrides, house)
    if args.format != "jsonl":
        raise UsageError(f"--format {args.format} needs --dask (--dask local:1 runs on this machine)")
    input_path, output_path, summary_path = local_paths(args)
    if args.compare:
        if same_file(Path(args.compare), output_path):
            raise UsageError(
                f"the output {output_path} is the --compare file, the earlier results it is to be compared with; "
                "choose another -o"
            )
        from batch.compare import check_previous

        check_previous([args.compare])  # earlier results that cannot be read at all: refused before the job
    settings = dict(connection_settings(args), job="rescore", profile=args.profile, overrides=overrides, house=house)
    return run_local_command(args, settings, input_path, output_path, summary_path)


def local_paths(args) -> tuple[Path, Path, Path]:
    """The input, output and summary of a job on this machine (``--local`` or a server), each
    checked before anything is written: one JSON Lines file in, never written over."""
    if len(args.input) > 1:
        raise UsageError(f"{len(args.input)} inputs need --dask (--dask local:1 runs on this machine)")
    input_path, output_path = Path(args.input[0]), Path(args.output)
    if not input_path.exists():
        raise UsageError(f"no such input file: {input_path}")
    if input_path.is_dir():
        raise UsageError(f"the input {input_path} is a directory, not a JSON Lines file")
    if is_parquet(input_path):
        raise UsageError(f"{input_path} is a Parquet file: Parquet needs --dask (--dask local:1 runs on this machine)")
    refuse_same_file(input_path, output_path)
    if output_path.is_dir():
        raise UsageError(f"the output {output_path} is a directory; -o names the JSON Lines file to write")
    summary_path = summary_path_of(output_path, args.summary)
    for other, name in ((input_path, "input file"), (output_path, "output")):
        if same_file(summary_path, other):
            raise UsageError(f"--summary {summary_path} is the {name}; choose another")
    if output_path.exists() and not (args.resume or args.force):
        raise UsageError(f"{output_path} exists: --resume to continue it, --force to overwrite it")
    return input_path, output_path, summary_path


def connection_settings(args) -> dict:
    """Where the answers are computed: in this process, or which server and how to reach it."""
    return {
        "local": args.local,
        "target": args.target,
        "tls": args.tls,
        "ca": args.ca,
        "cert": args.cert,
        "key": args.key,
        "timeout": args.timeout,
    }


def run_local_command(args, settings: dict, input_path: Path, output_path: Path, summary_path: Path) -> int:
    """Run a job on this machine within its span, write its summary and say how it ended."""
    from batch.job_tracing import job_span
    from clients import trace_context

    kind = kind_of(settings)
    attributes = {"shmj.inputs": 1, "shmj.output": str(output_path), "shmj.format": "jsonl"}
    with job_span(trace_context.TRACER, f"shmj {kind.name}", attributes) as trace:
        settings["trace"] = None if trace is None else trace.carrier  # the workers' calls carry it
        summary = run_rescore(
            input_path,
            output_path,
            settings,
            args.workers,
            args.chunk,
            args.resume,
            not args.no_progress,
            summary_path,
        )
        if trace is not None:
            trace.ended_with(job_attributes(summary), summary.stopped)
    report = dict(
        summary.as_json(),
        complete=summary.complete,
        lines_per_second=round(summary.lines_per_second, 1),
        input=str(input_path),
        output=str(output_path),
        output_bytes=output_path.stat().st_size if output_path.exists() else 0,
    )
    if getattr(args, "compare", None) and summary.stopped is None:
        from batch.compare import compare_files

        report["changes"] = compare_files(input_path, output_path, args.compare, Path(f"{output_path}.changes.jsonl"))
    summary_path.write_text(json.dumps(report, indent=2) + "\n")
    if summary.stopped in EXIT_CODES:
        print(
            f"shmj {kind.name}: {summary.stopped} after line {summary.lines}; run again with --resume to continue",
            file=sys.stderr,
        )
        return EXIT_CODES[summary.stopped]
    if summary.stopped is not None:
        print(
            f"shmj {kind.name}: stopped after line {summary.lines}: {summary.stopped}; "
            "run again with --resume to continue",
            file=sys.stderr,
        )
        return 1
    print(local_summary_line(report, str(summary_path)), file=sys.stderr)
    if "changes" in report:
        for line in changes_lines(report["changes"], f"{output_path}.changes.jsonl"):
            print(line, file=sys.stderr)
    return 0


def dask_command(args, overrides: dict, house: list, kind: str = "rescore") -> int:
    """``shmj rescore --dask`` (or ``shmj review -o --dask``): the job run on a cluster, its
    summary said in a few lines."""
    from batch.dask_job import run_job
    from batch.interrupts import StoppedBeforeWriting
    from clients import trace_context

    try:
        summary = run_job(
            args.input,
            args.output,
            args.dask,
            fmt=args.format,
            profile=args.profile if kind == "rescore" else None,
            overrides=overrides,
            house=house,
            previous=getattr(args, "compare", None),
            resume=args.resume,
            force=args.force,
            block_bytes=max(1, int(args.block_size * (1 << 20))),
            retries=args.retries,
            progress=not args.no_progress,
            tracer=trace_context.TRACER,  # the command's, when OTEL_* variables turn tracing on
            kind=kind,
        )
    except StoppedBeforeWriting as stop:
        print(f"shmj {kind}: {stop.reason} before the job began; nothing was written", file=sys.stderr)
        return EXIT_CODES[stop.reason]
    print(dask_summary_line(summary, args.output), file=sys.stderr)
    if "changes" in summary:
        for line in changes_lines(summary["changes"], f"{args.output}/changes"):
            print(line, file=sys.stderr)
    if summary["stopped"] is not None:
        print(f"shmj {kind}: {summary['stopped']}; run again with --resume to finish the job", file=sys.stderr)
        return EXIT_CODES[summary["stopped"]]
    if summary["failed_parts"]:
        for failure in summary["failed_parts"]:
            print(f"shmj {kind}: {failure['part']} ({failure['input']}) failed: {failure['error']}", file=sys.stderr)
        print(f"shmj {kind}: run again with --resume to finish the job", file=sys.stderr)
        return 1
    return 0

"""The flags of ``shmj rescore`` and of ``shmj review -o`` (the same job runner); light, so that
building the parser stays quick."""

from __future__ import annotations

import argparse
import os

from clients import cli_args as check


def add_rescore_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "input", nargs="+", help="JSON Lines of SettleRequest (proto3 JSON mapping); with --dask, files, globs or dirs"
    )
    add_job_arguments(parser, "JSON Lines of SettleResponse or error, one per input line", required=True)


def add_job_arguments(parser: argparse.ArgumentParser, output: str, required: bool) -> None:
    """-o and the flags of a job that answers each input line with an output line."""
    parser.add_argument(
        "-o",
        "--output",
        required=required,
        type=check.output_path,
        help=f"{output}, never the input (--dask: a dir)",
    )
    parser.add_argument(
        "--workers",
        type=check.positive_int,
        default=os.cpu_count() or 1,
        help="worker processes (streams to the server, or local rule engines; default one per core); "
        "--local --workers 1 settles in this process",
    )
    parser.add_argument(
        "--chunk",
        type=check.positive_int,
        default=500,
        help="lines per work unit and per SettleBatch call (default 500)",
    )
    parser.add_argument("--resume", action="store_true", help="continue an interrupted run into the same output")
    parser.add_argument("--force", action="store_true", help="overwrite an existing output")
    parser.add_argument("--summary", type=check.writable_path, help="summary JSON file (default: OUTPUT.summary.json)")
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (one shows only when stderr is a terminal) and no Dask dashboard line",
    )


def add_batch_arguments(parser: argparse.ArgumentParser, rescore: bool = True) -> None:
    """The flags of a job on Dask; ``rescore``: with rescore's own (Parquet parts, --compare)."""
    group = parser.add_argument_group("on a Dask cluster (INPUT... and -o OUTDIR, a directory of part files)")
    group.add_argument("--dask", metavar="ADDRESS|local[:N]", help="a scheduler (tcp://host:8786) or local:N workers")
    formats = ("jsonl", "parquet") if rescore else ("jsonl",)
    group.add_argument("--format", choices=formats, default="jsonl", help="part files' format (default jsonl)")
    group.add_argument(
        "--block-size", type=check.number(0, above=True), default=64.0, help="MB of input per partition (default 64)"
    )
    group.add_argument("--retries", type=check.count, default=2, help="times a failed task is tried again (default 2)")
    if not rescore:
        return
    parser.add_argument(
        "--compare",
        metavar="PREVIOUS",
        help="earlier results (file, glob or directory; JSONL or Parquet): report what changed, by request id",
    )

"""The flags of ``shmj rescore`` for batch jobs; light, so that building the parser stays quick."""

from __future__ import annotations

import argparse

from clients import cli_args as check


def add_batch_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("on a Dask cluster (INPUT... and -o OUTDIR, a directory of part files)")
    group.add_argument("--dask", metavar="ADDRESS|local[:N]", help="a scheduler (tcp://host:8786) or local:N workers")
    group.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl", help="part files' format")
    group.add_argument(
        "--block-size", type=check.number(0, above=True), default=64.0, help="MB of input per partition (default 64)"
    )
    group.add_argument("--retries", type=check.count, default=2, help="times a failed task is tried again (default 2)")
    parser.add_argument(
        "--compare",
        metavar="PREVIOUS",
        help="earlier results (file, glob or directory; JSONL or Parquet): report what changed, by request id",
    )

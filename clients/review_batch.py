"""``shmj review IN.jsonl -o OUT.jsonl``: review hand records in bulk (复盘), one output line per
input line, by ``shmj rescore``'s own job runner (``clients.rescore``: in this process, through
ReviewRecord calls to a server, or on Dask with ``--dask``), with its ``--resume``, its error
lines and its summary beside the output, which adds up the reviews (``batch.reviews``)."""

from __future__ import annotations

from clients.cli_args import UsageError

# What only a job with -o reads: given without -o, it would be ignored.
_JOB_FLAGS = (("resume", "--resume"), ("force", "--force"), ("summary", "--summary"), ("dask", "--dask"))


def one_record_only(args) -> None:
    """``shmj review FILE`` without -o reviews one record and prints it: one FILE, no job flags."""
    if len(args.input) > 1:
        raise UsageError(
            f"{len(args.input)} files given: one record is reviewed at a time, or -o OUT for a file of them"
        )
    for name, flag in _JOB_FLAGS:
        if getattr(args, name):
            raise UsageError(f"{flag} goes with -o OUT (a file of records reviewed into another)")
    args.file = args.input[0]


def review_batch_command(args, house: list) -> int:
    """Review the records of ``args.input`` into ``args.output``; ``house``: the house profiles
    of ``--profiles-dir`` as data (read and checked by the CLI)."""
    from clients.rescore import connection_settings, dask_command, local_paths, run_local_command

    if args.line is not None:
        raise UsageError("--line picks one record to print; with -o every line of the file is reviewed")
    if args.json:
        raise UsageError("--json prints one review; with -o every review is a JSON line of the output")
    if args.dask:
        return dask_command(args, {}, house, kind="review")
    if "-" in args.input:
        raise UsageError("-o reads a file (its lines are counted, and read again by --resume), not stdin")
    input_path, output_path, summary_path = local_paths(args)
    # each record reviewed under its own rules: the job re-settles under no other profile
    settings = dict(connection_settings(args), job="review", profile=None, overrides={}, house=house)
    return run_local_command(args, settings, input_path, output_path, summary_path)

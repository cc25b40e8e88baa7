"""What ``shmj rescore --local --resume`` keeps of an output: its complete lines, once they are
known to be this job's (the settings its summary recorded, its last line answering the input's
line at that place), and their counts; else one line saying why not, the output left as it was."""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path

from batch.job_kinds import RESCORE, JobKind
from batch.lines import MAX_LINE_BYTES, InputState, count_lines_and_line
from batch.records import request_id_of
from clients.cli_args import UsageError

START_OVER = "use a new output, or run without --resume (and with --force) to start over"
LONGEST_ANSWER = 4 * MAX_LINE_BYTES  # an answer is a few thousand bytes: a longer line's id is not looked at


def _complete_lines(path: Path) -> tuple[int, int]:
    """The complete lines of a partial output, and their bytes: a torn last line is not one."""
    count = 0
    last_newline = -1
    with open(path, "rb") as file:
        offset = 0
        while block := file.read(1 << 20):
            count += block.count(b"\n")
            index = block.rfind(b"\n")
            if index >= 0:
                last_newline = offset + index
            offset += len(block)
    return count, last_newline + 1


def lines_kept(
    input_path: Path, state: InputState, output_path: Path, last: dict | None, settings: dict
) -> tuple[int, int]:
    """(the lines of the output a resumed job keeps, the input's lines when it keeps any): its
    complete lines, once they are known to be this job's; a torn last line is dropped. Else a
    UsageError, the output left as it was. The input is read once, to count its lines."""
    lines, whole = _complete_lines(output_path)
    input_lines = 0
    if lines:
        _check_settings(output_path, last, settings)
        input_lines, asked = count_lines_and_line(input_path, state.size, lines)
        if lines > input_lines:
            raise UsageError(
                f"{output_path} has {lines} lines but {input_path} only {input_lines}: it is not this input's output"
            )
        _check_last_line(output_path, lines, last_line(output_path, whole), asked)
    with open(output_path, "r+b") as file:
        file.truncate(whole)
    return lines, input_lines


def _check_settings(output_path: Path, last: dict | None, settings: dict) -> None:
    """Refuse an output whose summary says it was settled under other rules or by another server
    (`answer_settings`), as --dask refuses a directory whose _job.json differs. A summary written
    before it recorded them, or none (a job killed outright), says nothing here."""
    recorded = last.get("settings") if isinstance(last, dict) else None
    if not isinstance(recorded, dict):
        return
    recorded = {"job": "rescore", **recorded}  # a summary from before there were two kinds of job
    differs = [key for key in settings if recorded.get(key) != settings[key]]
    if differs:
        raise UsageError(
            f"--resume: {output_path} holds another job's output ({', '.join(differs)} differ); {START_OVER}"
        )


def _check_last_line(output_path: Path, lines: int, answer: bytes | None, asked: bytes | None) -> None:
    """Refuse an output whose last complete line answers another request than the input's line at
    its place (both carrying an id): another input's output, or an input with lines put before its
    own. One line of each, whatever their size: what a summary cannot say, a job killed outright
    having written none."""
    answered, request = _request_id(answer), _request_id(asked)
    if answered and request and answered != request:
        raise UsageError(
            f"{output_path} is not this input's output: line {lines} answers {_shown(answered)}, "
            f"the input's line {lines} is {_shown(request)}; {START_OVER}"
        )


def last_line(path: Path, end: int) -> bytes | None:
    """The line whose newline is the byte before ``end``, read back from there in blocks; None
    when it is longer than any answer."""
    pieces, length, start = [], 0, end - 1
    with open(path, "rb") as file:
        while start > 0 and length <= LONGEST_ANSWER:
            step = min(1 << 16, start)
            start -= step
            file.seek(start)
            block = file.read(step)
            newline = block.rfind(b"\n")
            if newline >= 0:
                pieces.append(block[newline + 1 :])
                return b"".join(reversed(pieces))
            pieces.append(block)
            length += step
    return b"".join(reversed(pieces)) if length <= LONGEST_ANSWER else None


def _request_id(line: bytes | None) -> str | None:
    """The request id a line carries; None for none, an empty one (an error line for a line that
    could not be read) or a line that is not a JSON object."""
    if line is None:
        return None
    try:
        data = json.loads(line.removeprefix(b"\xef\xbb\xbf"))  # the input's first line may have a BOM
    except (ValueError, RecursionError):
        return None
    return request_id_of(data) or None


def _shown(request_id: str) -> str:
    """A request id from a file, as a terminal may be given it: cut short, escaped if need be."""
    from clients.report import printable

    return printable(request_id if len(request_id) <= 80 else request_id[:80] + "…")


def last_summary(summary_path: Path) -> dict | None:
    """The summary the output's last run wrote, if one can be read."""
    try:
        last = json.loads(summary_path.read_text())
    except (OSError, ValueError):
        return None
    return last if isinstance(last, dict) else None


def earlier_counts(output_path: Path, last: dict | None, lines: int, kind: JobKind = RESCORE) -> dict:
    """The counts of the first ``lines`` lines of an output being resumed: the last run's summary
    when it describes exactly this output, else counted again from the output itself (a job
    killed outright wrote no summary)."""
    counts = kind.new_counts()
    if not lines:
        return counts
    if isinstance(last, dict) and last.get("lines") == lines and last.get("output_bytes") == output_path.stat().st_size:
        earlier = kind.counts_of_summary(last)
        if earlier is not None:
            return earlier
    with open(output_path, encoding="utf-8", errors="replace") as file:
        for text in islice(file, lines):
            try:
                row = json.loads(text)
            except ValueError:
                row = None
            kind.count_record(counts, row if isinstance(row, dict) else {"error": None})
    return counts

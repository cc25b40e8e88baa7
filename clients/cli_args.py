"""The checks of `shmj`'s flags, run where argparse reads them (``type=`` functions).

A mistake is reported before anything runs or is written, as one line naming the flag
(``shmj rescore: argument --workers: must be a whole number of at least 1, got '0'``),
with exit status 2. Checks across flags that need each other's values raise `UsageError`, which
the command prints the same way (and `batch.paths.InputError`, a batch job's refusal of a path).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path

from convert.house_profiles import NAME_PATTERN
from convert.json_names import camel
from convert.json_text import JsonTextError, KeyGivenTwice, read_json
from rules_core.builtin_profiles import BUILTIN_PROFILES
from rules_core.errors import NotationError
from rules_core.overrides import CHECKS
from rules_core.registry import unknown_profile
from rules_core.table_notation import parse_claims, parse_dice, parse_seats

Invalid = argparse.ArgumentTypeError
MAX_REQUEST_FILE_BYTES = 16 * 1024 * 1024  # the largest message a server takes by default


class UsageError(Exception):
    """Bad command-line input: printed without a traceback, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse, with a mistake said in one line instead of the usage block and the message."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message}\n")


# --- numbers --------------------------------------------------------------------------------


def _parsed(convert: Callable[[str], float], expected: str, fits: Callable[[float], bool]):
    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            raise Invalid(f"{expected}, got {text!r}") from None
        if not fits(value):
            raise Invalid(f"{expected}, got {text!r}")
        return value

    return parse


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    if maximum is None:
        return _parsed(int, f"must be a whole number of at least {minimum}", lambda v: v >= minimum)
    return _parsed(int, f"must be a whole number from {minimum} to {maximum}", lambda v: minimum <= v <= maximum)


def number(minimum: float, *, above: bool = False) -> Callable[[str], float]:
    """A finite number at least (or, with ``above``, greater than) ``minimum``."""
    if above:
        return _parsed(float, f"must be a number above {minimum:g}", lambda v: math.isfinite(v) and v > minimum)
    return _parsed(float, f"must be a number of at least {minimum:g}", lambda v: math.isfinite(v) and v >= minimum)


integer = _parsed(int, "must be a whole number", lambda v: True)
positive_int = whole_number(1)
count = whole_number(0)
seconds = number(0, above=True)


def seat(text: str) -> int:
    if text.strip() not in ("0", "1", "2", "3"):
        raise Invalid(f"must be a seat 0-3, got {text!r}")
    return int(text)


# --- the table ------------------------------------------------------------------------------


def profile_name(text: str) -> str:
    """A built-in profile, or a name a house profile may have (the server, or --profiles-dir with
    --local, knows whether it exists)."""
    if text not in BUILTIN_PROFILES and not NAME_PATTERN.fullmatch(text):
        raise Invalid(unknown_profile(text, BUILTIN_PROFILES))
    return text


def target(text: str) -> str:
    """HOST:PORT with a port 1-65535, or a gRPC target with a scheme (dns:///HOST:PORT, unix:PATH):
    gRPC would take a bare host as port 443. The Go, Java and C++ clients draw the same line."""
    if "://" in text or text.startswith("unix:"):
        return text
    host, _, port = text.rpartition(":")
    if host.strip("[]") and port.isdigit() and 1 <= int(port) <= 65535:
        return text
    raise Invalid(f"{text!r} is neither HOST:PORT (a port 1-65535) nor a gRPC target such as dns:///HOST:PORT")


def directory(text: str) -> str:
    if not Path(text).is_dir():
        raise Invalid(f"no such directory: {text}")
    return text


def dice(text: str) -> dict:
    """``3,3`` (or ``3 3``, the explorer's form) as the proto3 JSON of Dice (`rules_core.table_notation`)."""
    try:
        first, second = parse_dice(text)
    except NotationError as error:
        raise Invalid(f"takes {error.message}, got {text!r}") from None
    return {"first": first, "second": second}


def claims(text: str) -> list[dict]:
    """``CLAIMER:SOURCE:COUNT`` (or ``1<2:3``, the explorer's form; several separated by
    commas) as the proto3 JSON of LiabilityRelations (`rules_core.table_notation`)."""
    try:
        found = parse_claims(text)
    except NotationError as error:
        raise Invalid(f"{error.message}, got {text!r}") from None
    return [
        {"claimerSeat": c.claimer_seat, "sourceSeat": c.source_seat, "claims": c.claims}
        | ({"patternKept": True} if c.pattern_kept else {})
        for c in found
    ]


def seats(text: str) -> list[int]:
    """``0,2`` (or ``0 2``): seats, each 0-3 (`rules_core.table_notation`); one listed twice is
    named by the request's check, as a server names it."""
    try:
        return list(parse_seats(text))
    except NotationError as error:
        raise Invalid(f"{error.message}, got {text!r}") from None


def outcome_name(text: str) -> str:
    """A CLI spelling (``discard``) as the proto3 JSON enum name (``OUTCOME_DISCARD``)."""
    from clients.build import outcome

    try:
        return f"OUTCOME_{outcome(text).name}"
    except ValueError as error:
        raise Invalid(str(error)) from None


_KEYS = {**{camel(key): key for key in CHECKS}, **{key: key for key in CHECKS}}


def override(text: str) -> tuple[str, object]:
    """``key=value``: a RuleProfile field (snake_case, or lowerCamelCase as in JSON) and its value,
    JSON where it parses (``5``, ``true``, ``[...]``), else the text (``PER_LEVEL``). The value is
    checked as a request's would be, so a mistake is named here and not by the server."""
    from convert.json_read import read_overrides
    from rules_core.overrides import apply_overrides

    key, sep, value_text = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise Invalid(f"takes KEY=VALUE, such as ordinary_base=5, got {text!r}")
    if key == "name":
        raise Invalid("the profile name cannot be overridden; use --profile")
    if key not in _KEYS:
        raise Invalid(f"unknown key {key!r}; the keys are {', '.join(CHECKS)}")
    key = _KEYS[key]
    try:
        value = read_json(value_text)
    except JsonTextError:
        value = value_text
    violations: list = []
    read = read_overrides({camel(key): value}, "", violations)
    if not violations and read:
        _, violations = apply_overrides(BUILTIN_PROFILES["classic"], read)
    if violations:
        raise Invalid("; ".join(f"{key}: {description}" for _, description in violations))
    return camel(key), value


# --- files ----------------------------------------------------------------------------------


def pem_file(text: str) -> str:
    """A PEM file (certificate, key or CA), read enough to know it is one."""
    try:
        with open(text, "rb") as file:
            head = file.read(1 << 16)
    except OSError as error:
        raise Invalid(f"cannot read {text}: {error.strerror}") from None
    if b"-----BEGIN " not in head:
        raise Invalid(f"{text} is not a PEM file (no -----BEGIN line)")
    return text


def _read_bounded(path: str, error: type[Exception], what: str) -> bytes:
    """A file's bytes (``-``: stdin's), refused as ``error`` when unreadable or larger than any
    ``what`` can be."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_REQUEST_FILE_BYTES + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(MAX_REQUEST_FILE_BYTES + 1)
    except OSError as fault:
        raise error(f"cannot read {path}: {fault.strerror}") from None
    if len(data) > MAX_REQUEST_FILE_BYTES:
        raise error(f"{path} is larger than {MAX_REQUEST_FILE_BYTES:,} bytes, more than any {what} can be")
    return data


def json_request(text: str) -> dict:
    """A file holding one JSON object (a request), read at once."""
    data = _read_bounded(text, Invalid, "request")
    try:
        request = read_json(data)
    except KeyGivenTwice as error:
        raise Invalid(f"{text}: {error}") from None
    except JsonTextError as error:
        raise Invalid(f"{text} is not JSON: {error}") from None
    if not isinstance(request, dict):
        kind = {list: "a list", str: "a string"}.get(type(request), type(request).__name__)
        raise Invalid(f"{text} must hold a JSON object (a SettleRequest), not {kind}")
    return request


line_number = whole_number(1)


def record_request(path: str, line: int | None) -> dict:
    """The hand record in ``path`` (``-``: stdin): a file of one JSON object, or JSON Lines of
    them, one chosen by ``line`` (the only one otherwise). A JSON Lines file of any size is read
    as `shmj rescore` reads it, a line at a time. Every fault is a UsageError."""
    if _regular_file(path) and (line is not None or os.path.getsize(path) > MAX_REQUEST_FILE_BYTES):
        return _record_of(_line_of_file(path, line), f"{path} line {line}")
    data = _read_bounded(path, UsageError, "record")
    every = data.removesuffix(b"\n").split(b"\n")  # lines as shmj rescore numbers them: at LF only
    lines = [text for text in every if text.strip()]
    if line is None and len(lines) > 1:
        try:
            lines = [data]  # one object over several lines, perhaps
            read_json(data)
        except KeyGivenTwice as error:
            raise UsageError(f"{path}: {error}") from None
        except JsonTextError:
            raise UsageError(f"{path} holds {len(every):,} lines: choose one with --line N") from None
    elif line is not None:
        lines = every  # blank ones too
        if line > len(lines):
            raise UsageError(f"{path} has {len(lines):,} line(s), not {line}")
        lines = lines[line - 1 : line]
        if not lines[0].strip():
            raise UsageError(f"{path} line {line} is empty")
    if not lines:
        raise UsageError(f"{path} is empty")
    return _record_of(lines[0], f"{path} line {line}" if line else path)


def _regular_file(path: str) -> bool:
    """Whether ``path`` is a file that can be read twice (not stdin, a pipe or a folder)."""
    return path != "-" and os.path.isfile(path)


def _line_of_file(path: str, line: int | None) -> bytes:
    """Line ``line`` of a JSON Lines file, found in one pass of bounded blocks (`batch.lines`),
    numbered as `shmj rescore` numbers them; no line (None) is a file too large to be one record."""
    from batch.lines import MAX_LINE_BYTES, count_lines_and_line

    try:
        count, text = count_lines_and_line(Path(path), os.path.getsize(path), line or 0)
    except OSError as fault:
        raise UsageError(f"cannot read {path}: {fault.strerror}") from None
    if line is None:
        if count > 1:
            raise UsageError(f"{path} holds {count:,} lines: choose one with --line N")
        raise UsageError(f"{path} is larger than {MAX_REQUEST_FILE_BYTES:,} bytes, more than any record can be")
    if line > count:
        raise UsageError(f"{path} has {count:,} line(s), not {line}")
    if text is None:
        raise UsageError(f"{path} line {line} is longer than {MAX_LINE_BYTES:,} bytes, more than any record can be")
    if not text.strip():
        raise UsageError(f"{path} line {line} is empty")
    return text


def _record_of(text: bytes, where: str) -> dict:
    try:
        record = read_json(text)
    except KeyGivenTwice as error:
        raise UsageError(f"{where}: {error}") from None
    except JsonTextError as error:
        raise UsageError(f"{where} is not JSON: {error}") from None
    if not isinstance(record, dict):
        raise UsageError(f"{where} must hold a JSON object (a SettleRecordRequest)")
    return record


def writable_path(text: str) -> str:
    """A file to be written: its directory must exist and take files. Checked before any work,
    so a long run never ends in a traceback for a path mistyped at its start."""
    if not text:
        raise Invalid("must name a file")
    path = Path(text)
    folder = path.parent
    if not folder.is_dir():
        raise Invalid(f"no directory {folder} to write {path.name} in")
    if path.is_dir():
        raise Invalid(f"{text} is a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise Invalid(f"cannot write in {folder}: permission denied")
    return text


def output_path(text: str) -> str:
    """A file or a directory (``--dask``'s part files) to be written: checked as `writable_path`,
    except that it may be an existing directory, or a URL (``s3://bucket/out``: ``--dask``
    checks that where it writes, with the filesystem the URL names)."""
    if "://" in text and not text.startswith("file://"):
        return text
    return text if text and Path(text).is_dir() else writable_path(text)


PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def plot_path(text: str) -> str:
    """A plot file (.png, .svg or .pdf), or empty for none."""
    if not text:
        return text
    if Path(text).suffix.lower() not in PLOT_SUFFIXES:
        raise Invalid(f"{text}: the plot is written as .png, .svg or .pdf")
    return writable_path(text)


# --- exit -----------------------------------------------------------------------------------


def exit_on_broken_pipe() -> int:
    """Standard output's reader went away (``shmj ... | head``): stop quietly, as Python's
    documentation of SIGPIPE recommends, pointing stdout at /dev/null so that the flush at exit
    does not raise again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout without a file descriptor (a test's)
        pass
    finally:
        os.close(devnull)
    return 1

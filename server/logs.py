"""Logging: one JSON object per line on stdout, whoever speaks, and no line unbounded.

- structlog renders the service's own events;
- the standard library's loggers (gRPC's Python layer, asyncio) go through the same renderer,
  but for gRPC's error about an ended call's answer, which is the truth at info
  (`server.unsent_answers`);
- gRPC's C core, OpenSSL and the interpreter itself (a fatal error, a traceback nobody caught)
  write to file descriptor 2: the supervisor points it at a pipe that a thread reads, turning
  each line into a JSON object. Workers inherit that descriptor, so what a dying worker
  writes is kept too.

Every string value is cut to `MAX_VALUE_CHARS` (a traceback to `MAX_TRACEBACK_CHARS`, keeping
its head and tail): a client's megabytes never become a log line.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import os
import re
import sys
import threading
import time
from json import dumps
from json.encoder import encode_basestring  # json.dumps's own string encoder (ensure_ascii=False)

import structlog

from server import unsent_answers

MAX_VALUE_CHARS = 1000
MAX_TRACEBACK_CHARS = 8000
LEVELS = ("debug", "info", "warning", "error")

# gRPC core (abseil) lines: "E1129 22:06:10.871571   24338 ssl_transport_security.cc:2563] text".
_CORE_LINE = re.compile(r"^([IWEF])\d{4} [\d:.]+\s+\d+ ([^\]\s]+)\] ?(.*)$")
_CORE_LEVELS = {"I": "info", "W": "warning", "E": "error", "F": "critical"}


def configure_logging(level: str = "info") -> None:
    numeric = logging.getLevelName(level.upper())
    if not isinstance(numeric, int):
        numeric = logging.INFO
    shared = [
        structlog.processors.add_log_level,
        _add_pid,  # workers share the port: the pid tells which one served a call
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.format_exc_info,
        _bound_values,
    ]
    renderer = structlog.processors.JSONRenderer(ensure_ascii=False)
    structlog.configure(
        processors=[structlog.contextvars.merge_contextvars, *shared, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.WriteLoggerFactory(file=_OUT),
        cache_logger_on_first_use=True,
    )
    handler = logging.StreamHandler(_OUT)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
            foreign_pre_chain=[structlog.stdlib.add_logger_name, *shared],
        )
    )
    _RPC_LINES.configure(numeric <= logging.INFO, _OUT)
    unsent_answers.install()  # gRPC's error for an ended call's answer: an info line instead
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(max(numeric, logging.INFO))  # gRPC's and asyncio's debug chatter stays out even at debug
    logging.captureWarnings(True)
    sys.excepthook = _log_uncaught
    threading.excepthook = lambda args: _log_uncaught(args.exc_type, args.exc_value, args.exc_traceback)


class _Stdout:
    """Standard output for log lines, which survives its reader going away (a log shipper that
    died, a pipe into ``head``): from the first broken pipe on, lines are dropped instead of
    raising into the call or the drain that wrote them."""

    __slots__ = ("broken", "__weakref__")  # structlog keeps a weak reference to its file

    def __init__(self) -> None:
        self.broken = False

    def write(self, text: str) -> None:
        if not self.broken:
            try:
                sys.stdout.write(text)
            except (BrokenPipeError, ValueError):  # ValueError: stdout closed
                self.broken = True

    def flush(self) -> None:
        if not self.broken:
            try:
                sys.stdout.flush()
            except (BrokenPipeError, ValueError):
                self.broken = True


_OUT = _Stdout()


def flush_stdout() -> None:
    """Flush the log lines written so far, as a process does before it exits."""
    _OUT.flush()


class _RpcLines:
    """The one line each call writes, built without structlog's processor chain: the same
    JSON object, keys in the same order, as ``log.info("rpc", method=..., code=...,
    duration_ms=..., request_id=..., profile=..., profile_digest=..., peer=...)`` would write, at a quarter of the cost.
    The parts that do not change (the method and code, the pid) are encoded once.

    Written from an event loop, lines are flushed once per pass of the loop rather than one
    write(2) each: the calls a pass finishes go out in one write, microseconds later (the
    line and its write(2) together were about a tenth of a unary call's CPU). Any other
    line flushes them too, and so does the worker's exit; a worker killed outright loses
    at most the lines of one pass."""

    __slots__ = ("on", "stream", "tail", "flush_pending")

    def __init__(self) -> None:
        self.configure(True, _OUT)

    def configure(self, on: bool, stream) -> None:
        self.on = on
        self.stream = stream
        self.tail = f', "level": "info", "pid": {os.getpid()}, "timestamp": "'
        self.flush_pending = False

    def write(
        self, head: str, duration_ms: float, request_id: str, profile: str, digest: str, peer: str, trace: str = ""
    ) -> None:
        """``trace``: the ``trace_id`` and ``span_id`` members of a traced call, ready written."""
        if not self.on:
            return
        if len(peer) > MAX_VALUE_CHARS:
            peer = _cut(peer, MAX_VALUE_CHARS)
        if len(profile) > MAX_VALUE_CHARS:
            profile = _cut(profile, MAX_VALUE_CHARS)
        context = _bound_context()  # e.g. the HTTP endpoint's protocol and codec
        bound = "".join(f", {encode_basestring(k)}: {_json_value(v)}" for k, v in context.items()) if context else ""
        stream = self.stream
        stream.write(
            f'{head}{duration_ms!r}, "request_id": {encode_basestring(request_id)},'
            f' "profile": {encode_basestring(profile)}, "profile_digest": "{digest}",'
            f' "peer": {encode_basestring(peer)},'
            f' "event": "rpc"{bound}{trace}{self.tail}{_CLOCK.now()}"}}\n'
        )
        if not self.flush_pending:
            try:
                asyncio.get_running_loop().call_soon(self.flush)
                self.flush_pending = True
            except RuntimeError:  # no loop running: now
                stream.flush()

    def flush(self) -> None:
        self.flush_pending = False
        self.stream.flush()


class _UtcClock:
    """The time as structlog's ``TimeStamper(fmt="iso", utc=True)`` writes it, e.g.
    ``2026-11-30T03:51:18.355392Z`` (no fraction at a whole second, as ``isoformat`` does), with
    the date and time of day formatted once a second: datetime's ``now().isoformat()`` was
    about 7 µs of a call's line in a worker."""

    __slots__ = ("second", "prefix")

    def __init__(self) -> None:
        self.second = -1
        self.prefix = ""

    def now(self) -> str:
        return self.at(time.time_ns())

    def at(self, nanoseconds: int) -> str:
        second, fraction = divmod(nanoseconds, 1_000_000_000)
        if second != self.second:
            self.prefix = datetime.datetime.fromtimestamp(second, tz=datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S")
            self.second = second
        microseconds = fraction // 1000  # datetime.now() floors too
        return f"{self.prefix}.{microseconds:06d}Z" if microseconds else f"{self.prefix}Z"


_CLOCK = _UtcClock()
# structlog's context variables by key (structlog.contextvars keeps one per key ever bound):
# whether any is bound here costs a look-up each, where get_contextvars() copies and walks the
# whole context of the call.
_STRUCTLOG_VARS: dict | None = getattr(structlog.contextvars, "_CONTEXT_VARS", None)


def _bound_context() -> dict:
    """What structlog.contextvars.get_contextvars() returns (in its order): the values bound
    in this context, read only when there are some."""
    if _STRUCTLOG_VARS is not None and all(v.get(Ellipsis) is Ellipsis for v in list(_STRUCTLOG_VARS.values())):
        return {}
    return structlog.contextvars.get_contextvars()


def _json_value(value) -> str:
    if isinstance(value, str) and len(value) > MAX_VALUE_CHARS:
        value = _cut(value, MAX_VALUE_CHARS)
    return dumps(value, ensure_ascii=False, default=repr)


_RPC_LINES = _RpcLines()
write_rpc_line = _RPC_LINES.write


def rpc_line_head(method: str, code: str) -> str:
    """The start of a call's line, up to its duration: made once per method and code."""
    return f'{{"method": {encode_basestring(method)}, "code": {encode_basestring(code)}, "duration_ms": '


def _log_uncaught(kind, error, traceback) -> None:
    structlog.get_logger("shmj").critical("uncaught exception", exc_info=(kind, error, traceback))


def _add_pid(_logger, _method, event: dict) -> dict:
    event["pid"] = os.getpid()
    return event


def _bound_values(_logger, _method, event: dict) -> dict:
    for key, value in event.items():
        if isinstance(value, str) and len(value) > MAX_VALUE_CHARS:
            event[key] = _cut(value, MAX_TRACEBACK_CHARS if key == "exception" else MAX_VALUE_CHARS)
    return event


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]} …[{len(text) - 2 * half} characters cut]… {text[-half:]}"


def capture_stderr() -> threading.Thread:
    """Point file descriptor 2 at a pipe whose lines a thread logs as JSON; returns the thread.

    Call `release_stderr` before exiting so the last lines are written."""
    read_end, write_end = os.pipe()
    os.dup2(write_end, 2)
    os.close(write_end)
    thread = threading.Thread(target=_relay, args=(read_end,), name="stderr-as-json", daemon=True)
    thread.start()
    return thread


def release_stderr(thread: threading.Thread, timeout: float = 2.0) -> None:
    """Close this process's end of the stderr pipe and let the relay write what is left."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os.close(devnull)
    thread.join(timeout)


def _relay(read_end: int) -> None:
    log = structlog.get_logger("shmj.stderr")
    with os.fdopen(read_end, "rb") as stream:
        for raw in iter(lambda: stream.readline(4 * MAX_VALUE_CHARS), b""):  # a long line comes in parts
            for event, fields in _stderr_events(raw):
                getattr(log, fields.pop("level"))(event, **fields)


def _stderr_events(raw: bytes):
    """The log event(s) of one line written to stderr."""
    line = raw.decode("utf-8", "replace").rstrip()
    if not line.strip():
        return
    found = _CORE_LINE.match(line)
    if found:
        letter, source, message = found.groups()
        yield "grpc core", {"level": _CORE_LEVELS[letter], "source": source, "message": message}
    else:
        yield "stderr", {"level": "warning", "message": line}

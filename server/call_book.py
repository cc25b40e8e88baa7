"""The book-keeping of each call, and the wrapper of every unary call: the server's per-call code.

A call's book-keeping: go-grpc-prometheus's metrics (started, in flight, handled by code,
handling seconds), its entry in the drain's calls in flight, and one JSON log line with the
method, status, duration, request id, profile, the digest of the profile the answer was
computed under and peer, never the hand. Request ids come from
the request's ``request_id`` field, or from the ``x-request-id`` metadata of streams, cut to
`MAX_LOGGED_ID_CHARS`; the profile is the one a unary request names (`request_profile`),
empty for a batch or stream, whose requests each name their own.

`server.observed_calls` registers these wrappers with each service's handlers, and wraps
streams with the same `Call`. A unary method's `MethodRecord` is bound when its handler is
wrapped, not looked up per call.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from functools import partial
from typing import Any

import grpc
import structlog
from grpc.aio import EOF

from convert.limits import BATCH_MESSAGE, MIN_ENTRY_BYTES, batch_extent, body_violation, inspected_from
from convert.proto_bytes import field_cuts
from rules_core.errors import InvalidRequest, bounded
from server import errors, logs, metrics, peer_share, tracing
from server.body_deadline import REQUESTS, expired
from server.drain import DRAIN, refuse_if_draining
from server.off_loop import OFF_LOOP_BYTES, off_loop
from server.parsed_body import ParsedBody, keeping_body
from server.peer_share import has_room, peer_host
from server.unsent_answers import call_had_ended

log = structlog.get_logger("shmj.server")

MAX_LOGGED_ID_CHARS = 128
MAX_MESSAGE_BYTES = 2**31 - 1  # the most gRPC can carry
MAX_METHOD_RECORDS = 1024  # methods are the server's own (unknown ones never get here): a bound for safety


def _split(full_method: str) -> tuple[str, str]:
    service, _, method = full_method.lstrip("/").partition("/")
    return service, method


def _metadata_request_id(context: Any) -> str:
    for key, value in context.invocation_metadata() or ():
        if key == "x-request-id":
            return value
    return ""


def request_profile(request: Any) -> str:
    """The profile a request names: ``profile``, or GetProfile's ``name``; empty for the rest."""
    profile = getattr(request, "profile", None)
    if profile is None:
        profile = getattr(request, "name", "")
    return profile if isinstance(profile, str) else ""


# A cancel that arrives this close to the call's deadline is the deadline passing.
DEADLINE_SLACK_S = 0.25


def _final_code(context: Any, error: BaseException | None) -> Any:
    """The call's grpc.StatusCode."""
    if error is not None and call_had_ended(error):
        return _ended_code(context)  # the status set (an abort's) was never sent: the call had ended
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code
    if error is None:
        return grpc.StatusCode.OK
    if isinstance(error, (asyncio.CancelledError, GeneratorExit)):  # GeneratorExit: a stream closed early
        return _ended_code(context)
    return grpc.StatusCode.UNKNOWN


def _ended_code(context: Any) -> Any:
    """DEADLINE_EXCEEDED or CANCELLED, for a call that ended before the server answered it.
    The client gives up at its own deadline and cancels; the cancel reaches this side a
    moment before the server's copy of the deadline (set when the call arrived) passes."""
    remaining = context.time_remaining()
    expired = remaining is not None and remaining <= DEADLINE_SLACK_S
    return grpc.StatusCode.DEADLINE_EXCEEDED if expired else grpc.StatusCode.CANCELLED


class MethodRecord:
    """What every call of one method records, prepared once: its metric children and, per
    status code, its ``grpc_server_handled_total`` child and the head of its log line."""

    __slots__ = ("labels", "service", "method", "started", "in_flight", "seconds", "endings")

    def __init__(self, kind: str, full_method: str) -> None:
        self.service, self.method = _split(full_method)
        self.labels: tuple[str, str, str] = (kind, self.service, self.method)
        self.started = metrics.Fast(metrics.STARTED.labels(*self.labels))
        self.in_flight = metrics.Fast(metrics.IN_FLIGHT.labels(self.service, self.method))
        self.seconds = metrics.Fast(metrics.HANDLING_SECONDS.labels(*self.labels))
        self.endings: dict[Any, tuple[metrics.Fast, str]] = {}

    def ending(self, code: Any) -> tuple[metrics.Fast, str]:
        """``(handled counter child, log line head)`` of calls ending with ``code``."""
        found = self.endings.get(code)
        if found is None:
            handled = metrics.Fast(metrics.HANDLED.labels(*self.labels, metrics.code_name(code)))
            found = self.endings[code] = (handled, logs.rpc_line_head(f"{self.service}/{self.method}", code.name))
        return found


_RECORDS: dict[tuple[str, str], MethodRecord] = {}


def method_record(kind: str, full_method: str) -> MethodRecord:
    record = _RECORDS.get((kind, full_method))
    if record is None:
        if len(_RECORDS) >= MAX_METHOD_RECORDS:
            _RECORDS.clear()
        record = _RECORDS[kind, full_method] = MethodRecord(kind, full_method)
    return record


_CALLS_IN_FLIGHT = DRAIN.calls

# The digest of the profile a unary call's answer was computed under, for its log line: set by
# the servicer (`answered_under`) in the call's own context, empty for a batch, a stream or a
# call that failed before a profile was resolved.
ANSWER_DIGEST: contextvars.ContextVar[str] = contextvars.ContextVar("shmj_answer_digest", default="")
answered_under = ANSWER_DIGEST.set
_answer_digest = ANSWER_DIGEST.get
# Whether a claimed win of the answer is legal, for the call's span (set only while tracing).
ANSWER_LEGAL: contextvars.ContextVar[bool | None] = contextvars.ContextVar("shmj_answer_legal", default=None)


class Call:
    """Book-keeping of one call from start to finish: made when it starts, `finish`ed once,
    whatever ends it."""

    __slots__ = ("record", "start", "context", "peer", "request_id", "profile", "task", "span")

    def __init__(self, record: MethodRecord, context: Any, peer: str | None = None) -> None:
        """``peer``: the call's ``context.peer()``, when the caller has read it already. It is
        read here, never at `finish`: a stream's wrapper can be finished after gRPC has let go
        of its call (a stream whose answer could not be written, closed later), and
        ``peer()`` on a call let go of is a segmentation fault."""
        self.record = record
        self.context = context
        self.peer: str = context.peer() if peer is None else peer
        self.request_id = ""
        self.profile = ""
        self.start = time.perf_counter()
        self.task = task = asyncio.current_task()
        _CALLS_IN_FLIGHT[task] = context  # DRAIN.started, inline
        record.started.inc()
        record.in_flight.inc()
        self.span = None if tracing.TRACER is None else tracing.start_call_span(record.service, record.method, context)

    @property
    def labels(self) -> tuple[str, str, str]:
        return self.record.labels

    @property
    def service(self) -> str:
        return self.record.service

    def finish(self, error: BaseException | None) -> None:
        elapsed = time.perf_counter() - self.start
        DRAIN.ended(self.task)
        context = self.context
        record = self.record
        code = _final_code(context, error)
        handled, head = record.endings.get(code) or record.ending(code)
        record.in_flight.dec()
        handled.inc()
        record.seconds.observe(elapsed)
        trace = ""
        if self.span is not None:
            system = getattr(context, "RPC_SYSTEM", "grpc")
            trace = tracing.end_call_span(self.span, code, _answer_digest(), ANSWER_LEGAL.get(), system)
        logs.write_rpc_line(
            head,
            round(elapsed * 1000, 3),
            bounded(self.request_id or _metadata_request_id(context), MAX_LOGGED_ID_CHARS),
            bounded(self.profile, MAX_LOGGED_ID_CHARS),
            _answer_digest(),
            self.peer,
            trace,
        )


# The most of a body protobuf parses in one call when a batch is parsed in steps: about 5-10 ms
# holding the interpreter, after which the event loop may take its turn.
PARSE_STEP_BYTES = 256 * 1024


def parsed_in_steps(message_class: Any, keep_body: bool, body: bytes) -> Any:
    """``message_class.FromString(body)``, parsed in pieces of whole fields (`field_cuts`), each
    merged in turn: protobuf's one parse of the whole holds the interpreter for as long as the
    body's content makes it last (0.4 s for 16 MiB of empty winners), so no other thread, the
    event loop's included, runs meanwhile; between two pieces it may."""
    message = message_class()
    view = memoryview(body)
    start = 0
    for cut in field_cuts(body, PARSE_STEP_BYTES):
        message.MergeFromString(view[start:cut])
        start = cut
    return ParsedBody(message, body) if keep_body else message


class Decoder:
    """The rpc's request deserializer, answering INVALID_ARGUMENT for a body it cannot read or
    one larger than a legal request can be (`convert.limits`, measured before decoding), and
    RESOURCE_EXHAUSTED for one over the message limit (gRPC's core is given a higher one, see
    `server.worker`, so that such a call is logged and counted). Given ``max_batch_size``, a
    SettleBatch body's entries are counted before protobuf reads any (`convert.limits.batch_extent`),
    and one of more is refused BATCH_TOO_LARGE: protobuf's parse makes a message of every entry,
    holding the interpreter throughout (2.7 s for a body of 8 million empty ones)."""

    __slots__ = (
        "deserialize",
        "expected",
        "message_name",
        "max_message_bytes",
        "max_batch_size",
        "inspected_from",
        "in_steps",
    )

    def __init__(
        self,
        deserialize: Any,
        max_message_bytes: int | None = None,
        keep_body: bool = False,
        max_batch_size: int | None = None,
    ) -> None:
        """``keep_body``: the request is a `ParsedBody`, the message with the bytes it was read from."""
        self.deserialize = keeping_body(deserialize) if keep_body and deserialize is not None else deserialize
        descriptor = getattr(getattr(deserialize, "__self__", None), "DESCRIPTOR", None)
        self.message_name: str = descriptor.full_name if descriptor is not None else ""
        self.expected = f"a {descriptor.full_name} message" if descriptor is not None else "a message of this rpc"
        self.max_message_bytes = max_message_bytes
        self.max_batch_size = max_batch_size if self.message_name == BATCH_MESSAGE else None
        bounds = [b for b in (inspected_from(self.message_name), max_message_bytes) if b is not None]
        if self.max_batch_size is not None:  # a shorter body cannot hold more entries
            bounds.append(MIN_ENTRY_BYTES * self.max_batch_size)
        self.inspected_from: int = min(bounds, default=MAX_MESSAGE_BYTES)  # a body no longer is not looked at
        # A large SettleBatch is parsed in pieces of whole entries, off the loop (`parsed_in_steps`).
        message_class = getattr(deserialize, "__self__", None)
        self.in_steps = (
            partial(parsed_in_steps, message_class, keep_body)
            if self.message_name == BATCH_MESSAGE and message_class is not None
            else None
        )

    async def __call__(self, body: Any, context: Any, what: str = "the body") -> Any:
        if self.deserialize is None:
            return body
        if len(body) > self.inspected_from:
            await self.refuse_large(body, context, what)
        try:
            if self.in_steps is not None and len(body) >= OFF_LOOP_BYTES:
                return await off_loop(len(body), self.in_steps, body)
            return self.deserialize(body)
        except Exception:  # protobuf's DecodeError, or anything a deserializer raises
            await self.reject(context, what)
        return None  # (reject raises)

    async def within_limit(self, body: bytes, context: Any, what: str) -> None:
        """RESOURCE_EXHAUSTED, as gRPC's core would answer, for a body over the message limit."""
        if self.max_message_bytes is not None and len(body) > self.max_message_bytes:
            await errors.abort(context, errors.message_too_large(what, len(body), self.max_message_bytes))

    async def refuse_large(self, body: bytes, context: Any, what: str = "the body") -> None:
        """End the call if the body is over the message limit, larger than a legal request, or a
        batch of more entries than ``max_batch_size``. A batch's entries are counted in the
        worker's thread for large work (`server.off_loop`) when the body is large."""
        await self.within_limit(body, context, what)
        if self.message_name == BATCH_MESSAGE:
            extent = await off_loop(len(body), batch_extent, body)
            oversized = extent.oversized
            if oversized is None and self.max_batch_size is not None and extent.entries > self.max_batch_size:
                metrics.REJECTED.labels("SettleBatch").inc()
                await errors.abort(context, errors.batch_too_large(extent.entries, self.max_batch_size))
        else:
            oversized = body_violation(self.message_name, body)
        if oversized is not None:
            await errors.abort(context, errors.body_too_large(InvalidRequest([oversized])))

    async def reject(self, context: Any, what: str = "the body") -> None:
        await errors.abort(context, errors.malformed_body(f"{what} is not {self.expected}"))


def forget_frames(error: BaseException | None) -> None:
    """Drop the tracebacks of an exception that ends a call, and of those it was raised from.

    gRPC keeps an abort's exception on the call's state, and the exception's traceback holds
    the frames of the call (the request, the body) and the context, which holds the state: a
    cycle that only the cyclic collector frees, once thousands of objects have piled up (see
    `server.garbage`): a megabyte body rejected a few hundred times would hold hundreds of
    megabytes till then.
    """
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        error.__traceback__ = None
        error = error.__cause__ or error.__context__


def _same(body: Any) -> Any:
    return body


async def _end_unreceived(context: Any, record: MethodRecord, what: str, timeout_s: float) -> None:
    """End a call whose request (or next stream message) has not arrived in time: CANCELLED,
    BODY_TIMEOUT, with an info line saying so (the call's own line follows)."""
    method = f"{record.service}/{record.method}"
    log.info("request not received", method=method, what=what, timeout_s=timeout_s, peer=context.peer())
    await errors.abort(context, errors.body_timeout(what, timeout_s))


async def received(
    context: Any,
    record: MethodRecord,
    timeout_s: float,
    host: str,
    what: str = "the request",
    waits: dict = REQUESTS,
) -> Any:
    """The call's next message as bytes, or `EOF` at the client's half-close, read within
    ``timeout_s`` (the wait entered in ``waits``, `server.body_deadline`; the call ends
    `_end_unreceived` otherwise), and counted meanwhile in its client address ``host``'s
    share (`server.peer_share`; the caller has checked there is room). The handlers are
    registered without a request deserializer, so gRPC's ``read`` gives bytes."""
    task = asyncio.current_task()
    waits[task] = time.perf_counter() + timeout_s
    peer_share.enter(host)
    try:
        body = await context.read()
    except asyncio.CancelledError:
        waits.pop(task, None)
        if expired(task):
            await _end_unreceived(context, record, what, timeout_s)
        raise
    finally:
        peer_share.leave(host)
    waits.pop(task, None)
    return body


def unary(behaviour: Any, method: str, decode: Decoder, body_timeout_s: float) -> Any:
    """The handler of a unary rpc: its body read within ``body_timeout_s`` and decoded, within
    the call's book-keeping.

    It is registered as a stream-unary handler, identical on the wire: gRPC calls it at the
    call's headers (a unary handler is called once the whole body is in, so a body that never
    comes would hold one of the worker's calls at once for as long as its client liked), and
    it reads the one message as gRPC's unary path does. A second message is never read, as
    there; a half-close before a whole message is MALFORMED_BODY (gRPC's unary path never
    answered such a call)."""
    deserialize = decode.deserialize or _same
    inspected_from = decode.inspected_from
    record = method_record("unary", method)

    async def handle(_bodies: Any, context: Any) -> Any:
        peer = context.peer()
        host = peer_host(peer)
        if not has_room(host):  # refused before its book-keeping: counted and noted, no line of its own
            await peer_share.refuse(context, host)
        call = Call(record, context, peer)
        body = request = None
        error: BaseException | None = None
        try:
            body = await received(context, record, body_timeout_s, host)
            if body is EOF:
                await errors.abort(context, errors.no_request_message())
            if DRAIN.refusing:
                await refuse_if_draining(context, record.service)
            if len(body) > inspected_from:
                await decode.refuse_large(body, context)
            try:
                request = deserialize(body)
            except Exception:  # protobuf's DecodeError, or anything a deserializer raises
                await decode.reject(context)
            call.request_id = getattr(request, "request_id", "")
            call.profile = request_profile(request)
            if call.span is not None:
                tracing.request_attributes(call.span, request)
            return await behaviour(request, context)
        except BaseException as caught:
            error = caught
            body = request = None  # this frame goes on in the traceback: it must not hold them
            forget_frames(caught)
            raise
        finally:
            call.finish(error)
            error = None  # no cycle from this frame to the exception

    return handle

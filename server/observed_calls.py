"""One wrapper around every call's handler: decoding, go-grpc-prometheus metrics and one JSON
log line. It is registered with each handler rather than run as a gRPC server interceptor,
whose chain costs every call a few coroutines before the handler is even found.

Every rpc of every service receives its body as bytes and this wrapper
decodes it, inside the call's book-keeping: a body that is not the message the
rpc takes is answered INVALID_ARGUMENT (saying which message was expected,
nothing of protobuf's internals), logged and counted like any other call. In a
stream, such a message ends the call the same way.

The log line has the method, status, duration, request id, profile and peer,
never the hand: request ids come from the request's ``request_id`` field, or
from the ``x-request-id`` metadata of streams, cut to `MAX_LOGGED_ID_CHARS`; the
profile is the one a unary request names (`request_profile`), empty for a
batch or stream, whose requests each name their own.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import contextmanager

import grpc

from convert.limits import body_violation, inspected_from
from rules_core.errors import InvalidRequest, bounded
from server import logs, metrics
from server.drain import DRAIN, refuse_if_draining
from server.service import abort_invalid

MAX_LOGGED_ID_CHARS = 128
MAX_MESSAGE_BYTES = 2**31 - 1  # the most gRPC can carry


def _split(full_method: str) -> tuple[str, str]:
    service, _, method = full_method.lstrip("/").partition("/")
    return service, method


def _metadata_request_id(context) -> str:
    for key, value in context.invocation_metadata() or ():
        if key == "x-request-id":
            return value
    return ""


def request_profile(request) -> str:
    """The profile a request names: ``profile``, or GetProfile's ``name``; empty for the rest."""
    profile = getattr(request, "profile", None)
    if profile is None:
        profile = getattr(request, "name", "")
    return profile if isinstance(profile, str) else ""


def _final_code(context, error: BaseException | None) -> grpc.StatusCode:
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code
    if error is None:
        return grpc.StatusCode.OK
    if isinstance(error, (asyncio.CancelledError, GeneratorExit)):  # GeneratorExit: a stream closed early
        remaining = context.time_remaining()
        expired = remaining is not None and remaining <= 0
        return grpc.StatusCode.DEADLINE_EXCEEDED if expired else grpc.StatusCode.CANCELLED
    return grpc.StatusCode.UNKNOWN


MAX_METHOD_RECORDS = 1024  # methods are the server's own (unknown ones never get here): a bound for safety


class _MethodRecord:
    """What every call of one method records, prepared once: its metric children and, per
    status code, its ``grpc_server_handled_total`` child and the head of its log line."""

    __slots__ = ("labels", "service", "method", "started", "in_flight", "seconds", "endings")

    def __init__(self, kind: str, full_method: str):
        self.service, self.method = _split(full_method)
        self.labels = (kind, self.service, self.method)
        self.started = metrics.Fast(metrics.STARTED.labels(*self.labels))
        self.in_flight = metrics.Fast(metrics.IN_FLIGHT.labels(self.service, self.method))
        self.seconds = metrics.Fast(metrics.HANDLING_SECONDS.labels(*self.labels))
        self.endings: dict[grpc.StatusCode, tuple] = {}

    def ending(self, code: grpc.StatusCode) -> tuple:
        """``(handled counter child, log line head)`` of calls ending with ``code``."""
        found = self.endings.get(code)
        if found is None:
            handled = metrics.Fast(metrics.HANDLED.labels(*self.labels, metrics.code_name(code)))
            found = self.endings[code] = (handled, logs.rpc_line_head(f"{self.service}/{self.method}", code.name))
        return found


_RECORDS: dict[tuple[str, str], _MethodRecord] = {}


def _record(kind: str, full_method: str) -> _MethodRecord:
    record = _RECORDS.get((kind, full_method))
    if record is None:
        if len(_RECORDS) >= MAX_METHOD_RECORDS:
            _RECORDS.clear()
        record = _RECORDS[kind, full_method] = _MethodRecord(kind, full_method)
    return record


class _Call:
    """Book-keeping of one call from start to finish."""

    __slots__ = ("record", "start", "context", "request_id", "profile", "task")

    def __init__(self, kind: str, full_method: str, context):
        self.record = record = _record(kind, full_method)
        self.context = context
        self.request_id = ""
        self.profile = ""
        self.start = time.perf_counter()
        self.task = asyncio.current_task()
        DRAIN.started(self.task, context)
        record.started.inc()
        record.in_flight.inc()

    @property
    def labels(self) -> tuple[str, str, str]:
        return self.record.labels

    @property
    def service(self) -> str:
        return self.record.service

    @contextmanager
    def observed(self):
        """Record the call's end, whatever ends it."""
        error = None
        try:
            yield
        except BaseException as caught:
            error = caught
            raise
        finally:
            self.finish(error)

    def finish(self, error: BaseException | None) -> None:
        DRAIN.ended(self.task)
        elapsed = time.perf_counter() - self.start
        context = self.context
        record = self.record
        handled, head = record.ending(_final_code(context, error))
        record.in_flight.dec()
        handled.inc()
        record.seconds.observe(elapsed)
        logs.write_rpc_line(
            head,
            round(elapsed * 1000, 3),
            bounded(self.request_id or _metadata_request_id(context), MAX_LOGGED_ID_CHARS),
            bounded(self.profile, MAX_LOGGED_ID_CHARS),
            context.peer(),
        )


MAX_WRAPPED_HANDLERS = 1024


class CallObserver:
    """Wraps each method's handler once in the call's book-keeping (decoding, metrics, the
    log line); `ObservedRegistration` registers the wrappers. The methods named in
    ``preserialized`` are registered without a response serializer (see `server.preserialized`)."""

    def __init__(self, preserialized: frozenset[str] = frozenset(), max_message_bytes: int | None = None):
        self.preserialized = preserialized
        self.max_message_bytes = max_message_bytes  # checked here, so that a body over it is logged and counted
        self._wrapped: dict[str, tuple] = {}  # method: (the handler gRPC found, its wrapper)

    def observed(self, handler, method: str):
        """``handler`` (of the rpc ``/service/method``) wrapped, made once per method."""
        found = self._wrapped.get(method)
        if found is not None and found[0] is handler:
            return found[1]
        wrapped = self._wrap(handler, method)
        if len(self._wrapped) >= MAX_WRAPPED_HANDLERS:
            self._wrapped.clear()
        self._wrapped[method] = (handler, wrapped)
        return wrapped

    def _wrap(self, handler, method: str):
        decode = _Decoder(handler.request_deserializer, self.max_message_bytes)
        if handler.unary_unary:
            serializer = None if method in self.preserialized else handler.response_serializer
            return grpc.unary_unary_rpc_method_handler(
                _unary(handler.unary_unary, method, decode), response_serializer=serializer
            )
        if handler.unary_stream:
            return grpc.unary_stream_rpc_method_handler(
                _streaming(handler.unary_stream, method, "server_stream", decode),
                response_serializer=handler.response_serializer,
            )
        if handler.stream_stream:
            return grpc.stream_stream_rpc_method_handler(
                _streaming(handler.stream_stream, method, "bidi_stream", decode),
                response_serializer=handler.response_serializer,
            )
        return handler  # client streaming: the service has none


class ObservedRegistration:
    """What the generated ``add_*_to_server`` functions register services with, in place of
    the grpc.aio server: each method's handler is registered already wrapped by
    ``observer``, so gRPC finds and calls the wrapper directly. As a server interceptor it
    would cost every call gRPC's interceptor chain (a partial and three coroutines) before the
    handler is even found (see docs/PERFORMANCE.md)."""

    def __init__(self, server: grpc.aio.Server, observer: CallObserver):
        self.server = server
        self.observer = observer

    def add_generic_rpc_handlers(self, generic_handlers) -> None:
        self.server.add_generic_rpc_handlers(tuple(_ObservedGeneric(h, self.observer) for h in generic_handlers))

    def add_registered_method_handlers(self, service: str, method_handlers: dict) -> None:
        observed = self.observer.observed
        self.server.add_registered_method_handlers(
            service, {name: observed(handler, f"/{service}/{name}") for name, handler in method_handlers.items()}
        )


class _ObservedGeneric(grpc.GenericRpcHandler):
    """A generic handler whose method handlers come wrapped (cached per method)."""

    def __init__(self, inner, observer: CallObserver):
        self.inner = inner
        self.observer = observer

    def service(self, handler_call_details):
        handler = self.inner.service(handler_call_details)
        return None if handler is None else self.observer.observed(handler, handler_call_details.method)


class _Decoder:
    """The rpc's request deserializer, answering INVALID_ARGUMENT for a body it cannot read or
    one larger than a legal request can be (`convert.limits`, measured before decoding), and
    RESOURCE_EXHAUSTED for one over the message limit (gRPC's core is given a higher one, see
    `server.worker`, so that such a call is logged and counted)."""

    __slots__ = ("deserialize", "expected", "message_name", "max_message_bytes", "inspected_from")

    def __init__(self, deserialize, max_message_bytes: int | None = None):
        self.deserialize = deserialize
        descriptor = getattr(getattr(deserialize, "__self__", None), "DESCRIPTOR", None)
        self.message_name = descriptor.full_name if descriptor is not None else ""
        self.expected = f"a {descriptor.full_name} message" if descriptor is not None else "a message of this rpc"
        self.max_message_bytes = max_message_bytes
        bounds = [b for b in (inspected_from(self.message_name), max_message_bytes) if b is not None]
        self.inspected_from = min(bounds, default=MAX_MESSAGE_BYTES)  # a body no longer is not looked at

    async def __call__(self, body, context, what: str = "the body"):
        if self.deserialize is None:
            return body
        if len(body) > self.inspected_from:
            await self.refuse_large(body, context, what)
        try:
            return self.deserialize(body)
        except Exception:  # protobuf's DecodeError, or anything a deserializer raises
            await self.reject(context, what)

    async def within_limit(self, body: bytes, context, what: str) -> None:
        """RESOURCE_EXHAUSTED, as gRPC's core would answer, for a body over the message limit."""
        if self.max_message_bytes is not None and len(body) > self.max_message_bytes:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"{what} is {len(body)} bytes, over the {self.max_message_bytes}-byte message limit",
            )

    async def refuse_large(self, body: bytes, context, what: str = "the body") -> None:
        """End the call if the body is over the message limit or larger than a legal request."""
        await self.within_limit(body, context, what)
        oversized = body_violation(self.message_name, body)
        if oversized is not None:
            await abort_invalid(context, InvalidRequest([oversized]))

    async def reject(self, context, what: str = "the body") -> None:
        await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"{what} is not {self.expected}")


def _forget_frames(error: BaseException) -> None:
    """Drop the tracebacks of an exception that ends a call, and of those it was raised from.

    gRPC keeps an abort's exception on the call's state, and the exception's traceback holds
    the frames of the call (the request, the body) and the context, which holds the state: a
    cycle that only the cyclic collector frees, and the worker runs it rarely (see
    `server.worker`). A megabyte body rejected a thousand times would hold gigabytes till then.
    """
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        error.__traceback__ = None
        error = error.__cause__ or error.__context__


def _unary(behaviour, method: str, decode: _Decoder):
    deserialize = decode.deserialize or (lambda body: body)
    inspected_from = decode.inspected_from

    async def handle(body, context):
        # What `_Call.observed` does, inline: this runs on every unary call.
        call = _Call("unary", method, context)
        request = None
        error = None
        try:
            if DRAIN.refusing:
                await refuse_if_draining(context, call.record.service)
            if len(body) > inspected_from:
                await decode.refuse_large(body, context)
            try:
                request = deserialize(body)
            except Exception:  # protobuf's DecodeError, or anything a deserializer raises
                await decode.reject(context)
            call.request_id = getattr(request, "request_id", "")
            call.profile = request_profile(request)
            return await behaviour(request, context)
        except BaseException as caught:
            error = caught
            body = request = None  # noqa: F841 (this frame goes on in the traceback: it must not hold them)
            _forget_frames(caught)
            raise
        finally:
            call.finish(error)
            error = None  # no cycle from this frame to the exception

    return handle


def _streaming(behaviour, method: str, kind: str, decode: _Decoder):
    """A server-streaming or bidi rpc: its one body or its stream of bodies, decoded."""

    async def handle(body_or_bodies, context):
        call = _Call(kind, method, context)
        sent = metrics.MSG_SENT.labels(*call.labels)
        with call.observed():
            try:
                await refuse_if_draining(context, call.service)
                if kind == "bidi_stream":
                    requests = _decoded(body_or_bodies, decode, context, call.labels)
                else:
                    requests = await decode(body_or_bodies, context)
                body_or_bodies = None  # (see _unary)
                async for response in behaviour(requests, context):
                    sent.inc()
                    yield response
            except BaseException as error:
                _forget_frames(error)
                raise

    return handle


async def _decoded(bodies, decode: _Decoder, context, labels):
    """The stream's messages, counted and decoded one by one."""
    received = metrics.MSG_RECEIVED.labels(*labels)
    index = 0
    async for body in bodies:
        index += 1
        received.inc()
        what = f"message {index} of the stream"
        if len(body) > decode.inspected_from:
            await decode.within_limit(body, context, what)  # over the message limit: the stream ends
            oversized = body_violation(decode.message_name, body)
            if oversized is not None:  # an error entry, and the stream goes on
                yield InvalidRequest([oversized])
                continue
        yield await decode(body, context, what)

"""One wrapper around every call's handler: decoding, go-grpc-prometheus metrics and one JSON
log line (`server.call_book`). It is registered with each handler rather than run as a gRPC
server interceptor, whose chain costs every call a few coroutines before the handler is even found.

Every rpc of every service receives its body as bytes and this wrapper
decodes it, inside the call's book-keeping: a body that is not the message the
rpc takes is answered INVALID_ARGUMENT (saying which message was expected,
nothing of protobuf's internals), logged and counted like any other call. In a
stream, such a message ends the call the same way.

The unary wrapper and the book-keeping of every call live in `server.call_book`; the
streams' wrappers and the registration live here.
"""

from __future__ import annotations

import inspect
from contextlib import contextmanager

import grpc

from convert.limits import body_violation
from rules_core.errors import InvalidRequest
from server import errors, metrics, peer_share
from server.body_deadline import NEXT_MESSAGES
from server.call_book import (
    EOF,
    MAX_MESSAGE_BYTES,
    Call,
    Decoder,
    MethodRecord,
    forget_frames,
    method_record,
    received,
    unary,
)
from server.config import ServerConfig
from server.drain import refuse_if_draining
from server.peer_share import has_room, peer_host

__all__ = ["MAX_MESSAGE_BYTES", "CallObserver", "ObservedRegistration", "observed"]

MAX_WRAPPED_HANDLERS = 1024


class CallObserver:
    """Wraps each method's handler once in the call's book-keeping (decoding, metrics, the
    log line); `ObservedRegistration` registers the wrappers. The methods named in
    ``preserialized`` are registered without a response serializer, and those in ``keep_body``
    get their request as a `server.parsed_body.ParsedBody` (see `server.preserialized`); a
    SettleBatch body of more than ``max_batch_size`` entries is refused before it is decoded."""

    def __init__(
        self,
        preserialized: frozenset[str] = frozenset(),
        max_message_bytes: int | None = None,
        body_timeout_s: float = ServerConfig.grpc_body_timeout_s,
        keep_body: frozenset[str] = frozenset(),
        max_batch_size: int | None = None,
    ):
        self.preserialized = preserialized
        self.keep_body = keep_body
        self.max_batch_size = max_batch_size  # a SettleBatch of more entries is refused before it is decoded
        self.max_message_bytes = max_message_bytes  # checked here, so that a body over it is logged and counted
        self.body_timeout_s = body_timeout_s  # a request (a stream's next message) must arrive within it
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
        decode = Decoder(
            handler.request_deserializer, self.max_message_bytes, method in self.keep_body, self.max_batch_size
        )
        if handler.unary_unary:
            serializer = None if method in self.preserialized else handler.response_serializer
            return grpc.stream_unary_rpc_method_handler(  # the same on the wire; see `server.call_book.unary`
                unary(handler.unary_unary, method, decode, self.body_timeout_s), response_serializer=serializer
            )
        if handler.unary_stream:
            return grpc.unary_stream_rpc_method_handler(
                _streaming(handler.unary_stream, method, "server_stream", decode, self.body_timeout_s),
                response_serializer=handler.response_serializer,
            )
        if handler.stream_stream:
            return grpc.stream_stream_rpc_method_handler(
                _streaming(handler.stream_stream, method, "bidi_stream", decode, self.body_timeout_s),
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


@contextmanager
def observed(call: Call):
    """Record the call's end, whatever ends it."""
    error = None
    try:
        yield
    except BaseException as caught:
        error = caught
        raise
    finally:
        call.finish(error)


def _streaming(behaviour, method: str, kind: str, decode: Decoder, body_timeout_s: float):
    """A server-streaming or bidi rpc: its one body or its stream of bodies, decoded; each of
    a bidi stream's messages must arrive within ``body_timeout_s`` of the server asking for it
    (`_decoded`). A server stream's one body is read by gRPC before this runs; the only one is
    health's ``Watch``, which its clients hold open: it counts in its address's share while
    open (`_held_open`, docs/RELIABILITY.md)."""
    record = method_record(kind, method)

    async def handle(body_or_bodies, context):
        peer = context.peer()
        host = peer_host(peer)
        if not has_room(host):  # as a unary call is (`server.call_book.unary`)
            await peer_share.refuse(context, host)
        call = Call(record, context, peer)
        sent = metrics.MSG_SENT.labels(*call.labels)
        with observed(call), _held_open(kind, host):
            try:
                await refuse_if_draining(context, call.service)
                if kind == "bidi_stream":
                    requests = _decoded(record, decode, context, body_timeout_s, host)
                else:
                    requests = await decode(body_or_bodies, context)
                body_or_bodies = None  # (see `server.call_book.unary`)
                produced = behaviour(requests, context)
                if inspect.isawaitable(produced):  # a servicer that answers with context.write
                    await produced  # (grpc_health's Watch): its messages are written as it goes
                    return
                async for response in produced:
                    sent.inc()
                    yield response
            except BaseException as error:
                forget_frames(error)
                raise

    return handle


@contextmanager
def _held_open(kind: str, host: str):
    """A server stream (health's ``Watch``, which its clients hold open) counted in its client
    address's share for as long as it is open: it holds one of the worker's calls at once as a
    call waiting for its request does. A bidi stream is counted at each wait instead (`_decoded`)."""
    if kind != "server_stream":
        yield
        return
    peer_share.enter(host)
    try:
        yield
    finally:
        peer_share.leave(host)


async def _decoded(record: MethodRecord, decode: Decoder, context, body_timeout_s: float, host: str):
    """The stream's messages, counted and decoded one by one. Each is read when the service
    asks for it (after answering the one before) and must be whole within ``body_timeout_s``
    of that, or the stream ends BODY_TIMEOUT: Python sees no part of a message before all of
    it, so the bound is on the wait between messages, idle or not (docs/RELIABILITY.md). Each
    wait counts in its client address's share (`server.peer_share`), as a unary call's does:
    a stream that would wait past it ends TOO_MANY_WAITING_CALLS."""
    counted = metrics.MSG_RECEIVED.labels(*record.labels)
    index = 0
    next_message = f"message {index + 1} of the stream"
    while True:
        if not has_room(host):
            await peer_share.refuse(context, host)
        body = await received(context, record, body_timeout_s, host, next_message, NEXT_MESSAGES)
        if body is EOF:
            break
        index += 1
        counted.inc()
        what = next_message
        next_message = f"message {index + 1} of the stream"
        if len(body) > decode.inspected_from:
            await decode.within_limit(body, context, what)  # over the message limit: the stream ends
            oversized = body_violation(decode.message_name, body)
            if oversized is not None:  # an error entry, and the stream goes on
                yield errors.body_too_large(InvalidRequest([oversized]))
                continue
        yield await decode(body, context, what)

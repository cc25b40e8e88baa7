"""One interceptor for every call: go-grpc-prometheus metrics and one JSON log line.

The log line has the method, status, duration, request id and peer, never the
hand: request ids come from the request's ``request_id`` field, or from the
``x-request-id`` metadata of streams.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import contextmanager

import grpc
import structlog

from server import metrics

log = structlog.get_logger("shmj.rpc")


def _split(full_method: str) -> tuple[str, str]:
    service, _, method = full_method.lstrip("/").partition("/")
    return service, method


def _metadata_request_id(context) -> str:
    for key, value in context.invocation_metadata() or ():
        if key == "x-request-id":
            return value
    return ""


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


class _Call:
    """Book-keeping of one call from start to finish."""

    __slots__ = ("labels", "service", "method", "start", "context", "request_id")

    def __init__(self, kind: str, full_method: str, context):
        self.service, self.method = _split(full_method)
        self.labels = (kind, self.service, self.method)
        self.context = context
        self.request_id = ""
        self.start = time.perf_counter()
        metrics.STARTED.labels(*self.labels).inc()
        metrics.IN_FLIGHT.labels(self.service, self.method).inc()

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
        elapsed = time.perf_counter() - self.start
        code = _final_code(self.context, error)
        metrics.IN_FLIGHT.labels(self.service, self.method).dec()
        metrics.HANDLED.labels(*self.labels, metrics.code_name(code)).inc()
        metrics.HANDLING_SECONDS.labels(*self.labels).observe(elapsed)
        log.info(
            "rpc",
            method=f"{self.service}/{self.method}",
            code=code.name,
            duration_ms=round(elapsed * 1000, 3),
            request_id=self.request_id or _metadata_request_id(self.context),
            peer=self.context.peer(),
        )


class ObservabilityInterceptor(grpc.aio.ServerInterceptor):
    async def intercept_service(self, continuation, handler_call_details):
        handler = await continuation(handler_call_details)
        if handler is None:
            return None
        method = handler_call_details.method
        if handler.unary_unary:
            return grpc.unary_unary_rpc_method_handler(
                _unary(handler.unary_unary, method),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream:
            return grpc.unary_stream_rpc_method_handler(
                _streaming(handler.unary_stream, method, "server_stream", False),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        if handler.stream_stream:
            return grpc.stream_stream_rpc_method_handler(
                _streaming(handler.stream_stream, method, "bidi_stream", True),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return handler  # client streaming: the service has none


def _unary(behaviour, method: str):
    async def handle(request, context):
        call = _Call("unary", method, context)
        call.request_id = getattr(request, "request_id", "")
        with call.observed():
            return await behaviour(request, context)

    return handle


def _streaming(behaviour, method: str, kind: str, client_streams: bool):
    async def handle(request_or_iterator, context):
        call = _Call(kind, method, context)
        if client_streams:
            request_or_iterator = _count_received(request_or_iterator, call.labels)
        sent = metrics.MSG_SENT.labels(*call.labels)
        with call.observed():
            async for response in behaviour(request_or_iterator, context):
                sent.inc()
                yield response

    return handle


async def _count_received(requests, labels):
    received = metrics.MSG_RECEIVED.labels(*labels)
    async for request in requests:
        received.inc()
        yield request

"""The caller's trace context, sent with each call: the W3C ``traceparent`` (and ``baggage``)
of the current OpenTelemetry span, as gRPC metadata, so the service's span of the call is a
child of the caller's. The propagators are those of ``OTEL_PROPAGATORS``, W3C's by default.

A process that has not imported OpenTelemetry has no span to propagate: nothing is imported
or sent then (importing OpenTelemetry's propagators takes a few hundred milliseconds, which a
`shmj` command must not pay for nothing).

With a tracer given (`trace_calls`; the ``shmj`` commands give theirs when OTEL_* variables
turn tracing on, `clients.command_tracing`), each unary call is also a client span of its own,
named and attributed by OpenTelemetry's RPC conventions as the server's span is
(``rpc.system``, ``rpc.service``, ``rpc.method``, ``rpc.grpc.status_code``, with
``server.address`` and ``server.port``), kind CLIENT, and the metadata carries that span's
context: the server's span is its child."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

_INJECT = None  # opentelemetry.propagate.inject, once the caller uses OpenTelemetry
TRACER = None  # the tracer of client spans, when one is given (`trace_calls`)


def outgoing_metadata() -> tuple[tuple[str, str], ...] | None:
    """The metadata that carries the current trace context, or None."""
    global _INJECT
    if _INJECT is None:
        if "opentelemetry.context" not in sys.modules:  # no span can be current
            return None
        from opentelemetry.propagate import inject

        _INJECT = inject
    carrier: dict[str, str] = {}
    _INJECT(carrier)
    return tuple(carrier.items()) or None


def trace_calls(tracer) -> None:
    """Make each call a client span of ``tracer`` from now on (None: propagate only)."""
    global TRACER
    TRACER = tracer


def server_of(target: str) -> tuple[str, int | None]:
    """``server.address`` and ``server.port`` of a gRPC target (``host:port``,
    ``dns:///host:port``, ``[::1]:50051``, ``unix:path``)."""
    address = target.split("///", 1)[1] if "///" in target else target
    if address.startswith("unix:"):
        return address, None
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit() or (host.count(":") and not host.endswith("]")):
        return address, None  # no port, or a bare IPv6 address
    return host.strip("[]"), int(port)


@contextmanager
def client_span(service: str, method: str, target: str) -> Iterator[tuple[tuple[str, str], ...]]:
    """The client span of one call to ``service/method`` (`TRACER` must be set): yields the
    metadata carrying its context, and ends it with the call's status code when the block
    ends (a ``grpc.RpcError`` raised in it is its code; any other exception an error)."""
    import grpc
    from opentelemetry.propagate import inject
    from opentelemetry.semconv.trace import SpanAttributes
    from opentelemetry.trace import SpanKind, Status, StatusCode, set_span_in_context

    address, port = server_of(target)
    attributes: dict[str, str | int] = {
        SpanAttributes.RPC_SYSTEM: "grpc",
        SpanAttributes.RPC_SERVICE: service,
        SpanAttributes.RPC_METHOD: method,
        "server.address": address,
    }
    if port is not None:
        attributes["server.port"] = port
    span = TRACER.start_span(f"{service}/{method}", kind=SpanKind.CLIENT, attributes=attributes)
    carrier: dict[str, str] = {}
    inject(carrier, context=set_span_in_context(span))
    code = grpc.StatusCode.OK
    try:
        yield tuple(carrier.items())
    except grpc.RpcError as error:
        code = error.code() if callable(getattr(error, "code", None)) else grpc.StatusCode.UNKNOWN
        raise
    except BaseException as error:
        span.set_status(Status(StatusCode.ERROR, type(error).__name__))
        code = None
        raise
    finally:
        if code is not None:
            span.set_attribute(SpanAttributes.RPC_GRPC_STATUS_CODE, code.value[0])
            if code is not grpc.StatusCode.OK:  # every code but OK is an error of a client span
                span.set_status(Status(StatusCode.ERROR, code.name))
        span.end()

"""OpenTelemetry tracing of the service's calls: off unless OpenTelemetry's own environment
variables turn it on, and then one server span per ScoringService call, over gRPC and HTTP.

Configured only by OpenTelemetry's standard variables, read in each worker as it starts, by
`tracing_setup` (shared with the clients): ``service.name`` is ``shmj-scoring`` when neither
``OTEL_SERVICE_NAME`` nor ``OTEL_RESOURCE_ATTRIBUTES`` names it.

Spans are named and attributed by OpenTelemetry's RPC conventions in the version the pinned
SDK's ``opentelemetry-semantic-conventions`` follows (``rpc.system``, ``rpc.service``,
``rpc.method``, ``rpc.grpc.status_code``; ``connect_rpc`` and ``rpc.connect_rpc.error_code``
over HTTP), plus this service's ``shmj.*`` attributes. `server.call_book` opens and ends them in
its per-call book-keeping; with tracing off it pays one test of `TRACER` per call.

A caller's headers reach the propagator bounded: only those it reads, each of at most
`MAX_TRACE_HEADER_CHARS` (W3C's bound of a ``traceparent`` and OpenTelemetry's of a
``tracestate``), and never ``baggage``, which the service does not use and whose parser takes
time quadratic in its blanks. A header dropped, and the propagators' own warnings, are logged at
most once a minute (`server.rate_limited_logs`). A request's profile becomes an attribute whole
when it can be a profile's name, else cut as the log line cuts it; and no attribute is longer
than `tracing_setup`'s limit.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

import tracing_setup
from rules_core.errors import bounded
from server.rate_limited_logs import rate_limit
from tracing_setup import TracingConfigError, check  # noqa: F401 (server/__main__.py checks before workers start)

TRACER = None  # an OpenTelemetry Tracer in a worker whose environment turns tracing on
_PROVIDER = None
DEFAULT_SERVICE_NAME = "shmj-scoring"
MAX_TRACE_HEADER_CHARS = 512
MAX_PROFILE_CHARS = 128  # a profile's name is at most 63 characters; the log line cuts it here too
UNREAD_HEADERS = frozenset(("baggage",))
_HEADERS: frozenset[str] = frozenset()  # those the propagators read, less UNREAD_HEADERS
log = logging.getLogger("shmj.tracing")
# The loggers that speak for a caller's header, once a call at most: each once a minute at most.
CHATTY_LOGGERS = (
    log.name,
    "opentelemetry.trace.propagation.tracecontext",
    "opentelemetry.trace.span",  # a tracestate's invalid members
    "opentelemetry.baggage.propagation",
)


def configure(environ: Mapping[str, str] = os.environ, exporter=None) -> bool:
    """Set `TRACER` up from the environment (in a worker, after it has forked); True when on.
    ``exporter`` replaces the environment's (`tracing_setup.tracer_provider`)."""
    global TRACER, _PROVIDER
    _PROVIDER, _ = tracing_setup.tracer_provider(DEFAULT_SERVICE_NAME, environ, exporter=exporter)
    if _PROVIDER is None:
        TRACER = None
        return False
    from opentelemetry.propagate import get_global_textmap

    from server import __version__

    global _HEADERS
    _HEADERS = frozenset(get_global_textmap().fields) - UNREAD_HEADERS
    rate_limit(*CHATTY_LOGGERS)
    TRACER = _PROVIDER.get_tracer("shmj.server", __version__)
    return True


def shutdown() -> None:
    """Export what is left (at a worker's exit)."""
    global TRACER
    if _PROVIDER is not None:
        _PROVIDER.shutdown()
    TRACER = None


# --- the span of one call ------------------------------------------------------------------

TRACED_SERVICES = ("mahjong.shanghai.v1.ScoringService",)  # never health, reflection or metrics
# Codes whose server span is an error (OpenTelemetry's RPC conventions for a server).
_ERROR_CODES = frozenset(("UNKNOWN", "DEADLINE_EXCEEDED", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS"))


def start_call_span(service: str, method: str, context):
    """The server span of a call, its parent the caller's W3C ``traceparent`` (gRPC metadata or
    an HTTP header), or None for a service that is not traced."""
    if service not in TRACED_SERVICES:
        return None
    from opentelemetry.propagate import extract
    from opentelemetry.semconv.trace import SpanAttributes
    from opentelemetry.trace import SpanKind

    parent = extract(trace_headers(context.invocation_metadata() or ()))
    system = getattr(context, "RPC_SYSTEM", "grpc")
    attributes = {
        SpanAttributes.RPC_SYSTEM: system,
        SpanAttributes.RPC_SERVICE: service,
        SpanAttributes.RPC_METHOD: method,
    }
    return TRACER.start_span(f"{service}/{method}", context=parent, kind=SpanKind.SERVER, attributes=attributes)


def trace_headers(metadata) -> dict[str, str]:
    """The headers (gRPC metadata) the propagators read, each at most `MAX_TRACE_HEADER_CHARS`;
    one longer is dropped, and said so (once a minute at most)."""
    carrier = {}
    for key, value in metadata:
        if key in _HEADERS and isinstance(value, str):
            if len(value) <= MAX_TRACE_HEADER_CHARS:
                carrier[key] = value
            else:
                log.warning(
                    "trace header %s dropped: %s characters, more than %s",
                    key,
                    f"{len(value):,}",
                    MAX_TRACE_HEADER_CHARS,
                )
    return carrier


def request_attributes(span, request) -> None:
    """What the request says of itself: its profile, outcome, batch size."""
    profile = getattr(request, "profile", None)
    if isinstance(profile, str) and profile:
        span.set_attribute("shmj.profile", bounded(profile, MAX_PROFILE_CHARS))
    outcome = getattr(request, "outcome", None)
    if isinstance(outcome, int) and not isinstance(outcome, bool):
        from mahjong.shanghai.v1 import settlement_pb2

        span.set_attribute(
            "shmj.outcome", settlement_pb2.Outcome.Name(outcome) if outcome in _OUTCOMES else str(outcome)
        )
    requests = getattr(request, "requests", None)
    if requests is not None:
        span.set_attribute("shmj.batch_size", len(requests))


def _outcome_numbers() -> frozenset[int]:
    from mahjong.shanghai.v1 import settlement_pb2

    return frozenset(settlement_pb2.Outcome.values())


_OUTCOMES = _outcome_numbers()


def end_call_span(span, code, digest: str, legal: bool | None, system: str) -> str:
    """End the span with the call's status; returns its ids for the call's log line (``""``
    when it is not recorded)."""
    from opentelemetry.semconv.trace import SpanAttributes
    from opentelemetry.trace import Status, StatusCode

    if system == "grpc":
        span.set_attribute(SpanAttributes.RPC_GRPC_STATUS_CODE, code.value[0])
    elif code.name != "OK":
        span.set_attribute(SpanAttributes.RPC_CONNECT_RPC_ERROR_CODE, code.name.lower())
    if digest:
        span.set_attribute("shmj.profile_digest", digest)
    if legal is not None:
        span.set_attribute("shmj.legal", legal)
    if code.name in _ERROR_CODES:
        span.set_status(Status(StatusCode.ERROR, code.name))
    span.end()
    ids = span.get_span_context()
    if not ids.trace_flags.sampled:  # sampled out: nothing to link to
        return ""
    return f', "trace_id": "{ids.trace_id:032x}", "span_id": "{ids.span_id:016x}"'

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
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import tracing_setup
from tracing_setup import TracingConfigError, check  # noqa: F401 (server/__main__.py checks before workers start)

TRACER = None  # an OpenTelemetry Tracer in a worker whose environment turns tracing on
_PROVIDER = None
DEFAULT_SERVICE_NAME = "shmj-scoring"


def configure(environ: Mapping[str, str] = os.environ) -> bool:
    """Set `TRACER` up from the environment (in a worker, after it has forked); True when on."""
    global TRACER, _PROVIDER
    _PROVIDER, _ = tracing_setup.tracer_provider(DEFAULT_SERVICE_NAME, environ)
    if _PROVIDER is None:
        TRACER = None
        return False
    from server import __version__

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

    metadata = context.invocation_metadata() or ()
    parent = extract({key: value for key, value in metadata if isinstance(value, str)})
    system = getattr(context, "RPC_SYSTEM", "grpc")
    attributes = {
        SpanAttributes.RPC_SYSTEM: system,
        SpanAttributes.RPC_SERVICE: service,
        SpanAttributes.RPC_METHOD: method,
    }
    return TRACER.start_span(f"{service}/{method}", context=parent, kind=SpanKind.SERVER, attributes=attributes)


def request_attributes(span, request) -> None:
    """What the request says of itself: its profile, outcome, batch size."""
    profile = getattr(request, "profile", None)
    if isinstance(profile, str) and profile:
        span.set_attribute("shmj.profile", profile)
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

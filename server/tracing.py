"""OpenTelemetry tracing of the service's calls: off unless OpenTelemetry's own environment
variables turn it on, and then one server span per ScoringService call, over gRPC and HTTP.

Configured only by OpenTelemetry's standard variables, read in each worker as it starts:

- ``OTEL_TRACES_EXPORTER``: ``otlp`` turns tracing on (``console`` prints spans, for a look);
  unset or ``none`` leaves it off. (OpenTelemetry's own default is ``otlp``; here nothing
  is sent anywhere unless asked for.)
- ``OTEL_EXPORTER_OTLP_PROTOCOL`` (or ``OTEL_EXPORTER_OTLP_TRACES_PROTOCOL``): ``grpc`` or
  ``http/protobuf`` (the default, as OpenTelemetry's); ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or
  ``..._TRACES_ENDPOINT``), headers, timeouts and certificates as the OTLP exporters read them.
- ``OTEL_SERVICE_NAME`` and ``OTEL_RESOURCE_ATTRIBUTES`` (``service.name`` is
  ``shmj-scoring`` when neither names it); ``OTEL_TRACES_SAMPLER`` and
  ``OTEL_TRACES_SAMPLER_ARG`` (``parentbased_always_on`` by default);
  ``OTEL_PROPAGATORS`` (W3C ``tracecontext,baggage`` by default).

Spans are named and attributed by OpenTelemetry's RPC conventions in the version the pinned
SDK's ``opentelemetry-semantic-conventions`` follows (``rpc.system``, ``rpc.service``,
``rpc.method``, ``rpc.grpc.status_code``; ``connect_rpc`` and ``rpc.connect_rpc.error_code``
over HTTP), plus this service's ``shmj.*`` attributes. `server.call_book` opens and ends them in
its per-call book-keeping; with tracing off it pays one test of `TRACER` per call.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

TRACER = None  # an OpenTelemetry Tracer in a worker whose environment turns tracing on
_PROVIDER = None
DEFAULT_SERVICE_NAME = "shmj-scoring"


class TracingConfigError(ValueError):
    """An OTEL_* variable that names nothing this service can do."""


def _exporter(environ: Mapping[str, str]):
    kind = environ.get("OTEL_TRACES_EXPORTER", "none").strip().lower()
    if kind in ("", "none"):
        return None
    if kind == "console":
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        return ConsoleSpanExporter()
    if kind != "otlp":
        raise TracingConfigError(f"OTEL_TRACES_EXPORTER={kind!r}: this service exports otlp, console or none")
    protocol = environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or environ.get(
        "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"
    )
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
    elif protocol == "http/protobuf":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    else:
        raise TracingConfigError(f"OTEL_EXPORTER_OTLP_PROTOCOL={protocol!r}: grpc or http/protobuf")
    return OTLPSpanExporter()


def check(environ: Mapping[str, str] = os.environ) -> None:
    """`TracingConfigError` for an exporter or protocol this service cannot use, before any
    worker starts (nothing is connected here)."""
    kind = environ.get("OTEL_TRACES_EXPORTER", "none").strip().lower()
    if kind not in ("", "none", "console", "otlp"):
        raise TracingConfigError(f"OTEL_TRACES_EXPORTER={kind!r}: this service exports otlp, console or none")
    protocol = environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or environ.get("OTEL_EXPORTER_OTLP_PROTOCOL")
    if kind == "otlp" and protocol not in (None, "grpc", "http/protobuf"):
        raise TracingConfigError(f"OTEL_EXPORTER_OTLP_PROTOCOL={protocol!r}: grpc or http/protobuf")


def configure(environ: Mapping[str, str] = os.environ) -> bool:
    """Set `TRACER` up from the environment (in a worker, after it has forked); True when on."""
    global TRACER, _PROVIDER
    exporter = _exporter(environ)
    if exporter is None:
        TRACER = None
        return False
    from opentelemetry import trace
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    named = "OTEL_SERVICE_NAME" in environ or "service.name=" in environ.get("OTEL_RESOURCE_ATTRIBUTES", "")
    resource = Resource.create({} if named else {"service.name": DEFAULT_SERVICE_NAME})
    _PROVIDER = TracerProvider(resource=resource)  # the sampler from OTEL_TRACES_SAMPLER(_ARG)
    _PROVIDER.add_span_processor(BatchSpanProcessor(exporter))
    from server import __version__

    TRACER = trace.get_tracer("shmj.server", __version__, tracer_provider=_PROVIDER)
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

"""An OpenTelemetry tracer provider set up from OpenTelemetry's standard environment variables:
the one set-up the server's workers, the ``shmj`` commands and the Dask workers of a rescore
all use (a client never imports the server; nothing here imports either).

Off unless the variables turn it on; OpenTelemetry is imported only then (it takes a few
hundred milliseconds, which a command must not pay for nothing).

- ``OTEL_TRACES_EXPORTER``: ``otlp`` turns tracing on (``console`` prints spans, for a look);
  unset or ``none`` leaves it off. (OpenTelemetry's own default is ``otlp``; here nothing
  is sent anywhere unless asked for.)
- ``OTEL_EXPORTER_OTLP_PROTOCOL`` (or ``OTEL_EXPORTER_OTLP_TRACES_PROTOCOL``): ``grpc`` or
  ``http/protobuf`` (the default, as OpenTelemetry's); ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or
  ``..._TRACES_ENDPOINT``), headers, timeouts and certificates as the OTLP exporters read them.
- ``OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`` (or ``OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT``): the most
  characters of an attribute's value, `DEFAULT_ATTRIBUTE_CHARS` when neither is set
  (OpenTelemetry's own default is no limit: a span kept a request's megabytes while queued).
- ``OTEL_SERVICE_NAME`` and ``OTEL_RESOURCE_ATTRIBUTES`` (``service.name`` is the caller's
  default when neither names it); ``OTEL_TRACES_SAMPLER`` and ``OTEL_TRACES_SAMPLER_ARG``
  (``parentbased_always_on`` by default); ``OTEL_PROPAGATORS`` (W3C ``tracecontext,baggage``
  by default).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping

EXPORTERS = ("otlp", "console", "none")
PROTOCOLS = ("grpc", "http/protobuf")
DEFAULT_ATTRIBUTE_CHARS = 1024
LENGTH_LIMITS = ("OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT", "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT")  # first found wins


class TracingConfigError(ValueError):
    """An OTEL_* variable that names nothing this program can do."""


def _kind(environ: Mapping[str, str]) -> str:
    return environ.get("OTEL_TRACES_EXPORTER", "none").strip().lower() or "none"


def _protocol(environ: Mapping[str, str]) -> str | None:
    return environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or environ.get("OTEL_EXPORTER_OTLP_PROTOCOL")


def enabled(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the environment turns tracing on (nothing imported to tell)."""
    return _kind(environ) != "none"


def check(environ: Mapping[str, str] = os.environ, who: str = "this service") -> None:
    """`TracingConfigError` for an exporter or protocol that cannot be used (nothing is
    connected or imported here): before a server's workers start, before a command runs."""
    kind = _kind(environ)
    if kind not in EXPORTERS:
        raise TracingConfigError(f"OTEL_TRACES_EXPORTER={kind!r}: {who} exports otlp, console or none")
    protocol = _protocol(environ)
    if kind == "otlp" and protocol not in (None, *PROTOCOLS):
        raise TracingConfigError(f"OTEL_EXPORTER_OTLP_PROTOCOL={protocol!r}: grpc or http/protobuf")
    attribute_chars(environ)


def attribute_chars(environ: Mapping[str, str] = os.environ) -> int:
    """The most characters of a span attribute's value: the environment's limit, else
    `DEFAULT_ATTRIBUTE_CHARS`; `TracingConfigError` for one that is not a whole number."""
    for name in LENGTH_LIMITS:
        text = environ.get(name, "").strip()
        if text:
            if not text.isdigit():
                raise TracingConfigError(f"{name}={text!r}: a whole number of characters")
            return int(text)
    return DEFAULT_ATTRIBUTE_CHARS


def span_exporter(environ: Mapping[str, str] = os.environ):
    """The exporter the environment names, or None when tracing is off."""
    check(environ)
    kind = _kind(environ)
    if kind == "none":
        return None
    if kind == "console":
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        return ConsoleSpanExporter()
    if (_protocol(environ) or "http/protobuf") == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    return OTLPSpanExporter()


def tracer_provider(
    default_service_name: str, environ: Mapping[str, str] = os.environ, on_exit: bool = True, exporter=None
):
    """``(provider, processor)``: a TracerProvider whose spans a BatchSpanProcessor sends to the
    environment's exporter, its resource from OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES
    (``service.name`` ``default_service_name`` when neither names it) and its sampler from
    OTEL_TRACES_SAMPLER(_ARG); ``(None, None)`` when tracing is off. ``on_exit=False`` leaves the
    flush to the caller (a command bounds its wait: the SDK's own exit hook waits up to 30 s);
    ``exporter`` replaces the environment's (one that wraps it)."""
    exporter = exporter or span_exporter(environ)
    if exporter is None:
        return None, None
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import SpanLimits, TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    named = "OTEL_SERVICE_NAME" in environ or "service.name=" in environ.get("OTEL_RESOURCE_ATTRIBUTES", "")
    resource = Resource.create({} if named else {"service.name": default_service_name})
    chars = attribute_chars(environ)
    limits = SpanLimits(max_attribute_length=chars, max_span_attribute_length=chars)
    provider = TracerProvider(resource=resource, shutdown_on_exit=on_exit, span_limits=limits)
    processor = BatchSpanProcessor(exporter)
    provider.add_span_processor(processor)
    return provider, processor


def within(seconds: float, step) -> bool:
    """Run ``step`` (a provider's ``shutdown`` or ``force_flush``) in a daemon thread, waiting
    at most ``seconds`` for it; True when it ended in time. The SDK's own waits are 30 s, and
    its force flush takes no timeout: a collector that is down must not hold a command or a
    task that long (a step still running when the process ends is abandoned)."""
    thread = threading.Thread(target=step, name="shmj-trace-flush", daemon=True)
    thread.start()
    thread.join(seconds)
    return not thread.is_alive()

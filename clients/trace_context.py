"""The caller's trace context, sent with each call: the W3C ``traceparent`` (and ``baggage``)
of the current OpenTelemetry span, as gRPC metadata, so the service's span of the call is a
child of the caller's. Nothing is sent when no span is current (or OpenTelemetry's API is not
installed); the propagators are those of ``OTEL_PROPAGATORS``, W3C's by default."""

from __future__ import annotations

_INJECT = None  # opentelemetry.propagate.inject, imported on first use; False without the API


def outgoing_metadata() -> tuple[tuple[str, str], ...] | None:
    """The metadata that carries the current trace context, or None."""
    global _INJECT
    if _INJECT is None:
        try:
            from opentelemetry.propagate import inject
        except ImportError:
            inject = False
        _INJECT = inject
    if _INJECT is False:
        return None
    carrier: dict[str, str] = {}
    _INJECT(carrier)
    return tuple(carrier.items()) or None

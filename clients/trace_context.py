"""The caller's trace context, sent with each call: the W3C ``traceparent`` (and ``baggage``)
of the current OpenTelemetry span, as gRPC metadata, so the service's span of the call is a
child of the caller's. The propagators are those of ``OTEL_PROPAGATORS``, W3C's by default.

A process that has not imported OpenTelemetry has no span to propagate: nothing is imported
or sent then (importing OpenTelemetry's propagators takes a few hundred milliseconds, which a
`shmj` command must not pay for nothing)."""

from __future__ import annotations

import sys

_INJECT = None  # opentelemetry.propagate.inject, once the caller uses OpenTelemetry


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

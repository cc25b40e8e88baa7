"""Tracing of one ``shmj`` command, when OpenTelemetry's standard variables turn it on
(`tracing_setup`: ``OTEL_TRACES_EXPORTER=otlp`` and the rest; off otherwise, and nothing of
OpenTelemetry is imported then).

While the command runs, each call it makes is a client span (`clients.trace_context`) whose
context the call carries, so the server's span is its child. A ``TRACEPARENT`` (and
``TRACESTATE``, ``BAGGAGE``) environment variable, the carrier OpenTelemetry's specification
gives a process started by another ("Environment Variables as Context Propagation Carriers"),
parents the command's spans: a script that traces can put ``shmj`` in its trace.

The spans are exported in the background and flushed when the command ends, waiting at most
`FLUSH_SECONDS`: a collector that is down or slow costs a command that long and one line on
stderr at most, never a hang or a traceback (OpenTelemetry's own log lines are kept off the
terminal)."""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping

import tracing_setup

DEFAULT_SERVICE_NAME = "shmj"
FLUSH_SECONDS = 3.0
INSTRUMENTATION = "shmj.client"


class _EnvironmentCarrier:
    """A text-map getter of environment variables: the key upper-cased, any character but a
    letter, digit or ``_`` made ``_`` (``traceparent`` is read from ``TRACEPARENT``)."""

    @staticmethod
    def _name(key: str) -> str:
        return "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_" for c in key).upper()

    def get(self, carrier: Mapping[str, str], key: str) -> list[str] | None:
        value = carrier.get(self._name(key))
        return None if value is None else [value]

    def keys(self, carrier: Mapping[str, str]) -> list[str]:
        return list(carrier)


class _Outcome(logging.Handler):
    """What the exporter went through: OpenTelemetry's log records, kept off the terminal; the
    first warning or error is what the command's one line says."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.first: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if self.first is None:
            self.first = record.getMessage().splitlines()[0][:200]


class _Watched:
    """The exporter, watched: whether an export failed."""

    def __init__(self, exporter) -> None:
        self.exporter = exporter
        self.failed = False

    def export(self, spans):
        from opentelemetry.sdk.trace.export import SpanExportResult

        result = self.exporter.export(spans)
        self.failed |= result is not SpanExportResult.SUCCESS
        return result

    def shutdown(self) -> None:
        self.exporter.shutdown()

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        return self.exporter.force_flush(timeout_millis)


class CommandTracing:
    """The tracing of a running command; `finish` it once, when the command ends."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        from opentelemetry import context, propagate

        from clients import trace_context

        self.outcome = _Outcome()
        otel_log = logging.getLogger("opentelemetry")
        otel_log.addHandler(self.outcome)
        otel_log.propagate = False
        self.exporter = _Watched(tracing_setup.span_exporter(environ))
        self.provider, self.processor = tracing_setup.tracer_provider(
            DEFAULT_SERVICE_NAME, environ, on_exit=False, exporter=self.exporter
        )
        self.tracer = self.provider.get_tracer(INSTRUMENTATION)
        self.token = context.attach(propagate.extract(environ, getter=_EnvironmentCarrier()))
        trace_context.trace_calls(self.tracer)

    def finish(self) -> None:
        """Export the spans still buffered, waiting at most `FLUSH_SECONDS`; one line on stderr
        when they could not all be sent."""
        from opentelemetry import context

        from clients import trace_context

        trace_context.trace_calls(None)
        context.detach(self.token)
        otel_log = logging.getLogger("opentelemetry")
        try:
            ended = tracing_setup.within(FLUSH_SECONDS, self.provider.shutdown)
        except KeyboardInterrupt:  # Ctrl-C while waiting: the spans left are given up (the line says so)
            ended = False
        otel_log.removeHandler(self.outcome)
        otel_log.propagate = True
        if self.exporter.failed or not ended:
            when = "" if ended else f" within {FLUSH_SECONDS:g} s"
            why = f": {self.outcome.first}" if self.outcome.first else ""
            print(f"shmj: traces not exported{when}{why}", file=sys.stderr)


def start(environ: Mapping[str, str]) -> CommandTracing | None:
    """The command's tracing, or None when the environment leaves it off (`TracingConfigError`
    for an exporter or protocol it cannot use)."""
    if not tracing_setup.enabled(environ):
        return None
    tracing_setup.check(environ, who="shmj")
    return CommandTracing(environ)

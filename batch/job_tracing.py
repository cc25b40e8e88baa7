"""The spans of a rescoring job: the job's own, in the command (`job_span`), and on a Dask
worker the span of each partition task (`partition_span`), a child of the job's span whose W3C
context (a ``traceparent`` carrier dict) comes with the task's arguments.

A worker traces when its own environment's OTEL_* variables turn tracing on (`tracing_setup`:
a local cluster's workers inherit the command's; a remote cluster's have their own) and the job
sent a context (the command traces); otherwise nothing of OpenTelemetry is imported. Each
task's span is flushed as the task ends, waiting at most `FLUSH_SECONDS`: a worker may be
stopped soon after its last task, and a collector that is down must not hold the job."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import tracing_setup

DEFAULT_SERVICE_NAME = "shmj-rescore-worker"
FLUSH_SECONDS = 2.0
PARTITION_SPAN = "shmj rescore partition"

_provider = None
_tracer = None
_configured = False


def _worker_tracer():
    """This worker's tracer, made once; None when its environment leaves tracing off."""
    global _provider, _tracer, _configured
    if not _configured:
        _configured = True
        try:
            _provider, _ = tracing_setup.tracer_provider(DEFAULT_SERVICE_NAME, on_exit=False)
        except tracing_setup.TracingConfigError:  # a worker that cannot export: its tasks run untraced
            _provider = None
        if _provider is not None:
            _tracer = _provider.get_tracer("shmj.batch")
    return _tracer


@contextmanager
def partition_span(carrier: dict[str, str] | None, attributes: dict) -> Iterator[object | None]:
    """The span of one partition task (None when untraced): set the outcome's attributes on it
    in the block; an exception that ends the task marks it an error."""
    tracer = _worker_tracer() if carrier else None
    if tracer is None:
        yield None
        return
    from opentelemetry.propagate import extract
    from opentelemetry.trace import Status, StatusCode

    span = tracer.start_span(PARTITION_SPAN, context=extract(carrier), attributes=attributes)
    try:
        yield span
    except BaseException as error:
        span.set_status(Status(StatusCode.ERROR, type(error).__name__))
        raise
    finally:
        span.end()
        tracing_setup.within(FLUSH_SECONDS, _provider.force_flush)


class JobTrace:
    """The job span's W3C context as a carrier dict for its tasks (``carrier``); `ended_with`
    gives the attributes the job's outcome sets as it ends."""

    def __init__(self) -> None:
        self.carrier: dict[str, str] = {}
        self.attributes: dict = {}
        self.failure: str | None = None

    def ended_with(self, attributes: dict, failure: str | None = None) -> None:
        self.attributes, self.failure = attributes, failure


@contextmanager
def job_span(tracer, name: str, attributes: dict) -> Iterator[JobTrace | None]:
    """The span of a job (yields its `JobTrace`; None without a ``tracer``, the command's), a
    child of the command's current context; an error status when it raises or ends with a
    failure."""
    if tracer is None:
        yield None
        return
    from opentelemetry.propagate import inject
    from opentelemetry.trace import Status, StatusCode, set_span_in_context

    span = tracer.start_span(name, attributes=attributes)
    trace = JobTrace()
    inject(trace.carrier, context=set_span_in_context(span))
    try:
        yield trace
    except BaseException as error:
        trace.failure = type(error).__name__
        raise
    finally:
        span.set_attributes(trace.attributes)
        if trace.failure is not None:
            span.set_status(Status(StatusCode.ERROR, trace.failure))
        span.end()

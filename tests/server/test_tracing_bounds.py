"""Tracing bounded against a hostile caller: a request's profile of megabytes becomes a short
attribute, no attribute is longer than the span limit, the propagators read only the trace
headers the service uses, each bounded, and a header dropped or unreadable is logged once a
minute at most, with a count of the lines left out.

Found trying the server with tracing on as a hostile client: the ``shmj.profile`` attribute kept
the profile whole (30 bodies of 15 MiB took a worker from 70 MB to 2,377 MB while queued); a
``baggage`` of 7,600 blanks cost 50 ms of CPU a call (its parser is quadratic in them), and
each such call, and each ``traceparent`` over 512 characters, wrote one warning line."""

from __future__ import annotations

import logging

import pytest
from opentelemetry import propagate
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import tracing_setup
from server import rate_limited_logs, tracing
from tests.server.test_tracing import SERVICE, TRACEPARENT, example

BAGGAGE_OF_BLANKS = " " * 7_600 + "a=1"


class Recording(propagate.textmap.TextMapPropagator):
    """A propagator that keeps each carrier it is given (and reads the W3C headers)."""

    def __init__(self):
        self.carriers: list[dict] = []

    def extract(self, carrier, context=None, getter=None):
        self.carriers.append(dict(carrier))
        return context

    def inject(self, carrier, context=None, setter=None):
        pass

    @property
    def fields(self):
        return {"traceparent", "tracestate", "baggage"}


class Metadata:
    """A call's context as far as the span's start reads it."""

    def __init__(self, *pairs: tuple[str, str | bytes]):
        self.pairs = pairs

    def invocation_metadata(self):
        return self.pairs


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def exported(monkeypatch):
    """Tracing on in this process, its spans kept in memory; the propagators as configured."""
    spans = InMemorySpanExporter()
    assert tracing.configure({}, exporter=spans)
    yield spans
    if tracing.TRACER is not None:
        tracing.shutdown()


@pytest.fixture
def recording(monkeypatch):
    propagator = Recording()
    monkeypatch.setattr(propagate, "get_global_textmap", lambda: propagator)
    monkeypatch.setattr(propagate, "propagator", propagator)  # what extract() calls
    return propagator


@pytest.fixture
def clock(exported, monkeypatch):
    """The rate limits tracing put on the chatty loggers, made afresh on a clock the test moves."""
    clock = Clock()
    for name in tracing.CHATTY_LOGGERS:
        logger = logging.getLogger(name)
        limits = [f for f in logger.filters if isinstance(f, rate_limited_logs.RateLimited)]
        assert len(limits) == 1, name
        fresh = [rate_limited_logs.RateLimited(clock=clock) if f in limits else f for f in logger.filters]
        monkeypatch.setattr(logger, "filters", fresh)
    return clock


def span_of(*pairs):
    span = tracing.start_call_span(SERVICE, "Settle", Metadata(*pairs))
    span.end()
    return span


def test_the_propagator_is_given_the_trace_headers_it_reads_each_bounded(recording, exported):
    span_of(
        ("traceparent", TRACEPARENT),
        ("tracestate", "vendor=1"),
        ("baggage", BAGGAGE_OF_BLANKS),
        ("x-request-id", "r" * 10_000),
        ("traceparent-bin", b"\x00"),
    )
    span_of(("traceparent", TRACEPARENT + "-" + "0" * 500), ("tracestate", "v=" + "1" * 600))
    assert recording.carriers == [{"traceparent": TRACEPARENT, "tracestate": "vendor=1"}, {}]


def test_a_header_dropped_is_logged_once_a_minute_with_the_count_left_out(exported, clock, caplog):
    long_parent = TRACEPARENT + "-" + "0" * 600
    for _ in range(100):
        span_of(("traceparent", long_parent), ("baggage", BAGGAGE_OF_BLANKS))
    clock.now = 60.0
    span_of(("traceparent", long_parent))
    said = [r.getMessage() for r in caplog.records if r.name == "shmj.tracing"]
    assert said == [
        "trace header traceparent dropped: 656 characters, more than 512",
        "trace header traceparent dropped: 656 characters, more than 512"
        " (and 99 more since the last such line, not logged)",
    ]


def test_the_propagators_own_warnings_are_rate_limited_too(exported, clock, caplog):
    for _ in range(50):
        span_of(("traceparent", TRACEPARENT), ("tracestate", "a=1,@@@=2"))
    said = [r for r in caplog.records if r.name.startswith("opentelemetry")]
    assert len(said) == 1


def test_a_profile_of_megabytes_is_a_short_attribute_and_the_known_name_is_whole(exported):
    for profile in ("classic", "x" * (1 << 20)):
        span = tracing.start_call_span(SERVICE, "Settle", Metadata())
        request = example()
        request.profile = profile
        tracing.request_attributes(span, request)
        span.end()
    tracing.shutdown()  # every span exported
    kept = [span.attributes["shmj.profile"] for span in exported.get_finished_spans()]
    assert kept == ["classic", "x" * 128 + "… (1048576 characters)"]


@pytest.mark.parametrize(
    ("environ", "chars"),
    [
        ({}, 1024),
        ({"OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT": "40"}, 40),
        ({"OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT": "9"}, 9),
    ],
)
def test_no_attribute_is_longer_than_the_span_limit(environ, chars):
    spans = InMemorySpanExporter()
    provider, _ = tracing_setup.tracer_provider("test", environ, on_exit=False, exporter=spans)
    with provider.get_tracer("test").start_as_current_span("call") as span:
        span.set_attribute("long", "y" * 100_000)
    provider.shutdown()
    assert spans.get_finished_spans()[0].attributes["long"] == "y" * chars


def test_a_length_limit_that_is_no_number_is_refused_before_start():
    with pytest.raises(tracing_setup.TracingConfigError) as refused:
        tracing_setup.check({"OTEL_TRACES_EXPORTER": "otlp", "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT": "lots"})
    assert str(refused.value) == "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT='lots': a whole number of characters"

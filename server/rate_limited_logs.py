"""At most one line per interval from a logger that a client's input can make speak on every call.

OpenTelemetry's propagators warn for each trace header they cannot read (a ``tracestate`` of
invalid members, a ``traceparent`` too long), and the service warns for each trace header it
drops: one line per call, as many as a hostile client sends. `RateLimited`, a filter on each
such logger, lets the first record of an interval through and drops the rest; the next record
let through says how many were dropped since the last one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

INTERVAL_S = 60.0


class RateLimited(logging.Filter):
    def __init__(self, interval_s: float = INTERVAL_S, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.interval_s = interval_s
        self.clock = clock
        self.next_at: float | None = None  # when the next record may be let through
        self.suppressed = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = self.clock()
        if self.next_at is not None and now < self.next_at:
            self.suppressed += 1
            return False
        self.next_at = now + self.interval_s
        if self.suppressed:
            record.msg = f"{record.getMessage()} (and {self.suppressed:,} more since the last such line, not logged)"
            record.args = None
            self.suppressed = 0
        return True


def rate_limit(*names: str, interval_s: float = INTERVAL_S) -> None:
    """Put a `RateLimited` filter on each logger named, once however often this is called."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RateLimited) for f in logger.filters):
            logger.addFilter(RateLimited(interval_s))

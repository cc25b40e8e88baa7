"""An answer gRPC could not send because its call had already ended: one info line, counted,
in place of grpc.aio's error and traceback.

When a call's deadline passes, or its client cancels, while its answer is being written (a
client reading slowly, or the answer finished a moment before the deadline), gRPC's core
fails the batch that sends it. grpc.aio's server (``_handle_exceptions`` in its Cython code)
says nothing when it has already seen the call end, and otherwise, depending on which of the
two completions its event loop takes first, logs ``ExecuteBatchError raised in core by
servicer method [/service/method]`` at error with a traceback, on the logger
``grpc._cython.cygrpc``: a false bug (issue 21, finding 6; docs/RELIABILITY.md).

`UnsentAnswers`, a filter on that logger (`install`, from `server.logs.configure_logging`),
turns exactly that record into ``answer not sent`` at info (the method, the reason) and
counts it in ``shmj_answers_not_sent_total``. Exactly: the record's message is that one and
its exception says the batch failed in the core (``Failed "execute_batch"``, a batch started
and then failed: the call had ended). A batch gRPC refused to start (``Failed
grpc_call_start_batch``: a misuse, not a call that ended) and every other gRPC record stay
as they are, at their level.
"""

from __future__ import annotations

import logging
import re

import structlog

from server import metrics

GRPC_LOGGER = "grpc._cython.cygrpc"
REASON = "the call had ended (its deadline passed or its client cancelled) as its answer was written"
_UNSENT = re.compile(r"ExecuteBatchError raised in core by servicer method \[/?(.*)\]", re.S)
_BATCH_FAILED_IN_CORE = 'Failed "execute_batch"'

log = structlog.get_logger("shmj.server")


def unsent_method(record: logging.LogRecord) -> str | None:
    """The method (``service/method``) of a record saying that an ended call's answer could
    not be sent; None for any other record."""
    if record.levelno != logging.ERROR or not record.exc_info or not call_had_ended(record.exc_info[1]):
        return None
    found = _UNSENT.fullmatch(record.getMessage())
    return None if found is None else found.group(1)


def call_had_ended(error: BaseException | None) -> bool:
    """Whether ``error`` is gRPC's for a batch that failed in the core: the call had ended
    (its deadline passed, its client cancelled, its connection closed) before the batch (an
    answer, a status: an abort's too) could be sent."""
    kind = type(error)
    return (kind.__module__, kind.__name__) == (GRPC_LOGGER, "ExecuteBatchError") and str(error).startswith(
        _BATCH_FAILED_IN_CORE
    )


class UnsentAnswers(logging.Filter):
    """Drops gRPC's error record of an answer not sent (`unsent_method`), logging and counting
    it instead; lets every other record through."""

    def filter(self, record: logging.LogRecord) -> bool:
        method = unsent_method(record)
        if method is None:
            return True
        log.info("answer not sent", method=method, reason=REASON)
        metrics.ANSWERS_NOT_SENT.inc()
        return False


def install() -> None:
    """Put the filter on gRPC's logger, once however often logging is configured."""
    logger = logging.getLogger(GRPC_LOGGER)
    if not any(isinstance(f, UnsentAnswers) for f in logger.filters):
        logger.addFilter(UnsentAnswers())

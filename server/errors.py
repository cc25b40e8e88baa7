"""Every failure the server answers, built in one place: its gRPC status code, its message,
and its details: a `google.rpc.ErrorInfo` (AIP-193) with a stable machine-readable `reason`
and the domain `scoring.mahjong.shanghai.v1`, and a `google.rpc.BadRequest` naming each
field when the request is malformed. gRPC calls carry them in the status details, HTTP
(Connect) calls in the JSON error body (`server.http.connect`), a batch or stream entry in
its `SettleError` (`reason`, `metadata`).

A client branches on `reason`, never on the message, which is for people and may change.
The reasons are listed in docs/CLIENTS.md and docs/HTTP.md; a test holds the lists to `Reason`.
"""

from __future__ import annotations

import asyncio
import enum
import functools
from dataclasses import dataclass, field

import grpc
import structlog
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from rules_core.errors import InvalidRequest, ProfileDigestMismatch, bounded

log = structlog.get_logger("shmj.service")

DOMAIN = "scoring.mahjong.shanghai.v1"
MAX_STATUS_MESSAGE_CHARS = 1000  # with the bounded BadRequest, trailers stay well under 8 KiB
INTERNAL_MESSAGE = "internal error; it has been logged"
SHUTTING_DOWN = "the server is shutting down; retry the call"


class Reason(enum.StrEnum):
    """ErrorInfo's `reason`: why a call (or a batch entry) failed, one name per cause."""

    INVALID_REQUEST = "INVALID_REQUEST"  # INVALID_ARGUMENT: field violations in a BadRequest
    MALFORMED_BODY = "MALFORMED_BODY"  # INVALID_ARGUMENT: not the rpc's message, not JSON, not gzip
    BODY_TOO_LARGE = "BODY_TOO_LARGE"  # INVALID_ARGUMENT: larger than any legal request (a violation)
    BATCH_TOO_LARGE = "BATCH_TOO_LARGE"  # INVALID_ARGUMENT: more requests than --max-batch-size
    INVALID_TIMEOUT = "INVALID_TIMEOUT"  # INVALID_ARGUMENT: a Connect-Timeout-Ms that is not one
    UNKNOWN_PROFILE = "UNKNOWN_PROFILE"  # NOT_FOUND: GetProfile of a profile the server lacks
    PROFILE_DIGEST_MISMATCH = "PROFILE_DIGEST_MISMATCH"  # FAILED_PRECONDITION: pinned to other rule values
    MESSAGE_TOO_LARGE = "MESSAGE_TOO_LARGE"  # RESOURCE_EXHAUSTED: a request over --max-message-bytes
    ANSWER_TOO_LARGE = "ANSWER_TOO_LARGE"  # RESOURCE_EXHAUSTED: an answer over --max-message-bytes
    TOO_MANY_CALLS = "TOO_MANY_CALLS"  # RESOURCE_EXHAUSTED: over --max-concurrent-rpcs HTTP calls
    TOO_MANY_BODIES = "TOO_MANY_BODIES"  # RESOURCE_EXHAUSTED: over --http-body-budget-bytes held
    TOO_MANY_WAITING_CALLS = "TOO_MANY_WAITING_CALLS"  # RESOURCE_EXHAUSTED: the address's share awaits requests
    DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED"  # DEADLINE_EXCEEDED: the call's deadline passed
    CLIENT_CLOSED = "CLIENT_CLOSED"  # CANCELLED: the client went before its request was whole
    BODY_TIMEOUT = "BODY_TIMEOUT"  # CANCELLED: a gRPC request not whole within --grpc-body-timeout-s
    SHUTTING_DOWN = "SHUTTING_DOWN"  # UNAVAILABLE: the worker is draining; retry elsewhere
    UNKNOWN_METHOD = "UNKNOWN_METHOD"  # UNIMPLEMENTED: no such rpc, or not with this HTTP method
    STREAM_OVER_HTTP = "STREAM_OVER_HTTP"  # UNIMPLEMENTED: SettleStream over HTTP/1.1
    UNSUPPORTED_ENCODING = "UNSUPPORTED_ENCODING"  # UNIMPLEMENTED: a Content-Encoding but gzip
    INTERNAL = "INTERNAL"  # INTERNAL: a bug, logged with its traceback


@dataclass(frozen=True)
class Failure:
    """One failure as every face answers it."""

    code: grpc.StatusCode
    reason: Reason
    message: str
    violations: tuple[tuple[str, str], ...] = ()
    metadata: dict[str, str] = field(default_factory=dict)

    def error_info(self) -> error_details_pb2.ErrorInfo:
        return error_details_pb2.ErrorInfo(reason=self.reason.value, domain=DOMAIN, metadata=self.metadata)

    def details(self) -> list[any_pb2.Any]:
        """ErrorInfo first, then the BadRequest when fields are named."""
        packed = [_pack(self.error_info())]
        if self.violations:
            bad_request = error_details_pb2.BadRequest(
                field_violations=[
                    error_details_pb2.BadRequest.FieldViolation(field=f, description=d) for f, d in self.violations
                ]
            )
            packed.append(_pack(bad_request))
        return packed

    def status(self) -> grpc.Status:
        """The status gRPC sends: code, bounded message, details in ``grpc-status-details-bin``."""
        message = bounded(self.message, MAX_STATUS_MESSAGE_CHARS)
        status = status_pb2.Status(code=self.code.value[0], message=message, details=self.details())
        return rpc_status.to_status(status)

    def fill_settle_error(self, target) -> None:
        """Write this failure into a `SettleError` (a batch or stream entry)."""
        target.code = self.code.name
        target.message = self.message
        target.reason = self.reason.value
        for key, value in self.metadata.items():
            target.metadata[key] = value
        add = target.field_violations.add
        for path, description in self.violations:
            add(field=path, description=description)


def _pack(message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


async def abort(context, failure: Failure) -> None:
    """End the call with ``failure`` (raises, as gRPC's ``abort`` does)."""
    await context.abort_with_status(failure.status())


# --- the failures ---------------------------------------------------------------------------


def invalid_request(error: InvalidRequest) -> Failure:
    return Failure(grpc.StatusCode.INVALID_ARGUMENT, Reason.INVALID_REQUEST, str(error), tuple(error.violations))


def profile_digest_mismatch(error: ProfileDigestMismatch) -> Failure:
    """A request pinned to a profile digest the effective profile does not have (API.md)."""
    return Failure(
        grpc.StatusCode.FAILED_PRECONDITION,
        Reason.PROFILE_DIGEST_MISMATCH,
        str(error),
        metadata={"expected": bounded(error.expected, 80), "actual": error.actual},
    )


def body_too_large(error: InvalidRequest) -> Failure:
    """A body (or batch entry) larger than a legal request can be (`convert.limits`)."""
    return Failure(grpc.StatusCode.INVALID_ARGUMENT, Reason.BODY_TOO_LARGE, str(error), tuple(error.violations))


def malformed_body(message: str) -> Failure:
    return Failure(grpc.StatusCode.INVALID_ARGUMENT, Reason.MALFORMED_BODY, message)


def batch_too_large(count: int | None, limit: int) -> Failure:
    """More than ``limit`` requests: ``count`` of them, or None when the rest went uncounted."""
    violation = ("requests", f"at most {limit} requests per call, got {'more' if count is None else count}")
    metadata = {"limit": str(limit)} if count is None else {"count": str(count), "limit": str(limit)}
    return Failure(
        grpc.StatusCode.INVALID_ARGUMENT, Reason.BATCH_TOO_LARGE, "batch too large; split it", (violation,), metadata
    )


def invalid_timeout(message: str) -> Failure:
    return Failure(grpc.StatusCode.INVALID_ARGUMENT, Reason.INVALID_TIMEOUT, message)


def unknown_profile(message: str, name: str) -> Failure:
    return Failure(grpc.StatusCode.NOT_FOUND, Reason.UNKNOWN_PROFILE, message, metadata={"profile": bounded(name, 128)})


def message_too_large(what: str, size: int, limit: int) -> Failure:
    """A request (or stream message) over ``--max-message-bytes``."""
    return Failure(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        Reason.MESSAGE_TOO_LARGE,
        f"{what} is {size} bytes, over the {limit}-byte message limit",
        metadata={"size": str(size), "limit": str(limit)},
    )


def request_over_limit(limit: int) -> Failure:
    """An HTTP request body refused while it was read, its full size unknown."""
    return Failure(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        Reason.MESSAGE_TOO_LARGE,
        f"the request is over the server's limit of {limit} bytes",
        metadata={"limit": str(limit)},
    )


def answer_too_large(size: int, limit: int, hint: str = "") -> Failure:
    return Failure(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        Reason.ANSWER_TOO_LARGE,
        f"the answer is {size} bytes, over the {limit}-byte message limit{hint}",
        metadata={"size": str(size), "limit": str(limit)},
    )


def too_many_calls() -> Failure:
    return Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, Reason.TOO_MANY_CALLS, "too many calls at once; retry later")


def too_many_bodies() -> Failure:
    return Failure(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        Reason.TOO_MANY_BODIES,
        "the server is reading too many request bodies at once; retry the call",
    )


def too_many_waiting_calls(share: int) -> Failure:
    """A gRPC call from an address that has its share of calls waiting for their request."""
    return Failure(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        Reason.TOO_MANY_WAITING_CALLS,
        f"this client address has {share} calls waiting for their request already; send them, then retry",
        metadata={"share": str(share)},
    )


def deadline_exceeded(message: str = "deadline exceeded") -> Failure:
    return Failure(grpc.StatusCode.DEADLINE_EXCEEDED, Reason.DEADLINE_EXCEEDED, message)


def client_closed() -> Failure:
    return Failure(grpc.StatusCode.CANCELLED, Reason.CLIENT_CLOSED, "the client closed the connection")


def body_timeout(what: str, timeout_s: float) -> Failure:
    """A gRPC request (or a stream's next message) that did not arrive within ``timeout_s``:
    CANCELLED, as the client's doing (a call that never sent its body), not the server's."""
    return Failure(
        grpc.StatusCode.CANCELLED,
        Reason.BODY_TIMEOUT,
        f"{what} did not arrive within {timeout_s:g} s (--grpc-body-timeout-s)",
        metadata={"timeout_s": f"{timeout_s:g}"},
    )


def no_request_message() -> Failure:
    """A unary call half-closed before one whole request message."""
    return malformed_body("the call was half-closed without a whole request message")


def shutting_down() -> Failure:
    return Failure(grpc.StatusCode.UNAVAILABLE, Reason.SHUTTING_DOWN, SHUTTING_DOWN)


def unknown_method(message: str) -> Failure:
    return Failure(grpc.StatusCode.UNIMPLEMENTED, Reason.UNKNOWN_METHOD, message)


def stream_over_http(message: str) -> Failure:
    return Failure(grpc.StatusCode.UNIMPLEMENTED, Reason.STREAM_OVER_HTTP, message)


def unsupported_encoding(encoding: str) -> Failure:
    return Failure(
        grpc.StatusCode.UNIMPLEMENTED,
        Reason.UNSUPPORTED_ENCODING,
        f"unsupported Content-Encoding {encoding!r}; send gzip or identity",
    )


INTERNAL = Failure(grpc.StatusCode.INTERNAL, Reason.INTERNAL, INTERNAL_MESSAGE)


# --- the guard against bugs -------------------------------------------------------------------


def call_over(context) -> bool:
    """Whether the call has ended on the client's side: its deadline passed, or it cancelled."""
    remaining = context.time_remaining()
    if remaining is not None and remaining <= 0:
        return True
    cancelled = getattr(context, "cancelled", None)  # gRPC's context has it; the HTTP one ends by its deadline
    return cancelled is not None and cancelled()


async def internal_error(context, method: str) -> None:
    """What follows an exception that is not the caller's fault: INTERNAL, logged with its
    traceback. Unless the call has ended already (its deadline passed, or the client
    cancelled): then what failed is ending it (gRPC's core refuses the status of a call it
    has closed), not a bug, and the call ends as what it is, CANCELLED or DEADLINE_EXCEEDED in
    its info-level log line (`server.call_book`)."""
    if call_over(context):
        raise asyncio.CancelledError
    log.exception("unexpected error", method=method)
    await abort(context, INTERNAL)


def guarded(method):
    """A bug must not take the process down or leak a traceback: log it, answer INTERNAL.
    For a coroutine method ``(self, request, context)`` of a servicer."""

    @functools.wraps(method)
    async def guarded_call(self, request, context):
        try:
            return await method(self, request, context)
        except (grpc.aio.AbortError, asyncio.CancelledError):
            raise
        except Exception:
            await internal_error(context, method.__name__)

    return guarded_call

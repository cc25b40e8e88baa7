"""A failed call as one exception that explains itself: code, message and the fields at fault.

The service answers a malformed request with ``INVALID_ARGUMENT`` and a
``google.rpc.BadRequest`` in the status details (the ``grpc-status-details-bin``
trailer); `ScoringError` decodes it, for the blocking and the asyncio client alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple, Protocol, cast

import grpc
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]  # no stubs are published
from mahjong.shanghai.v1 import settlement_pb2 as pb

_DETAILS_KEY = "grpc-status-details-bin"


class FieldViolation(NamedTuple):
    """One wrong field: its path in the request (``winners[0].hand.melds[1]``) and what is wrong."""

    field: str
    description: str


class _FailedCall(Protocol):
    """What a failed call offers, blocking (``grpc.Call``) or asyncio (``grpc.aio.AioRpcError``)."""

    def code(self) -> grpc.StatusCode: ...

    def details(self) -> str | None: ...

    def trailing_metadata(self) -> Any: ...


class ScoringError(Exception):
    """A call the service refused or could not answer.

    ``code`` is the gRPC status (``grpc.StatusCode.INVALID_ARGUMENT`` for a malformed
    request, ``NOT_FOUND`` for an unknown profile, ``UNAVAILABLE`` when no server
    answered after the retries, ``DEADLINE_EXCEEDED``, ``RESOURCE_EXHAUSTED``);
    ``violations`` names each wrong field of a malformed request.
    """

    def __init__(self, code: grpc.StatusCode, message: str, violations: tuple[FieldViolation, ...] = ()):
        super().__init__(code, message, violations)
        self.code = code
        self.message = message
        self.violations = violations

    def __str__(self) -> str:
        lines = [f"{self.code.name}: {self.message}"]
        lines += [f"  {v.field}: {v.description}" for v in self.violations]
        return "\n".join(lines)

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> ScoringError:
        """The error of a failed call (a ``grpc.Call`` or an ``grpc.aio.AioRpcError``)."""
        call = cast(_FailedCall, error)
        return cls(call.code(), call.details() or "", bad_request_violations(call.trailing_metadata()))

    @classmethod
    def from_settle_error(cls, error: pb.SettleError) -> ScoringError:
        """The error entry of a SettleBatch result or a SettleStream response, as an exception."""
        code = getattr(grpc.StatusCode, error.code, grpc.StatusCode.UNKNOWN)
        return cls(code, error.message, tuple(FieldViolation(v.field, v.description) for v in error.field_violations))


def bad_request_violations(trailing_metadata: Iterable[tuple[str, Any]] | None) -> tuple[FieldViolation, ...]:
    """The field violations of the ``google.rpc.BadRequest`` details in a call's trailers."""
    for key, value in trailing_metadata or ():
        if key != _DETAILS_KEY:
            continue
        status = status_pb2.Status.FromString(value)
        violations: list[FieldViolation] = []
        for detail in status.details:
            bad_request = error_details_pb2.BadRequest()
            if detail.Unpack(bad_request):
                violations += (FieldViolation(v.field, v.description) for v in bad_request.field_violations)
        return tuple(violations)
    return ()

"""A failed call as one exception that explains itself: code, message and the fields at fault.

The service answers a malformed request with ``INVALID_ARGUMENT`` and a
``google.rpc.BadRequest`` in the status details (the ``grpc-status-details-bin``
trailer), and every failure with a ``google.rpc.ErrorInfo`` whose ``reason`` says why in one
stable word (``INVALID_REQUEST``, ``UNKNOWN_PROFILE``, ``ANSWER_TOO_LARGE``: docs/CLIENTS.md);
`ScoringError` decodes both, for the blocking and the asyncio client alike.
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
    ``violations`` names each wrong field of a malformed request; ``reason`` is the
    ErrorInfo's (empty when the failure came from gRPC itself, not the service) and
    ``metadata`` its metadata.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        violations: tuple[FieldViolation, ...] = (),
        reason: str = "",
        metadata: dict[str, str] | None = None,
    ):
        super().__init__(code, message, violations)
        self.code = code
        self.message = message
        self.violations = violations
        self.reason = reason
        self.metadata = metadata or {}

    def __str__(self) -> str:
        lines = [f"{self.code.name}: {self.message}"]
        lines += [f"  {v.field}: {v.description}" for v in self.violations]
        return "\n".join(lines)

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> ScoringError:
        """The error of a failed call (a ``grpc.Call`` or an ``grpc.aio.AioRpcError``)."""
        call = cast(_FailedCall, error)
        status = _status(call.trailing_metadata())
        violations: list[FieldViolation] = []
        info = error_details_pb2.ErrorInfo()
        for detail in status.details if status is not None else ():
            bad_request = error_details_pb2.BadRequest()
            if detail.Unpack(bad_request):
                violations += (FieldViolation(v.field, v.description) for v in bad_request.field_violations)
            else:
                detail.Unpack(info)
        return cls(call.code(), call.details() or "", tuple(violations), info.reason, dict(info.metadata))

    @classmethod
    def from_settle_error(cls, error: pb.SettleError) -> ScoringError:
        """The error entry of a SettleBatch result or a SettleStream response, as an exception."""
        code = getattr(grpc.StatusCode, error.code, grpc.StatusCode.UNKNOWN)
        violations = tuple(FieldViolation(v.field, v.description) for v in error.field_violations)
        return cls(code, error.message, violations, error.reason, dict(error.metadata))


def _status(trailing_metadata: Iterable[tuple[str, Any]] | None) -> Any:
    """The ``google.rpc.Status`` in a call's trailers, or None."""
    for key, value in trailing_metadata or ():
        if key == _DETAILS_KEY:
            return status_pb2.Status.FromString(value)
    return None

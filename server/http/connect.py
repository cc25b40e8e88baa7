"""The Connect protocol's unary wire rules (https://connectrpc.com/docs/protocol/): which
content types carry which codec, the ``Connect-Timeout-Ms`` header, and the error body
with its HTTP status. Nothing here knows the scoring service.
"""

from __future__ import annotations

import base64
import json

import grpc
from google.protobuf import any_pb2, json_format, symbol_database
from google.rpc import status_pb2

JSON, PROTO = "json", "proto"
CONTENT_TYPES = {"application/json": JSON, "application/proto": PROTO}
ACCEPT_POST = "application/json, application/proto"
TIMEOUT_HEADER = "connect-timeout-ms"
STREAMING_PREFIX = "application/connect+"

# The protocol's HTTP status for each code; the client reads the code from the body.
HTTP_STATUS = {
    grpc.StatusCode.CANCELLED: 499,
    grpc.StatusCode.UNKNOWN: 500,
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.ALREADY_EXISTS: 409,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.FAILED_PRECONDITION: 400,
    grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.OUT_OF_RANGE: 400,
    grpc.StatusCode.UNIMPLEMENTED: 501,
    grpc.StatusCode.INTERNAL: 500,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DATA_LOSS: 500,
    grpc.StatusCode.UNAUTHENTICATED: 401,
}


def codec_of(content_type: str) -> str | None:
    """``json`` or ``proto`` for a unary request's content type (parameters such as
    ``charset=utf-8`` ignored), None for any other."""
    media_type = content_type.partition(";")[0].strip().lower()
    return CONTENT_TYPES.get(media_type)


def is_streaming(content_type: str) -> bool:
    return content_type.strip().lower().startswith(STREAMING_PREFIX)


class ProtocolError(Exception):
    """A request the protocol itself rejects, before any method runs."""

    def __init__(self, code: grpc.StatusCode, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def timeout_seconds(value: str | None) -> float | None:
    """``Connect-Timeout-Ms``: at most 10 digits of milliseconds; absent means no deadline."""
    if value is None:
        return None
    if not (value.isascii() and value.isdigit() and len(value) <= 10):
        raise ProtocolError(
            grpc.StatusCode.INVALID_ARGUMENT,
            f"Connect-Timeout-Ms must be a whole number of milliseconds (at most 10 digits), got {value!r}",
        )
    return int(value) / 1000


def code_name(code: grpc.StatusCode) -> str:
    """Connect spells codes in snake case: ``invalid_argument``, ``deadline_exceeded``."""
    return "canceled" if code == grpc.StatusCode.CANCELLED else code.name.lower()


def _detail(packed: any_pb2.Any) -> dict:
    """One entry of ``details``: the message's type, its bytes in base64 (unpadded, as
    connect-go writes), and its JSON form under ``debug`` for people reading with curl."""
    entry = {
        "type": packed.TypeName(),
        "value": base64.b64encode(packed.value).decode().rstrip("="),
    }
    try:
        message = symbol_database.Default().GetSymbol(packed.TypeName())()
    except KeyError:
        return entry
    packed.Unpack(message)
    entry["debug"] = json_format.MessageToDict(message)
    return entry


def error_body(code: grpc.StatusCode, message: str, details: list[any_pb2.Any] = ()) -> bytes:
    body: dict = {"code": code_name(code), "message": message}
    if details:
        body["details"] = [_detail(d) for d in details]
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def status_details(trailing_metadata) -> tuple[str | None, list[any_pb2.Any]]:
    """The message and details of a ``google.rpc.Status`` that gRPC carries in the
    ``grpc-status-details-bin`` trailer (how the servicer reports field violations)."""
    for key, value in trailing_metadata or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            return status.message, list(status.details)
    return None, []

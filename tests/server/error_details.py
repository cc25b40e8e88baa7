"""The details of a failed call, read as a client reads them: the `google.rpc.ErrorInfo`
every failure carries and the `google.rpc.BadRequest` of a malformed request, from a gRPC
call's status or a Connect JSON error body (whose readable ``debug`` copy must agree)."""

from __future__ import annotations

import base64

import grpc
from google.protobuf import json_format
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from tests.server.http_calls import Reply

DOMAIN = "scoring.mahjong.shanghai.v1"


def _unpacked(details, kind):
    found = []
    for detail in details:
        message = kind()
        if detail.Unpack(message):
            found.append(message)
    return found


def _grpc_details(error: grpc.RpcError) -> list:
    status = rpc_status.from_call(error)
    assert status is not None, "no google.rpc.Status in the trailers"
    return list(status.details)


def error_info(error: grpc.RpcError) -> tuple[str, dict[str, str]]:
    """(reason, metadata) of the one ErrorInfo, after checking its domain."""
    (info,) = _unpacked(_grpc_details(error), error_details_pb2.ErrorInfo)
    assert info.domain == DOMAIN
    return info.reason, dict(info.metadata)


def trailers_error_info(details_bin: str) -> tuple[str, dict[str, str]]:
    """(reason, metadata) of the one ErrorInfo in a raw call's ``grpc-status-details-bin``
    trailer (base64, unpadded as gRPC sends it)."""
    status = status_pb2.Status.FromString(base64.b64decode(details_bin + "=" * (-len(details_bin) % 4)))
    (info,) = _unpacked(status.details, error_details_pb2.ErrorInfo)
    assert info.domain == DOMAIN
    return info.reason, dict(info.metadata)


def bad_request(error: grpc.RpcError) -> list[tuple[str, str]]:
    """The field violations of the one BadRequest."""
    (found,) = _unpacked(_grpc_details(error), error_details_pb2.BadRequest)
    return [(v.field, v.description) for v in found.field_violations]


def _http_details(reply: Reply, kind) -> list:
    """The details of type ``kind`` in a Connect error body, each decoded from its base64
    ``value`` and checked against its ``debug`` JSON."""
    found = []
    for detail in reply.json().get("details", []):
        if detail["type"] != kind.DESCRIPTOR.full_name:
            continue
        value = detail["value"]
        message = kind.FromString(base64.b64decode(value + "=" * (-len(value) % 4)))
        assert json_format.MessageToDict(message) == detail["debug"]
        found.append(message)
    return found


def http_error_info(reply: Reply) -> tuple[str, dict[str, str]]:
    (info,) = _http_details(reply, error_details_pb2.ErrorInfo)
    assert info.domain == DOMAIN
    return info.reason, dict(info.metadata)


def http_bad_request(reply: Reply) -> list[tuple[str, str]]:
    (found,) = _http_details(reply, error_details_pb2.BadRequest)
    return [(v.field, v.description) for v in found.field_violations]


def http_error(reply: Reply) -> tuple[int, dict]:
    """(HTTP status, the error body with its ErrorInfo as ``reason`` and, when it has any,
    ``metadata`` in place of ``details``), for errors without field violations."""
    body = dict(reply.json())
    details = body.pop("details")
    assert [d["type"] for d in details] == ["google.rpc.ErrorInfo"]
    body["reason"], metadata = http_error_info(reply)
    if metadata:
        body["metadata"] = metadata
    return reply.status, body

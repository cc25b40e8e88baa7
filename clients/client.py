"""A small typed client for ScoringService, blocking; `clients.aio` has the asyncio one.

Retries of UNAVAILABLE with exponential backoff come from the gRPC service
config (grpc retries them transparently, within the call's deadline), not from
a loop here. Every call has a deadline: the client's default or the call's own.
A failed call raises `ScoringError` (code, message, the fields at fault).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import grpc
from mahjong.shanghai.v1 import advice_pb2, profile_pb2, records_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc as svc_grpc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import clients.trace_context as trace_context
from clients.errors import ScoringError
from clients.trace_context import outgoing_metadata

SERVICE = svc.DESCRIPTOR.services_by_name["ScoringService"].full_name


def retry_service_config(max_attempts: int = 4, initial_backoff_s: float = 0.1, max_backoff_s: float = 2.0) -> str:
    """gRPC service config: retry UNAVAILABLE with exponential backoff on every method."""
    if max_attempts < 2:
        return json.dumps({"methodConfig": [{"name": [{"service": SERVICE}]}]})
    return json.dumps(
        {
            "methodConfig": [
                {
                    "name": [{"service": SERVICE}],
                    "retryPolicy": {
                        "maxAttempts": max_attempts,
                        "initialBackoff": f"{initial_backoff_s}s",
                        "maxBackoff": f"{max_backoff_s}s",
                        "backoffMultiplier": 2,
                        "retryableStatusCodes": ["UNAVAILABLE"],
                    },
                }
            ]
        }
    )


class ChannelSettings:
    """What a channel to the service is made of; shared by the blocking and the asyncio client.

    ``target`` is ``host:port`` (or any gRPC target, such as ``dns:///scoring:50051``). With
    ``tls=True`` the server certificate is checked against ``root_certificates`` (PEM path;
    the system roots when empty); ``client_cert`` and ``client_key`` (PEM paths) add mutual
    TLS. ``load_balancing`` is a gRPC policy name: ``round_robin`` spreads calls over every
    address the name resolves to, ``pick_first`` (gRPC's default) uses one.
    """

    def __init__(
        self,
        target: str,
        *,
        tls: bool,
        root_certificates: str | None,
        client_cert: str | None,
        client_key: str | None,
        server_name: str | None,
        max_attempts: int,
        max_message_bytes: int,
        load_balancing: str | None,
    ):
        self.target = target
        config = json.loads(retry_service_config(max_attempts))
        if load_balancing:
            config["loadBalancingConfig"] = [{load_balancing: {}}]
        self.options: list[tuple[str, Any]] = [
            ("grpc.enable_retries", 1),
            ("grpc.service_config", json.dumps(config)),
            ("grpc.max_receive_message_length", max_message_bytes),
            ("grpc.max_send_message_length", max_message_bytes),
        ]
        if server_name:
            self.options.append(("grpc.ssl_target_name_override", server_name))
        self.credentials: grpc.ChannelCredentials | None = None
        if tls or root_certificates or client_cert:
            self.credentials = grpc.ssl_channel_credentials(
                root_certificates=_read(root_certificates),
                private_key=_read(client_key),
                certificate_chain=_read(client_cert),
            )


Response = TypeVar("Response")


class ClientBase:
    """The arguments both clients take; a subclass opens its kind of channel in `_connect`.

    See `ChannelSettings` for the connection arguments. ``timeout`` is the deadline of
    each call in seconds unless the call gives its own. A failed call raises `ScoringError`.
    """

    def __init__(
        self,
        target: str = "127.0.0.1:50051",
        *,
        tls: bool = False,
        root_certificates: str | None = None,
        client_cert: str | None = None,
        client_key: str | None = None,
        server_name: str | None = None,
        timeout: float = 10.0,
        max_attempts: int = 4,
        max_message_bytes: int = 64 * 1024 * 1024,
        load_balancing: str | None = None,
    ):
        self.timeout = timeout
        self.target = target
        self._connect(
            ChannelSettings(
                target,
                tls=tls,
                root_certificates=root_certificates,
                client_cert=client_cert,
                client_key=client_key,
                server_name=server_name,
                max_attempts=max_attempts,
                max_message_bytes=max_message_bytes,
                load_balancing=load_balancing,
            )
        )

    def _connect(self, settings: ChannelSettings) -> None:
        raise NotImplementedError


class ScoringClient(ClientBase):
    """Calls ScoringService; use as a context manager or call `close()`. A failed call raises `ScoringError`."""

    channel: grpc.Channel

    def _connect(self, settings: ChannelSettings) -> None:
        if settings.credentials is not None:
            self.channel = grpc.secure_channel(settings.target, settings.credentials, options=settings.options)
        else:
            self.channel = grpc.insecure_channel(settings.target, options=settings.options)
        self.stub = svc_grpc.ScoringServiceStub(self.channel)

    def __enter__(self) -> ScoringClient:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self.channel.close()

    def _call(self, method: Callable[..., Response], name: str, request: Any, timeout: float | None) -> Response:
        try:
            if trace_context.TRACER is None:
                return method(request, timeout=timeout or self.timeout, metadata=outgoing_metadata())
            with trace_context.client_span(SERVICE, name, self.target) as metadata:
                return method(request, timeout=timeout or self.timeout, metadata=metadata)
        except grpc.RpcError as error:
            raise ScoringError.from_rpc_error(error) from error

    def settle(self, request: pb.SettleRequest, timeout: float | None = None) -> pb.SettleResponse:
        return self._call(self.stub.Settle, "Settle", request, timeout)

    def settle_batch(
        self, requests: Iterable[pb.SettleRequest], timeout: float | None = None
    ) -> list[svc.SettleBatchResult]:
        """One result per request, in order: a ``response``, or an ``error`` for a malformed request."""
        batch = svc.SettleBatchRequest(requests=list(requests))
        return list(self._call(self.stub.SettleBatch, "SettleBatch", batch, timeout).results)

    def settle_stream(
        self, requests: Iterable[pb.SettleRequest], timeout: float | None = None
    ) -> Iterator[pb.SettleResponse]:
        """One response per request, in order; a request that cannot be settled has `error` set.

        The stream has no deadline unless ``timeout`` is given: it lasts as long as its requests."""
        return _explained(self.stub.SettleStream(iter(requests), timeout=timeout, metadata=outgoing_metadata()))

    def check_win(self, request: svc.CheckWinRequest, timeout: float | None = None) -> svc.CheckWinResponse:
        return self._call(self.stub.CheckWin, "CheckWin", request, timeout)

    def list_waits(self, request: svc.ListWaitsRequest, timeout: float | None = None) -> svc.ListWaitsResponse:
        return self._call(self.stub.ListWaits, "ListWaits", request, timeout)

    def settle_record(
        self, request: records_pb2.SettleRecordRequest, timeout: float | None = None
    ) -> records_pb2.SettleRecordResponse:
        """Replay a hand record (牌谱) and settle what its events imply."""
        return self._call(self.stub.SettleRecord, "SettleRecord", request, timeout)

    def advise(self, request: advice_pb2.AdviseRequest, timeout: float | None = None) -> advice_pb2.AdviseResponse:
        return self._call(self.stub.Advise, "Advise", request, timeout)

    def review_record(
        self, request: records_pb2.SettleRecordRequest, timeout: float | None = None
    ) -> advice_pb2.ReviewRecordResponse:
        return self._call(self.stub.ReviewRecord, "ReviewRecord", request, timeout)

    def get_profile(
        self, name: str, overrides: profile_pb2.RuleProfile | None = None, timeout: float | None = None
    ) -> profile_pb2.RuleProfile:
        request = svc.GetProfileRequest(name=name, overrides=overrides)
        return self._call(self.stub.GetProfile, "GetProfile", request, timeout).profile

    def list_profiles(self, timeout: float | None = None) -> list[profile_pb2.RuleProfile]:
        return list(self._call(self.stub.ListProfiles, "ListProfiles", svc.ListProfilesRequest(), timeout).profiles)

    def describe_profile(
        self, name: str, overrides: profile_pb2.RuleProfile | None = None, timeout: float | None = None
    ) -> svc.GetProfileResponse:
        """GetProfile's whole answer: the effective profile, with its base and description."""
        return self._call(
            self.stub.GetProfile, "GetProfile", svc.GetProfileRequest(name=name, overrides=overrides), timeout
        )

    def describe_profiles(self, timeout: float | None = None) -> svc.ListProfilesResponse:
        """ListProfiles' whole answer: every profile, and the name, base and description of each."""
        return self._call(self.stub.ListProfiles, "ListProfiles", svc.ListProfilesRequest(), timeout)


def _explained(responses: Iterator[pb.SettleResponse]) -> Iterator[pb.SettleResponse]:
    try:
        yield from responses
    except grpc.RpcError as error:
        raise ScoringError.from_rpc_error(error) from error


def _read(path: str | None) -> bytes | None:
    return Path(path).read_bytes() if path else None

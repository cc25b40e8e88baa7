"""A small typed client for ScoringService.

Retries of UNAVAILABLE with exponential backoff come from the gRPC service
config (grpc retries them transparently, within the call's deadline), not from
a loop here. Every call has a deadline: the client's default or the call's own.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

import grpc
from mahjong.shanghai.v1 import profile_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc as svc_grpc
from mahjong.shanghai.v1 import settlement_pb2 as pb

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


class ScoringClient:
    """Calls ScoringService; use as a context manager or call `close()`.

    ``target`` is ``host:port``. With ``tls=True`` the server certificate is
    checked against ``root_certificates`` (PEM path; the system roots when
    empty); ``client_cert`` and ``client_key`` (PEM paths) add mutual TLS.
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
    ):
        options = [
            ("grpc.enable_retries", 1),
            ("grpc.service_config", retry_service_config(max_attempts)),
            ("grpc.max_receive_message_length", max_message_bytes),
            ("grpc.max_send_message_length", max_message_bytes),
        ]
        if server_name:
            options.append(("grpc.ssl_target_name_override", server_name))
        if tls or root_certificates or client_cert:
            credentials = grpc.ssl_channel_credentials(
                root_certificates=_read(root_certificates),
                private_key=_read(client_key),
                certificate_chain=_read(client_cert),
            )
            self.channel = grpc.secure_channel(target, credentials, options=options)
        else:
            self.channel = grpc.insecure_channel(target, options=options)
        self.stub = svc_grpc.ScoringServiceStub(self.channel)
        self.timeout = timeout

    def __enter__(self) -> ScoringClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.channel.close()

    def settle(self, request: pb.SettleRequest, timeout: float | None = None) -> pb.SettleResponse:
        return self.stub.Settle(request, timeout=timeout or self.timeout)

    def settle_batch(
        self, requests: Iterable[pb.SettleRequest], timeout: float | None = None
    ) -> list[svc.SettleBatchResult]:
        response = self.stub.SettleBatch(
            svc.SettleBatchRequest(requests=list(requests)), timeout=timeout or self.timeout
        )
        return list(response.results)

    def settle_stream(
        self, requests: Iterable[pb.SettleRequest], timeout: float | None = None
    ) -> Iterator[pb.SettleResponse]:
        """One response per request, in order; a request that cannot be settled has `error` set."""
        return self.stub.SettleStream(iter(requests), timeout=timeout)

    def check_win(self, request: svc.CheckWinRequest, timeout: float | None = None) -> svc.CheckWinResponse:
        return self.stub.CheckWin(request, timeout=timeout or self.timeout)

    def list_waits(self, request: svc.ListWaitsRequest, timeout: float | None = None) -> svc.ListWaitsResponse:
        return self.stub.ListWaits(request, timeout=timeout or self.timeout)

    def get_profile(
        self, name: str, overrides: profile_pb2.RuleProfile | None = None, timeout: float | None = None
    ) -> profile_pb2.RuleProfile:
        request = svc.GetProfileRequest(name=name, overrides=overrides)
        return self.stub.GetProfile(request, timeout=timeout or self.timeout).profile

    def list_profiles(self, timeout: float | None = None) -> list[profile_pb2.RuleProfile]:
        return list(self.stub.ListProfiles(svc.ListProfilesRequest(), timeout=timeout or self.timeout).profiles)


def _read(path: str | None) -> bytes | None:
    return Path(path).read_bytes() if path else None

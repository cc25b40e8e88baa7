"""The asyncio client of ScoringService, beside the blocking `clients.ScoringClient`.

Same arguments, same methods (awaitable; `settle_stream` is an async iterator), same
`ScoringError` for a failed call. One client serves many concurrent tasks.

    async with AsyncScoringClient("127.0.0.1:50051") as client:
        response = await client.settle(request)
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from types import TracebackType
from typing import Any, TypeVar

import grpc
from mahjong.shanghai.v1 import advice_pb2, profile_pb2, records_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc as svc_grpc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import clients.trace_context as trace_context
from clients.client import SERVICE, ChannelSettings, ClientBase
from clients.errors import ScoringError
from clients.trace_context import outgoing_metadata

Response = TypeVar("Response")


class AsyncScoringClient(ClientBase):
    """Calls ScoringService from asyncio code; ``async with`` it or ``await close()``.

    The arguments are `clients.ScoringClient`'s (see `clients.client.ChannelSettings`).
    """

    channel: grpc.aio.Channel

    def _connect(self, settings: ChannelSettings) -> None:
        if settings.credentials is not None:
            self.channel = grpc.aio.secure_channel(settings.target, settings.credentials, options=settings.options)
        else:
            self.channel = grpc.aio.insecure_channel(settings.target, options=settings.options)
        self.stub = svc_grpc.ScoringServiceStub(self.channel)

    async def __aenter__(self) -> AsyncScoringClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        await self.channel.close()

    async def _call(
        self, method: Callable[..., Awaitable[Response]], name: str, request: Any, timeout: float | None
    ) -> Response:
        try:
            if trace_context.TRACER is None:
                return await method(request, timeout=timeout or self.timeout, metadata=outgoing_metadata())
            with trace_context.client_span(SERVICE, name, self.target) as metadata:
                return await method(request, timeout=timeout or self.timeout, metadata=metadata)
        except grpc.RpcError as error:
            raise ScoringError.from_rpc_error(error) from error

    async def settle(self, request: pb.SettleRequest, timeout: float | None = None) -> pb.SettleResponse:
        return await self._call(self.stub.Settle, "Settle", request, timeout)

    async def settle_batch(
        self, requests: Iterable[pb.SettleRequest], timeout: float | None = None
    ) -> list[svc.SettleBatchResult]:
        """One result per request, in order: a ``response``, or an ``error`` for a malformed request."""
        batch = svc.SettleBatchRequest(requests=list(requests))
        return list((await self._call(self.stub.SettleBatch, "SettleBatch", batch, timeout)).results)

    async def settle_stream(
        self, requests: Iterable[pb.SettleRequest], timeout: float | None = None
    ) -> AsyncIterator[pb.SettleResponse]:
        """One response per request, in order; a request that cannot be settled has `error` set."""
        call = self.stub.SettleStream(iter(requests), timeout=timeout, metadata=outgoing_metadata())
        try:
            async for response in call:
                yield response
        except grpc.RpcError as error:
            raise ScoringError.from_rpc_error(error) from error

    async def check_win(self, request: svc.CheckWinRequest, timeout: float | None = None) -> svc.CheckWinResponse:
        return await self._call(self.stub.CheckWin, "CheckWin", request, timeout)

    async def list_waits(self, request: svc.ListWaitsRequest, timeout: float | None = None) -> svc.ListWaitsResponse:
        return await self._call(self.stub.ListWaits, "ListWaits", request, timeout)

    async def settle_record(
        self, request: records_pb2.SettleRecordRequest, timeout: float | None = None
    ) -> records_pb2.SettleRecordResponse:
        """Replay a hand record (牌谱) and settle what its events imply."""
        return await self._call(self.stub.SettleRecord, "SettleRecord", request, timeout)

    async def advise(
        self, request: advice_pb2.AdviseRequest, timeout: float | None = None
    ) -> advice_pb2.AdviseResponse:
        """How far a holding is from a legal win, and what to discard (向听数, 牌效)."""
        return await self._call(self.stub.Advise, "Advise", request, timeout)

    async def review_record(
        self, request: records_pb2.SettleRecordRequest, timeout: float | None = None
    ) -> advice_pb2.ReviewRecordResponse:
        """Review a hand record discard by discard (复盘)."""
        return await self._call(self.stub.ReviewRecord, "ReviewRecord", request, timeout)

    async def get_profile(
        self, name: str, overrides: profile_pb2.RuleProfile | None = None, timeout: float | None = None
    ) -> profile_pb2.RuleProfile:
        request = svc.GetProfileRequest(name=name, overrides=overrides)
        return (await self._call(self.stub.GetProfile, "GetProfile", request, timeout)).profile

    async def list_profiles(self, timeout: float | None = None) -> list[profile_pb2.RuleProfile]:
        return list(
            (await self._call(self.stub.ListProfiles, "ListProfiles", svc.ListProfilesRequest(), timeout)).profiles
        )

    async def describe_profile(
        self, name: str, overrides: profile_pb2.RuleProfile | None = None, timeout: float | None = None
    ) -> svc.GetProfileResponse:
        """GetProfile's whole answer: the effective profile, with its base and description."""
        return await self._call(
            self.stub.GetProfile, "GetProfile", svc.GetProfileRequest(name=name, overrides=overrides), timeout
        )

    async def describe_profiles(self, timeout: float | None = None) -> svc.ListProfilesResponse:
        """ListProfiles' whole answer: every profile, and the name, base and description of each."""
        return await self._call(self.stub.ListProfiles, "ListProfiles", svc.ListProfilesRequest(), timeout)

"""A bug in the rules must not crash the worker or leak a traceback: the call ends INTERNAL."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

import convert
from server import service as service_module
from server.config import ServerConfig
from server.service import ScoringService
from tests.worked_examples import WORKED_EXAMPLES


class Aborted(Exception):
    pass


class FakeContext:
    def __init__(self):
        self.aborted = None

    async def abort_with_status(self, status):
        self.aborted = (status.code, status.details)
        self.trailing_metadata = status.trailing_metadata
        raise Aborted

    def time_remaining(self):
        return 10.0


def broken_settle(*_args):
    raise RuntimeError("a bug")


@pytest.fixture
def broken(monkeypatch):
    monkeypatch.setattr(service_module.rc, "settle", broken_settle)
    return ScoringService(ServerConfig())


def test_unary_bug_is_internal(broken):
    context = FakeContext()
    with pytest.raises(Aborted):
        asyncio.run(broken.Settle(convert.settle_request_message(WORKED_EXAMPLES[0][1]), context))
    assert context.aborted == (grpc.StatusCode.INTERNAL, "internal error; it has been logged")
    ((key, value),) = context.trailing_metadata
    (detail,) = status_pb2.Status.FromString(value).details
    info = error_details_pb2.ErrorInfo()
    assert key == "grpc-status-details-bin" and detail.Unpack(info)
    assert (info.reason, info.domain) == ("INTERNAL", "scoring.mahjong.shanghai.v1")


def test_stream_bug_is_internal(broken):
    context = FakeContext()

    async def requests():
        yield convert.settle_request_message(WORKED_EXAMPLES[0][1])

    async def consume():
        return [r async for r in broken.SettleStream(requests(), context)]

    with pytest.raises(Aborted):
        asyncio.run(consume())
    assert context.aborted[0] == grpc.StatusCode.INTERNAL

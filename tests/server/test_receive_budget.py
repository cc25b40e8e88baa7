"""Issue 21, finding 1: incomplete messages filled a worker's memory with no overall bound. 60
raw HTTP/2 connections each sending 30 MB of a Settle body one byte short of complete took a
worker from ~210 MB to 1,182 MB, and it stayed at 892 MB after they closed: gRPC's core
buffers a body up to its receive limit before any of the server's code sees a byte, for every
call it takes. Now the core takes at most `--receive-budget-bytes / (2 x --max-request-bytes)`
calls at once, and answers the others RESOURCE_EXHAUSTED before reading their bodies. Scaled
down: a request limit of 100,000 bytes (the core's 200,000) and a budget of 800,000 bytes is 4
calls at once."""

from __future__ import annotations

import json

import grpc
from mahjong.shanghai.v1.scoring_service_pb2_grpc import ScoringServiceStub

import convert
from server.config import ServerConfig, parse_config
from server.worker import core_receive_limit, grpc_calls_at_once, server_options, streams_per_connection
from tests.server.conftest import run_server
from tests.server.raw_h2 import RawGrpcConnection
from tests.worked_examples import WORKED_EXAMPLES

BUDGET = ("--max-request-bytes", "100000", "--receive-budget-bytes", "800000")


def test_the_defaults_bound_the_bodies_the_core_holds_to_the_budget():
    config = ServerConfig()
    assert config.request_limit == 2 * 1024 * 1024
    assert dict(server_options(config, reuse_port=True))["grpc.max_receive_message_length"] == 4 * 1024 * 1024
    assert grpc_calls_at_once(config) == 72  # 288 MiB / 4 MiB
    assert grpc_calls_at_once(parse_config(["--max-concurrent-rpcs", "500"])) == 500  # the operator's own bound
    assert parse_config(["--max-message-bytes", "65536"]).request_limit == 65536  # never over the message limit
    assert core_receive_limit(100_000) == 200_000
    assert dict(server_options(config, reuse_port=True))["grpc.max_concurrent_streams"] == 18  # a quarter of 72
    assert streams_per_connection(parse_config(["--max-concurrent-rpcs", "4"])) == 8  # never under 8


def test_calls_past_the_budget_are_refused_before_their_bodies_are_read(tmp_path):
    with run_server(tmp_path, *BUDGET) as server:
        host, port = server.address.split(":")
        holder = RawGrpcConnection((host, int(port)), streams=10, body_bytes=190_000)  # under the core's limit
        try:
            for _ in range(100):
                holder.pump()
                if holder.refused >= 6:
                    break
            assert (holder.refused, len(holder.pending)) == (6, 4)  # 4 bodies held, 6 calls refused
            assert holder.statuses == ["8"] * 4  # RESOURCE_EXHAUSTED; 2 past the connection's 8 streams reset
        finally:
            holder.close()
        serving = [json.loads(line) for line in server.log().splitlines() if '"event": "serving"' in line]
        assert [(line["request_limit"], line["calls_at_once"], line["streams_per_connection"]) for line in serving] == [
            (100_000, 4, 8)
        ]


def test_held_incomplete_calls_on_two_connections_leave_calls_for_others(tmp_path):
    """A worker's calls at once counted from their arrival, before their bodies are read: two
    raw connections of 40 streams each, every one 1 KB into a Settle body it never ends, held all
    72 of a worker's calls at once, and every other call was RESOURCE_EXHAUSTED "Concurrent RPC
    limit exceeded!" for as long as they held (72 KB of traffic). Now a connection has a quarter
    of the worker's calls at once (18) and its further streams are refused: the two hold 36, and
    a client on a fresh channel is settled. (Each connection comes from an address of its
    own: one address has at most 18 calls waiting, tests/server/test_waiting_share.py.)"""
    name, request, deltas, _ = WORKED_EXAMPLES[0]
    with run_server(tmp_path) as server:
        host, port = server.address.split(":")
        holders = [RawGrpcConnection((host, int(port)), 40, 1024, source=f"127.0.0.{2 + i}") for i in range(2)]
        try:
            for _ in range(20):
                for holder in holders:
                    holder.pump()
            channel = server.channel()
            try:
                answer = ScoringServiceStub(channel).Settle(convert.settle_request_message(request), timeout=10)
            finally:
                channel.close()
            assert tuple(answer.seat_deltas) == deltas, name
            for holder in holders:
                holder.pump()
            assert [(holder.closed, len(holder.pending)) for holder in holders] == [(False, 18)] * 2
        finally:
            for holder in holders:
                holder.close()


def sixty_at_once(channel) -> list[tuple[int, ...]]:
    settle = ScoringServiceStub(channel).Settle
    message = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    futures = [settle.future(message, timeout=20) for _ in range(60)]
    return [tuple(future.result().seat_deltas) for future in futures]


def test_a_client_with_more_calls_at_once_than_its_share_is_settled_in_full(tmp_path):
    """A connection's calls past its share (18) wait in the client's own HTTP/2 layer for a free
    stream, they are not refused: 60 calls at once on a new channel, retries off, all answer
    OK (the client waits for the server's settings before its first call), and 60 more."""
    name, _, deltas, _ = WORKED_EXAMPLES[0]
    with run_server(tmp_path) as server:
        with grpc.insecure_channel(server.address, options=[("grpc.enable_retries", 0)]) as channel:
            assert sixty_at_once(channel) == [deltas] * 60, name
            assert sixty_at_once(channel) == [deltas] * 60, name

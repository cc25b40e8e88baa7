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

from server.config import ServerConfig, parse_config
from server.worker import core_receive_limit, grpc_calls_at_once, server_options
from tests.server.conftest import run_server
from tests.server.raw_h2 import RawGrpcConnection

BUDGET = ("--max-request-bytes", "100000", "--receive-budget-bytes", "800000")


def test_the_defaults_bound_the_bodies_the_core_holds_to_the_budget():
    config = ServerConfig()
    assert config.request_limit == 2 * 1024 * 1024
    assert dict(server_options(config, reuse_port=True))["grpc.max_receive_message_length"] == 4 * 1024 * 1024
    assert grpc_calls_at_once(config) == 72  # 288 MiB / 4 MiB
    assert grpc_calls_at_once(parse_config(["--max-concurrent-rpcs", "500"])) == 500  # the operator's own bound
    assert parse_config(["--max-message-bytes", "65536"]).request_limit == 65536  # never over the message limit
    assert core_receive_limit(100_000) == 200_000


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
            assert holder.statuses == ["8"] * 6  # RESOURCE_EXHAUSTED
        finally:
            holder.close()
        serving = [json.loads(line) for line in server.log().splitlines() if '"event": "serving"' in line]
        assert [(line["request_limit"], line["calls_at_once"]) for line in serving] == [(100_000, 4)]

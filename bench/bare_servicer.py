"""The floor a unary Settle is measured against: a bare ``grpc.aio`` servicer in one process.

    python -m bench.bare_servicer --port PORT --response FILE

It answers ``/mahjong.shanghai.v1.ScoringService/Settle`` by decoding the SettleRequest
(any servicer has to) and returning the same pre-serialised SettleResponse every time:
the real service's answer to the bench's request, so both servers receive and send
messages of the same sizes. No interceptor, no metrics, no logging, no settling: what a
call costs gRPC's Python layer and nothing else.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from pathlib import Path

import grpc
from mahjong.shanghai.v1 import settlement_pb2 as pb

SETTLE = "/mahjong.shanghai.v1.ScoringService/Settle"


async def serve(port: int, response: bytes) -> None:
    async def settle(request: pb.SettleRequest, context) -> bytes:
        return response

    handler = grpc.unary_unary_rpc_method_handler(
        settle, request_deserializer=pb.SettleRequest.FromString, response_serializer=None
    )
    server = grpc.aio.server()
    server.add_generic_rpc_handlers(
        [grpc.method_handlers_generic_handler("mahjong.shanghai.v1.ScoringService", {"Settle": handler})]
    )
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    stopping = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(signum, stopping.set)
    print("serving", flush=True)
    await stopping.wait()
    await server.stop(0.5)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--response", required=True, help="file holding the serialised SettleResponse")
    args = parser.parse_args(argv)
    asyncio.run(serve(args.port, Path(args.response).read_bytes()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

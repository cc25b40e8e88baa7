"""What each layer of a unary Settle costs in one process, with warm and with cold caches.

    python -m bench.unary_parts

No gRPC here: the bench request (`bench.unary_cost`) goes through, cumulatively,
1. the core: decoding, converting, settling and writing the answer's bytes;
2. plus the domain metrics of the settlement;
3. the servicer's Settle (its error handling around the same work);
4. the whole handler `server.observed_calls` registers: call metrics, drain book-keeping and the
   log line (written to a file, as a worker's stdout would be).
Each is timed in CPU seconds per call, best of 5 passes. "Cold" runs the same call after
walking 2 MiB of memory (more than a core's L2 cache), as gRPC's core, the event loop and the host's other processes do
between two calls of a real worker; the walk alone is timed apart and taken off.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import os
import shutil
import sys
import tempfile
import time

if "PROMETHEUS_MULTIPROC_DIR" not in os.environ:  # the metrics' files, removed at exit
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = _METRICS_DIR = tempfile.mkdtemp(prefix="shmj-parts-")
    atexit.register(shutil.rmtree, _METRICS_DIR, True)

import grpc  # noqa: E402
from mahjong.shanghai.v1 import settlement_pb2 as pb  # noqa: E402

import convert  # noqa: E402
import rules_core as rc  # noqa: E402
from bench.unary_cost import bench_request  # noqa: E402
from convert.profile_digest import BUILTIN_REGISTRY  # noqa: E402
from server import logs, metrics  # noqa: E402
from server.config import ServerConfig  # noqa: E402
from server.observed_calls import CallObserver  # noqa: E402
from server.preserialized import PRESERIALIZED_METHODS  # noqa: E402
from server.service import ScoringService  # noqa: E402

SETTLE = "/mahjong.shanghai.v1.ScoringService/Settle"


class _Context:
    """The part of a servicer context a successful Settle touches; ``read`` gives the request's
    bytes, as gRPC's does to the stream-unary handler a unary method is registered as."""

    def __init__(self, body: bytes = b"") -> None:
        self.body = body

    async def read(self) -> bytes:
        return self.body

    def code(self):
        return None

    def peer(self) -> str:
        return "ipv4:127.0.0.1:45678"

    def invocation_metadata(self):
        return ()

    def time_remaining(self):
        return None


def layers(body: bytes):
    servicer = ScoringService(ServerConfig())
    context = _Context(body)
    handler = grpc.unary_unary_rpc_method_handler(servicer.Settle, request_deserializer=pb.SettleRequest.FromString)
    wrapped = CallObserver(PRESERIALIZED_METHODS)._wrap(handler, SETTLE).stream_unary  # see `server.call_book.unary`

    async def core():
        convert.settle_response_bytes(
            rc.settle(convert.settle_request(pb.SettleRequest.FromString(body)), BUILTIN_REGISTRY)
        )

    async def core_and_metrics():
        request = convert.settle_request(pb.SettleRequest.FromString(body))
        result = rc.settle(request, BUILTIN_REGISTRY)
        metrics.record_settlement(request.outcome, result)
        convert.settle_response_bytes(result)

    async def servicer_settle():
        await servicer.Settle(pb.SettleRequest.FromString(body), context)

    async def whole_handler():
        await wrapped(None, context)

    return {
        "core": core,
        "+ domain metrics": core_and_metrics,
        "servicer Settle": servicer_settle,
        "+ call wrapper, call metrics, log line": whole_handler,
    }


_MEMORY = bytearray(2 << 20)


def _walk_memory() -> None:
    _MEMORY[::64] = b"\1" * (len(_MEMORY) // 64)


def cpu_per_call(step, calls: int, cold: bool) -> float:
    async def run():
        for _ in range(calls):
            if cold:
                _walk_memory()
            await step()

    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        asyncio.run(run())
        best = min(best, time.process_time() - start)
    return best / calls


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000, help="calls per pass, warm (a tenth of it cold)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    body, _answer = bench_request(args.seed)
    out = sys.stdout
    with tempfile.NamedTemporaryFile("w", prefix="shmj-parts-", suffix=".log") as log_file:  # the log lines
        sys.stdout = log_file
        logs.configure_logging("info")
        try:
            walk = cpu_per_call(lambda: asyncio.sleep(0), args.calls // 10, cold=True)
            figures = {
                name: (cpu_per_call(step, args.calls, cold=False), cpu_per_call(step, args.calls // 10, True) - walk)
                for name, step in layers(body).items()
            }
        finally:
            sys.stdout = out
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"CPU per call in one process, microseconds (load average {load}):")
    print(f"  {'layers, cumulative':40s} {'warm':>8s} {'cold':>8s}")
    for name, (warm, cold) in figures.items():
        print(f"  {name:40s} {warm * 1e6:8.1f} {cold * 1e6:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

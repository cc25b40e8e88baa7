"""What a large malformed body costs a worker: CPU and latency per call, against a valid call.

    python -m bench.malformed_body                   # 40 calls of each kind, one worker
    python -m bench.malformed_body --calls 100 --size 1000000 --max-message-bytes 4194304

Starts a real one-worker server (from the checkout this runs in) and sends, one at a time,
a valid Settle, then bodies of about ``--size`` bytes a client could send: a SettleRequest of
unknown tiles (99), and a request id that long. The worker's CPU time comes from /proc
(utime + stime), so the figures are the worker's own, whatever else the machine runs. Run it
in two checkouts to compare them; only the ratios within one run mean much on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import grpc
from mahjong.shanghai.v1 import settlement_pb2 as pb
from mahjong.shanghai.v1 import tiles_pb2

from tests.server.conftest import run_server
from tests.server.test_lifecycle import EXAMPLE

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def bodies(size: int) -> dict[str, bytes]:
    hand = tiles_pb2.Hand(concealed=[99] * size, winning_tile=1)
    tiles = pb.SettleRequest(profile="classic", outcome=pb.OUTCOME_SELF_DRAW, winners=[pb.Winner(hand=hand)])
    return {
        "valid": EXAMPLE.SerializeToString(),
        "unknown_tiles": tiles.SerializeToString(),
        "long_request_id": pb.SettleRequest(request_id="x" * size, profile="classic").SerializeToString(),
    }


def measure(channel, pid: int, body: bytes, calls: int) -> dict:
    settle = channel.unary_unary("/mahjong.shanghai.v1.ScoringService/Settle")
    latencies, codes = [], set()
    cpu = cpu_seconds(pid)
    for _ in range(calls):
        start = time.perf_counter()
        try:
            settle(body, timeout=30)
            codes.add("OK")
        except grpc.RpcError as error:
            codes.add(error.code().name)
        latencies.append(time.perf_counter() - start)
    return {
        "bytes": len(body),
        "codes": sorted(codes),
        "worker_cpu_ms_per_call": round((cpu_seconds(pid) - cpu) * 1000 / calls, 2),
        "latency_ms_median": round(statistics.median(latencies) * 1000, 2),
        "latency_ms_max": round(max(latencies) * 1000, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=40, help="calls of each kind (default 40)")
    parser.add_argument("--size", type=int, default=1_000_000, help="bytes of the large bodies (default 1,000,000)")
    parser.add_argument("--max-message-bytes", type=int, default=64 * 1024 * 1024)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        with run_server(Path(folder), "--max-message-bytes", str(args.max_message_bytes)) as server:
            (pid,) = [json.loads(line)["pid"] for line in server.log().splitlines() if '"serving"' in line]
            options = [("grpc.max_send_message_length", -1), ("grpc.max_receive_message_length", -1)]
            with grpc.insecure_channel(server.address, options=options) as channel:
                report = {kind: measure(channel, pid, body, args.calls) for kind, body in bodies(args.size).items()}
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

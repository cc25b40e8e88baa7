"""Clients that hold incomplete bodies open: what a worker's memory does meanwhile and after.

    python -m bench.incomplete_bodies --connections 60 --streams 1 --body-mb 30     # gRPC
    python -m bench.incomplete_bodies --http --connections 40 --body-mb 15          # the HTTP face
    python -m bench.incomplete_bodies --connections 4 --streams 18 --body-mb 0.001 --reopen --probe

gRPC: each raw HTTP/2 connection (h2, answering the server's pings) opens streams that each
send a ``Settle`` body of ``--body-mb`` MB, one byte short of complete, and then hold it.
HTTP: each connection sends a chunked body of ``--body-mb`` MB, never its last chunk, and
holds it. The server is a real one (``--workers 2``, the default flags but those given after
``--``); every half second the workers' RSS is read from /proc: idle, the peak while the
clients hold, and ``--linger-s`` after they close. Exit 1 when a worker passes ``--max-rss-mb``
or does not come back within ``--return-mb`` of idle.

The gRPC holders connect from ``--holders-from`` (127.0.0.2), the probe from 127.0.0.1: the
server gives each client address a share of the calls waiting for their request
(`server.peer_share`), and loopback is the whole of 127.0.0.0/8. ``--holder-addresses N``
spreads the connections over N addresses from it (127.0.0.2, 127.0.0.3, ...): many clients
at once, as the memory runs of `make soak-hostile` need to fill a worker.
``--reopen``: each gRPC connection opens a new stream for every one the server ends (a
holder that outlasts `--grpc-body-timeout-s`). ``--probe``: meanwhile a well-behaved client
sends a ``Settle`` every 0.1 s (deadline 2 s, retries off) and the report counts its answers
by status code; the run passes only if some of them are answered (the held calls end after
the body timeout and their places go to others; with ``--reopen``, the holders' address has
its share of the worker and the rest is the others').
"""

from __future__ import annotations

import argparse
import collections
import ipaddress
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import grpc
from mahjong.shanghai.v1.scoring_service_pb2_grpc import ScoringServiceStub

import convert
from bench.verdict import verdict
from tests.fuzz import procs
from tests.server.conftest import run_server
from tests.server.raw_h2 import RawGrpcConnection
from tests.worked_examples import WORKED_EXAMPLES

PROBE_EVERY_S = 0.1


class RawHttpBody:
    """One HTTP/1.1 connection sending a chunked body that never ends."""

    def __init__(self, address: tuple[str, int], body_bytes: int):
        self.sock = socket.create_connection(address)
        self.sock.settimeout(0.2)
        self.left = body_bytes
        self.closed = False
        self.sock.sendall(
            b"POST /mahjong.shanghai.v1.ScoringService/Settle HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )

    def pump(self) -> None:
        if self.closed:
            return
        try:
            if self.left > 0:
                size = min(self.left, 1 << 20)
                self.sock.sendall(b"%x\r\n" % size + b" " * size + b"\r\n")
                self.left -= size
            else:
                if self.sock.recv(65536) == b"":
                    self.closed = True
        except TimeoutError:
            pass
        except OSError:
            self.closed = True

    def close(self) -> None:
        self.sock.close()


def probe(address: str, stop: threading.Event, codes: collections.Counter) -> None:
    """A well-behaved client: a Settle every `PROBE_EVERY_S` on its own channel, counted by code."""
    message = convert.settle_request_message(WORKED_EXAMPLES[0][1])
    with grpc.insecure_channel(address, options=[("grpc.enable_retries", 0)]) as channel:
        settle = ScoringServiceStub(channel).Settle
        while not stop.is_set():
            try:
                settle(message, timeout=2)
                codes["OK"] += 1
            except grpc.RpcError as error:
                codes[error.code().name] += 1
            stop.wait(PROBE_EVERY_S)


def holder_address(first: str, index: int) -> str:
    """The loopback address ``index`` places after ``first``: 127.0.0.2, 127.0.0.3, ..."""
    return str(ipaddress.IPv4Address(first) + index)


def _rss_mb(pids: list[int]) -> dict[int, float]:
    return {pid: procs.rss_bytes(pid) / 1e6 for pid in pids}


def run(args: argparse.Namespace) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="shmj-incomplete-"))
    with run_server(folder, *args.server_args, workers=args.workers) as server:
        pids = procs.worker_pids(server.process.pid)
        time.sleep(1.0)
        idle = _rss_mb(pids)
        host, grpc_port = server.address.split(":")
        http_port = int(server.http_url.rsplit(":", 1)[1])
        body = int(args.body_mb * 1e6)
        clients = []
        for _ in range(args.connections):
            try:
                if args.http:
                    clients.append(RawHttpBody((host, http_port), body))
                else:
                    source = holder_address(args.holders_from, len(clients) % args.holder_addresses)
                    clients.append(RawGrpcConnection((host, int(grpc_port)), args.streams, body, args.reopen, source))
            except OSError:
                pass
        peak = dict(idle)
        stop = threading.Event()

        def pump_all():
            while not stop.is_set():
                for client in clients:
                    client.pump()

        pumper = threading.Thread(target=pump_all)
        pumper.start()
        probe_codes: collections.Counter = collections.Counter()
        prober = threading.Thread(target=probe, args=(server.address, stop, probe_codes))
        if args.probe:
            time.sleep(1.0)  # the holders in place first
            prober.start()
        held_until = time.monotonic() + args.hold_s
        timeline = []
        while time.monotonic() < held_until:
            now = _rss_mb(pids)
            timeline.append((round(args.hold_s - (held_until - time.monotonic()), 1), now))
            peak = {pid: max(peak[pid], now[pid]) for pid in pids}
            time.sleep(0.5)
        stop.set()
        pumper.join()
        if args.probe:
            prober.join()
        still_open = sum(1 for client in clients if not client.closed)
        refused = sum(getattr(client, "refused", 0) for client in clients)
        for client in clients:
            client.close()
        time.sleep(args.linger_s)
        after = _rss_mb(pids)
        alive = procs.worker_pids(server.process.pid) == pids
    report = {
        "face": "http" if args.http else "grpc",
        "connections": args.connections,
        "streams_per_connection": 1 if args.http else args.streams,
        "body_mb": args.body_mb,
        "server_args": args.server_args,
        "holders_from": "" if args.http else args.holders_from,
        "holder_addresses": 0 if args.http else args.holder_addresses,
        "idle_rss_mb": idle,
        "peak_rss_mb": peak,
        "after_rss_mb": after,
        "open_at_the_end_of_the_hold": still_open,
        "streams_reset_or_answered": refused,
        "same_workers": alive,
        "probe_answers": dict(probe_codes),
        "timeline": timeline,
    }
    report["passed"] = (
        alive
        and all(peak[pid] <= args.max_rss_mb and after[pid] - idle[pid] <= args.return_mb for pid in idle)
        and (not args.probe or probe_codes["OK"] > 0)  # held calls end, reopened ones past a share: others served
    )
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--http", action="store_true", help="hold HTTP bodies instead of gRPC ones")
    parser.add_argument("--connections", type=int, default=60)
    parser.add_argument("--streams", type=int, default=1, help="streams per gRPC connection")
    parser.add_argument("--body-mb", type=float, default=30.0)
    parser.add_argument("--reopen", action="store_true", help="open a new gRPC stream for each one ended")
    parser.add_argument("--probe", action="store_true", help="a well-behaved client's Settle every 0.1 s meanwhile")
    parser.add_argument(
        "--holders-from",
        default="127.0.0.2",
        help="the loopback address the gRPC holders connect from (the probe comes from 127.0.0.1)",
    )
    parser.add_argument(
        "--holder-addresses",
        type=int,
        default=1,
        help="spread the gRPC holders' connections over this many addresses from --holders-from (each has a share)",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hold-s", type=float, default=20.0)
    parser.add_argument("--linger-s", type=float, default=5.0, help="how long after closing to read RSS again")
    parser.add_argument("--max-rss-mb", type=float, default=450.0)
    parser.add_argument("--return-mb", type=float, default=50.0)
    parser.add_argument("--report", default="", help="write the report here as JSON")
    parser.add_argument("server_args", nargs="*", help="flags for shmj-server (after --)")
    args = parser.parse_args(argv)
    return verdict(run(args), args.report, hidden=("timeline",))


if __name__ == "__main__":
    sys.exit(main())

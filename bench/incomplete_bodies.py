"""Clients that hold incomplete bodies open: what a worker's memory does meanwhile and after.

    python -m bench.incomplete_bodies --connections 60 --streams 1 --body-mb 30     # gRPC
    python -m bench.incomplete_bodies --http --connections 40 --body-mb 15          # the HTTP face

gRPC: each raw HTTP/2 connection (h2, answering the server's pings) opens streams that each
send a ``Settle`` body of ``--body-mb`` MB, one byte short of complete, and then hold it.
HTTP: each connection sends a chunked body of ``--body-mb`` MB, never its last chunk, and
holds it. The server is a real one (``--workers 2``, the default flags but those given after
``--``); every half second the workers' RSS is read from /proc: idle, the peak while the
clients hold, and ``--linger-s`` after they close. Exit 1 when a worker passes ``--max-rss-mb``
or does not come back within ``--return-mb`` of idle.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.verdict import verdict
from tests.fuzz import procs
from tests.server.conftest import run_server
from tests.server.raw_h2 import RawGrpcConnection


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
                    clients.append(RawGrpcConnection((host, int(grpc_port)), args.streams, body))
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
        held_until = time.monotonic() + args.hold_s
        timeline = []
        while time.monotonic() < held_until:
            now = _rss_mb(pids)
            timeline.append((round(args.hold_s - (held_until - time.monotonic()), 1), now))
            peak = {pid: max(peak[pid], now[pid]) for pid in pids}
            time.sleep(0.5)
        stop.set()
        pumper.join()
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
        "idle_rss_mb": idle,
        "peak_rss_mb": peak,
        "after_rss_mb": after,
        "open_at_the_end_of_the_hold": still_open,
        "streams_reset_or_answered": refused,
        "same_workers": alive,
        "timeline": timeline,
    }
    report["passed"] = alive and all(
        peak[pid] <= args.max_rss_mb and after[pid] - idle[pid] <= args.return_mb for pid in idle
    )
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--http", action="store_true", help="hold HTTP bodies instead of gRPC ones")
    parser.add_argument("--connections", type=int, default=60)
    parser.add_argument("--streams", type=int, default=1, help="streams per gRPC connection")
    parser.add_argument("--body-mb", type=float, default=30.0)
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

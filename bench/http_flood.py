"""An HTTP flood of silent connections, and what gRPC sees meanwhile.

    python -m bench.http_flood --connections 43500 --sources 3 --hold-s 30

A real two-worker server; ``--sources`` processes, each from its own loopback address
(127.0.0.2, 127.0.0.3, ...), open silent connections to the HTTP face as fast as they can, up
to ``--connections`` in all, and hold what stays open; meanwhile a gRPC health check every
50 ms, ``/healthz`` every second, a profile reload (SIGHUP) halfway, and every worker's open
descriptors from /proc. Pass: every health check answered SERVING, no worker over
``--http-max-connections`` plus ``--fd-slack`` descriptors, the reload not refused.
"""

from __future__ import annotations

import argparse
import multiprocessing
import signal
import socket
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from bench.verdict import verdict
from tests.fuzz import procs
from tests.server.conftest import run_server


def _flood(source: str, host: str, port: int, count: int, hold_s: float, results) -> None:
    """Open up to ``count`` silent connections from ``source`` and hold them ``hold_s``."""
    held, opened, failed = [], 0, 0
    end = time.monotonic() + hold_s
    while time.monotonic() < end:
        if opened < count:
            sock = socket.socket()
            try:
                sock.bind((source, 0))
                sock.connect((host, port))
                held.append(sock)
                opened += 1
            except OSError:
                sock.close()
                failed += 1
                time.sleep(0.001)
        else:
            time.sleep(0.1)
    still_open = 0
    for sock in held:
        sock.setblocking(False)
        try:
            still_open += sock.recv(1) != b""
        except BlockingIOError:
            still_open += 1
        except OSError:
            pass
        sock.close()
    results.put({"source": source, "opened": opened, "connect_failures": failed, "open_at_the_end": still_open})


def run(args: argparse.Namespace) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="shmj-http-flood-"))
    profiles = folder / "profiles"
    profiles.mkdir()
    server_args = ["--profiles-dir", str(profiles), "--http-max-connections", str(args.http_max_connections)]
    with run_server(folder, *server_args, workers=2) as server:
        pids = procs.worker_pids(server.process.pid)
        idle_fds = {pid: procs.open_fds(pid) for pid in pids}
        host, port = server.http_url.rsplit("/", 1)[1].split(":")
        results = multiprocessing.Queue()
        per_source = args.connections // args.sources
        floods = [
            multiprocessing.Process(
                target=_flood, args=(f"127.0.0.{2 + i}", host, int(port), per_source, args.hold_s, results)
            )
            for i in range(args.sources)
        ]
        for flood in floods:
            flood.start()
        checks, failures, healthz_failures, max_fds = 0, [], 0, dict(idle_fds)
        reloaded = False
        start = time.monotonic()
        next_second = start
        with grpc.insecure_channel(server.address) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            while any(flood.is_alive() for flood in floods):
                try:
                    status = health.Check(health_pb2.HealthCheckRequest(), timeout=2).status
                    if status != health_pb2.HealthCheckResponse.SERVING:
                        failures.append(str(status))
                except grpc.RpcError as error:
                    failures.append(error.code().name)
                checks += 1
                if time.monotonic() >= next_second:
                    next_second += 1.0
                    for pid in pids:
                        max_fds[pid] = max(max_fds[pid], procs.open_fds(pid))
                    try:
                        with urllib.request.urlopen(server.http_url + "/healthz", timeout=5):
                            pass
                    except OSError:
                        healthz_failures += 1
                if not reloaded and time.monotonic() - start > args.hold_s / 2:
                    (profiles / "club.yaml").write_text("name: club\nbase: classic\n")
                    server.process.send_signal(signal.SIGHUP)
                    reloaded = True
                time.sleep(0.05)
        sources = [results.get() for _ in floods]
        for flood in floods:
            flood.join()
        time.sleep(1.0)
        log = server.log()
    refused = log.count('"house profiles reload refused"')
    report = {
        "connections_asked": args.connections,
        "sources": sources,
        "http_max_connections": args.http_max_connections,
        "grpc_health_checks": checks,
        "grpc_health_failures": len(failures),
        "grpc_health_failure_codes": sorted(set(failures)),
        "healthz_failures": healthz_failures,
        "worker_fds_idle": idle_fds,
        "worker_fds_max": max_fds,
        "profile_reloads_refused": refused,
        "too_many_open_files_in_log": log.count("Too many open files"),
    }
    report["passed"] = (
        not failures
        and refused == 0
        and all(max_fds[pid] <= args.http_max_connections + args.fd_slack for pid in max_fds)
    )
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=43_500)
    parser.add_argument("--sources", type=int, default=3)
    parser.add_argument("--hold-s", type=float, default=30.0)
    parser.add_argument("--http-max-connections", type=int, default=1024)
    parser.add_argument("--fd-slack", type=int, default=200, help="descriptors a worker may have beyond the cap")
    parser.add_argument("--report", default="")
    args = parser.parse_args(argv)
    return verdict(run(args), args.report)


if __name__ == "__main__":
    sys.exit(main())

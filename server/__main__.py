"""``shmj-server``: the supervisor. Runs N worker processes on one port (SO_REUSEPORT, as
the gRPC Python examples recommend, so a host is not capped by one interpreter)
and serves their added-up Prometheus metrics on /metrics.

SIGTERM or SIGINT is passed to every worker; the supervisor exits 0 once all
have drained. A worker that dies on its own after running a while is replaced;
one that dies at start-up (a port in use, a bad certificate) stops the server.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

from server.config import ServerConfig, parse_config

STARTUP_SECONDS = 5.0  # a worker that dies sooner failed to start and is not replaced


def _prepare_multiproc_dir(config: ServerConfig) -> str:
    directory = config.multiproc_dir or tempfile.mkdtemp(prefix="shmj-metrics-")
    Path(directory).mkdir(parents=True, exist_ok=True)
    for stale in Path(directory).glob("*.db"):
        stale.unlink()  # left by an earlier run: its counts must not leak into this one
    # Must be set before prometheus_client is imported here or in a worker.
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = directory
    return directory


def _start_metrics_endpoint(config: ServerConfig) -> None:
    from prometheus_client import CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    start_http_server(config.metrics_port, addr=config.metrics_host, registry=registry)


def main(argv: list[str] | None = None) -> int:
    config = parse_config(argv)
    _prepare_multiproc_dir(config)
    from prometheus_client import multiprocess

    from server.logs import capture_stderr, configure_logging, release_stderr
    from server.worker import run_worker  # a module-level target, so spawned children can import it

    configure_logging(config.log_level)
    relay = capture_stderr()  # gRPC core, OpenSSL, dying workers: JSON lines too
    try:
        return _supervise(config, run_worker, multiprocess)
    finally:
        release_stderr(relay)


def _supervise(config: ServerConfig, run_worker, multiprocess) -> int:
    import structlog

    log = structlog.get_logger("shmj.supervisor")
    if config.metrics_port:
        metrics_address = f"{config.metrics_host}:{config.metrics_port}"
        try:
            _start_metrics_endpoint(config)
        except OSError as error:
            log.error("cannot serve metrics", address=metrics_address, error=error.strerror)
            return 1
        log.info("metrics", address=f"http://{metrics_address}/metrics")

    context = multiprocessing.get_context("spawn")
    count = config.worker_count
    reuse_port = count > 1

    started_at: dict[int, float] = {}

    def start_worker() -> multiprocessing.Process:
        process = context.Process(target=run_worker, args=(config, reuse_port, os.getpid()), daemon=False)
        process.start()
        started_at[process.pid] = time.monotonic()
        return process

    workers = [start_worker() for _ in range(count)]
    log.info("started", workers=count, pids=[w.pid for w in workers], address=config.address)
    stopping = False

    def stop(_signum=None, _frame=None):
        nonlocal stopping
        stopping = True
        for worker in workers:
            if worker.is_alive():
                os.kill(worker.pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    while True:
        for index, worker in enumerate(workers):
            worker.join(timeout=0.2)
            if worker.exitcode is None:
                continue
            multiprocess.mark_process_dead(worker.pid)
            if stopping:
                continue
            if time.monotonic() - started_at[worker.pid] < STARTUP_SECONDS:
                log.error("worker failed to start; stopping", pid=worker.pid, exitcode=worker.exitcode)
                stop()
            else:
                log.error("worker died; replacing it", pid=worker.pid, exitcode=worker.exitcode)
                workers[index] = start_worker()
        if stopping and all(w.exitcode is not None for w in workers):
            break
    failed = [w.exitcode for w in workers if w.exitcode]
    log.info("stopped", exitcodes=[w.exitcode for w in workers])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

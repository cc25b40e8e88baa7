"""``shmj-server``: the supervisor. Runs N worker processes on one port (SO_REUSEPORT, as
the gRPC Python examples recommend, so a host is not capped by one interpreter)
and serves their added-up Prometheus metrics on /metrics.

SIGTERM or SIGINT is passed to every worker; the supervisor exits 0 once all
have drained. A worker that dies once the server is serving (whatever a client
sent) is replaced, after a delay that doubles while replacements keep dying
soon (0.25 s up to 10 s). Only a start-up failure stops the server (exit 1): a
data file of the package missing (server/data_files.py), a worker that dies
before any has served (a port in use, a bad certificate), or another server
already answering on the port, which SO_REUSEPORT would otherwise let this one
share silently.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path

from server.config import ServerConfig, env_name, parse_config

FIRST_RESTART_DELAY_S = 0.25
MAX_RESTART_DELAY_S = 10.0
STABLE_SECONDS = 30.0  # a worker that lived this long died for a new reason: restart soon again


def _prepare_multiproc_dir(config: ServerConfig) -> str:
    directory = config.multiproc_dir or tempfile.mkdtemp(prefix="shmj-metrics-")
    Path(directory).mkdir(parents=True, exist_ok=True)
    for stale in Path(directory).glob("*.db"):
        stale.unlink()  # left by an earlier run: its counts must not leak into this one
    # Must be set before prometheus_client is imported here or in a worker.
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = directory
    return directory


def _start_metrics_endpoint(config: ServerConfig, processes) -> None:
    from prometheus_client import CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    from server import process_metrics

    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    process_metrics.register(registry, processes)
    start_http_server(config.metrics_port, addr=config.metrics_host, registry=registry)


def main(argv: list[str] | None = None) -> int:
    config = parse_config(argv)
    from server import tracing

    try:
        tracing.check()
    except tracing.TracingConfigError as error:
        print(f"shmj-server: {error}", file=sys.stderr)
        return 2
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


def _answering(host: str, port: int) -> bool:
    """Whether something already accepts connections on the port (with SO_REUSEPORT a second
    server would bind it too, and share its traffic silently)."""
    probe = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1", "[::]": "::1"}.get(host, host.strip("[]"))
    try:
        with socket.create_connection((probe, port), timeout=1.0):
            return True
    except OSError:
        return False


class _Slot:
    """One worker's place: its process, whether it became ready, and when to restart it."""

    def __init__(self, start):
        self._start = start
        self.process = None
        self.ready = None
        self.started_at = 0.0
        self.restart_at = 0.0
        self.delay = FIRST_RESTART_DELAY_S

    def start(self) -> None:
        self.process, self.ready = self._start()
        self.started_at = time.monotonic()

    def died(self, now: float) -> float:
        """Forget the dead process; returns the delay before its replacement starts."""
        stable = now - self.started_at >= STABLE_SECONDS
        self.delay = FIRST_RESTART_DELAY_S if stable else min(self.delay * 2, MAX_RESTART_DELAY_S)
        self.process = None
        self.restart_at = now + self.delay
        return self.delay


def _profiles_valid(directory: str, follow_links: bool, log) -> bool:
    """A bad house profile stops the start: one line naming each file and field."""
    from profile_files import load_profiles_dir

    loaded = load_profiles_dir(directory, follow_links)
    if not loaded.ok:
        log.error("bad house profiles; not starting", directory=directory, problems=[str(p) for p in loaded.problems])
    return loaded.ok


def _another_port(name: str) -> str:
    """What to change when a port is taken, flag and variable (`make run` passes no flags)."""
    flag = "--" + name.replace("_", "-")
    off = "" if name == "port" else "; 0 turns it off"
    return f"choose another {flag} (env {env_name(name)}{off})"


def _death(exitcode: int) -> dict:
    if exitcode < 0:
        return {"exitcode": exitcode, "signal": signal.Signals(-exitcode).name}
    return {"exitcode": exitcode}


def _supervise(config: ServerConfig, run_worker, multiprocess) -> int:
    import structlog

    from server.data_files import missing_data_files

    log = structlog.get_logger("shmj.supervisor")
    missing = missing_data_files()
    if missing:
        reason = "the installed package lacks them: reinstall it from a wheel that carries its package data"
        log.error("data files missing; not starting", missing=missing, reason=reason)
        return 1
    served = (("port", config.host), ("http_port", config.http_host), ("health_port", config.host))
    for name, host in served:
        port = getattr(config, name)
        if port and _answering(host, port):
            reason = "another server already answers on this port"
            hint = f"stop the server that holds it, or {_another_port(name)}"
            log.error(
                "cannot listen", address=f"{host}:{port}", error="Address already in use", reason=reason, hint=hint
            )
            return 1
    if config.profiles_dir and not _profiles_valid(config.profiles_dir, config.profiles_follow_links, log):
        return 1
    slots: list[_Slot] = []

    def processes() -> list[tuple[str, int]]:
        """The supervisor and each live worker by slot, for the process_* metrics (read from the
        metrics thread while the supervisor replaces workers: each slot's process is read once)."""
        live = [(i, slot.process) for i, slot in enumerate(slots)]
        return [("supervisor", os.getpid())] + [(f"worker-{i}", p.pid) for i, p in live if p is not None]

    if config.metrics_port:
        metrics_address = f"{config.metrics_host}:{config.metrics_port}"
        try:
            _start_metrics_endpoint(config, processes)
        except OSError as error:
            log.error(
                "cannot serve metrics",
                address=metrics_address,
                error=error.strerror,
                hint=_another_port("metrics_port"),
            )
            return 1
        log.info("metrics", address=f"http://{metrics_address}/metrics")

    context = multiprocessing.get_context("spawn")
    count = config.worker_count
    reuse_port = count > 1

    def start_worker():
        ready = context.Event()
        process = context.Process(target=run_worker, args=(config, reuse_port, os.getpid(), ready), daemon=False)
        process.start()
        return process, ready

    slots.extend(_Slot(start_worker) for _ in range(count))
    for slot in slots:
        slot.start()
    log.info("started", workers=count, pids=[slot.process.pid for slot in slots], address=config.address)
    stopping = False
    failed_to_start = False
    served = False  # whether any worker has been ready: after that, deaths are replaced, never fatal

    def stop(_signum=None, _frame=None):
        nonlocal stopping
        stopping = True
        for slot in slots:
            if slot.process is not None and slot.process.is_alive():
                os.kill(slot.process.pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def reload_profiles(_signum=None, _frame=None):
        """SIGHUP: each worker serving reloads its house profiles (one starting reads them anyway)."""
        for slot in slots:
            if slot.process is not None and slot.process.is_alive() and slot.ready.is_set():
                os.kill(slot.process.pid, signal.SIGHUP)

    signal.signal(signal.SIGHUP, reload_profiles)

    exitcodes = []
    while not (stopping and all(slot.process is None for slot in slots)):
        for slot in slots:
            process = slot.process
            if process is None:
                if not stopping and time.monotonic() >= slot.restart_at:
                    slot.start()
                    log.info("worker replaced", worker=slot.process.pid)
                continue
            process.join(timeout=0.1)
            served = served or slot.ready.is_set()
            if process.exitcode is None:
                continue
            multiprocess.mark_process_dead(process.pid)
            exitcodes.append(process.exitcode)
            if stopping:
                slot.process = None
            elif not served:
                log.error("worker failed to start; stopping", worker=process.pid, **_death(process.exitcode))
                failed_to_start = True
                slot.process = None
                stop()
            else:
                delay = slot.died(time.monotonic())
                log.error(
                    "worker died; replacing it", worker=process.pid, restart_in_s=delay, **_death(process.exitcode)
                )
    log.info("stopped", exitcodes=exitcodes[-count:])
    return 1 if failed_to_start else 0


if __name__ == "__main__":
    sys.exit(main())

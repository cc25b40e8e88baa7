"""uvicorn serving the Connect app inside the worker's event loop, beside grpc.aio.

Workers share the HTTP port as they share the gRPC port: each binds its own socket with
``SO_REUSEPORT`` and the kernel spreads connections over them. The worker owns the
signals; this server only starts, and stops when told (in-flight calls get the grace period).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
from dataclasses import dataclass

import structlog
import uvicorn

from server.drain import SHUTTING_DOWN
from server.http.connections import ConnectionLimits, protocol_class

log = structlog.get_logger("shmj.http")


def listening_socket(host: str, port: int, reuse_port: bool) -> socket.socket:
    """A bound, listening TCP socket; OSError when the address is taken or not this machine's."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP spelled out: asyncio sets TCP_NODELAY only on sockets whose proto says TCP;
    # with proto 0 each answer's body waited for the client's delayed ACK, 40 ms a call.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
        sock.listen(1024)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


@dataclass(frozen=True)
class TlsFiles:
    """gRPC's TLS files, for the HTTP face too: one door policy for both faces."""

    cert: str
    key: str
    client_ca: str = ""  # clients must present a certificate it signed (mutual TLS)

    def context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, self.key)
        if self.client_ca:
            context.load_verify_locations(self.client_ca)
            context.verify_mode = ssl.CERT_REQUIRED
        return context


class _EmbeddedServer(uvicorn.Server):
    """A uvicorn server that leaves the process's signal handlers to the worker."""

    @contextlib.contextmanager
    def capture_signals(self):
        yield


class HttpServer:
    def __init__(
        self,
        app,
        sock: socket.socket,
        grace_period_s: float,
        limits: ConnectionLimits | None = None,
        tls: TlsFiles | None = None,
    ):
        self._grace_period_s = grace_period_s
        limits = limits or ConnectionLimits()
        self.tls = tls
        config = uvicorn.Config(
            app,
            lifespan="off",
            # h11 with deadlines and a connection cap, and TLS of its own (server.http.connections)
            http=protocol_class(limits, tls.context() if tls is not None else None),
            timeout_keep_alive=limits.idle_timeout_s,
            ws="none",
            log_config=None,
            access_log=False,  # the app logs each call as gRPC's call wrapper (server.observed_calls) does
            server_header=False,
            timeout_graceful_shutdown=grace_period_s,
        )
        self._server = _EmbeddedServer(config)
        self._sock = sock
        self._task: asyncio.Task | None = None

    @property
    def port(self) -> int:
        return self._sock.getsockname()[1]

    async def start(self) -> None:
        self._task = asyncio.create_task(self._server.serve(sockets=[self._sock]))
        while not self._server.started:
            if self._task.done():
                await self._task  # raises what stopped it
                raise RuntimeError("the HTTP server stopped while starting")
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        """Close the listener, let in-flight calls finish, return. Calls still running near the
        grace period's end (when `server.drain` cuts gRPC's) are cancelled here, so that the app
        answers them UNAVAILABLE: uvicorn's own cut, at the very end, logs an error and a
        traceback for each."""
        self._server.should_exit = True
        if self._task is None:
            return
        margin = min(1.0, self._grace_period_s / 2)
        done, _ = await asyncio.wait({self._task}, timeout=self._grace_period_s - margin)
        if not done:
            calls = list(self._server.server_state.tasks)
            if calls:
                log.info("grace period ending; http calls in flight end UNAVAILABLE", calls=len(calls))
            for call in calls:
                call.cancel(SHUTTING_DOWN)
            await self._task

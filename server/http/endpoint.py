"""What the worker sees of HTTP: bind (before gRPC starts, so a taken port fails the start),
start, report draining on /readyz, stop."""

from __future__ import annotations

import sys

import structlog

from server.config import ServerConfig
from server.http.app import ConnectApp, Readiness
from server.http.bodies import BodyBudget
from server.http.calls import Calls
from server.http.connections import ConnectionLimits, effective_max_connections
from server.http.listener import HttpServer, TlsFiles, listening_socket

log = structlog.get_logger("shmj.server")

SWITCH_INTERVAL_S = 0.001


class HttpEndpoint:
    def __init__(self, server: HttpServer, readiness: Readiness, host: str, limits: ConnectionLimits):
        self._server = server
        self._limits = limits
        self._readiness = readiness
        self._host = host

    @classmethod
    def bind(cls, config: ServerConfig, servicer, reuse_port: bool) -> HttpEndpoint | None:
        """The endpoint on ``--http-host``:``--http-port``, or None when the port is 0."""
        if not config.http_port:
            return None
        address = f"{config.http_host}:{config.http_port}"
        try:
            sock = listening_socket(config.http_host, config.http_port, reuse_port)
        except OSError as error:
            log.error(
                "cannot listen",
                address=address,
                error=error.strerror,
                hint="the port is in use, or the host is not an address of this machine",
            )
            raise SystemExit(1) from None
        readiness = Readiness()
        app = ConnectApp(
            Calls(servicer, config.max_message_bytes),
            readiness,
            max_concurrent_rpcs=config.max_concurrent_rpcs,
            grpc_port=config.port,
            body_budget=BodyBudget(config.http_body_budget_bytes),
        )
        limits = ConnectionLimits(
            header_timeout_s=config.http_header_timeout_s,
            body_timeout_s=config.http_body_timeout_s,
            idle_timeout_s=config.http_idle_timeout_s,
            max_connections=effective_max_connections(config.http_max_connections),
        )
        tls = None
        if config.tls_cert and config.http_tls == "auto":
            tls = TlsFiles(config.tls_cert, config.tls_key, config.tls_client_ca)
        server = HttpServer(app, sock, config.grace_period_s, limits, tls)
        return cls(server, readiness, config.http_host, limits)

    @property
    def url(self) -> str:
        host = f"[{self._host}]" if ":" in self._host else self._host
        scheme = "http" if self._server.tls is None else "https"
        return f"{scheme}://{host}:{self._server.port}"

    async def start(self) -> None:
        # JSON threads (server.http.calls) hold the GIL for up to the switch interval each time
        # the event loop asks for it: 1 ms instead of Python's 5 keeps gRPC's calls in this
        # worker answered while large JSON bodies are read and written (docs/HTTP.md).
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        await self._server.start()
        log.info(
            "serving http",
            address=self.url,
            explorer=f"{self.url}/",  # the settlement explorer's page (docs/EXPLORER.md)
            tls=self._server.tls is not None,
            mtls=self._server.tls is not None and bool(self._server.tls.client_ca),
            max_connections=self._limits.max_connections,
            header_timeout_s=self._limits.header_timeout_s,
            body_timeout_s=self._limits.body_timeout_s,
            idle_timeout_s=self._limits.idle_timeout_s,
        )

    def drain(self) -> None:
        """/readyz answers 503 from now on; calls are still served until `stop`."""
        self._readiness.serving = False

    async def stop(self) -> None:
        await self._server.stop()

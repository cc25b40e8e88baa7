"""Connection hygiene of the HTTP face: no client holds a connection, a descriptor or a
worker's memory for longer than the limits allow.

- **Request head**: a request's head (its line and headers) must be whole within
  ``header_timeout_s`` of the connection opening, or of the answer before it on a kept-alive
  connection; a silent connection, or headers trickled a byte at a time, are closed then.
- **Body**: a request's body must be whole within ``body_timeout_s`` of its head.
- **Idle keep-alive**: a connection with no request after an answer is closed after
  ``idle_timeout_s`` (uvicorn's ``timeout_keep_alive``).
- **Connections**: at most ``max_connections`` open per worker, kept below the process's
  descriptor limit (`effective_max_connections`); one more is closed as soon as it is
  accepted, so that an HTTP flood never takes the descriptors gRPC and its health checks
  need (they share the worker's).

Each connection closed by a limit is counted in ``shmj_http_connections_closed_total{reason}``.
The per-worker budget of body bytes held is the app's (`server.http.bodies`).
"""

from __future__ import annotations

import resource
import ssl
from asyncio.sslproto import SSLProtocol
from dataclasses import dataclass

from prometheus_client import Counter
from uvicorn.protocols.http.h11_impl import H11Protocol

CLOSED = Counter(
    "shmj_http_connections_closed_total",
    "HTTP connections closed by a limit of the HTTP face, by reason.",
    ("reason",),
)
DESCRIPTORS_KEPT = 256  # of the descriptor limit, never given to HTTP connections: gRPC, files, metrics


@dataclass(frozen=True)
class ConnectionLimits:
    header_timeout_s: float = 10.0
    body_timeout_s: float = 30.0
    idle_timeout_s: float = 5.0
    max_connections: int = 1024


def effective_max_connections(configured: int) -> int:
    """``configured``, or fewer when the process's descriptor limit leaves less room: half of
    what remains after `DESCRIPTORS_KEPT`, the rest for gRPC's connections."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return configured
    return max(1, min(configured, (soft - DESCRIPTORS_KEPT) // 2))


def protocol_class(limits: ConnectionLimits, tls: ssl.SSLContext | None = None):
    """uvicorn's h11 protocol with these limits (uvicorn takes a protocol factory as ``http``);
    with ``tls``, inside a TLS layer of ours rather than uvicorn's, so that a connection counts
    against the cap from its accept, and its handshake is bounded by the head's deadline (the
    event loop's own allows 60 s, and uvicorn passes no other)."""
    guarded = type("GuardedH11Protocol", (_Guarded,), {"limits": limits})
    if tls is None:
        return guarded

    def guarded_tls(*args, **kwargs):
        app = guarded(*args, **kwargs)
        return _GuardedTls(app.loop, app, tls, None, server_side=True, ssl_handshake_timeout=limits.header_timeout_s)

    return guarded_tls


class _GuardedTls(SSLProtocol):
    """asyncio's TLS layer, counting its connections from their accept against the cap."""

    open_connections: set[_GuardedTls] = set()  # of this worker, handshakes included

    def connection_made(self, transport) -> None:
        app = self._app_protocol
        if len(self.open_connections) >= app.limits.max_connections:
            app._refused = True
            CLOSED.labels("max_connections").inc()
            transport.abort()
            return
        self.open_connections.add(self)
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self in self.open_connections:
            self.open_connections.discard(self)
            super().connection_lost(exc)


class _Guarded(H11Protocol):
    limits: ConnectionLimits

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._timer = None
        self._armed_for: tuple[str, object] | None = None  # (what the deadline is for, its request cycle)
        self._refused = False

    def connection_made(self, transport) -> None:  # type: ignore[override]
        if len(self.connections) >= self.limits.max_connections:
            self._refused = True
            CLOSED.labels("max_connections").inc()
            transport.abort()
            return
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if not self._refused:
            super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        super().data_received(data)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def _arm(self) -> None:
        """The deadline of what the connection waits for now: a request's head, its body, or
        none while the app works on a whole request (the call's own deadline applies)."""
        cycle = self.cycle
        if cycle is None or cycle.response_complete:
            wanted = ("header_timeout", cycle)
        elif cycle.more_body and not cycle.disconnected:
            wanted = ("body_timeout", cycle)
        else:
            self._disarm()
            return
        if wanted == self._armed_for:
            return  # deadlines count from the start of the wait, not from the last byte
        self._disarm()
        self._armed_for = wanted
        seconds = self.limits.header_timeout_s if wanted[0] == "header_timeout" else self.limits.body_timeout_s
        self._timer = self.loop.call_later(seconds, self._expire, wanted[0])

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._armed_for = None

    def _expire(self, reason: str) -> None:
        self._timer = None
        CLOSED.labels(reason).inc()
        self.transport.abort()  # the app reading the body sees the client gone

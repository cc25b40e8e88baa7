"""Server configuration from flags, each defaulting to an environment variable (12-factor).

Every flag ``--some-name`` reads ``SHMJ_SOME_NAME`` when not given.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 50051
    metrics_host: str = "127.0.0.1"
    metrics_port: int = 9464  # 0 turns the metrics endpoint off
    http_host: str = "127.0.0.1"
    http_port: int = 8080  # Connect (HTTP/JSON), /healthz and /readyz; 0 turns it off
    workers: int = 0  # 0: one per core
    max_batch_size: int = 10_000
    max_message_bytes: int = 64 * 1024 * 1024
    max_concurrent_rpcs: int = 0  # 0: unlimited
    keepalive_time_ms: int = 60_000
    keepalive_timeout_ms: int = 20_000
    grace_period_s: float = 10.0  # in-flight calls finish within this after SIGTERM
    shutdown_delay_s: float = 1.0  # NOT_SERVING is reported this long before the listener closes
    tls_cert: str = ""  # PEM certificate chain; TLS is on when cert and key are set
    tls_key: str = ""
    tls_client_ca: str = ""  # PEM CA bundle: when set, clients must present a certificate it signed (mTLS)
    log_level: str = "info"
    multiproc_dir: str = ""  # prometheus_client's multiprocess directory; a temporary one when empty

    @property
    def worker_count(self) -> int:
        return self.workers or os.cpu_count() or 1

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


_HELP = {
    "host": "address to listen on",
    "port": "gRPC port (0 picks a free one; only with --workers 1)",
    "metrics_host": "address of the Prometheus /metrics endpoint",
    "metrics_port": "port of the /metrics endpoint; 0 turns it off",
    "http_host": "address of the HTTP endpoint (Connect JSON and protobuf calls, /healthz, /readyz)",
    "http_port": "port of the HTTP endpoint; 0 turns it off",
    "workers": "server processes sharing the port with SO_REUSEPORT; 0 means one per core",
    "max_batch_size": "most requests in one SettleBatch call",
    "max_message_bytes": "largest message received or sent",
    "max_concurrent_rpcs": "calls served at once per worker before RESOURCE_EXHAUSTED; 0 is unlimited",
    "keepalive_time_ms": "interval of keepalive pings to idle clients",
    "keepalive_timeout_ms": "how long a keepalive ping may go unanswered",
    "grace_period_s": "how long in-flight calls may run after SIGTERM",
    "shutdown_delay_s": "how long health reports NOT_SERVING before the listener closes",
    "tls_cert": "PEM certificate chain file (TLS when set with --tls-key)",
    "tls_key": "PEM private key file",
    "tls_client_ca": "PEM CA file; clients must present a certificate it signed (mutual TLS)",
    "log_level": "debug, info, warning or error",
    "multiproc_dir": "directory for multi-process metrics (a temporary one when empty)",
}


def env_name(field_name: str) -> str:
    return "SHMJ_" + field_name.upper()


def parse_config(argv: list[str] | None = None, environ=None) -> ServerConfig:
    environ = os.environ if environ is None else environ
    defaults = ServerConfig()
    parser = argparse.ArgumentParser(
        prog="shmj-server",
        description="Shanghai Mahjong scoring service (gRPC). Every flag also reads SHMJ_<FLAG> from the environment.",
    )
    for f in fields(ServerConfig):
        kind = type(getattr(defaults, f.name))
        default = environ.get(env_name(f.name), getattr(defaults, f.name))
        try:
            default = kind(default)
        except ValueError:
            parser.error(f"{env_name(f.name)}={default!r} is not a valid {kind.__name__}")
        parser.add_argument(
            "--" + f.name.replace("_", "-"),
            type=kind,
            default=default,
            help=f"{_HELP[f.name]} (env {env_name(f.name)}, default {getattr(defaults, f.name)!r})",
        )
    args = parser.parse_args(argv)
    config = ServerConfig(**vars(args))
    if bool(config.tls_cert) != bool(config.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    if config.tls_client_ca and not config.tls_cert:
        parser.error("--tls-client-ca needs --tls-cert and --tls-key")
    if config.port == 0 and config.worker_count > 1:
        parser.error("--port 0 picks a port per process: use it with --workers 1")
    return config

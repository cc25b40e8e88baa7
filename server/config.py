"""Server configuration from flags, each defaulting to an environment variable (12-factor).

Every flag ``--some-name`` reads ``SHMJ_SOME_NAME`` when not given. Each value is checked
where it is read: a wrong one stops the command with one line naming the flag (or the
variable) and exit code 2, before anything starts.
"""

from __future__ import annotations

import argparse
import difflib
import ipaddress
import math
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
    http_header_timeout_s: float = 10.0  # a request's head must be whole this soon (server.http.connections)
    http_body_timeout_s: float = 30.0  # a request's body must be whole this soon after its head
    http_idle_timeout_s: float = 5.0  # a kept-alive connection with no request is closed after this
    http_max_connections: int = 1024  # open HTTP connections per worker (fewer if the descriptor limit says so)
    http_body_budget_bytes: int = 64 * 1024 * 1024  # request body bytes a worker holds at once over HTTP
    http_tls: str = "auto"  # auto: the HTTP face has gRPC's TLS and client CA; off: plaintext (behind a TLS proxy)
    http_plaintext_public: bool = False  # allow --http-tls off on a non-loopback address while gRPC has TLS
    workers: int = 0  # 0: one per core this process may run on
    max_batch_size: int = 10_000
    max_message_bytes: int = 16 * 1024 * 1024  # a full batch's answer is at most ~8 MB; see docs/RELIABILITY.md
    max_request_bytes: int = 2 * 1024 * 1024  # largest gRPC request (a full batch of 10,000 hands is ~0.7 MB)
    max_concurrent_rpcs: int = 0  # 0: as many as the receive budget allows (`receive_calls`)
    receive_budget_bytes: int = 288 * 1024 * 1024  # what gRPC's core may hold of bodies being received, per worker
    grpc_body_timeout_s: float = 10.0  # a gRPC request must be whole this soon after its headers (docs/RELIABILITY.md)
    keepalive_time_ms: int = 60_000
    keepalive_timeout_ms: int = 20_000
    grace_period_s: float = 10.0  # in-flight calls finish within this after SIGTERM
    shutdown_delay_s: float = 1.0  # NOT_SERVING is reported this long before new calls are held
    tls_cert: str = ""  # PEM certificate chain; TLS is on when cert and key are set
    tls_key: str = ""
    tls_client_ca: str = ""  # PEM CA bundle: when set, clients must present a certificate it signed (mTLS)
    health_port: int = 0  # a plaintext port serving grpc.health.v1 only (kubelet probes under TLS); 0: none
    log_level: str = "info"
    multiproc_dir: str = ""  # prometheus_client's multiprocess directory; a temporary one when empty
    profiles_dir: str = ""  # house profiles: every *.yaml, *.yml or *.json file in it; none when empty
    profiles_poll_s: float = 1.0  # how often each worker checks the profiles directory for a change; 0: never
    profiles_follow_links: bool = False  # follow symbolic links out of --profiles-dir (those inside always)

    @property
    def worker_count(self) -> int:
        return self.workers or len(os.sched_getaffinity(0)) or 1  # the cores this process may run on

    @property
    def request_limit(self) -> int:
        """The largest gRPC request body a worker takes: ``max_request_bytes``, or the message limit when lower."""
        return min(self.max_request_bytes, self.max_message_bytes)

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
    "http_header_timeout_s": "seconds a request's line and headers may take to arrive (a slow or silent client is closed)",
    "http_body_timeout_s": "seconds a request's body may take to arrive after its headers",
    "http_idle_timeout_s": "seconds a kept-alive HTTP connection may wait for its next request",
    "http_max_connections": "open HTTP connections per worker; one more is closed at once (capped below the descriptor limit)",
    "http_body_budget_bytes": "request body bytes a worker holds at once over HTTP; a body past it is refused (429)",
    "http_tls": "auto: the HTTP face serves gRPC's TLS certificate and requires its client CA; off: plaintext",
    "http_plaintext_public": "let --http-tls off serve plaintext HTTP on a non-loopback address beside TLS gRPC",
    "workers": "server processes sharing the port with SO_REUSEPORT; 0 means one per core it may run on",
    "max_batch_size": "most requests in one SettleBatch call",
    "max_message_bytes": "largest message received or sent",
    "max_request_bytes": "largest gRPC request received (at most --max-message-bytes)",
    "max_concurrent_rpcs": "calls served at once per worker before RESOURCE_EXHAUSTED; 0: as the receive budget allows",
    "receive_budget_bytes": "memory per worker for gRPC request bodies being received; with --max-concurrent-rpcs 0 it "
    "sets the gRPC calls at once, budget / (2 x --max-request-bytes)",
    "grpc_body_timeout_s": "seconds a gRPC call's request may take to arrive after its headers, and a stream's next "
    "message after the answer before; the call then ends CANCELLED (BODY_TIMEOUT)",
    "keepalive_time_ms": "interval of keepalive pings to idle clients",
    "keepalive_timeout_ms": "how long a keepalive ping may go unanswered",
    "grace_period_s": "how long in-flight calls may run after SIGTERM",
    "shutdown_delay_s": "how long health reports NOT_SERVING before new calls are held",
    "tls_cert": "PEM certificate chain file (TLS when set with --tls-key)",
    "tls_key": "PEM private key file",
    "tls_client_ca": "PEM CA file; clients must present a certificate it signed (mutual TLS)",
    "health_port": "plaintext port serving only the gRPC health service (for probes when TLS is on); 0 is none",
    "log_level": "debug, info, warning or error",
    "multiproc_dir": "directory for multi-process metrics (a temporary one when empty)",
    "profiles_dir": "directory of house profiles (*.yaml, *.yml, *.json), reloaded on SIGHUP and on a change",
    "profiles_poll_s": "how often each worker looks for a change in --profiles-dir; 0 is only on SIGHUP",
    "profiles_follow_links": "read profile files that are symbolic links out of --profiles-dir (links inside it, "
    "as a Kubernetes ConfigMap's, are always read)",
}


LOG_LEVELS = ("debug", "info", "warning", "error")
MAX_INT32 = 2**31 - 1


def _whole(low: int, high: int = MAX_INT32):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not between {low} and {high}")
        return value

    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0 <= value <= 3600):
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 3600 seconds")
    return value


def _positive_seconds(text: str) -> float:
    value = _seconds(text)
    if value == 0:
        raise argparse.ArgumentTypeError("0 seconds would end every call or connection at once; give more")
    return value


def _choice(*choices: str):
    def parse(text: str) -> str:
        if text.lower() not in choices:
            raise argparse.ArgumentTypeError(f"{text!r} is not one of {', '.join(choices)}")
        return text.lower()

    return parse


def _boolean(text) -> bool:
    if isinstance(text, bool):
        return text
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off", ""):
        return False
    raise argparse.ArgumentTypeError(f"{text!r} is not true or false")


def _log_level(text: str) -> str:
    if text.lower() not in LOG_LEVELS:
        raise argparse.ArgumentTypeError(f"{text!r} is not one of {', '.join(LOG_LEVELS)}")
    return text.lower()


def _readable_file(text: str) -> str:
    if text:
        try:
            with open(text, "rb"):
                pass
        except OSError as error:
            raise argparse.ArgumentTypeError(f"cannot read {text}: {error.strerror}") from None
    return text


_PORT = _whole(0, 65535)
# How each value is read and checked; a field not named here is read as its default's type.
_CHECKS = {
    "port": _PORT,
    "metrics_port": _PORT,
    "http_port": _PORT,
    "http_header_timeout_s": _positive_seconds,
    "http_body_timeout_s": _positive_seconds,
    "http_idle_timeout_s": _positive_seconds,
    "http_max_connections": _whole(1, 1_000_000),
    "http_body_budget_bytes": _whole(1),
    "health_port": _PORT,
    "workers": _whole(0, 1024),
    "max_batch_size": _whole(1),
    "max_message_bytes": _whole(1),
    "max_request_bytes": _whole(1),
    "max_concurrent_rpcs": _whole(0),
    "receive_budget_bytes": _whole(1),
    "grpc_body_timeout_s": _positive_seconds,
    "keepalive_time_ms": _whole(1),
    "keepalive_timeout_ms": _whole(1),
    "grace_period_s": _seconds,
    "shutdown_delay_s": _seconds,
    "profiles_poll_s": _seconds,
    "tls_cert": _readable_file,
    "tls_key": _readable_file,
    "tls_client_ca": _readable_file,
    "log_level": _log_level,
    "http_tls": _choice("auto", "off"),
    "http_plaintext_public": _boolean,
    "profiles_follow_links": _boolean,
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        """One line, not the usage text: which flag, what is wrong."""
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def is_loopback(host: str) -> bool:
    """Whether ``host`` is an address only this machine reaches (a name other than localhost is not)."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def env_name(field_name: str) -> str:
    return "SHMJ_" + field_name.upper()


# The shmj command's connection variables: a shell (or a container's HEALTHCHECK) may set them
# beside the server's, and they are near some of its names (SHMJ_TLS, SHMJ_TLS_KEY).
CLIENT_VARIABLES = frozenset({"SHMJ_TARGET", "SHMJ_TLS", "SHMJ_CA", "SHMJ_CERT", "SHMJ_KEY"})


def _misspelt_setting(environ) -> tuple[str, str] | None:
    """A SHMJ_ variable that is no flag's but nearly one's (SHMJ_GRACE_PERIOD), with the one meant:
    its default would otherwise stay in force without a word. Other SHMJ_ names (the build's,
    the suite's) are another program's business."""
    settings = [env_name(f.name) for f in fields(ServerConfig)]
    for name in sorted(environ):
        if name.startswith("SHMJ_") and name not in settings and name not in CLIENT_VARIABLES:
            meant = difflib.get_close_matches(name, settings, n=1, cutoff=0.8)
            if meant:
                return name, meant[0]
    return None


def parse_config(argv: list[str] | None = None, environ=None) -> ServerConfig:
    environ = os.environ if environ is None else environ
    defaults = ServerConfig()
    parser = _Parser(
        prog="shmj-server",
        description="Shanghai Mahjong scoring service (gRPC). Every flag also reads SHMJ_<FLAG> from the environment.",
    )
    misspelt = _misspelt_setting(environ)
    if misspelt:
        parser.error(f"{misspelt[0]} is not a setting of shmj-server; did you mean {misspelt[1]}?")
    for f in fields(ServerConfig):
        check = _CHECKS.get(f.name, type(getattr(defaults, f.name)))
        default = getattr(defaults, f.name)
        if env_name(f.name) in environ:
            text = environ[env_name(f.name)]
            try:
                default = check(text)
            except (argparse.ArgumentTypeError, ValueError) as error:
                reason = str(error) if isinstance(error, argparse.ArgumentTypeError) else f"{text!r} is not valid"
                parser.error(f"{env_name(f.name)}: {reason}")
        parser.add_argument(
            "--" + f.name.replace("_", "-"),
            type=check,
            default=default,
            help=f"{_HELP[f.name]} (env {env_name(f.name)}, default {getattr(defaults, f.name)!r})",
            **({"nargs": "?", "const": True} if isinstance(default, bool) else {}),  # `--flag` alone is true
        )
    args = parser.parse_args(argv)
    config = ServerConfig(**vars(args))
    if bool(config.tls_cert) != bool(config.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    if config.tls_client_ca and not config.tls_cert:
        parser.error("--tls-client-ca needs --tls-cert and --tls-key")
    if config.http_port and config.http_body_budget_bytes < config.max_message_bytes:
        parser.error(
            "--http-body-budget-bytes must be at least --max-message-bytes, or no body that size could be read"
        )
    if (
        config.tls_cert
        and config.http_port
        and config.http_tls == "off"
        and not is_loopback(config.http_host)
        and not config.http_plaintext_public
    ):
        parser.error(
            f"--http-tls off serves HTTP in plaintext on {config.http_host} while gRPC takes TLS only, so anyone "
            "reaching it would get past TLS: serve it on 127.0.0.1 behind a TLS proxy, drop --http-tls off, "
            "or add --http-plaintext-public to mean it"
        )
    if config.port == 0 and config.worker_count > 1:
        parser.error("--port 0 picks a port per process: use it with --workers 1")
    return config

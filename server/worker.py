"""One server process: a grpc.aio server with the scoring, health and reflection services.

On SIGTERM or SIGINT it drains: health turns NOT_SERVING, calls are served as
usual for ``shutdown_delay_s`` so load balancers notice, then new calls are held
and in-flight ones finish within ``grace_period_s``, and it exits 0, its
connections closing under the held calls (see `server.drain`).
It drains the same way when its supervisor dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

import grpc
import structlog
import uvloop
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2_grpc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc

from server import body_deadline, garbage, memory_return, peer_share, tracing
from server.config import ServerConfig
from server.drain import drain_calls
from server.http.endpoint import HttpEndpoint
from server.logs import configure_logging, flush_stdout
from server.metrics import record_build_info
from server.observed_calls import MAX_MESSAGE_BYTES, CallObserver, ObservedRegistration
from server.preserialized import BODY_READ_AGAIN, PRESERIALIZED_METHODS
from server.profiles import HouseProfiles, ProfilesError
from server.service import SERVICE_NAME, ScoringService

log = structlog.get_logger("shmj.server")


def core_receive_limit(request_limit: int) -> int:
    """What gRPC's core accepts: twice the request limit, so that a body somewhat over it
    reaches the call's wrapper (server.observed_calls), which answers RESOURCE_EXHAUSTED, logged
    and counted (a body over this is refused by the core alone, before any of the server's
    code runs)."""
    return min(2 * request_limit, MAX_MESSAGE_BYTES)


def grpc_calls_at_once(config: ServerConfig) -> int:
    """gRPC calls a worker serves at once: ``--max-concurrent-rpcs``, or (when 0) as many as
    ``--receive-budget-bytes`` holds at the core's receive limit. gRPC's core buffers a call's
    body up to that limit before any of the server's code sees a byte, for every call it has
    taken; a call over this count is answered RESOURCE_EXHAUSTED before its body is read. So
    the bodies a worker holds, whatever its clients send, stay within the budget."""
    if config.max_concurrent_rpcs:
        return config.max_concurrent_rpcs
    return max(1, config.receive_budget_bytes // core_receive_limit(config.request_limit))


STREAM_SHARE_DIVISOR = 4  # a connection may hold a quarter of a worker's calls at once...
MIN_STREAMS_PER_CONNECTION = 8  # ...but never fewer than this


def streams_per_connection(config: ServerConfig) -> int:
    """Calls one connection may have at once (HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS): a share
    of the worker's calls at once, so that one connection holding incomplete bodies cannot take
    them all (the worker's limit counts a call from its arrival, before its body is read). A
    gRPC client's further calls wait in its own HTTP/2 layer for a free stream, not refused.
    Counted as open HTTP/2 streams, as the client counts them, so gRPC's overload protection
    is off: it counts a stream until the server's call object is freed, a little after the
    client saw it close, and so refused (REFUSED_STREAM, UNAVAILABLE) calls a client rightly
    sent (60 at once on one channel). A
    connection's first flight, before the client acknowledges these settings, is held to the
    share as well (the core resets the streams past it)."""
    return max(MIN_STREAMS_PER_CONNECTION, grpc_calls_at_once(config) // STREAM_SHARE_DIVISOR)


def server_options(config: ServerConfig, reuse_port: bool) -> list[tuple[str, int]]:
    return [
        ("grpc.max_concurrent_streams", streams_per_connection(config)),
        ("grpc.http.overload_protection", 0),  # count open streams, as the client does (see streams_per_connection)
        ("grpc.so_reuseport", 1 if reuse_port else 0),
        ("grpc.max_receive_message_length", core_receive_limit(config.request_limit)),
        ("grpc.max_send_message_length", config.max_message_bytes),
        ("grpc.keepalive_time_ms", config.keepalive_time_ms),
        ("grpc.keepalive_timeout_ms", config.keepalive_timeout_ms),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_recv_ping_interval_without_data_ms", max(config.keepalive_time_ms // 2, 1000)),
    ]


def server_credentials(config: ServerConfig) -> grpc.ServerCredentials | None:
    if not config.tls_cert:
        return None
    key = Path(config.tls_key).read_bytes()
    cert = Path(config.tls_cert).read_bytes()
    client_ca = Path(config.tls_client_ca).read_bytes() if config.tls_client_ca else None
    return grpc.ssl_server_credentials([(key, cert)], root_certificates=client_ca, require_client_auth=bool(client_ca))


async def serve(config: ServerConfig, reuse_port: bool, supervisor: int, ready=None) -> None:
    peer_share.SHARE = streams_per_connection(config)  # an address's calls waiting for their request
    server = grpc.aio.server(
        options=server_options(config, reuse_port),
        maximum_concurrent_rpcs=grpc_calls_at_once(config),  # bounds the bodies the core holds (docs/RELIABILITY.md)
    )
    # Every service's handlers registered observed (call metrics, log line, drain), not intercepted.
    observed = ObservedRegistration(
        server,
        CallObserver(
            PRESERIALIZED_METHODS,
            config.request_limit,
            config.grpc_body_timeout_s,
            BODY_READ_AGAIN,
            max_batch_size=config.max_batch_size,
        ),
    )
    try:
        profiles = HouseProfiles(config.profiles_dir, follow_links=config.profiles_follow_links)
    except ProfilesError as error:  # the supervisor checked them; a file changed since
        log.error("cannot load house profiles", directory=error.directory, problems=error.problems)
        raise SystemExit(1) from None
    servicer = ScoringService(config, profiles)
    scoring_service_pb2_grpc.add_ScoringServiceServicer_to_server(servicer, observed)
    http = HttpEndpoint.bind(config, servicer, reuse_port)  # Connect over HTTP, by the same servicer
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, observed)
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(  # what `enable_server_reflection` does
        reflection.aio.ReflectionServicer(
            (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME)
        ),
        observed,
    )
    credentials = server_credentials(config)
    try:
        if credentials is None:
            port = server.add_insecure_port(config.address)
        else:
            port = server.add_secure_port(config.address, credentials)
    except RuntimeError:  # gRPC says only "Failed to bind"
        hint = "the port is in use, or the host is not an address of this machine"
        if credentials is not None:
            hint += ", or the TLS certificate or key is not valid PEM"
        log.error("cannot listen", address=config.address, hint=hint)
        raise SystemExit(1) from None
    health_server = await _start_health_server(config, reuse_port, health_servicer)
    await server.start()
    if http is not None:
        await http.start()
    for service in ("", SERVICE_NAME):
        await health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    record_build_info()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGHUP, profiles.reload_soon, "SIGHUP")  # read off the loop; before `ready`
    profile_watch = asyncio.create_task(profiles.watch(config.profiles_poll_s))
    log.info(
        "serving",
        address=f"{config.host}:{port}",
        tls=credentials is not None,
        mtls=bool(config.tls_client_ca),
        request_limit=config.request_limit,
        calls_at_once=grpc_calls_at_once(config),
        streams_per_connection=streams_per_connection(config),
        event_loop="uvloop" if isinstance(loop, uvloop.Loop) else "asyncio",
    )
    if ready is not None:
        ready.set()  # the supervisor now replaces this worker if it dies, rather than stopping

    stopping = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping.set)
    watcher = asyncio.create_task(_stop_without_supervisor(supervisor, stopping))
    garbage.configure()  # short collector pauses, counted (see `server.garbage`)
    gc_publisher = asyncio.create_task(garbage.publish_forever())
    trimmer = asyncio.create_task(memory_return.return_forever())  # freed bodies back to the system
    sweeper = asyncio.create_task(body_deadline.sweep_forever(config.grpc_body_timeout_s))  # requests that never come
    await stopping.wait()

    log.info("draining", shutdown_delay_s=config.shutdown_delay_s, grace_period_s=config.grace_period_s)
    await health_servicer.enter_graceful_shutdown()
    if http is not None:
        http.drain()
    await asyncio.sleep(config.shutdown_delay_s)
    await asyncio.gather(drain_calls(config.grace_period_s, log), *([http.stop()] if http is not None else []))
    if health_server is not None:
        await health_server.stop(0)
    watcher.cancel()
    profile_watch.cancel()
    gc_publisher.cancel()
    trimmer.cancel()
    sweeper.cancel()
    log.info("stopped")
    # Never gRPC's stop, which cancels the calls its core holds (see `server.drain`): the exit
    # closes the connections, and every call left on them ends UNAVAILABLE on its client.
    flush_stdout()
    with contextlib.suppress(OSError, ValueError):  # a supervisor gone took stderr's reader with it
        sys.stderr.flush()
    os._exit(0)


async def _start_health_server(config: ServerConfig, reuse_port: bool, health_servicer) -> grpc.aio.Server | None:
    """A plaintext server with the health service alone, sharing the main server's health states:
    kubelet gRPC probes cannot speak TLS, and nothing else is reachable on this port."""
    if not config.health_port:
        return None
    server = grpc.aio.server(options=[("grpc.so_reuseport", 1 if reuse_port else 0)])
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    address = f"{config.host}:{config.health_port}"
    try:
        server.add_insecure_port(address)
    except RuntimeError:
        log.error("cannot listen", address=address, hint="the health port is in use")
        raise SystemExit(1) from None
    await server.start()
    log.info("health port", address=address)
    return server


async def _stop_without_supervisor(supervisor: int, stopping: asyncio.Event) -> None:
    """A worker whose supervisor died (SIGKILL, the OOM killer) drains and exits rather than
    holding the port with no one to stop it and no metrics endpoint. The supervisor's pid comes
    from the supervisor: read here, it would already be init's if the supervisor died while this
    worker was starting."""
    while os.getppid() == supervisor:
        await asyncio.sleep(1.0)
    log.warning("supervisor gone; draining", supervisor=supervisor)
    stopping.set()


def run_worker(config: ServerConfig, reuse_port: bool, supervisor: int, ready=None) -> None:
    configure_logging(config.log_level)
    tracing.configure()  # OTEL_* variables; off unless they turn it on (server.tracing)
    # uvloop's event loop: a unary call costs the worker less CPU than on asyncio's own loop
    # (docs/PERFORMANCE.md); grpc.aio and uvicorn run on it as they do on asyncio's.
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(serve(config, reuse_port, supervisor, ready))
    tracing.shutdown()  # the spans still buffered are exported

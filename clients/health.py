"""``shmj health``: ask a server's ``grpc.health.v1.Health`` service, exit 0 when SERVING, 1 otherwise
(2 for a ``--service`` the server does not know: a user's mistake, as elsewhere in `shmj`).

For operators and for the container's HEALTHCHECK: one line on stdout (the status) or on
stderr (why the server could not be asked), never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

import grpc

from clients.cli_failures import exit_status, explain, status_said
from clients.client import SERVICE, ScoringClient
from rules_core.vocabulary import SERVING_WORDS, term


def add_health_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--service",
        default="",
        help="the service to ask about; empty (the default) is the server as a whole",
    )


def health_command(args, connect: Callable[[argparse.Namespace], ScoringClient]) -> int:
    """``connect`` makes the client from the connection flags (TLS, certificates, timeout)."""
    # Imported here: the other commands work in a client-only install without grpcio-health-checking.
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    try:
        client = connect(args)
    except OSError as error:
        print(f"shmj: cannot read {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    with client:
        stub = health_pb2_grpc.HealthStub(client.channel)
        try:
            response = stub.Check(health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout)
        except grpc.RpcError as error:
            code = error.code()
            if code == grpc.StatusCode.NOT_FOUND:
                said = (
                    f"{args.target} reports on no service {args.service!r}; ask about {SERVICE}, or leave --service out"
                )
            else:  # in the words of every other command (clients/cli.py)
                said = explain(code, error.details() or "", args.target, args.tls)
            print(f"shmj: {status_said(code)}: {said}", file=sys.stderr)
            return exit_status(code)
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
    words = SERVING_WORDS.get(status)
    said = f"{words.en} {words.zh} ({status})" if words else status
    print(f"{args.target} {args.service or '(' + term('the_server') + ')'}: {said}")
    return 0 if response.status == health_pb2.HealthCheckResponse.SERVING else 1

"""The ``shmj`` command's entry point.

gRPC's core is told to log errors only before it loads: left alone, it prints its own log
lines (a failed TLS handshake's, at INFO) on the terminal beside the one line `shmj` says.
A ``GRPC_VERBOSITY`` the user set is kept."""

from __future__ import annotations

import os
import signal
import sys
import threading


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
    try:
        from clients.cli import main as run

        code = run(argv)
    except KeyboardInterrupt:  # Ctrl-C while the command loads or parses its arguments, as any later one
        print("shmj: interrupted", file=sys.stderr)
        return 130
    _deaf_while_exiting()
    return code


def _deaf_while_exiting() -> None:
    """The command has done and said what it did: a Ctrl-C or SIGTERM while the interpreter exits
    (its libraries' exit handlers: a Dask cluster's, OpenTelemetry's) changes neither what it did
    nor its exit status, where it killed the process by SIGINT after a rescore's summary."""
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_IGN)


if __name__ == "__main__":
    sys.exit(main())

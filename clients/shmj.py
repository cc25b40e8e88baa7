"""The ``shmj`` command's entry point.

gRPC's core is told to log errors only before it loads: left alone, it prints its own log
lines (a failed TLS handshake's, at INFO) on the terminal beside the one line `shmj` says.
A ``GRPC_VERBOSITY`` the user set is kept."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
    try:
        from clients.cli import main as run

        return run(argv)
    except KeyboardInterrupt:  # Ctrl-C while the command loads or parses its arguments, as any later one
        print("shmj: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

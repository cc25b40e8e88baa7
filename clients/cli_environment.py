"""Where `shmj` connects when no flag says: ``SHMJ_TARGET``, ``SHMJ_TLS``, ``SHMJ_CA``,
``SHMJ_CERT`` and ``SHMJ_KEY``, as the server reads its own ``SHMJ_*``. A flag always wins
(``--no-tls`` over ``SHMJ_TLS=1``); a variable's value is checked as its flag's would be, and a
mistake names the variable."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from clients import cli_args as check
from clients.cli_args import UsageError

DEFAULT_TARGET = "127.0.0.1:50051"
TARGET, TLS, CA, CERT, KEY = "SHMJ_TARGET", "SHMJ_TLS", "SHMJ_CA", "SHMJ_CERT", "SHMJ_KEY"
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
# The PEM flags and their variables: (attribute of the parsed flags, variable).
_PEM_FILES = (("ca", CA), ("cert", CERT), ("key", KEY))


def tls_value(text: str) -> bool:
    word = text.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE or not word:
        return False
    raise UsageError(f"{TLS} must be 1 or 0 (true or false), got {text!r}")


def apply_environment(args: argparse.Namespace, environ: Mapping[str, str]) -> None:
    """Fill the connection flags left out from the environment, then from the defaults. A command
    without connection flags (``profiles check``'s own) is left alone."""
    if not hasattr(args, "target"):
        return
    if args.target is None:
        try:
            args.target = check.target(environ.get(TARGET) or DEFAULT_TARGET)
        except check.Invalid as error:
            raise UsageError(f"{TARGET}: {error}") from None
    if args.tls is None:
        args.tls = tls_value(environ.get(TLS, ""))
    for attribute, variable in _PEM_FILES:
        if getattr(args, attribute) is None and environ.get(variable):
            try:
                setattr(args, attribute, check.pem_file(environ[variable]))
            except check.Invalid as error:
                raise UsageError(f"{variable}: {error}") from None

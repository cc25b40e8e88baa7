"""How `shmj` ends when a call fails: one line a user can act on, and the exit status.

A mistake in what the user asked for is exit 2 whoever finds it, the CLI or the server
(``INVALID_ARGUMENT``, an unknown profile's ``NOT_FOUND``); any other failure is exit 1. gRPC's
own words for a failed connection (``failed to connect to all addresses; last error: ...
WRONG_VERSION_NUMBER ...: OK``) become what went wrong and which flag to change.
"""

from __future__ import annotations

import re

import grpc

from rules_core.vocabulary import STATUS_WORDS

USER_MISTAKES = frozenset({grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND, grpc.StatusCode.OUT_OF_RANGE})

# What to do when no server answers at the target, in every command's words.
START_OR_NAME_THE_SERVER = "start the server (make run), or name it with --target or SHMJ_TARGET"

# What a failed connection's reason means here: (reason, with --tls or without or either (None),
# what to say). OpenSSL's reasons for TLS; the system's for a port nothing listens on.
_CONNECTION_FAILURES = (
    (
        "Connection refused",
        None,
        "{target} refuses the connection (Connection refused): " + START_OR_NAME_THE_SERVER,
    ),
    ("WRONG_VERSION_NUMBER", True, "{target} does not speak TLS (WRONG_VERSION_NUMBER): leave out --tls and SHMJ_TLS"),
    (
        "CERTIFICATE_VERIFY_FAILED",
        True,
        "the certificate of {target} is not trusted (CERTIFICATE_VERIFY_FAILED{why}): name its CA with --ca or SHMJ_CA",
    ),
    ("Socket closed", False, "{target} closed the connection at once: if it serves TLS, add --tls or SHMJ_TLS=1"),
)


def status_said(code: grpc.StatusCode) -> str:
    """``invalid request 请求有误 (INVALID_ARGUMENT)``: what the status means in English and
    Chinese (`rules_core.vocabulary.STATUS_WORDS`), its code in parentheses for support."""
    return status_name_said(code.name)


def status_name_said(name: str) -> str:
    """`status_said` for a code given by its name (``UNAVAILABLE``); a name that is no status
    (the load generator's ``UNFINISHED``) as it is."""
    words = STATUS_WORDS.get(name)
    return f"{words.en} {words.zh} ({name})" if words else name


def exit_status(code: grpc.StatusCode) -> int:
    return 2 if code in USER_MISTAKES else 1


def explain(code: grpc.StatusCode, message: str, target: str, tls: bool) -> str:
    """The text after ``shmj: <status_said>: `` for a failed call's status message; ``target`` is how the
    server is named in it (its address, or "the server" where the line names it already)."""
    if code == grpc.StatusCode.UNAVAILABLE:
        for reason, with_tls, said in _CONNECTION_FAILURES:
            if reason in message and with_tls in (None, tls):
                why = re.search(rf"{reason}: ([^:]+)", message)
                return said.format(target=target, why=f": {why.group(1)}" if why else "")
    # gRPC's core ends a connection error with the status of its last attempt, ": OK"
    return message.removesuffix(": OK").strip() or "the server gave no message"

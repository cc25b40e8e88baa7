"""Each client address's share of the calls waiting for their request.

The body deadline (`server.body_deadline`) ends a call whose request has not arrived in time,
not the client that sent it: one that reopens each call as it is ended keeps the worker's
calls at once full. So the waits for a message (a unary call's request, a SettleStream's next
message) are counted per client address, the host of ``context.peer()`` without its port, and
an address may have at most `SHARE` of them at once: a call arriving while its address has its
share waiting is refused at once, RESOURCE_EXHAUSTED, TOO_MANY_WAITING_CALLS, before its body
is read; a stream about to wait past the share is ended the same way after its answers.

A well-behaved client's requests are whole microseconds after their headers, so its count
stays near 0. The share is a connection's (`server.worker.streams_per_connection`, 18 with
the defaults): one connection cannot trip it, and every other address keeps the rest of the
worker. Refusals are counted (``shmj_waiting_calls_refused_total``) and logged at most once per
`NOTE_EVERY_S`, with how many since the last line, never a line each.
"""

from __future__ import annotations

import time

import structlog

from server import errors, metrics

log = structlog.get_logger("shmj.server")

SHARE = 18  # set by the worker to its streams per connection (`server.worker`)
NOTE_EVERY_S = 10.0
WAITING: dict[str, int] = {}  # client address: its calls waiting for a message now


def peer_host(peer: str) -> str:
    """The address of gRPC's peer string without its port: ``ipv4:127.0.0.2:5123`` is
    ``127.0.0.2``, ``ipv6:[::1]:5123`` is ``::1``; any other form (``unix:...``) as it is."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv4":
        return rest.rpartition(":")[0] or rest
    if kind == "ipv6" and rest.startswith("["):
        return rest[1 : rest.find("]")]
    return peer


def has_room(host: str) -> bool:
    return WAITING.get(host, 0) < SHARE


def enter(host: str) -> None:
    WAITING[host] = WAITING.get(host, 0) + 1


def leave(host: str) -> None:
    left = WAITING[host] - 1
    if left:
        WAITING[host] = left
    else:
        del WAITING[host]


class _Refusals:
    """The refusals since the last log line, and when that was."""

    __slots__ = ("since_note", "noted_at")

    def __init__(self) -> None:
        self.since_note = 0
        self.noted_at = float("-inf")

    def count(self, host: str) -> None:
        metrics.WAITING_REFUSED.inc()
        self.since_note += 1
        now = time.monotonic()
        if now - self.noted_at >= NOTE_EVERY_S:
            log.info(
                "calls refused: too many waiting for their request",
                refused=self.since_note,
                peer_host=host,
                share=SHARE,
                every_s=NOTE_EVERY_S,
            )
            self.since_note = 0
            self.noted_at = now


REFUSALS = _Refusals()


async def refuse(context, host: str) -> None:
    """End the call RESOURCE_EXHAUSTED, TOO_MANY_WAITING_CALLS: ``host`` has its share waiting."""
    REFUSALS.count(host)
    await errors.abort(context, errors.too_many_waiting_calls(SHARE))

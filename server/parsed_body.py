"""A request message with the bytes it was parsed from, for a handler that reads them again.

SettleBatch reads its entries from the body's bytes (`convert.proto_bytes`: no attribute
read per field, docs/PERFORMANCE.md) and from the message only those entries that reader
leaves to it. The body is parsed first all the same, so a body that is not the rpc's message
is refused before the handler runs, as every rpc's is (`server.call_book.Decoder`).
"""

from __future__ import annotations

from typing import Any


class ParsedBody:
    """``message`` and ``body``; any other attribute is the message's (the call's log line and
    trace read ``requests``, ``profile`` or ``request_id`` of a request as they find it)."""

    __slots__ = ("message", "body")

    def __init__(self, message: Any, body: bytes) -> None:
        self.message = message
        self.body = body

    def __getattr__(self, name: str) -> Any:
        return getattr(self.message, name)


def keeping_body(parse: Any) -> Any:
    """A deserializer that gives what ``parse`` gives, with the bytes, as a `ParsedBody`."""

    def parse_keeping_body(body: bytes) -> ParsedBody:
        return ParsedBody(parse(body), body)

    return parse_keeping_body

"""A gzip body is read whole, every member of it, as ``gzip -d`` reads a file, within
``--max-message-bytes`` counted over what all members inflate to; bytes after the last member
are refused, not ignored (issue 32, finding 7: a two-member body was answered as its first
member, and a JSON text split across members refused as not JSON). gRPC's compressed messages
are inflated by gRPC itself, not by this code."""

from __future__ import annotations

import gzip

from server.http.app import MAX_GZIP_MEMBERS
from tests.server.error_details import http_error

GZIP = {"Content-Encoding": "gzip"}
LIMIT = 16 * 1024 * 1024  # the session server's --max-message-bytes (the default)


def malformed(message: str) -> tuple[int, dict]:
    return 400, {"code": "invalid_argument", "message": message, "reason": "MALFORMED_BODY"}


def test_a_json_text_split_across_two_members_is_read_whole(http):
    body = gzip.compress(b'{"name": ') + gzip.compress(b'"lezi"}')
    reply = http.post("GetProfile", body, **GZIP)
    assert reply.status == 200 and reply.json()["profile"]["name"] == "lezi"


def test_a_second_member_is_read_not_ignored(http):
    body = gzip.compress(b'{"name": "lezi"}') + gzip.compress(b'{"name": "classic"}')
    reply = http.post("GetProfile", body, **GZIP)
    assert http_error(reply) == malformed("the body is not JSON: Extra data (line 1, column 17)")


def test_bytes_after_the_last_member_are_refused(http):
    for junk, size in ((b"junk", "4 bytes"), (b"\0" * 1000, "1,000 bytes"), (b"\x1f", "1 byte")):
        reply = http.post("GetProfile", gzip.compress(b'{"name": "lezi"}') + junk, **GZIP)
        assert http_error(reply) == malformed(f"the gzip body has {size} after its last member that are not gzip")
    reply = http.post("GetProfile", gzip.compress(b'{"name": "lezi"}') + b"\x1f\x8bjunk", **GZIP)
    assert http_error(reply) == malformed(
        "the gzip body's member 2 is not valid gzip: Error -3 while decompressing data: unknown compression method"
    )
    reply = http.post("GetProfile", gzip.compress(b'{"name": ') + gzip.compress(b'"lezi"}')[:-4], **GZIP)
    assert http_error(reply) == malformed("the gzip body is truncated")


def test_the_size_limit_counts_what_every_member_inflates_to(http):
    half = gzip.compress(b" " * (LIMIT // 2 + 1))
    body = gzip.compress(b'{"name": "lezi"') + half + half + gzip.compress(b"}")
    reply = http.post("GetProfile", body, **GZIP)
    assert (reply.status, reply.json()["code"]) == (429, "resource_exhausted")
    assert reply.json()["message"] == f"the request is over the server's limit of {LIMIT} bytes"


def test_a_body_of_more_members_than_any_writer_makes_is_refused(http):
    empty = gzip.compress(b" ")
    reply = http.post("GetProfile", gzip.compress(b'{"name": "lezi"}') + empty * (MAX_GZIP_MEMBERS - 1), **GZIP)
    assert reply.status == 200
    reply = http.post("GetProfile", gzip.compress(b'{"name": "lezi"}') + empty * MAX_GZIP_MEMBERS, **GZIP)
    assert http_error(reply) == malformed(f"the gzip body has more than {MAX_GZIP_MEMBERS} members")

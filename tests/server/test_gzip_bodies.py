"""A gzip body is read whole, every member of it, as ``gzip -d`` reads a file, within
``--max-message-bytes`` counted over what all members inflate to; bytes after the last member
are refused, not ignored (issue 32, finding 7: a two-member body was answered as its first
member, and a JSON text split across members refused as not JSON). gRPC's compressed messages
are inflated by gRPC itself, not by this code: it refuses any but one member, never answering
the first alone."""

from __future__ import annotations

import gzip
import time

import h2.config
import h2.connection
import h2.events

import convert
from server.http.app import MAX_GZIP_MEMBERS
from tests.server.error_details import http_error
from tests.server.raw_h2 import GRPC_PATH, connect, request_headers
from tests.worked_examples import WORKED_EXAMPLES

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


def grpc_gzip_call(address: str, compressed: bytes) -> tuple[str, str, bytes]:
    """A Settle whose one message is ``compressed`` (flagged gzip): grpc-status, grpc-message
    and the answer's bytes."""
    host, port = address.rsplit(":", 1)
    sock = connect((host, int(port)))
    sock.settimeout(0.2)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    stream = conn.get_next_available_stream_id()
    conn.send_headers(stream, [*request_headers(address, GRPC_PATH), ("grpc-encoding", "gzip")])
    conn.send_data(stream, b"\x01" + len(compressed).to_bytes(4, "big") + compressed, end_stream=True)
    sock.sendall(conn.data_to_send())
    trailers, answer, deadline = {}, b"", time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            try:
                data = sock.recv(65536)
            except TimeoutError:
                continue
            if not data:
                break
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.DataReceived):
                    answer += event.data
                elif isinstance(event, (h2.events.TrailersReceived, h2.events.ResponseReceived)):
                    trailers.update((k.decode(), v.decode()) for k, v in event.headers)
                if isinstance(event, h2.events.StreamEnded):
                    deadline = 0
            sock.sendall(conn.data_to_send())
    finally:
        sock.close()
    return trailers.get("grpc-status", ""), trailers.get("grpc-message", ""), answer


def test_grpc_refuses_a_message_of_two_members_or_trailing_bytes_and_never_answers_the_first(server):
    message = convert.settle_request_message(WORKED_EXAMPLES[0][1]).SerializeToString()
    status, _, answer = grpc_gzip_call(server.address, gzip.compress(message))
    assert status == "0" and answer
    for compressed in (
        gzip.compress(message[:10]) + gzip.compress(message[10:]),
        gzip.compress(message) + gzip.compress(b"\x08\x05"),
        gzip.compress(message) + b"junk",
    ):
        assert grpc_gzip_call(server.address, compressed) == (
            "13",
            "Decompression failed due to not all input consumed",
            b"",
        )

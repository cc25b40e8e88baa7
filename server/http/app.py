"""The ASGI application: ``POST /mahjong.shanghai.v1.ScoringService/<Method>`` (Connect unary,
JSON or protobuf), ``GET /healthz`` (the process is up) and ``GET /readyz`` (503 while draining).

A body is read in chunks and refused as soon as it passes ``--max-message-bytes``, so an
oversized request never sits whole in memory. No CORS: the explorer page is served from
this origin, and other sites' pages are not meant to call the service from a browser.
"""

from __future__ import annotations

import asyncio
import json
import time
import zlib
from collections.abc import Callable

import structlog

from server import errors
from server.explorer import notation, profile_view, static_files, why
from server.explorer.bodies import MAX_BODY_BYTES, BadExplorerBody
from server.http import connect
from server.http.bodies import BodyBudget, BodyShare, OverBudget
from server.http.calls import METHODS, Answer, Calls, HttpCallContext, error_answer
from server.http.connections import CLOSED
from server.off_loop import in_json_thread
from server.service import SERVICE_NAME

log = structlog.get_logger("shmj.http")

RPC_PREFIX = f"/{SERVICE_NAME}/"


class Readiness:
    """Whether the worker takes new calls; the worker clears it when it starts draining."""

    def __init__(self) -> None:
        self.serving = True


class TooLarge(Exception):
    """A request body (or what it inflates to) over ``--max-message-bytes``."""


class ClientGone(Exception):
    """The client closed the connection before its request was whole."""


class BadBody(Exception):
    """A body that cannot be read as its headers say."""


class ConnectApp:
    def __init__(
        self,
        calls: Calls,
        readiness: Readiness,
        max_concurrent_rpcs: int = 0,
        grpc_port: int = 0,
        body_budget: BodyBudget | None = None,
    ):
        self.calls = calls
        self.bodies = body_budget or BodyBudget(4 * calls.max_message_bytes)
        self.readiness = readiness
        self.max_concurrent_rpcs = max_concurrent_rpcs
        self.grpc_port = grpc_port
        self.in_flight = 0
        self.files = static_files.load()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":  # lifespan is off; websockets are not served
            return
        try:
            with self.bodies.holding() as share:
                answer = await self._route(scope, receive, share)
        except OverBudget:
            CLOSED.labels("body_budget").inc()
            answer = error_answer(errors.too_many_bodies())
            answer.headers.append((b"connection", b"close"))  # the rest of the body is never read
        except asyncio.CancelledError:  # only the drain cancels a call (`server.http.listener`), as gRPC's
            answer = error_answer(errors.shutting_down())
        await _send(send, answer)

    async def _route(self, scope, receive, share: BodyShare) -> Answer:
        path = scope["path"]
        if path.startswith(RPC_PREFIX):
            answer = await self._rpc(scope, receive, path[len(RPC_PREFIX) :], share)
        elif path in ("/healthz", "/readyz") and scope["method"] in ("GET", "HEAD"):
            answer = self._health(path)
        elif path in static_files.REDIRECTS and scope["method"] in ("GET", "HEAD"):
            answer = Answer(
                308, "text/plain; charset=utf-8", b"", [(b"location", static_files.REDIRECTS[path].encode())]
            )
        elif path in self.files and scope["method"] in ("GET", "HEAD"):
            content_type, body = self.files[path]
            answer = Answer(200, content_type, body, list(static_files.HEADERS))
        elif path in _EXPLORER and scope["method"] == "POST":
            answer = await self._explorer(receive, share, *_EXPLORER[path])
        else:
            answer = Answer(404, "text/plain; charset=utf-8", _NOT_FOUND)
        return answer

    async def _explorer(self, receive, share: BodyShare, answer_of: Callable[[bytes], dict], max_body: int) -> Answer:
        """One of the explorer's own endpoints: its body read as every body is, up to the
        endpoint's bound, and answered in JSON in the JSON thread (a page's largest body is
        seconds of work, which the event loop, serving gRPC too, must not wait for); an answer
        over the message limit is refused."""
        try:
            body = await self._read_body({}, receive, share, min(max_body, self.calls.max_message_bytes))
            said = await in_json_thread(_json_of, answer_of, body)
        except TooLarge:
            return Answer(413, "text/plain; charset=utf-8", b"too large\n")
        except ClientGone:  # nobody reads this answer (uvicorn drops it)
            return Answer(499, "text/plain; charset=utf-8", b"client closed the connection\n")
        except BadExplorerBody as error:
            return Answer(400, "text/plain; charset=utf-8", f"{error}\n".encode())
        if len(said) > self.calls.max_message_bytes:
            failure = errors.answer_too_large(len(said), self.calls.max_message_bytes)
            return Answer(
                connect.HTTP_STATUS[failure.code], "text/plain; charset=utf-8", f"{failure.message}\n".encode()
            )
        return Answer(200, "application/json", said)

    def _health(self, path: str) -> Answer:
        if path == "/readyz" and not self.readiness.serving:
            return Answer(503, "text/plain; charset=utf-8", b"draining\n")
        return Answer(200, "text/plain; charset=utf-8", b"ok\n")

    async def _rpc(self, scope, receive, name: str, share: BodyShare) -> Answer:
        method = METHODS.get(name)
        if method is None:
            return error_answer(
                errors.unknown_method(f"{SERVICE_NAME} has no method {name!r}; it has {', '.join(METHODS)}")
            )
        if scope["method"] != "POST":
            answer = error_answer(errors.unknown_method(f"{name} is called with POST"))
            answer.status, answer.headers = 405, [(b"allow", b"POST")]
            return answer
        headers = _headers(scope)
        content_type = headers.get("content-type", "")
        if method.streaming:
            return error_answer(errors.stream_over_http(self._no_streams(name)))
        codec = connect.codec_of(content_type)
        if codec is None:
            answer = Answer(415, "text/plain; charset=utf-8", f"send {connect.ACCEPT_POST}\n".encode())
            answer.headers = [(b"accept-post", connect.ACCEPT_POST.encode())]
            return answer
        encoding = headers.get("content-encoding", "identity").lower()
        if encoding not in ("identity", "gzip"):
            return error_answer(errors.unsupported_encoding(encoding))
        try:
            timeout = connect.timeout_seconds(headers.get(connect.TIMEOUT_HEADER))
        except connect.ProtocolError as error:
            return error_answer(errors.invalid_timeout(str(error)))
        if self.max_concurrent_rpcs and self.in_flight >= self.max_concurrent_rpcs:
            return error_answer(errors.too_many_calls())
        context = HttpCallContext(_peer(scope), headers, None if timeout is None else time.monotonic() + timeout)
        self.in_flight += 1
        try:
            try:
                body = await self._read_body(headers, receive, share)
                if encoding == "gzip":
                    body = _gunzip(body, self.calls.max_message_bytes)
                    share.take(len(body))
            except BadBody as error:
                return error_answer(errors.malformed_body(str(error)))
            except ClientGone:  # nobody reads this answer (uvicorn drops it); the call is not run
                return error_answer(errors.client_closed())
            except TooLarge:
                return error_answer(errors.request_over_limit(self.calls.max_message_bytes))
            return await self.calls.run(method, codec, body, context)
        finally:
            self.in_flight -= 1

    def _no_streams(self, name: str) -> str:
        where = f"gRPC on port {self.grpc_port}" if self.grpc_port else "gRPC"
        return (
            f"{name} is a bidirectional stream, which Connect carries only over HTTP/2; this endpoint "
            f"serves unary calls over HTTP/1.1: call {name} over {where}, or send the hands to SettleBatch"
        )

    async def _read_body(self, headers: dict[str, str], receive, share: BodyShare, limit: int | None = None) -> bytes:
        limit = limit or self.calls.max_message_bytes
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise TooLarge
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise ClientGone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise TooLarge
            share.take(len(chunk))  # OverBudget past the worker's budget (`server.http.bodies`)
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def _notation(body: bytes) -> dict:
    return notation.read_notation(notation.read_body(body))


# The explorer's own endpoints: each one's answer and the most bytes its body can be.
_EXPLORER = {
    "/explorer/notation": (_notation, MAX_BODY_BYTES),
    "/explorer/why": (why.read_why, MAX_BODY_BYTES),
    "/explorer/profile-words": (profile_view.read_profile_words, profile_view.MAX_BODY_BYTES),
}


def _json_of(answer_of: Callable[[bytes], dict], body: bytes) -> bytes:
    return json.dumps(answer_of(body), ensure_ascii=False).encode()


_NOT_FOUND = (
    f"not found: POST {RPC_PREFIX}<Method> (Connect, application/json or application/proto), "
    "GET /healthz, GET /readyz, GET / (the settlement explorer)\n"
).encode()


MAX_GZIP_MEMBERS = 256  # gzip members one body may hold: each costs a fresh inflater


def _gunzip(body: bytes, limit: int) -> bytes:
    """The inflated body, every gzip member of it in turn (as gzip reads a file), never more than
    ``limit`` bytes of it in all (a small gzip can inflate to gigabytes). Bytes after the last
    member that begin no member are refused, not ignored."""
    inflated: list[bytes] = []
    size, rest = 0, body
    while True:
        if len(inflated) == MAX_GZIP_MEMBERS:
            raise BadBody(f"the gzip body has more than {MAX_GZIP_MEMBERS} members")
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            member = inflater.decompress(rest, limit - size + 1)
        except zlib.error as error:
            if inflated:
                raise BadBody(f"the gzip body's member {len(inflated) + 1} is not valid gzip: {error}") from None
            raise BadBody(f"the body is not valid gzip: {error}") from None
        size += len(member)
        if size > limit:
            raise TooLarge
        if not inflater.eof:
            raise BadBody("the gzip body is truncated")
        inflated.append(member)
        rest = inflater.unused_data
        if not rest:
            return b"".join(inflated)
        if not rest.startswith(_GZIP_MAGIC):
            trailing = f"{len(rest):,} byte{'s' if len(rest) > 1 else ''}"
            raise BadBody(f"the gzip body has {trailing} after its last member that are not gzip")


_GZIP_MAGIC = b"\x1f\x8b"


def _headers(scope) -> dict[str, str]:
    return {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}


def _peer(scope) -> str:
    """gRPC's spelling of a peer: ``ipv4:127.0.0.1:52144``, ``ipv6:[::1]:52144``."""
    client = scope.get("client")
    if not client:
        return "unknown"
    host, port = client
    return f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{host}:{port}"


async def _send(send, answer: Answer) -> None:
    headers = [(b"content-type", answer.content_type.encode()), (b"content-length", str(len(answer.body)).encode())]
    headers.extend(answer.headers)
    await send({"type": "http.response.start", "status": answer.status, "headers": headers})
    await send({"type": "http.response.body", "body": answer.body})

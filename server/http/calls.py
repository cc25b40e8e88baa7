"""One Connect call, run by the gRPC servicer itself, so both protocols give the same answers,
errors, limits and metrics: the request is decoded into the method's message, the
`ScoringService` method runs with `HttpCallContext` in place of gRPC's context, and its
answer is encoded back (the bytes Settle and SettleBatch build themselves go out as they are).
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field

import grpc
import structlog
from google.protobuf import message_factory
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from prometheus_client import Counter

import convert
from server import errors, metrics, tracing
from server.call_book import Call, Decoder, method_record, request_profile
from server.http import connect
from server.http.json_requests import BatchEntryErrors, Refused, read_request
from server.http.json_steps import dumps_in_steps
from server.observed_calls import observed
from server.off_loop import off_loop
from server.service import SERVICE_NAME
from server.service import ScoringService as _Servicer

log = structlog.get_logger("shmj.http")

CONNECT_HANDLED = Counter(
    "shmj_connect_handled_total",
    "Calls served over the Connect protocol (HTTP), by codec; also counted in grpc_server_handled_total.",
    ("grpc_method", "codec", "grpc_code"),
)

_SERVICE = svc.DESCRIPTOR.services_by_name["ScoringService"]


@dataclass(frozen=True)
class Method:
    name: str
    request_class: type
    response_class: type
    streaming: bool


def _method(descriptor) -> Method:
    request_class = message_factory.GetMessageClass(descriptor.input_type)
    return Method(
        descriptor.name,
        request_class,
        message_factory.GetMessageClass(descriptor.output_type),
        descriptor.client_streaming or descriptor.server_streaming,
    )


METHODS = {m.name: _method(m) for m in _SERVICE.methods}

NO_ENTRY_ERRORS = BatchEntryErrors()


# JSON bodies and answers of `OFF_LOOP_BYTES` or more are read and written in the worker's
# threads for large bodies (`server.off_loop`), not on the event loop: a 10,000-hand batch's JSON
# took the loop for seconds, and gRPC's health checks in the same worker waited (docs/HTTP.md).


class CallEnded(grpc.aio.AbortError):
    """The call ends with a status (raised by `abort`, as gRPC's context raises AbortError)."""

    def __init__(self, code: grpc.StatusCode, message: str, details=()):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = list(details)


class HttpCallContext:
    """The part of ``grpc.aio.ServicerContext`` that the servicer and the call wrapper (server.observed_calls) use."""

    RPC_SYSTEM = "connect_rpc"  # OpenTelemetry's rpc.system of a Connect call (server.tracing)

    def __init__(self, peer: str, headers: dict[str, str], deadline: float | None):
        self._peer = peer
        self._headers = headers
        self.deadline = deadline
        self._code: grpc.StatusCode | None = None

    def peer(self) -> str:
        return self._peer

    def invocation_metadata(self):
        return tuple(self._headers.items())

    def time_remaining(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def code(self) -> grpc.StatusCode | None:
        return self._code

    def set_code(self, code: grpc.StatusCode) -> None:
        self._code = code

    async def abort(self, code: grpc.StatusCode, details: str = "", trailing_metadata=()) -> None:
        self._code = code
        message, packed = connect.status_details(trailing_metadata)
        raise CallEnded(code, message if message is not None else details, packed)

    async def abort_with_status(self, status: grpc.Status) -> None:
        await self.abort(status.code, status.details, status.trailing_metadata)


@dataclass
class Answer:
    status: int
    content_type: str
    body: bytes
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)


def json_answer(message) -> bytes:
    """A response message as this product writes every JSON (`convert.message_dict`), on one
    line that ends with a newline (so curl's output ends one too)."""
    return json.dumps(convert.message_dict(message), ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def json_answer_in_steps(message) -> bytes:
    """`json_answer`, the same text, written in steps (`server.http.json_steps`): for large answers."""
    return dumps_in_steps(convert.message_dict(message)).encode() + b"\n"


def error_answer(failure: errors.Failure) -> Answer:
    """A failure as Connect's JSON error body, with the same details gRPC would send."""
    return ended_answer(failure.code, failure.message, failure.details())


def ended_answer(code: grpc.StatusCode, message: str, details=()) -> Answer:
    return Answer(connect.HTTP_STATUS.get(code, 500), "application/json", connect.error_body(code, message, details))


class Calls:
    """Runs unary calls against one servicer; ``max_message_bytes`` also bounds answers."""

    def __init__(self, servicer: _Servicer, max_message_bytes: int):
        self.servicer = servicer
        self.max_message_bytes = max_message_bytes
        # gRPC's decoders of protobuf bodies (`server.call_book`): the same checks and errors,
        # the servicer's batch limit among them
        self.decoders = {
            name: Decoder(method.request_class.FromString, max_batch_size=getattr(servicer, "max_batch_size", None))
            for name, method in METHODS.items()
        }

    async def run(self, method: Method, codec: str, body: bytes, context: HttpCallContext) -> Answer:
        """Decode, run and encode one call, recorded in the grpc_server_* metrics and logged
        as gRPC calls are (with ``protocol`` and ``codec``)."""
        call = Call(method_record("unary", f"/{SERVICE_NAME}/{method.name}"), context)
        with structlog.contextvars.bound_contextvars(protocol="connect", codec=codec):
            try:
                with observed(call):
                    answer = await self._answer(call, method, codec, body, context)
            except CallEnded as ended:
                answer = ended_answer(ended.code, ended.message, ended.details)
        CONNECT_HANDLED.labels(method.name, codec, metrics.code_name(context.code() or grpc.StatusCode.UNKNOWN)).inc()
        return answer

    async def _answer(self, call: Call, method: Method, codec: str, body: bytes, context: HttpCallContext) -> Answer:
        try:
            request, entry_errors = await self._decode(method, codec, body, context)
            call.request_id = getattr(request, "request_id", "")
            call.profile = request_profile(request)
            if call.span is not None:
                tracing.request_attributes(call.span, request)
            response = await self._respond(method, request, context)
            if codec == connect.JSON and isinstance(response, bytes):  # a large answer's JSON, off the loop too
                response = await off_loop(len(response), method.response_class.FromString, response)
                entry_errors.apply(response)
                return self._encoded(
                    await off_loop(response.ByteSize(), json_answer_in_steps, response), "application/json", context
                )
            return self._encode(method, codec, response, context)
        except CallEnded:
            raise
        except Exception:  # a bug must not leak a traceback: log it, answer INTERNAL (as the servicer does)
            await errors.internal_error(context, method.name)
            raise  # not reached: internal_error raises

    async def _decode(self, method: Method, codec: str, body: bytes, context: HttpCallContext):
        """The request message and its unreadable batch entries; INVALID_ARGUMENT for a body
        that is not one (whatever the parser raises: the body is the caller's, never a bug of ours)."""
        if codec == connect.PROTO:
            return await self.decoders[method.name](body, context), NO_ENTRY_ERRORS
        try:
            return await off_loop(
                len(body), read_request, method.name, method.request_class, body, self.servicer.max_batch_size
            )
        except Refused as refused:
            if refused.failure.reason in (errors.Reason.INVALID_REQUEST, errors.Reason.BATCH_TOO_LARGE):
                metrics.REJECTED.labels(method.name).inc()
            await errors.abort(context, refused.failure)

    async def _respond(self, method: Method, request, context: HttpCallContext):
        behaviour = getattr(self.servicer, method.name)
        remaining = context.time_remaining()
        if remaining is None:
            return await behaviour(request, context)
        try:
            async with asyncio.timeout(max(remaining, 0)):
                if remaining <= 0:
                    await asyncio.sleep(0)  # an expired deadline ends the call before it runs
                return await behaviour(request, context)
        except TimeoutError:
            await errors.abort(context, errors.deadline_exceeded())

    def _encode(self, method: Method, codec: str, response, context: HttpCallContext) -> Answer:
        if codec == connect.PROTO:
            body = response if isinstance(response, bytes) else response.SerializeToString()
            content_type = "application/proto"
        else:
            if isinstance(response, bytes):  # Settle and SettleBatch serialise their answers themselves
                response = method.response_class.FromString(response)
            body = json_answer(response)
            content_type = "application/json"
        return self._encoded(body, content_type, context)

    def _encoded(self, body: bytes, content_type: str, context: HttpCallContext) -> Answer:
        if len(body) > self.max_message_bytes:  # JSON is longer than the protobuf the servicer measured
            context.set_code(grpc.StatusCode.RESOURCE_EXHAUSTED)
            return error_answer(errors.answer_too_large(len(body), self.max_message_bytes))
        context.set_code(grpc.StatusCode.OK)
        return Answer(200, content_type, body)

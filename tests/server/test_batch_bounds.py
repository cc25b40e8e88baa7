"""A SettleBatch body's entries are counted before protobuf reads any: a batch of more than
``--max-batch-size`` is refused from its count alone, without a message made for any entry and
without memory growing with the body. protobuf's parse holds the interpreter throughout, so a
body of 8.3 million empty entries (16 MiB) once took a worker's event loop for 2.7 s."""

from __future__ import annotations

import asyncio
import threading
import tracemalloc
from functools import partial

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
from convert.limits import batch_extent
from server import call_book
from server.call_book import Decoder
from server.config import ServerConfig
from server.http.calls import METHODS, Calls, HttpCallContext
from server.service import ScoringService
from tests.fuzz.wire import group, int_field, len_field

LIMIT = 10_000
EMPTY_ENTRIES = 300_000  # 600,000 bytes


class Refused(Exception):
    pass


class Context:
    """What the decoder asks of gRPC's context: the abort of a call."""

    def __init__(self) -> None:
        self.status = None

    async def abort_with_status(self, status) -> None:
        self.status = status
        raise Refused


def details(status) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The ErrorInfo's metadata and the BadRequest's (field, description) pairs of a status."""
    ((_, value),) = status.trailing_metadata
    info, bad = error_details_pb2.ErrorInfo(), error_details_pb2.BadRequest()
    found = {detail.type_url.rsplit(".", 1)[-1]: detail for detail in status_pb2.Status.FromString(value).details}
    found["ErrorInfo"].Unpack(info)
    found["BadRequest"].Unpack(bad)
    return dict(info.metadata), [(v.field, v.description) for v in bad.field_violations]


@pytest.fixture
def parses(monkeypatch):
    """Every body protobuf is asked to parse as a SettleBatchRequest, by its length; and every
    entry converted from a message."""
    seen: dict[str, list] = {"parsed": [], "converted": []}
    original = convert.settle_request
    monkeypatch.setattr(convert, "settle_request", lambda m: seen["converted"].append(m) or original(m))
    return seen


def counting_decoder(seen: dict, decoder: Decoder | None = None) -> Decoder:
    """``decoder`` (SettleBatch's, as gRPC's is made), noting in ``seen`` each body it parses."""
    if decoder is None:
        decoder = Decoder(svc.SettleBatchRequest.FromString, keep_body=True, max_batch_size=LIMIT)
    parse = decoder.deserialize
    decoder.deserialize = lambda body: seen["parsed"].append(len(body)) or parse(body)
    return decoder


def test_a_batch_over_the_limit_is_refused_from_its_count_before_any_entry_is_parsed(parses):
    body = b"\x0a\x00" * EMPTY_ENTRIES
    context = Context()
    tracemalloc.start()
    try:
        with pytest.raises(Refused):
            asyncio.run(counting_decoder(parses)(body, context))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert parses == {"parsed": [], "converted": []}
    assert peak < 256 * 1024  # the body is 600 kB; one message per entry took 100 bytes each
    assert context.status.code == grpc.StatusCode.INVALID_ARGUMENT
    assert context.status.details == "batch too large; split it"
    assert details(context.status) == (
        {"count": "300000", "limit": "10000"},
        [("requests", "at most 10000 requests per call, got 300000")],
    )


def test_a_batch_at_the_limit_is_parsed_as_always(parses):
    body = b"\x0a\x00" * LIMIT
    request = asyncio.run(counting_decoder(parses)(body, Context()))
    assert parses["parsed"] == [len(body)] and len(request.requests) == LIMIT


def test_a_large_body_is_counted_in_the_workers_thread_for_bodies():
    threads = []

    def counted(body):
        threads.append(threading.current_thread().name)
        return batch_extent(body)

    original = call_book.batch_extent
    call_book.batch_extent = counted
    try:
        with pytest.raises(Refused):
            asyncio.run(counting_decoder({"parsed": []})(b"\x0a\x00" * EMPTY_ENTRIES, Context()))
    finally:
        call_book.batch_extent = original
    assert threads in (["shmj-json_0"], ["shmj-json_1"])


def test_entries_are_counted_past_the_fields_of_a_newer_client_as_protobuf_reads_them():
    entries = b"\x0a\x00" * 3
    newer = int_field(2, 7) + len_field(3, b"abc") + group(4, int_field(1, 5)) + int_field(100_000, 1)
    for body in (entries + newer + entries, newer + entries + entries):
        assert len(svc.SettleBatchRequest.FromString(body).requests) == 6
        assert batch_extent(body) == (6, None)


def test_a_body_protobuf_refuses_is_counted_to_where_it_stops_and_left_to_protobuf(parses):
    body = b"\x0a\x00" * 5 + b"\x0a\x05ab"  # the last entry runs past the body
    assert batch_extent(body) == (5, None)
    context = Context()
    with pytest.raises(Refused):
        asyncio.run(Decoder(svc.SettleBatchRequest.FromString, max_batch_size=LIMIT)(body * 4000, context))
    assert context.status.details == "the body is not a mahjong.shanghai.v1.SettleBatchRequest message"


def test_a_batch_over_the_limit_over_http_in_protobuf_is_refused_before_it_is_parsed(parses):
    calls = Calls(ScoringService(ServerConfig(max_batch_size=LIMIT)), 16 * 1024 * 1024)
    counting_decoder(parses, calls.decoders["SettleBatch"])
    answer = asyncio.run(
        calls.run(METHODS["SettleBatch"], "proto", b"\x0a\x00" * EMPTY_ENTRIES, HttpCallContext("test", {}, None))
    )
    assert answer.status == 400
    assert b"at most 10000 requests per call, got 300000" in answer.body
    assert parses == {"parsed": [], "converted": []}


def _whole_or_error(parse, body):
    """What ``parse`` makes of ``body``, or that it refused it."""
    try:
        return parse(body)
    except Exception:  # protobuf's DecodeError
        return "refused"


def test_a_batch_parsed_in_pieces_of_whole_fields_is_the_batch_parsed_whole():
    from random import Random

    from generators.random_hands import generate_requests

    entries = [convert.settle_request_message(r).SerializeToString() for r in generate_requests(300, 11)]
    newer = int_field(2, 7) + len_field(3, b"abc") + group(4, int_field(1, 5))
    body = b"".join(b"\x0a" + bytes([len(e)]) + e if len(e) < 128 else len_field(1, e) for e in entries) + newer
    random = Random(5)
    bodies = [body, newer + body]
    for _ in range(300):  # bytes flipped, cut or inserted: the pieces refuse what the whole refuses
        mutated = bytearray(body)
        at = random.randrange(len(mutated))
        choice = random.randrange(3)
        if choice == 0:
            mutated[at] ^= 1 << random.randrange(8)
        elif choice == 1:
            del mutated[at : at + random.randrange(1, 9)]
        else:
            mutated[at:at] = bytes(random.randrange(256) for _ in range(random.randrange(1, 5)))
        bodies.append(bytes(mutated))
    for piece in (64, 1000, 1 << 20):
        original = call_book.PARSE_STEP_BYTES
        call_book.PARSE_STEP_BYTES = piece
        try:
            for one in bodies:
                in_steps = _whole_or_error(partial(call_book.parsed_in_steps, svc.SettleBatchRequest, False), one)
                assert in_steps == _whole_or_error(svc.SettleBatchRequest.FromString, one)
        finally:
            call_book.PARSE_STEP_BYTES = original


def test_a_large_batch_is_parsed_off_the_loop_a_piece_at_a_time(monkeypatch):
    """16 MiB of empty winners held the event loop for 0.4 s in protobuf's one parse."""
    entry = svc.SettleBatchRequest(requests=[{"winners": [{}] * 17_000}]).requests[0]
    body = svc.SettleBatchRequest(requests=[entry] * 120).SerializeToString()  # 4 MB
    pieces, threads = [], []
    merge = svc.SettleBatchRequest.MergeFromString

    def noted(message, piece):
        pieces.append(len(piece))
        threads.append(threading.current_thread().name)
        return merge(message, piece)

    monkeypatch.setattr(svc.SettleBatchRequest, "MergeFromString", noted)
    parsed = asyncio.run(
        Decoder(svc.SettleBatchRequest.FromString, keep_body=True, max_batch_size=LIMIT)(body, Context())
    )
    assert parsed.message == svc.SettleBatchRequest.FromString(body) and parsed.body is body
    largest = call_book.PARSE_STEP_BYTES + entry.ByteSize() + 4  # a piece ends with the entry that fills it
    assert sum(pieces) == len(body) and len(pieces) >= len(body) // largest
    assert max(pieces) <= largest
    assert set(threads) <= {"shmj-json_0", "shmj-json_1"}

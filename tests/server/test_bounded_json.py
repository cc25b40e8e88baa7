"""What a JSON body costs is bounded before it is read: a SettleBatch's entries are counted
before any is read, and a list longer than a request holds is refused when its next element is
reached, the rest unread (issue 32, findings 1 and 3). Tried as a hostile client would: a
2 MB ``{"requests":[0,0,…]}`` made a million entries, each with its error, before
``--max-batch-size`` refused the batch (9.3 s, +700 MB); a 15 MiB ``{"winners":[[],[],…]}`` cost
11.7 s. The refusals name the field and its limit; the work is measured in entries read and in
memory allocated (tracemalloc), never in wall time."""

from __future__ import annotations

import asyncio
import json
import threading
import tracemalloc

import pytest

from server import errors
from server.http import json_requests
from server.http.calls import METHODS
from server.http.json_requests import Refused, read_request
from server.http.json_steps import STEP_MAX_CHARS
from server.off_loop import JSON_THREADS, OFF_LOOP_BYTES, off_loop
from tests.server.error_details import http_bad_request, http_error_info

MAX_BATCH_SIZE = 2000  # the session server's --max-batch-size (tests.server.conftest)
# The most one step of reading allocates: a step's text of the densest JSON, short lists, takes
# about 28 times its length as values.
STEP_COST = 32 * STEP_MAX_CHARS


@pytest.fixture
def entries_read(monkeypatch):
    """How many batch entries were made into messages."""
    count = [0]
    make = json_requests._READ_BY_RULES_CORE["Settle"]

    def counted(data):
        count[0] += 1
        return make(data)

    monkeypatch.setitem(json_requests._READ_BY_RULES_CORE, "Settle", counted)
    return count


def refusal(method: str, body: bytes) -> tuple[errors.Failure, int]:
    """The failure ``body`` is refused with in-process, and the most bytes allocated meanwhile."""
    tracemalloc.start()
    try:
        with pytest.raises(Refused) as refused:
            read_request(method, METHODS[method].request_class, body, MAX_BATCH_SIZE)
        return refused.value.failure, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def violations(failure: errors.Failure) -> list[tuple[str, str]]:
    return [(field, description) for field, description in failure.violations]


def batch_of(count: int, entry: bytes = b"{}") -> bytes:
    return b'{"requests":[' + b",".join([entry] * count) + b"]}"


def test_a_batch_over_the_size_limit_is_refused_before_any_entry_is_read(entries_read):
    for body, got in ((batch_of(MAX_BATCH_SIZE + 1), "2001"), (batch_of(1_000_000), "more")):
        failure, _ = refusal("SettleBatch", body)
        assert (failure.code.name, failure.reason) == ("INVALID_ARGUMENT", errors.Reason.BATCH_TOO_LARGE)
        assert violations(failure) == [("requests", f"at most {MAX_BATCH_SIZE} requests per call, got {got}")]
        assert entries_read[0] == 0
    request, _ = read_request(
        "SettleBatch", METHODS["SettleBatch"].request_class, batch_of(MAX_BATCH_SIZE), MAX_BATCH_SIZE
    )
    assert len(request.requests) == entries_read[0] == MAX_BATCH_SIZE  # at the limit, every entry is read


def test_a_2_mb_batch_of_a_million_entries_is_refused_over_http_naming_the_field_and_its_limit(http):
    reply = http.post("SettleBatch", batch_of(1_000_000, b"0"))
    assert reply.status == 400
    assert http_error_info(reply) == ("BATCH_TOO_LARGE", {"limit": str(MAX_BATCH_SIZE)})
    assert http_bad_request(reply) == [("requests", f"at most {MAX_BATCH_SIZE} requests per call, got more")]


def test_a_winners_list_longer_than_a_settle_holds_is_refused_before_its_elements_are_read(http):
    body = b'{"profile":"classic","winners":[' + b",".join([b"[]"] * 1_000_000) + b"]}"
    failure, allocated = refusal("Settle", body)
    assert violations(failure) == [("winners", "at most 4 entries, got more")]
    assert allocated < 1.5 * len(body)  # the text once (read as a million lists: over 30 times the body)
    reply = http.post("Settle", body)
    assert reply.status == 400 and http_bad_request(reply) == [("winners", "at most 4 entries, got more")]


def test_arrays_nested_62_deep_are_refused_unread_past_the_limit_of_their_list():
    nested = b"[" * 62 + b"]" * 62
    many = b'{"winners":[' + b",".join([nested] * 20_000) + b"]}"
    failure, allocated = refusal("Settle", many)
    assert violations(failure) == [("winners", "at most 4 entries, got more")]
    assert allocated < 1.5 * len(many)
    one = b'{"profile":"classic","winners":[' + b"[" * 61 + b",".join([b"[]"] * 1_400_000) + b"]" * 61 + b"]}"
    failure, allocated = refusal("Settle", one)
    assert violations(failure) == [
        ("winners[0]", f"longer than {STEP_MAX_CHARS:,} characters of JSON, more than a request holds")
    ]
    assert allocated < 1.5 * len(one) + STEP_COST  # read whole, its 1.4 million lists took over 100 MB


def test_a_batch_entry_longer_than_any_request_is_refused_unread(entries_read):
    entry = b'{"winners":[' + b",".join([b"[]"] * 1_400_000) + b"]}"
    failure, allocated = refusal("SettleBatch", b'{"requests":[{},' + entry + b"]}")
    assert violations(failure) == [
        ("requests[1]", f"longer than {STEP_MAX_CHARS:,} characters of JSON, more than a request holds")
    ]
    assert entries_read[0] == 0
    assert allocated < 1.5 * len(entry) + STEP_COST


def test_a_large_batch_of_many_short_lists_reads_one_entry_at_a_time(entries_read):
    """Each entry's lists are made when that entry is read, and freed before the next is: the
    whole batch's million lists never live at once."""
    entry = b'{"winners":[' + b",".join([b"[]"] * 500) + b"]}"
    body = batch_of(MAX_BATCH_SIZE, entry)
    tracemalloc.start()
    try:
        request, entry_errors = read_request("SettleBatch", METHODS["SettleBatch"].request_class, body, MAX_BATCH_SIZE)
        allocated = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert entries_read[0] == len(request.requests) == MAX_BATCH_SIZE
    assert {violations(failure)[0] for failure in entry_errors.by_index.values()} == {
        ("winners", "at most 4 entries, got 500")
    }
    assert allocated < 4 * len(body)  # read whole, its million lists alone took over 20 times the body


def test_a_large_body_of_more_fields_than_a_request_has_is_refused_unread():
    body = json.dumps({f"field{i}": 0 for i in range(20_000)}).encode()
    failure, _ = refusal("Settle", body)
    assert violations(failure) == [("request", "at most 64 fields, got more")]


def test_one_clients_json_does_not_wait_for_anothers_to_be_read():
    """Two large bodies read at once, each in a thread of its own: the first waits until the
    second has been read (with one JSON thread, the second waited behind the first)."""
    second_read = threading.Event()

    async def both():
        first = off_loop(OFF_LOOP_BYTES, second_read.wait, 10)
        second = off_loop(OFF_LOOP_BYTES, second_read.set)
        return await asyncio.gather(first, second)

    assert asyncio.run(both()) == [True, None]
    assert JSON_THREADS == 2

"""The explorer's endpoints bounded as the service's calls are: a body no larger than the page's
largest, nested no deeper than it, a profile's lists no longer than a profile's own bounds, the
work done off the event loop, and no answer over the message limit.

Found trying the explorer as a hostile client: one profile whose ``sankouSelfDrawShares`` held
7.8M values (15 MiB) cost 17.4 s on the event loop while a gRPC Settle to the same worker
waited; the answer was about 28 times the body (4 MiB in, 116 MB out, over a 16 MiB message
limit); arrays nested 62 deep sent to ``/explorer/why`` stalled the loop 3.2 s."""

from __future__ import annotations

import asyncio
import json
import threading

import grpc
import pytest
from mahjong.shanghai.v1 import scoring_service_pb2_grpc

import convert
from convert.json_names import camel
from rules_core.registry import BUILTIN_REGISTRY
from rules_core.validation import MAX_LENGTHS
from server.explorer import profile_view
from server.http.app import ConnectApp, Readiness
from server.http.calls import Calls
from tests.server.conftest import run_server
from tests.server.http_calls import Http
from tests.worked_examples import WORKED_EXAMPLES

JSON = {"Content-Type": "application/json"}
CLASSIC = convert.message_dict(convert.list_profiles_response(BUILTIN_REGISTRY.entries))["profiles"][0]


def largest_profile() -> dict:
    """The classic profile with each list it has at its bound: as large as a real one gets."""
    profile = dict(CLASSIC)
    for name, bound in MAX_LENGTHS.items():
        key = camel(name)
        if profile.get(key):
            profile[key] = (profile[key] * bound)[:bound]
    return profile


def largest_body() -> bytes:
    """As many of the largest profiles as the endpoint takes: the most work a body can ask for."""
    return json.dumps({"profiles": [largest_profile()] * profile_view.MAX_PROFILES}).encode()


@pytest.fixture
def http(explorer_server):
    with Http(explorer_server.http_url) as connection:
        yield connection


def test_a_profile_list_longer_than_its_bound_is_refused_before_it_is_read(http):
    profile = dict(CLASSIC, sankouSelfDrawShares=[0] * 100_000)
    reply = http.request("POST", "/explorer/profile-words", json.dumps({"profiles": [CLASSIC, profile]}).encode(), JSON)
    assert (reply.status, reply.body.decode()) == (
        400,
        "profiles[1].sankouSelfDrawShares: at most 4 entries, got 100000\n",
    )


@pytest.mark.parametrize(
    ("path", "size"),
    [("/explorer/why", 64 * 1024), ("/explorer/notation", 64 * 1024), ("/explorer/profile-words", 5 * 1024 * 1024)],
)
def test_a_body_larger_than_the_pages_largest_is_refused_unread(http, path, size):
    assert profile_view.MAX_BODY_BYTES == 5 * 1024 * 1024 and len(largest_body()) < profile_view.MAX_BODY_BYTES
    body = b'{"payments": [' + b" " * size + b"]}"
    reply = http.request("POST", path, body, JSON)
    assert (reply.status, reply.body) == (413, b"too large\n")


def test_more_values_than_the_most_profiles_hold_are_refused_before_they_are_read(http):
    """A body of 600,000 empty profiles (1.8 MB) was read whole, an object made for each, before
    its length was seen (5 MiB of them: 1.5 s of CPU)."""
    assert largest_body().count(b",") < profile_view.MAX_COMMAS
    body = b'{"profiles": [' + b",".join([b"{}"] * 600_000) + b"]}"
    reply = http.request("POST", "/explorer/profile-words", body, JSON)
    assert (reply.status, reply.body.decode()) == (
        400,
        "the body has 599,999 commas: more than 256 profiles hold (524,288)\n",
    )


def test_arrays_nested_deeper_than_a_page_sends_are_refused(http):
    body = b'{"payments": ' + b"[" * 40 + b"]" * 40 + b"}"
    reply = http.request("POST", "/explorer/why", body, JSON)
    assert (reply.status, reply.body.decode()) == (400, "the body is not JSON: nested deeper than 8 levels\n")


def test_an_answer_over_the_message_limit_is_refused(tmp_path):
    """256 empty profiles are 1,038 bytes and their words 277,774: a limit of 64 KiB refuses them."""
    body = json.dumps({"profiles": [{}] * profile_view.MAX_PROFILES}).encode()
    with run_server(tmp_path, "--max-message-bytes", "65536") as server, Http(server.http_url) as http:
        reply = http.request("POST", "/explorer/profile-words", body, JSON)
        assert http.request("POST", "/explorer/profile-words", b'{"profiles": [{}]}', JSON).status == 200
    assert reply.status == 429
    assert reply.body.decode() == (
        f"the answer is {len(json.dumps(_words(body), ensure_ascii=False).encode())} bytes,"
        " over the 65536-byte message limit\n"
    )


def _words(body: bytes) -> dict:
    return profile_view.read_profile_words(body)


def test_the_event_loop_runs_while_the_explorer_words_the_largest_body():
    """In process, by events alone: once the body is read, another task on the loop (as a gRPC
    call is) runs before the explorer's answer is sent."""
    body = largest_body()
    order: list[str] = []

    async def call():
        app = ConnectApp(Calls(None, 16 * 1024 * 1024), Readiness())
        read = asyncio.Event()
        chunks = [body[i : i + 65536] for i in range(0, len(body), 65536)]

        async def receive():
            chunk = chunks.pop(0)
            if not chunks:
                read.set()
            return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

        async def send(message):
            if message["type"] == "http.response.start":
                order.append(f"explorer answered {message['status']}")

        async def another_call():
            await read.wait()
            await asyncio.sleep(0)
            order.append("another call ran")

        scope = {"type": "http", "path": "/explorer/profile-words", "method": "POST", "headers": []}
        await asyncio.gather(app(scope, receive, send), another_call())

    # in a thread of its own: Playwright's sync API keeps an event loop running in this one once
    # any test of the package has opened the browser
    caller = threading.Thread(target=asyncio.run, args=(call(),))
    caller.start()
    caller.join()
    assert order == ["another call ran", "explorer answered 200"]


def test_a_grpc_call_is_answered_while_the_explorer_words_the_largest_body(explorer_server):
    body = largest_body()
    order: list[str] = []
    sent = threading.Event()

    def explorer():
        with Http(explorer_server.http_url) as http:
            http.connection.putrequest("POST", "/explorer/profile-words")
            http.connection.putheader("Content-Type", "application/json")
            http.connection.putheader("Content-Length", str(len(body)))
            http.connection.endheaders()
            http.connection.send(body)
            sent.set()
            status = http.connection.getresponse().status
        order.append(f"explorer answered {status}")

    thread = threading.Thread(target=explorer)
    thread.start()
    sent.wait()
    with grpc.insecure_channel(explorer_server.address) as channel:
        stub = scoring_service_pb2_grpc.ScoringServiceStub(channel)
        stub.Settle(convert.settle_request_message(WORKED_EXAMPLES[0][1]), timeout=60)
    order.append("settle answered")
    thread.join()
    assert order == ["settle answered", "explorer answered 200"]

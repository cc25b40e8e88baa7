"""Issue 21, finding 5: a large JSON body is read, and a large answer written, in steps, so the
interpreter can switch to the event loop between them (one ``json.loads`` of a 5 MB batch held
it 0.16-0.25 s); each step reads with the product's bounded reader, and whatever the steps do
not read is read whole, so the values and the refusals are exactly ``read_json``'s."""

from __future__ import annotations

import json

import pytest
from google.protobuf.json_format import MessageToJson
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
from convert.json_text import JsonTextError, read_json
from generators.random_hands import generate_requests
from server.http.json_steps import STEP_MIN_BYTES, dumps_in_steps, read_in_steps

REQUESTS = [convert.settle_request_message(r) for r in generate_requests(600, 8)]
BATCH = MessageToJson(svc.SettleBatchRequest(requests=REQUESTS), indent=None).encode()
INDENTED = MessageToJson(svc.SettleBatchRequest(requests=REQUESTS), indent=3).encode()


def _refusal(reader, text):
    with pytest.raises(JsonTextError) as error:
        reader(text)
    return str(error.value)


def test_a_large_batch_reads_as_read_json_reads_it():
    assert len(BATCH) > STEP_MIN_BYTES
    for text in (
        BATCH,
        INDENTED,
        b'\r\n {"requests" :' + BATCH[12:] + b"\t",
        b"\xef\xbb\xbf" + BATCH,
    ):
        assert read_in_steps(text) == read_json(text)


def test_a_key_given_twice_is_refused_in_the_same_words_at_the_top_and_in_an_element():
    top = b'{"requests": [], "requests": ' + BATCH[12:]
    entry = BATCH.replace(b'"dealerSeat": ', b'"dealerSeat": 0, "dealerSeat": ', 1)
    assert entry != BATCH
    assert _refusal(read_in_steps, top) == _refusal(read_json, top) == "requests: given twice"
    assert _refusal(read_in_steps, entry) == _refusal(read_json, entry) == "requests[0].dealerSeat: given twice"


def test_an_element_nested_too_deep_is_refused_in_the_same_words():
    deep = BATCH[:-2] + b"," + b"[" * 63 + b"]" * 63 + b"]}"
    shallow = BATCH[:-2] + b"," + b"[" * 62 + b"]" * 62 + b"]}"
    assert _refusal(read_in_steps, deep) == _refusal(read_json, deep) == "nested deeper than 64 levels"
    assert read_in_steps(shallow) == read_json(shallow)


def test_a_long_integer_and_text_that_is_not_json_are_refused_or_read_as_read_json_does():
    long_integer = BATCH[:-2] + b',{"dealerSeat": ' + b"9" * 5000 + b"}]}"
    assert repr(read_in_steps(long_integer)["requests"][-1]["dealerSeat"]) == "an integer of 5,000 digits"
    for broken in (BATCH[:-1], BATCH + b"x", BATCH.replace(b"[", b"[,", 1), b"[" + BATCH + b"]", b"\xff" + BATCH):
        if broken.startswith(b"[{"):
            assert read_in_steps(broken) == read_json(broken)
        else:
            assert _refusal(read_in_steps, broken) == _refusal(read_json, broken)


def test_a_large_answer_is_written_as_one_json_dumps_writes_it():
    answer = {
        "results": [{"requestId": f"r-{i}", "seatDeltas": [1.5, -0.5, 0.0, -1.0], "名": "清一色"} for i in range(500)]
    }
    answer["nested"] = {"list": list(range(100)), "x": None, "y": True}
    assert dumps_in_steps(answer) == json.dumps(answer, ensure_ascii=False, separators=(",", ":"))


def test_a_large_text_that_is_not_json_and_holds_many_values_is_refused_in_read_jsons_words():
    """Not read whole again for the words: the steps say where the fault is, as json does."""
    broken = b'{"requests":[' + b"0," * 400_000 + b"x]}"
    assert _refusal(read_in_steps, broken) == _refusal(read_json, broken) == "Expecting value (line 1, column 800014)"
    broken = b'{"requests":[' + b"0," * 400_000 + b'0] "more": 1}'
    assert (
        _refusal(read_in_steps, broken)
        == _refusal(read_json, broken)
        == "Expecting ',' delimiter (line 1, column 800017)"
    )


def test_a_batch_entry_giving_a_key_twice_costs_that_entry_only_large_or_small():
    from server.http.json_requests import read_request

    two = MessageToJson(svc.SettleBatchRequest(requests=REQUESTS[:2]), indent=None).encode()
    bodies = [text.replace(b'"dealerSeat": ', b'"dealerSeat": 0, "dealerSeat": ', 1) for text in (BATCH, two)]
    assert len(bodies[0]) > STEP_MIN_BYTES > len(bodies[1])
    for body in bodies:
        request, unread = read_request("SettleBatch", svc.SettleBatchRequest, body, 10_000)
        assert list(unread.by_index) == [0]
        failure = unread.by_index[0]
        assert failure.message == "dealerSeat: given twice"
        assert request.requests[0].ByteSize() == 0  # its id is not read from an entry refused whole
        assert request.requests[1] == REQUESTS[1]

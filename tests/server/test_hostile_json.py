"""JSON bodies no real client sends, over the HTTP face of a real server: an integer longer than
Python reads and nesting 100,000 deep are INVALID_ARGUMENT naming the field, counted as such,
never INTERNAL (issue 21, findings 3 and 7)."""

from __future__ import annotations

import json

from tests.rules_core.words import ONE_OF_TILES
from tests.server.conftest import ROOT
from tests.server.error_details import http_error
from tests.server.test_http_errors import bad_request_of
from tests.server.test_profiles_reload import metric

ONE_OF_OUTCOMES = (
    "; expected one of OUTCOME_SELF_DRAW, OUTCOME_DISCARD, OUTCOME_ROBBING_KONG, OUTCOME_EIGHT_FLOWERS,"
    " OUTCOME_EXHAUSTIVE_DRAW, OUTCOME_ABANDON"
)
DIGITS = "1" + "0" * 4999  # 5,000 digits: over Python's 4,300-digit limit for int()
HANDLED = 'grpc_server_handled_total{grpc_code="%s",grpc_method="%s",grpc_service="mahjong.shanghai.v1.ScoringService",grpc_type="unary"}'


def handled(server, code: str, method: str) -> float:
    return metric(server, HANDLED % (code, method))


def test_an_over_long_integer_in_a_settle_body_names_its_field_and_counts_invalid_argument(server, http):
    before = handled(server, "InvalidArgument", "Settle")
    body = '{"profile": "classic", "dealerSeat": N, "winners": [{"seat": -N}]}'.replace("N", DIGITS)
    reply = http.post("Settle", body.encode())
    assert reply.status == 400
    assert bad_request_of(reply) == [
        ("dealer_seat", "an integer of 5,000 digits is out of the int32 range"),
        ("winners[0].seat", "an integer of 5,000 digits is out of the int32 range"),
    ]
    assert handled(server, "InvalidArgument", "Settle") == before + 1
    assert handled(server, "Internal", "Settle") == 0


def test_an_over_long_integer_in_a_batch_is_that_entrys_error_naming_the_field(server, http):
    body = '{"requests": [{"profile": "classic", "winners": [{"seat": N}]}]}'.replace("N", DIGITS)
    reply = http.post("SettleBatch", body.encode())
    assert reply.status == 200
    ((result),) = reply.json()["results"]
    assert result["error"]["fieldViolations"] == [
        {"field": "winners[0].seat", "description": "an integer of 5,000 digits is out of the int32 range"}
    ]
    assert handled(server, "Internal", "SettleBatch") == 0


def test_a_body_nested_100000_deep_is_invalid_argument(server, http):
    for method in ("Settle", "CheckWin", "SettleBatch"):
        reply = http.post(method, b'{"profile": ' + b"[" * 100_000)
        assert http_error(reply) == (
            400,
            {
                "code": "invalid_argument",
                "message": "the body is not JSON: nested deeper than 64 levels",
                "reason": "MALFORMED_BODY",
            },
        )
        reply = http.post(method, json.dumps({"profile": "classic", "overrides": {"name": [[[[[]]]]] * 3}}).encode())
        assert reply.status == 400  # shallow nesting of the wrong kind: read as ever
        assert handled(server, "Internal", method) == 0


def test_a_settle_body_over_http_is_read_as_rules_core_and_shmj_rescore_read_it(http):
    """Found trying hand records as a hostile client, then Settle alike: protobuf's JSON parser,
    which the HTTP face read Settle bodies with, takes an enum number in a string (even in
    full-width digits) or as 5.0, which `rules_core.settle_json` and `shmj rescore` refuse:
    one request, settled over HTTP and refused in a batch file."""
    from rules_core import InvalidRequest, settle_json

    request = json.loads((ROOT / "examples" / "requests.jsonl").read_text().splitlines()[0])
    for value, fault in (
        ("1", "unknown value '1'" + ONE_OF_OUTCOMES),
        ("１", "unknown value '１'" + ONE_OF_OUTCOMES),
        (1.0, "expected a OUTCOME_* name, got 1.0"),
    ):
        request["outcome"] = value
        try:
            settle_json(request)
        except InvalidRequest as error:
            refused = [(v.field, v.description) for v in error.violations]
        assert refused == [("outcome", fault)]
        reply = http.post("Settle", json.dumps(request).encode())
        assert (reply.status, bad_request_of(reply)) == (400, refused)


def test_a_batch_entry_over_http_is_read_as_a_settle_body_is_and_costs_that_entry_only(http):
    """The same leniency in a JSON SettleBatch's entries, which protobuf's parser read: an
    enum number in a string was settled in a batch over HTTP and refused as a Settle body."""
    lines = (ROOT / "examples" / "requests.jsonl").read_text().splitlines()
    good, lenient = json.loads(lines[0]), json.loads(lines[1])
    lenient["outcome"] = "1"
    reply = http.post("SettleBatch", json.dumps({"requests": [good, lenient, good]}).encode())
    assert reply.status == 200
    first, second, third = reply.json()["results"]
    assert "error" not in first and first == third
    assert second["requestId"] == lenient["requestId"]
    assert second["error"]["fieldViolations"] == [
        {"field": "outcome", "description": "unknown value '1'" + ONE_OF_OUTCOMES}
    ]


def test_a_list_waits_body_over_http_is_read_as_rules_core_reads_it(http):
    request = json.loads((ROOT / "examples" / "list-waits-request.json").read_text())
    request["hand"]["concealed"][0] = "1"  # an enum number in a string, which protobuf's parser takes
    reply = http.post("ListWaits", json.dumps(request).encode())
    assert (reply.status, bad_request_of(reply)) == (400, [("hand.concealed[0]", "unknown value '1'" + ONE_OF_TILES)])


def test_a_batch_entry_that_gives_a_key_twice_costs_that_entry_only(http):
    lines = (ROOT / "examples" / "requests.jsonl").read_text().splitlines()
    twice = lines[1].replace('"dealerSeat": ', '"dealerSeat": 0, "dealerSeat": ', 1)
    assert twice != lines[1]
    reply = http.post("SettleBatch", f'{{"requests": [{lines[0]}, {twice}, {lines[0]}]}}'.encode())
    assert reply.status == 200
    first, second, third = reply.json()["results"]
    assert "error" not in first and first == third
    assert second["error"]["fieldViolations"] == [{"field": "dealerSeat", "description": "given twice"}]

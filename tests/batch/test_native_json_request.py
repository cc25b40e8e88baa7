"""The native JSON line reader (batch/native/json_request.c): the msgspec reader's answer where
it answers, a decline (None) for each thing it leaves to the Python readers, no crash or leak on
any bytes, and an ImportError when what it relies on has changed. (Its agreement with both
Python readers on generated requests is in test_readers_agree.py.)"""

from __future__ import annotations

import gc
import json
import os
import resource
import subprocess
import sys

import pytest
from google.protobuf.json_format import MessageToDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
import rules_core as rc
from batch import native
from batch.fast_requests import read_json_request
from batch.request_structs import READ_FIELDS
from convert.json_form import message_dict
from convert.json_read import read_settle_request
from convert.json_write import settle_request_dict
from convert.profile_digest import BUILTIN_REGISTRY
from convert.unread import JsonDefault, json_default
from generators.random_hands import generate_requests
from rules_core.requests import Dice, Hand, LiabilityRelation, Meld, MeldKind, Outcome, SettleRequest, Winner
from rules_core.tiles import Flower, Tile
from rules_core.validation import MAX_CONCEALED, MAX_REQUEST_ID_BYTES
from tests.batch.native_imports import import_error

NATIVE = native.load("json_request")
pytestmark = [pytest.mark.native, pytest.mark.skipif(NATIVE is None, reason="batch.native.json_request not built")]

LINES = [
    json.dumps(MessageToDict(convert.settle_request_message(r)), separators=(",", ":")).encode()
    for r in generate_requests(120, seed=31)
]
MELD_LINE = next(line for line in LINES if b'"melds"' in line)
# The same requests as this product writes JSON: every field printed, defaults included.
EVERY_FIELD_LINES = [
    json.dumps(message_dict(convert.settle_request_message(r)), separators=(",", ":")).encode()
    for r in generate_requests(120, seed=31)
]
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read(line: bytes | str, profile: str | None = None):
    return NATIVE.read(line, profile)


# --- what it answers ------------------------------------------------------------------------


def test_every_usual_line_is_read_as_the_msgspec_reader_reads_it():
    assert [read(line) for line in LINES] == [read_json_request(line) for line in LINES]
    assert None not in [read(line) for line in LINES]


def test_a_line_as_text_reads_as_its_bytes():
    assert [read(line.decode()) for line in LINES] == [read(line) for line in LINES]


def test_whitespace_between_any_two_tokens_reads_as_the_compact_line():
    spaced = MELD_LINE.replace(b",", b" ,\t").replace(b":", b"\r: ").replace(b"[", b"[ ").replace(b"{", b"\n{ ")
    assert read(b" \t" + spaced.replace(b"}", b" }").replace(b"]", b"\t]") + b"\r\n") == read(MELD_LINE)


def test_a_null_reads_as_the_field_absent():
    assert read(b'{"profile":null,"outcome":null,"winners":null,"dice":null,"dealerSeat":null,"overrides":null}') == (
        SettleRequest(profile="", outcome=None)
    )
    assert read(b'{"winners":[{"seat":null,"hand":null,"passedTiles":null,"replacementDraw":null}]}') == (
        SettleRequest(profile="", outcome=None, winners=(Winner(seat=0, hand=Hand(concealed=())),))
    )


def test_an_empty_object_is_the_empty_request():
    assert read(b"{}") == read_json_request(b"{}") == SettleRequest(profile="", outcome=None)


def test_each_field_lands_in_its_place():
    line = (
        b'{"requestId":"r-1","profile":"lezi","profileDigest":"abc","dealerSeat":1,"huangfanCount":2,'
        b'"discarderSeat":3,"abandoningSeat":4,"outcome":"OUTCOME_DISCARD","dice":{"first":5,"second":6},'
        b'"liabilities":[{"claimerSeat":1,"sourceSeat":2,"claims":3}],"winners":[{"seat":2,"replacementDraw":true,'
        b'"firstGoAround":false,"passedTiles":["TILE_EAST"],"hand":{"concealed":["TILE_M1","TILE_UNSPECIFIED"],'
        b'"winningTile":"TILE_M1","flowers":["FLOWER_PLUM"],"melds":[{"kind":"MELD_KIND_PUNG",'
        b'"tiles":["TILE_RED"],"fromSeat":-2147483648}]}}]}'
    )
    expected = SettleRequest(
        profile="lezi",
        outcome=Outcome.DISCARD,
        winners=(
            Winner(
                seat=2,
                hand=Hand(
                    concealed=(Tile.M1, None),
                    winning_tile=Tile.M1,
                    melds=(Meld(MeldKind.PUNG, (Tile.RED,), -(2**31)),),
                    flowers=(Flower.PLUM,),
                ),
                passed_tiles=(Tile.EAST,),
                replacement_draw=True,
            ),
        ),
        dealer_seat=1,
        dice=Dice(5, 6),
        huangfan_count=2,
        discarder_seat=3,
        liabilities=(LiabilityRelation(1, 2, 3),),
        abandoning_seat=4,
        request_id="r-1",
        profile_digest="abc",
    )
    assert read(line) == read_json_request(line) == expected


def test_a_jobs_profile_is_put_in_as_replace_would():
    """``rescore --profile``: read_line's ``request._replace(profile=...)``, done by the reader."""
    assert [read(line, "sankou") for line in LINES] == [read(line)._replace(profile="sankou") for line in LINES]
    assert [read(line, "") for line in LINES] == [NATIVE.read(line) for line in LINES]  # "": the line's own
    assert read(b'{"requestId":"' + b"x" * 65 + b'"}', "lezi") is None  # declined all the same


def test_a_profile_not_a_str_and_a_wrong_count_of_arguments_are_type_errors():
    with pytest.raises(TypeError, match="profile must be a str or None, not int"):
        NATIVE.read(MELD_LINE, 5)
    with pytest.raises(TypeError, match="takes 1 or 2 arguments, not 0"):
        NATIVE.read()
    with pytest.raises(TypeError, match="takes 1 or 2 arguments, not 3"):
        NATIVE.read(MELD_LINE, None, None)


def test_the_values_are_the_core_types():
    request = read(MELD_LINE)
    winner = request.winners[0]
    meld = winner.hand.melds[0]
    assert (type(request), type(winner), type(winner.hand), type(meld)) == (SettleRequest, Winner, Hand, Meld)
    assert type(request.outcome) is Outcome and type(meld.kind) is MeldKind and type(meld.tiles[0]) is Tile


def test_minus_zero_and_the_int32_ends_read_as_msgspec_reads_them():
    for number in (b"-0", b"2147483647", b"-2147483648"):
        line = b'{"dealerSeat":' + number + b"}"
        assert read(line) == read_json_request(line) == SettleRequest("", None, dealer_seat=int(number))


def test_a_list_at_its_bound_is_read():
    tiles = b",".join([b'"TILE_M1"'] * MAX_CONCEALED)
    line = b'{"winners":[{"hand":{"concealed":[' + tiles + b"]}}]}"
    assert read(line) == read_json_request(line) is not None


def test_a_request_id_of_the_bound_in_four_byte_characters_is_read():
    line = b'{"requestId":"' + b"x" * (MAX_REQUEST_ID_BYTES // 4) + b'"}'
    assert read(line).request_id == "x" * (MAX_REQUEST_ID_BYTES // 4)


# --- the fields it does not read, at their default ------------------------------------------


def test_a_line_with_every_field_printed_as_this_product_writes_json_is_read_as_the_bare_line():
    """``convert.json_form.message_dict`` prints every field, those this reader does not read at
    their defaults included (``"lastTile":false``, ``[]``): it reads them as absent."""
    assert len(EVERY_FIELD_LINES[0]) > len(LINES[0])
    assert [read(line) for line in EVERY_FIELD_LINES] == [read(line) for line in LINES]


def valid(request: rc.SettleRequest) -> bool:
    try:
        rc.settle(request, BUILTIN_REGISTRY)
    except rc.InvalidRequest:
        return False
    return True


def test_a_request_as_convert_json_write_writes_it_is_read_back_whole():
    """A record's derived request (``settle_request_dict``, what ``shmj replay`` prints)."""
    requests = [r for r in generate_requests(120, seed=31) if valid(r)]
    lines = [json.dumps(settle_request_dict(r)).encode() for r in requests]
    assert len(lines) == 115
    assert [read(line) for line in lines] == [read_json_request(line) for line in lines] == requests


# The fields of SettleRequest that its twin (fast_requests) reads and this reader leaves to it:
# RULES.md section 14's knock, rare enough that a line carrying it may take the twin's way.
LEFT_TO_ITS_TWIN = {"declared_seats"}
# The fields of SettleRequest itself this reader does not read (every field of the descriptor
# but those of READ_FIELDS less the above, and overrides, which it reads as null only): none
# named here.
NOT_READ = [
    field
    for field in pb.SettleRequest.DESCRIPTOR.fields
    if (field.name not in READ_FIELDS["SettleRequest"] or field.name in LEFT_TO_ITS_TWIN) and field.name != "overrides"
]
# Each JSON value tried in such a field, and the fields (by how their default stands) it is
# that default for: any other is declined.
TRIED = {
    b"null": set(JsonDefault),
    b"[]": {JsonDefault.EMPTY_LIST},
    b"[ \t]": {JsonDefault.EMPTY_LIST},
    b"{}": {JsonDefault.EMPTY_OBJECT},
    b"false": {JsonDefault.FALSE},
    b"0": {JsonDefault.ZERO, JsonDefault.ENUM_ZERO},
    b"-0": {JsonDefault.ZERO, JsonDefault.ENUM_ZERO},
    b'""': {JsonDefault.EMPTY_TEXT},
    b"[null]": set(),
    b"[0]": set(),
    b"[[]]": set(),
    b"{ }x": set(),
    b"true": set(),
    b"1": set(),
    b"0.0": set(),
    b"00": set(),
    b'"0"': set(),
    b'"x"': set(),
    b'"ZERO_NAME"': {JsonDefault.ENUM_ZERO},  # the name of the enum's zero value (a field's own)
    b'"ZERO_NAME_"': set(),
    b'"ZERO_NAM"': set(),
    b'"\\u0000"': set(),
    b"nul": set(),
    b"[": set(),
    b"": set(),
}


def test_there_is_a_field_it_does_not_read():
    assert NOT_READ


@pytest.mark.parametrize("field", NOT_READ, ids=lambda field: field.json_name)
@pytest.mark.parametrize("value", TRIED, ids=lambda value: value.decode())
def test_a_field_it_does_not_read_is_taken_at_its_default_only(field, value):
    line = b'{"profile":"lezi","' + field.json_name.encode() + b'":' + value + b',"dealerSeat":1}'
    at_default = json_default(field) in TRIED[value]
    assert read(line) == (SettleRequest("lezi", None, dealer_seat=1) if at_default else None)
    if at_default or field.name not in LEFT_TO_ITS_TWIN:
        assert read_json_request(line) == read(line)  # its twin the same
    else:  # its twin reads the field, or leaves a value it cannot read to the bounded reader
        twin = read_json_request(line)
        assert twin is None or twin == read_settle_request(json.loads(line))


@pytest.mark.parametrize("field", NOT_READ, ids=lambda field: field.json_name)
def test_a_field_it_does_not_read_given_twice_or_by_its_proto_name_is_declined(field):
    default = b"null"
    twice = b'{"' + field.json_name.encode() + b'":' + default + b',"' + field.json_name.encode() + b'":' + default
    assert read(twice + b"}") is None
    assert read(b'{"' + field.name.encode() + b'":' + default + b"}") is None


# Run in a fresh interpreter: the module loaded with a field of each kind of default added to
# SettleRequest's fields not read (no field of the .proto is of every kind), then each line read.
_EVERY_KIND = """
import json, sys
import convert.unread as unread
descriptors = unread.unread_json_fields
def with_every_kind(message, read):
    found = descriptors(message, read)
    if message.endswith(".SettleRequest"):
        found += tuple((f"k{kind}", kind, "ZERO_NAME" if kind == unread.JsonDefault.ENUM_ZERO else "") for kind in unread.JsonDefault)
    return found
unread.unread_json_fields = with_every_kind
from batch import native
module = native.load("json_request")
print(json.dumps([module.read(line.encode()) is not None for line in json.loads(sys.stdin.read())]))
"""


def test_a_field_of_each_kind_it_does_not_read_is_taken_at_its_default_only():
    cases = [(kind, value) for kind in JsonDefault for value in TRIED]
    lines = [b'{"k%d":%s}' % (kind, value) for kind, value in cases]
    out = subprocess.run(
        [sys.executable, "-c", _EVERY_KIND],
        input=json.dumps([line.decode() for line in lines]),
        capture_output=True,
        text=True,
        check=True,
        env=os.environ,
        timeout=120,
    )
    assert dict(zip(cases, json.loads(out.stdout), strict=True)) == {case: case[0] in TRIED[case[1]] for case in cases}


# --- what it declines -----------------------------------------------------------------------

DECLINED = {
    "a backslash in a string": b'{"requestId":"a\\u0062"}',
    "an escaped quote": b'{"requestId":"a\\"b"}',
    "a byte over 0x7f in a string": '{"requestId":"牌"}'.encode(),
    "a control character in a string": b'{"requestId":"a\tb"}',
    "invalid UTF-8": b'{"requestId":"\xff"}',
    "a number with a fraction": b'{"dealerSeat":1.0}',
    "a number with an exponent": b'{"dealerSeat":1e0}',
    "a number with a capital exponent": b'{"dealerSeat":1E0}',
    "a leading zero": b'{"dealerSeat":01}',
    "a minus alone": b'{"dealerSeat":-}',
    "over int32": b'{"dealerSeat":2147483648}',
    "under int32": b'{"dealerSeat":-2147483649}',
    "eleven digits": b'{"dealerSeat":00000000001}',
    "a number in a string": b'{"dealerSeat":"1"}',
    "a bool for a number": b'{"dealerSeat":true}',
    "a number for a bool": b'{"winners":[{"replacementDraw":1}]}',
    "a key twice": b'{"dealerSeat":1,"dealerSeat":1}',
    "a key twice, the first null": b'{"dice":null,"dice":{"first":1}}',
    "a key twice in a nested object": b'{"dice":{"first":1,"first":2}}',
    "an unknown key": b'{"colour":1}',
    "a snake_case key": b'{"dealer_seat":1}',
    "an enum by number": b'{"outcome":2}',
    "an unknown enum name": b'{"outcome":"OUTCOME_NONE"}',
    "a name of another enum": b'{"outcome":"TILE_M1"}',
    "a null among tiles": b'{"winners":[{"hand":{"concealed":[null]}}]}',
    "a null among winners": b'{"winners":[null]}',
    "a list over its bound": b'{"winners":[{"hand":{"concealed":[' + b",".join([b'"TILE_M1"'] * 15) + b"]}}]}",
    "overrides": b'{"overrides":{}}',
    "an object for a list": b'{"winners":{}}',
    "a trailing comma in a list": b'{"winners":[{},]}',
    "a trailing comma in an object": b'{"dealerSeat":1,}',
    "a missing comma": b'{"dealerSeat":1 "profile":"x"}',
    "anything after the object": b'{"dealerSeat":1} x',
    "a second object": b"{}{}",
    "an array": b"[]",
    "null": b"null",
    "an empty line": b"",
    "a blank line": b" \r\n",
    "a truncated line": b'{"dealerSeat":1',
    "a truncated string": b'{"requestId":"abc',
    "a byte order mark": b"\xef\xbb\xbf{}",  # read_line takes it off before any reader
    "a request id perhaps over its bound": b'{"requestId":"' + b"x" * (MAX_REQUEST_ID_BYTES // 4 + 1) + b'"}',
    "a form feed as whitespace": b"{\f}",
}


@pytest.mark.parametrize("line", DECLINED.values(), ids=DECLINED.keys())
def test_it_declines(line):
    assert read(line) is None


def test_a_string_of_each_length_reads_whole():
    """Strings are scanned eight bytes a step where eight are left: every length, every tail."""
    for length in range(41):
        line = b'{"requestId":"' + bytes(ord("a") + i % 26 for i in range(length)) + b'"}'
        assert read(line).request_id == line[14:-2].decode()


@pytest.mark.parametrize("byte", [b"\\", b"\x00", b"\x1f", b"\x7f\x80", b"\xff"], ids=repr)
def test_a_declined_byte_is_found_at_every_place_in_a_string(byte):
    """... and the byte that ends a run is found wherever it is in a step, or after the last."""
    for length in range(41):
        for place in range(length):
            text = b"x" * place + byte + b"x" * (length - place)
            assert read(b'{"requestId":"' + text + b'"}') is None, (length, place)


def test_a_quote_ends_a_string_wherever_it_is_in_a_step():
    for place in range(20):
        assert read(b'{"profile":"' + b"p" * place + b'","requestId":"' + b"r" * 7 + b'"}') == (
            SettleRequest(profile="p" * place, outcome=None, request_id="rrrrrrr")
        )


def test_it_declines_a_str_not_all_ascii_and_whatever_is_not_a_line():
    assert read('{"requestId":"é"}') is None
    assert read(bytearray(b"{}")) is None
    assert read(memoryview(b"{}")) is None
    assert read(None) is None
    assert read(1) is None


def test_read_line_takes_the_native_reading_first_and_msgspecs_where_it_declines(monkeypatch):
    """The order of batch.records.read_line: the byte order mark off, then the native reader,
    then msgspec's for what it declines (a backslash here), then the bounded reader's."""
    from batch import records

    seen = []

    def spy(line, profile):
        seen.append((line, profile))
        return NATIVE.read(line, profile)

    monkeypatch.setattr(records, "_read_native", spy)
    assert records.read_line(1, b"\xef\xbb\xbf" + MELD_LINE, None, {}) == (read(MELD_LINE), None)
    assert records.read_line(2, MELD_LINE, "lezi", {}) == (read(MELD_LINE)._replace(profile="lezi"), None)
    escaped = b'{"requestId":"a\\u0062"}'
    assert records.read_line(3, escaped, "lezi", {}) == (read_json_request(escaped)._replace(profile="lezi"), None)
    assert read_json_request(escaped).request_id == "ab"
    assert seen == [(MELD_LINE, None), (MELD_LINE, "lezi"), (escaped, "lezi")]


# --- any bytes ------------------------------------------------------------------------------


def agrees(line: bytes) -> None:
    """Its answer is msgspec's where it answers; anything may be declined."""
    answer = read(line)
    assert answer is None or answer == read_json_request(line)


@SETTINGS
@given(st.sampled_from(LINES), st.data())
def test_a_truncated_line_is_declined(line, data):
    cut = data.draw(st.integers(0, len(line) - 1))
    assert read(line[:cut]) is None


@SETTINGS
@given(st.sampled_from(LINES), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=4))
def test_a_line_with_bytes_changed_is_read_as_msgspec_reads_it_or_declined(line, changes):
    mutated = bytearray(line)
    for position, byte in changes:
        mutated[position % len(mutated)] = byte
    agrees(bytes(mutated))


@SETTINGS
@given(st.sampled_from(LINES), st.integers(0, 10**6), st.binary(min_size=1, max_size=8))
def test_a_line_with_bytes_put_in_is_read_as_msgspec_reads_it_or_declined(line, position, inserted):
    position %= len(line)
    agrees(line[:position] + inserted + line[position:])


@SETTINGS
@given(st.binary(max_size=200))
def test_random_bytes_are_read_as_msgspec_reads_them_or_declined(line):
    agrees(line)
    agrees(b"{" + line)


@SETTINGS
@given(st.lists(st.sampled_from([b"{", b"}", b"[", b"]", b",", b":", b'"', b"null", b"1", b'"winners"', b" "])))
def test_any_run_of_tokens_is_read_as_msgspec_reads_it_or_declined(tokens):
    agrees(b"".join(tokens))


# --- what it holds to -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            "import rules_core.requests as r, typing\n"
            "r.Dice = typing.NamedTuple('Dice', [('second', int), ('first', int)])",
            "rules_core.requests.Dice._fields is ('second', 'first'), not the 2 fields this module builds",
        ),
        (
            "import rules_core.requests as r\nr.Hand = dict",
            "rules_core.requests.Hand is not a tuple class",
        ),
        (
            "import rules_core.validation as v\nv.MAX_PASSED = 10**6",
            "rules_core.validation.MAX_PASSED is not a bound from 0 to 256",
        ),
        (
            "import batch.request_structs as s\ns.TILES = {f'T{i}': None for i in range(65)}",
            "batch.request_structs.TILES is not a dict of at most 64 names",
        ),
        (
            "import batch.request_structs as s\ns.OUTCOMES = {1: None}",
            "batch.request_structs.OUTCOMES has a key 1 that is not an ASCII name",
        ),
        (
            "import convert.unread as u\nu.unread_json_fields = lambda message, read: [('k', 0, '')]",
            "convert.unread.unread_json_fields(mahjong.shanghai.v1.Meld) is [('k', 0, '')], not a tuple of at "
            "most 32 fields",
        ),
        (
            "import convert.unread as u\nu.unread_json_fields = lambda message, read: (('k', 7, ''),)",
            "convert.unread.unread_json_fields(mahjong.shanghai.v1.Meld) has an entry ('k', 7, ''), not (an "
            "ASCII JSON name, a kind from 0 to 6, an ASCII zero name)",
        ),
        (
            "import convert.unread as u\nu.unread_json_fields = lambda message, read: (('k', 0, 'É'),)",
            "convert.unread.unread_json_fields(mahjong.shanghai.v1.Meld) has an entry ('k', 0, 'É'), not (an "
            "ASCII JSON name, a kind from 0 to 6, an ASCII zero name)",
        ),
        (
            "from google.protobuf import descriptor_pool\nfrom mahjong.shanghai.v1 import settlement_pb2\n"
            "import convert.unread as u\nreal = u.unread_json_fields\n"
            "u.unread_json_fields = lambda message, read: real(descriptor_pool.Default().FindMessageTypeByName("
            "'mahjong.shanghai.v1.Dice' if message.endswith('Meld') else message), read)",
            "mahjong.shanghai.v1.Dice has no field of JSON name ['fromSeat', 'kind', 'tiles']",
        ),
    ],
    ids=[
        "a field order changed",
        "a type not a tuple",
        "a bound over its buffer",
        "a table too big",
        "a key not a name",
        "the fields not read not a tuple",
        "a kind of default it does not know",
        "a zero name not ASCII",
        "a key read that is no field of the message",
    ],
)
def test_at_import_it_checks_what_it_relies_on(change, message):
    assert import_error("json_request", change) == message


def test_many_reads_leak_nothing():
    """Lines it answers and lines it declines at each depth, many times after a warm-up: the
    interpreter's allocated blocks do not grow (exact), nor the process's peak RSS by more than
    a few MB."""
    lines = [*LINES[:40], *(line[: len(line) // 2] for line in LINES[:20]), *DECLINED.values()]
    lines += [line.replace(b'"TILE_M', b'"TILE_X', 1) for line in LINES[:20]]

    def rounds(count: int) -> None:
        for _ in range(count):
            for line in lines:
                read(line)
                read(line, "lezi")

    rounds(50)
    gc.collect()
    blocks = sys.getallocatedblocks()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rounds(500)
    gc.collect()
    assert sys.getallocatedblocks() - blocks <= 10
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 8 * 1024  # KiB

"""The native SettleBatch entry reader (batch/native/proto_request.c): rules_core.proto_read's
answer wherever the two are given the same bytes (its value where it reads an entry, the same
None where it declines one or the body), no crash or leak on any bytes, and an ImportError when
what it relies on has changed."""

from __future__ import annotations

import gc
import resource
import sys

import pytest
from google.protobuf.json_format import ParseDict, ParseError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
from batch import native
from generators.random_hands import generate_requests
from rules_core import proto_read
from rules_core.requests import Hand, Meld, SettleRequest, Winner
from rules_core.validation import MAX_PASSED, MAX_WINNERS
from tests.batch.native_imports import import_error
from tests.batch.test_readers_agree import requests as json_requests
from tests.server.test_proto_read import ODD_TAILS, USUAL_TAILS, body

NATIVE = native.load("proto_request")
pytestmark = [pytest.mark.native, pytest.mark.skipif(NATIVE is None, reason="batch.native.proto_request not built")]
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ENTRIES = [convert.settle_request_message(r).SerializeToString() for r in generate_requests(300, seed=23)]
BODY = body(ENTRIES)
MELD_ENTRY = next(
    e for e, r in zip(ENTRIES, generate_requests(300, seed=23), strict=True) if r.winners and r.winners[0].hand.melds
)


def field(tag: int, payload: bytes) -> bytes:
    """A length-delimited field (payloads here are under 16 KiB: a length of two bytes at most)."""
    size = len(payload)
    length = bytes([size]) if size < 0x80 else bytes([size & 0x7F | 0x80, size >> 7])
    return bytes([tag]) + length + payload


def both(data: bytes):
    """The native reading, asserted equal to the Python twin's."""
    read = NATIVE.read_batch(data)
    assert read == proto_read.read_batch(data)
    return read


# --- what it answers ------------------------------------------------------------------------


def test_every_generated_request_is_read_as_the_python_reader_reads_it():
    messages = [convert.settle_request_message(r) for r in generate_requests(2000, seed=5)]
    read = both(svc.SettleBatchRequest(requests=messages).SerializeToString())
    assert read == [convert.settle_request(m) for m in messages]


def test_the_values_are_the_core_types():
    (request,) = both(body([MELD_ENTRY]))
    winner = request.winners[0]
    meld = winner.hand.melds[0]
    assert (type(request), type(winner), type(winner.hand), type(meld)) == (SettleRequest, Winner, Hand, Meld)
    assert type(request.outcome) is type(proto_read.OUTCOMES[1]) and type(meld.tiles[0]) is type(proto_read.TILES[1])


def test_an_empty_body_is_no_entries_and_an_empty_entry_the_empty_request():
    assert both(b"") == []
    assert both(b"\x0a\x00") == [SettleRequest(profile="", outcome=None)]


def test_a_winner_without_a_hand_has_the_empty_hand():
    assert both(body([b"\x4a\x02\x08\x02"])) == [
        SettleRequest(profile="", outcome=None, winners=(Winner(seat=2, hand=Hand(concealed=())),))
    ]


@pytest.mark.parametrize(("tail", "usual"), [*((t, False) for t in ODD_TAILS), *((t, True) for t in USUAL_TAILS)])
def test_each_unusual_form_is_declined_as_the_python_reader_declines_it(tail, usual):
    (read,) = both(body([ENTRIES[0] + tail]))
    assert (read is not None) == usual


@pytest.mark.parametrize(
    "entry",
    [
        b"\x20\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01",  # a varint of eleven bytes
        b"\x20\x81",  # a varint that runs past its entry (into the next one's tag)
        b"\x38\x81\x80\x80\x80\x80\x80\x80\x80\x80\x02",  # outcome 2**64 + 1: no enum number
        b"\x4a\x03\x12\x01\x10",  # a winning tile's varint past its hand
        b"\x4a\x05\x12\x03\x1a\x05\x08",  # a meld's length past its hand
        b"\x2a\x02\x18\x01",  # dice's field 3: not defined
        b"\x0a\x02\xc3\x28",  # a request id not UTF-8
        b"\x0a\x03\xed\xa0\x80",  # a request id holding a surrogate: not UTF-8
        b"\x4a\x02\x1a\x00" * (MAX_WINNERS + 1),  # one winner over the bound
        field(0x4A, field(0x1A, b"\x01" * (MAX_PASSED + 1))),  # passed tiles one over the bound
        field(0x4A, field(0x12, field(0x1A, field(0x12, b"\x01" * 31)))),  # a meld of 33 bytes
        b"\x80\x01",  # a tag of two bytes
        b"\x21" + b"\x00" * 8,  # a fixed64 field
    ],
    ids=[
        "varint eleven bytes",
        "varint past its entry",
        "enum over 64 bits",
        "winning tile past its hand",
        "meld past its hand",
        "dice field 3",
        "text not utf-8",
        "text a surrogate",
        "winners over bound",
        "passed tiles over bound",
        "meld over its bytes",
        "tag of two bytes",
        "a fixed64",
    ],
)
def test_it_declines_the_entry(entry):
    assert both(body([entry, b""])) == [None, SettleRequest(profile="", outcome=None)]


def test_a_flag_of_a_varint_over_64_bits_whose_low_bits_are_zero_is_set():
    """``value != 0`` of the Python int: bit 64 set, the low 64 clear, is True."""
    (read,) = both(body([b"\x4a\x0b\x20\x80\x80\x80\x80\x80\x80\x80\x80\x80\x02"]))
    assert read.winners[0].replacement_draw is True


def test_an_int32_is_the_low_32_bits_of_its_varint_signed():
    (read,) = both(body([b"\x20\xff\xff\xff\xff\x0f\x30\x80\x80\x80\x80\xf8\xff\xff\xff\xff\x01"]))
    assert (read.dealer_seat, read.huangfan_count) == (-1, -(2**31))


@pytest.mark.parametrize(
    "data",
    [BODY + b"\x10\x01", b"\x0a", b"\x0a\x80", b"\x0a\x05\x20", b"\x0a" + b"\xff" * 10 + b"\x01"],
    ids=["a field but entries", "a tag alone", "a length not ending", "a length past the body", "a length too long"],
)
def test_it_declines_a_body_holding_anything_but_entries(data):
    assert both(data) is None


def test_whatever_is_not_bytes_is_declined():
    assert NATIVE.read_batch(bytearray(BODY)) is None
    assert NATIVE.read_batch("\n\x00") is None


# --- any bytes ------------------------------------------------------------------------------


@SETTINGS
@given(json_requests(), st.lists(st.sampled_from([*ODD_TAILS, *USUAL_TAILS]), max_size=2))
def test_a_generated_entry_valid_or_malformed_is_read_as_the_python_reader_reads_it(data, tails):
    try:
        message = ParseDict(data, pb.SettleRequest())
    except (ParseError, ValueError, TypeError):
        return  # not a message protobuf can hold
    both(body([message.SerializeToString() + b"".join(tails), ENTRIES[1]]))


@SETTINGS
@given(st.sampled_from(ENTRIES[:40]), st.data())
def test_a_truncated_entry_or_body_is_read_as_the_python_reader_reads_it(entry, data):
    cut = data.draw(st.integers(0, len(entry)))
    both(body([entry[:cut], entry]))
    both(body([entry, entry])[: data.draw(st.integers(0, 2 * len(entry) + 4))])


@SETTINGS
@given(st.sampled_from(ENTRIES[:40]), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=4))
def test_an_entry_with_bytes_changed_is_read_as_the_python_reader_reads_it(entry, changes):
    data = bytearray(body([entry, MELD_ENTRY]))
    for position, value in changes:
        data[position % len(data)] = value
    both(bytes(data))


@SETTINGS
@given(st.sampled_from(ENTRIES[:40]), st.integers(0, 10**6), st.binary(min_size=1, max_size=12))
def test_an_entry_with_bytes_put_in_is_read_as_the_python_reader_reads_it(entry, position, inserted):
    data = body([entry])
    position %= len(data) + 1
    both(data[:position] + inserted + data[position:])


@SETTINGS
@given(st.binary(max_size=300))
def test_random_bytes_are_read_as_the_python_reader_reads_them(data):
    both(data)
    both(body([data]))


# --- what it relies on ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            "import rules_core.requests as r, typing\n"
            "r.Dice = typing.NamedTuple('Dice', [('second', int), ('first', int)])",
            "rules_core.requests.Dice._fields is ('second', 'first'), not the 2 fields this module builds",
        ),
        (
            "import rules_core.proto_read as p\np.TILES = list(p.TILES)",
            "rules_core.proto_read.TILES is not a tuple of members by number",
        ),
        (
            "import rules_core.validation as v\nv.MAX_WINNERS = 65",
            "rules_core.validation.MAX_WINNERS is not a bound from 0 to 64",
        ),
        (
            "import rules_core.proto_read as p\np.MAX_MELD_BYTES = -1",
            f"rules_core.proto_read.MAX_MELD_BYTES is not a bound from 0 to {sys.maxsize}",
        ),
    ],
    ids=["a field order changed", "a table not a tuple", "a bound over its buffer", "a bound negative"],
)
def test_at_import_it_checks_what_it_relies_on(change, message):
    assert import_error("proto_request", change) == message


def test_many_reads_leak_nothing():
    """Bodies it reads and entries it declines at each depth, many times after a warm-up: the
    interpreter's allocated blocks do not grow beyond free lists' settling (10 blocks over
    60,000 reads), nor the process's peak RSS by more than a few MB."""
    bodies = [body(ENTRIES[:20]), *(body([e[: len(e) // 2], e]) for e in ENTRIES[:20])]
    bodies += [body([e + tail]) for e in ENTRIES[:5] for tail in ODD_TAILS]
    bodies += [BODY[:-3], BODY + b"\x10\x01"]

    def rounds(count: int) -> None:
        for _ in range(count):
            for data in bodies:
                NATIVE.read_batch(data)

    rounds(50)
    gc.collect()
    blocks = sys.getallocatedblocks()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rounds(700)
    gc.collect()
    assert sys.getallocatedblocks() - blocks <= 10
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 8 * 1024  # KiB

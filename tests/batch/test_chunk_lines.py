"""A rescore chunk goes to its worker as (first line number, lines) and comes back as one block
of bytes (issue 23): the block is, line for line, rules_core.settle_json's answer or the error
record the line reader gives, and its counts are those of the records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from google.protobuf.json_format import MessageToDict

import convert
import rules_core as rc
from batch.local import settle_request
from batch.records import count_answer, count_record, new_counts, output_line, read_line
from clients import rescore_workers
from convert.json_write import settle_response_dict
from generators.random_hands import generate_requests
from rules_core.results import SettleResult

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GENERATED = generate_requests(1500, seed=2023)  # some are refused: the chunk tests hold their errors


def settled(requests) -> list[tuple[rc.SettleRequest, SettleResult]]:
    """The requests the rules settle, each with its result."""
    out = []
    for request in requests:
        try:
            out.append((request, rc.settle(request)))
        except rc.InvalidRequest:
            pass
    return out


SETTLED = settled(GENERATED)


def settle_json_line(request: rc.SettleRequest) -> bytes:
    return output_line(rc.settle_json(MessageToDict(convert.settle_request_message(request))))


def test_every_generated_answer_in_a_chunk_is_the_line_of_settle_json(monkeypatch):
    monkeypatch.setattr(rescore_workers, "settings", {"local": True, "profile": None, "overrides": {}})
    lines = [json.dumps(MessageToDict(convert.settle_request_message(r))).encode() for r, _ in SETTLED]
    block, written, _ = rescore_workers.settle_chunk((1, lines))
    assert written == len(SETTLED) > 1000
    assert block.splitlines(keepends=True) == [settle_json_line(request) for request, _ in SETTLED]


def test_counts_from_the_result_are_those_from_its_dict():
    from_results, from_dicts = new_counts(), new_counts()
    for _, result in SETTLED:
        count_answer(from_results, result)
        count_record(from_dicts, settle_response_dict(result))
    assert from_results == from_dicts
    assert from_results["settled"] == len(SETTLED)
    assert from_results["legal_wins"] > 0 and from_results["illegal_wins"] > 0


def dict_writer_block(lines: list[bytes]) -> bytes:
    """The lines as the dict writer gives them: read_line, then settle_request's record."""
    out = []
    for number, line in enumerate(lines, start=1):
        request, error = read_line(number, line, None, {})
        out.append(output_line(error if request is None else settle_request(request)))
    return b"".join(out)


@pytest.mark.parametrize("name", ["hands.jsonl", "requests.jsonl", "requests-with-errors.jsonl", "records.jsonl"])
def test_a_rescore_chunk_of_an_example_file_is_what_the_dict_writer_gives(name, monkeypatch):
    monkeypatch.setattr(rescore_workers, "settings", {"local": True, "profile": None, "overrides": {}})
    lines = (EXAMPLES / name).read_bytes().splitlines()
    block, written, _ = rescore_workers.settle_chunk((1, lines))
    assert written == len(lines)
    assert block == dict_writer_block(lines)


def test_a_rescore_chunk_of_generated_lines_is_what_the_dict_writer_gives(monkeypatch):
    monkeypatch.setattr(rescore_workers, "settings", {"local": True, "profile": None, "overrides": {}})
    lines = [json.dumps(MessageToDict(convert.settle_request_message(r))).encode() for r in GENERATED[:500]]
    lines += [b"", b"{", b'{"requestId": "x", "outcome": "OUTCOME_NOPE"}', b"\xff", None]
    block, written, counts = rescore_workers.settle_chunk((1, lines))
    assert written == len(lines) == 505
    assert block == dict_writer_block(lines)
    assert counts["settled"] + counts["rejected"] == 505 and counts["rejected"] >= 5


def test_the_cycle_collector_is_paused_while_a_chunk_is_settled_and_resumed_after(monkeypatch):
    """A chunk holds its lines' requests and answers until its block is written, none of them
    in a cycle: the collector would walk them again and again (docs/PERFORMANCE.md)."""
    import gc

    monkeypatch.setattr(rescore_workers, "settings", {"local": True, "profile": None, "overrides": {}})
    seen = []
    real = rescore_workers.settle_answer
    monkeypatch.setattr(rescore_workers, "settle_answer", lambda r, p: seen.append(gc.isenabled()) or real(r, p))
    lines = [json.dumps(MessageToDict(convert.settle_request_message(r))).encode() for r, _ in SETTLED[:3]]
    assert gc.isenabled()
    block, written, _ = rescore_workers.settle_chunk((1, lines))
    assert (seen, written, gc.isenabled()) == ([False, False, False], 3, True)


def test_a_chunk_frees_what_it_built_before_the_collector_runs_again(monkeypatch):
    """The collector resumed while a chunk's requests and answers were still held walked them
    all at its next allocation: 3.9 µs a record in 40 collections over 20,000 (docs/PERFORMANCE.md).
    They are freed first, so the chunk leaves the collector nothing to do."""
    import gc

    monkeypatch.setattr(rescore_workers, "settings", {"local": True, "profile": None, "overrides": {}})
    lines = [json.dumps(MessageToDict(convert.settle_request_message(r))).encode() for r, _ in SETTLED[:500]]
    collections = []

    def seen(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    rescore_workers.settle_chunk((1, lines))  # the free lists of tuples, lists and dicts filled, as a worker has them
    gc.collect(1)  # the youngest objects' count at zero; a full collection would empty those lists
    gc.callbacks.append(seen)
    try:
        block, written, _ = rescore_workers.settle_chunk((1, lines))
        after = gc.get_count()[0]
    finally:
        gc.callbacks.remove(seen)
    assert (written, collections) == (500, [])
    assert after < gc.get_threshold()[0]

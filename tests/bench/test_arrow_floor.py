"""`bench.arrow_floor` (docs/PERFORMANCE.md shows it): the Arrow core's parts and its floor in
Python, the floor's core values built by C alone being the very values the reader makes."""

from __future__ import annotations

import pickle

from google.protobuf.json_format import MessageToDict

import convert
from batch.arrow_columns import read_requests
from batch.arrow_schema import REQUEST, record_batch
from bench.arrow_floor import pickled_by_c
from generators.random_hands import generate_requests
from rules_core.requests import Hand, Meld, SettleRequest, Winner
from tests.bench import bench_lines


def test_the_values_built_by_c_are_the_readers_values_of_the_same_types():
    rows = [MessageToDict(convert.settle_request_message(r)) for r in generate_requests(60, seed=5)]
    requests = read_requests(record_batch(REQUEST, rows))
    built = pickle.loads(pickled_by_c(requests))
    assert built == requests
    melded = next(r for r in built if r.winners and r.winners[0].hand.melds)
    winner = melded.winners[0]
    kinds = (type(melded), type(winner), type(winner.hand), type(winner.hand.melds[0]))
    assert kinds == (SettleRequest, Winner, Hand, Meld)


def test_every_part_and_the_floor_are_printed():
    lines = bench_lines("arrow_floor", "--count", "400", "--rounds", "1", "--batch-rows", "200")
    assert [line.split("  ")[0].strip() for line in lines[:9]] == [
        "engine: settle, each result dropped",
        "settle, results kept for the batch",
        "columns to core values (read_requests)",
        "the same values built by C (unpickled)",
        "the same as plain tuples (unpickled)",
        "result columns (answers_batch)",
        "Arrow's conversion of the results",
        "the whole core (settle_arrow_batch)",
        "the Parquet read",
    ]
    assert lines[0].endswith("1.00x the engine")
    assert lines[9].startswith("a batch's fixed cost (one of a single row): ")
    assert lines[10].startswith("the core with its Parquet read ") and "the floor in Python" in lines[10]
    assert len(lines) == 11

"""bench.batch_readers, the side-by-side benchmark of SettleBatch's entry readers, measures the
readers this checkout has on the same bodies and leaves the servicer reading as it did."""

from __future__ import annotations

from bench import batch_readers
from convert.proto_bytes import read_batch
from server import service


def test_it_measures_each_reader_alone_and_the_handler_with_each():
    figures = batch_readers.measure(hands=40, runs=2)
    assert sorted(figures) == ["handler with bytes", "handler with protobuf", "read, bytes", "read, protobuf"]
    assert all(len(runs) == 2 and all(value > 0 for value in runs) for runs in figures.values())
    assert service.read_batch is read_batch


def test_both_readers_read_the_bodies_alike():
    readers = batch_readers.readers()
    for body in batch_readers.bodies(40):
        assert readers["bytes"](body) == readers["protobuf"](body)

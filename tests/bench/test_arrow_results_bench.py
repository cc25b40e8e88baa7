"""`bench.arrow_results_bench` (docs/PERFORMANCE.md shows it): the result columns written in C
against Arrow's conversion, the native path's parts, and the Arrow core with either writer."""

from __future__ import annotations

import pytest

from batch.arrow_results import NATIVE
from tests.bench import bench_lines


@pytest.mark.skipif(NATIVE is None, reason="batch/native/arrow_results.c is not built (make install)")
def test_both_writers_their_parts_and_the_core_with_each_are_printed():
    lines = bench_lines("arrow_results_bench", "--count", "400", "--passes", "1", "--core-rounds", "1")
    assert lines[0] == "400 rows in 1 batches of up to 2,000 (0 batches declined)"
    assert [line.strip().split("  ")[0] for line in lines[1:6]] == [
        "native_answers_batch",
        "python_answers_batch",
        "the C alone (result_buffers)",
        "its buffers put together, enums named",
        "C Data Interface import of such a batch",
    ]
    assert lines[6].startswith("round 1: engine ") and lines[6].endswith(" records/CPU-s (best so far)")
    assert lines[7].startswith("Arrow core, native writer: ") and lines[7].endswith("x the engine")
    assert lines[8].startswith("Arrow core, python writer: ") and lines[8].endswith("x the engine")
    assert len(lines) == 9

"""`bench.arrow_instructions`: the Arrow core's instructions per record against the engine's,
counted under valgrind, whatever the host's load."""

from __future__ import annotations

import re

from tests.bench.under_valgrind import report_lines


def test_counts_the_arrow_cores_instructions_against_the_engines():
    lines = report_lines("bench.arrow_instructions", "--records", "40", "--every-field")
    assert re.fullmatch(r"  rules_core (compiled|pure), 40 generated records, every field written", lines[0])
    assert re.fullmatch(r"  engine +[\d,]+ instructions per record", lines[1])
    found = re.fullmatch(r"  arrow +([\d,]+) instructions per record  (\d+\.\d+)x the engine", lines[2])
    assert found is not None, lines[2]
    # a record is thousands of instructions; the core settles, so it costs more than the engine
    assert int(found.group(1).replace(",", "")) > 1_000 and 1 < float(found.group(2)) < 10
    assert len(lines) == 3

"""`bench.families_instructions`: the rule families' cost against `classic`, counted in
instructions under valgrind (docs/PERFORMANCE.md), one line per profile."""

from __future__ import annotations

import re

from tests.bench.under_valgrind import report_lines


def test_counts_each_profiles_instructions_against_classic():
    lines = report_lines("bench.families_instructions", "--requests", "30")
    assert re.fullmatch(r"  rules_core (compiled|pure), 30 generated requests a profile", lines[0])
    assert re.fullmatch(r"  classic +[\d,]+ instructions per settlement", lines[1])
    for line, profile in zip(lines[2:], ("qiaoma", "qiaoma_lezi", "qinghunpeng"), strict=True):
        found = re.fullmatch(rf"  {profile} +([\d,]+) instructions per settlement  (\d+\.\d+)x classic", line)
        assert found is not None, line
        # a settlement is thousands of instructions, never more than a few times classic's
        assert int(found.group(1).replace(",", "")) > 1_000 and 0.5 < float(found.group(2)) < 3

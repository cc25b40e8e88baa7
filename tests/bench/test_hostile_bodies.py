"""`bench.hostile_bodies` (`make soak-hostile`; docs/RELIABILITY.md shows its figures), in a tiny
mode so that the tool keeps working: one case, small bodies, one request, a real 2-worker server."""

from __future__ import annotations

import json

import pytest

from bench import hostile_bodies


def test_one_small_case_is_answered_measured_and_probed(tmp_path, capsys):
    report_path = tmp_path / "soak-hostile.json"
    code = hostile_bodies.main(
        ["--cases", "json-batch-zeros", "--scale", "0.01", "--requests", "1", "--report", str(report_path)]
    )
    report = json.loads(report_path.read_text())
    (case,) = report["cases"].values()
    assert list(report["cases"]) == ["json-batch-zeros"]
    assert (case["statuses"], case["requests"]) == (["400"], 1)
    assert '"message":"batch too large; split it"' in case["answer"]
    assert case["body_bytes"] > 150_000 and case["probe_calls"] > 0 and case["probe_failures"] == 0
    assert set(case["probe_ms"]) == {"p50_ms", "p90_ms", "p99_ms", "max_ms"}
    assert case["worker_cpu_s"] >= 0 and case["cpu_ns_per_byte"] >= 0
    assert code == (0 if report["passed"] else 1)
    assert "| json-batch-zeros | 0.15 MiB |" in capsys.readouterr().err


def test_an_unknown_case_is_a_usage_error_naming_the_cases(capsys):
    with pytest.raises(SystemExit) as exited:
        hostile_bodies.main(["--cases", "json-winners,no-such-case"])
    assert exited.value.code == 2
    assert "unknown case 'no-such-case'; the cases are json-batch-zeros, json-winners," in capsys.readouterr().err

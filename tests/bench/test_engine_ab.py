"""`bench.engine_ab` runs as PERFORMANCE.md shows it: here against its own tree as the baseline."""

from __future__ import annotations

import json

from bench.engine_ab import main
from tests.server.conftest import ROOT


def test_the_engine_is_measured_against_a_baseline_tree_and_merged_into_the_file(tmp_path, capsys):
    held = tmp_path / "baseline.json"
    held.write_text(json.dumps({"batch_readers": {"kept": True}}))
    assert main(["--baseline", str(ROOT), "--runs", "2", "--count", "200", "--passes", "1", "--json", str(held)]) == 0
    written = json.loads(held.read_text())
    assert written["batch_readers"] == {"kept": True}
    engine = written["engine"]
    assert len(engine["baseline_runs"]) == len(engine["current_runs"]) == 2
    assert all(rate > 0 for rate in engine["baseline_runs"] + engine["current_runs"])
    assert engine["current_over_baseline"] == round(
        engine["current_median_per_cpu_second"] / engine["baseline_median_per_cpu_second"], 3
    )
    assert json.loads(capsys.readouterr().out) == engine

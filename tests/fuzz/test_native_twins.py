"""The targets of `make fuzz-native`'s coverage-guided runs (`tests.fuzz.native_guided`), on
their starting corpus: each native module answers as its Python twin does, or declines."""

from __future__ import annotations

import pytest

from tests.fuzz.native_twins import MODULES, TARGETS, json_seeds

pytestmark = pytest.mark.native
SEEDS = json_seeds()


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_each_native_module_answers_its_seeds_as_its_python_twin(name):
    if MODULES[name] is None:
        pytest.skip(f"batch.native.{name} is not built")
    for line in SEEDS:
        TARGETS[name](line)


def test_a_disagreement_is_an_assertion_error(monkeypatch):
    if MODULES["json_request"] is None:
        pytest.skip("batch.native.json_request is not built")
    import tests.fuzz.native_twins as twins

    monkeypatch.setattr(twins, "read_json_request", lambda line: None)
    with pytest.raises(AssertionError):
        for line in SEEDS:
            TARGETS["json_request"](line)


def test_libfuzzers_flags_reach_it_whole(monkeypatch, tmp_path):
    """run() takes libFuzzer's flags from argv[2:]: the first flag, -max_total_time, was dropped
    once, and make fuzz-native fuzzed without end."""
    import tests.fuzz.native_guided as guided

    given = []
    monkeypatch.setattr(guided, "fuzz", lambda name, corpus, argv: given.append((name, corpus, argv[2:])))
    guided.main(["native_guided", "json_answer", "--corpus", str(tmp_path), "-max_total_time=5", "-seed=1"])
    assert given == [("json_answer", tmp_path, ["-max_total_time=5", "-seed=1"])]

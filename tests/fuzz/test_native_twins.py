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

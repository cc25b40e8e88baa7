"""The engine's advice held to the independent reference (tests/rules_core/reference_advice):
what the acceptance tests of section 15 compare."""

from __future__ import annotations

import json

from rules_core import advise_json
from tests.rules_core.reference_advice import advise


def engine_answer(answer: dict) -> dict:
    """An engine answer less its version stamps (checked present), as the reference answers."""
    assert answer.pop("engineVersion") and answer.pop("profileDigest").startswith("sha256:")
    return answer


def assert_agrees(request: dict) -> None:
    expected = advise(request)
    assert engine_answer(advise_json(request)) == expected, json.dumps(request)

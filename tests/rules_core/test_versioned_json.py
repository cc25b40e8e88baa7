"""Versioned answers in the JSON entry points (API.md): the engine version and the profile
digest on every answer, and a pinned digest honoured, by settle_json, list_waits_json,
settle_record_json and the batch engine's records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules_core as rc
from batch.local import settle_request
from convert.profile_digest import profile_digest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CLASSIC = "sha256:60f281dad8e607b302c88b713d00f9123cf4c2a55bdc98b2bd0f18a8196de2ea"
SANKOU = "sha256:0a5e1873cd88e22eec9ddf104f004fb34f4b75d8cceede6fab6707c09ce8577d"


def example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text())


def test_the_engine_version_is_the_release_and_the_build():
    assert rc.ENGINE_VERSION == f"0.1.0+{rc.BUILD}"
    pyproject = (EXAMPLES.parent / "pyproject.toml").read_text()
    assert 'version = "0.1.0"' in pyproject


def test_a_settlement_names_the_engine_and_the_digest_last():
    answer = rc.settle_json(example("settle-request.json"))
    assert list(answer)[-2:] == ["engineVersion", "profileDigest"]
    assert answer["engineVersion"] == rc.ENGINE_VERSION
    assert answer["profileDigest"] == profile_digest(rc.BUILTIN_PROFILES[answer["profile"]])


def test_waits_and_records_name_the_digest():
    waits = rc.list_waits_json(example("list-waits-request.json"))
    assert (waits["engineVersion"], waits["profileDigest"]) == (rc.ENGINE_VERSION, CLASSIC)
    record = rc.settle_record_json(example("record.json"))
    assert (record["engineVersion"], record["profileDigest"]) == (rc.ENGINE_VERSION, CLASSIC)
    assert record["settlement"]["profileDigest"] == CLASSIC
    assert record["derived"]["profileDigest"] == ""


@pytest.mark.parametrize("key", ["profileDigest", "profile_digest"])
def test_a_request_pinned_to_the_digest_in_force_is_settled(key):
    request = {**example("settle-request.json"), key: CLASSIC}
    assert rc.settle_json(request)["profileDigest"] == CLASSIC


def test_a_request_pinned_to_another_digest_is_refused_naming_both():
    with pytest.raises(rc.ProfileDigestMismatch) as raised:
        rc.settle_json({**example("settle-request.json"), "profileDigest": SANKOU})
    assert (raised.value.expected, raised.value.actual) == (SANKOU, CLASSIC)
    with pytest.raises(rc.ProfileDigestMismatch):
        rc.settle_record_json({**example("record.json"), "profileDigest": SANKOU})
    with pytest.raises(rc.ProfileDigestMismatch):
        rc.list_waits_json({**example("list-waits-request.json"), "profileDigest": SANKOU})


def test_a_pinned_batch_line_under_other_rules_is_an_error_record_with_the_reason():
    request = {**example("settle-request.json"), "requestId": "h-1", "profileDigest": SANKOU}
    assert settle_request(request) == {
        "requestId": "h-1",
        "error": {
            "code": "FAILED_PRECONDITION",
            "message": f"profile_digest: the request expects {SANKOU} but the effective profile is {CLASSIC}",
            "fieldViolations": [],
            "reason": "PROFILE_DIGEST_MISMATCH",
            "metadata": {"expected": SANKOU, "actual": CLASSIC},
        },
    }

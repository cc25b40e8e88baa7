"""shmj rescore says which engine and which rules it settled under (API.md, versioned
answers): the summary names the engine version and every profile digest, and --compare
counts a record settled under other rules as a rule change, even where its values stayed."""

from __future__ import annotations

import json
from collections import Counter

import rules_core as rc
from clients.cli import main
from convert.house_profiles import read_house_profile
from convert.profile_digest import profile_digest
from tests.clients.test_rescore import summary_of
from tests.server.conftest import ROOT

EXAMPLES = ROOT / "examples"


def test_the_summary_names_the_engine_and_the_digests_settled_under(tmp_path):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text((EXAMPLES / "hands.jsonl").read_text())
    assert main(["rescore", str(source), "-o", str(out), "--local", "--no-progress"]) == 0
    summary = summary_of(out)
    answers = [json.loads(line) for line in out.read_text().splitlines()]
    profiles = Counter(a.get("settlement", a)["profile"] for a in answers if "error" not in a)
    assert summary["engine_versions"] == {rc.ENGINE_VERSION: summary["settled"]}
    assert summary["profile_digests"] == {profile_digest(rc.BUILTIN_PROFILES[name]): name for name in profiles}


def test_a_rescore_under_other_rules_is_a_rule_change_even_where_no_value_changed(tmp_path):
    source, before, after = tmp_path / "in.jsonl", tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    classic = [line for line in (EXAMPLES / "hands.jsonl").read_text().splitlines() if '"classic"' in line]
    source.write_text("\n".join(classic) + "\n")
    assert main(["rescore", str(source), "-o", str(before), "--local", "--no-progress"]) == 0
    # 荒番 multiplier 3 instead of 2: a hand without 荒番 keeps its value, under other rules
    arguments = ["--override", "huangfan_multiplier=3", "--compare", str(before), "--no-progress"]
    assert main(["rescore", str(source), "-o", str(after), "--local", *arguments]) == 0
    changes = summary_of(after)["changes"]
    entry, faults = read_house_profile({"name": "x", "base": "classic", "overrides": {"huangfanMultiplier": 3}})
    assert faults == []
    settled = sum("error" not in json.loads(line) for line in before.read_text().splitlines())
    assert changes["rules_changed"] == settled == changes["changed"] > 0
    records = [json.loads(line) for line in (tmp_path / "after.jsonl.changes.jsonl").read_text().splitlines()]
    assert {r["before"]["profileDigest"] for r in records} == {profile_digest(rc.BUILTIN_PROFILES["classic"])}
    assert {r["after"]["profileDigest"] for r in records} == {profile_digest(entry.profile)}
    assert all("rules" in r["changed"] for r in records)
    assert summary_of(after)["profile_digests"] == {profile_digest(entry.profile): "classic"}

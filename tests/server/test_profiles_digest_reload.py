"""A reload says which rule values changed: each house profile whose digest it changes is
logged with its old and new digest, and counted (shmj_profile_digest_changes_total)."""

from __future__ import annotations

from structlog.testing import capture_logs

from convert.house_profiles import read_house_profile
from convert.profile_digest import profile_digest
from server.profiles import PROFILE_DIGEST_CHANGES, HouseProfiles


def digest_of(document: dict) -> str:
    entry, faults = read_house_profile(document)
    assert faults == []
    return profile_digest(entry.profile)


def changes_counted() -> float:
    return PROFILE_DIGEST_CHANGES._value.get()


def test_a_reload_logs_and_counts_each_profile_whose_digest_changed(tmp_path):
    (tmp_path / "club-a.yaml").write_text("name: club-a\nbase: classic\noverrides:\n  ordinaryBase: 3\n")
    (tmp_path / "club-b.yaml").write_text("name: club-b\nbase: lezi\n")
    (tmp_path / "club-c.yaml").write_text("name: club-c\nbase: sankou\n")
    profiles = HouseProfiles(str(tmp_path))
    before = changes_counted()
    old_b = digest_of({"name": "club-b", "base": "lezi"})
    old_c = digest_of({"name": "club-c", "base": "sankou"})

    # club-a: a new description and the value it already had (same rules); club-b edited;
    # club-c removed; club-d added
    (tmp_path / "club-a.yaml").write_text("name: club-a\nbase: classic\ndescription: renamed room\n")
    (tmp_path / "club-b.yaml").write_text("name: club-b\nbase: lezi\noverrides:\n  laziValue: 12\n")
    (tmp_path / "club-c.yaml").unlink()
    (tmp_path / "club-d.json").write_text('{"name": "club-d", "base": "classic", "overrides": {"ordinaryBase": 4}}')
    with capture_logs() as logged:
        assert profiles.reload("SIGHUP") is True

    new_b = digest_of({"name": "club-b", "base": "lezi", "overrides": {"laziValue": 12}})
    new_d = digest_of({"name": "club-d", "base": "classic", "overrides": {"ordinaryBase": 4}})
    (line,) = [e for e in logged if e["event"] == "house profiles reloaded"]
    assert line["digest_changes"] == [
        {"profile": "club-b", "old_digest": old_b, "new_digest": new_b},
        {"profile": "club-c", "old_digest": old_c, "new_digest": ""},
        {"profile": "club-d", "old_digest": "", "new_digest": new_d},
    ]
    assert changes_counted() - before == 3


def test_a_reload_that_changes_no_rule_value_counts_nothing(tmp_path):
    (tmp_path / "club-a.yaml").write_text("name: club-a\nbase: classic\n")
    profiles = HouseProfiles(str(tmp_path))
    before = changes_counted()
    (tmp_path / "club-a.yaml").write_text("name: club-a\nbase: classic\noverrides:\n  laziValue: 20\n")
    with capture_logs() as logged:
        assert profiles.reload("SIGHUP") is True
    assert [e["digest_changes"] for e in logged if e["event"] == "house profiles reloaded"] == [[]]
    assert changes_counted() == before

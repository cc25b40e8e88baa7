"""Reading a directory of house profile files (`profile_files`): formats, file-level problems,
and the fingerprint that notices a change (an edit in place, a ConfigMap's ``..data`` swap)."""

from __future__ import annotations

import json
import os

from convert.house_profiles import Problem
from profile_files import fingerprint, load_profiles_dir, registry_of, shippable
from profile_files.load import MAX_FILE_BYTES
from rules_core.builtin_profiles import BUILTIN_PROFILES

YAML = "name: club-a\nbase: lezi\noverrides:\n  ordinaryBase: 3\n"


def test_yaml_yml_and_json_files_are_read_and_others_are_not(tmp_path):
    (tmp_path / "a.yaml").write_text(YAML)
    (tmp_path / "b.YML").write_text("name: club-b\nbase: sankou\n")
    (tmp_path / "c.json").write_text(
        json.dumps({"name": "club-c", "base": "classic", "overrides": {"ordinary_base": 9}})
    )
    (tmp_path / "notes.md").write_text("name: [not read")
    (tmp_path / ".hidden.yaml").write_text("name: [not read")
    loaded = load_profiles_dir(tmp_path)
    assert loaded.problems == ()
    assert [(e.name, e.base, e.profile.ordinary_base) for e in loaded.registry.house] == [
        ("club-a", "lezi", 3),
        ("club-b", "sankou", 1),
        ("club-c", "classic", 9),
    ]


def test_a_file_that_cannot_be_parsed_is_one_line_with_where(tmp_path):
    (tmp_path / "a.yaml").write_text("name: club-a\n  base: lezi\n")
    (tmp_path / "b.json").write_text('{"name": "club-b",\n "base": }')
    (tmp_path / "c.yaml").write_bytes(b"name: club-\xff\n")
    (tmp_path / "d.yaml").write_text("")
    (tmp_path / "e.yaml").write_text("# " + "x" * MAX_FILE_BYTES)
    (tmp_path / "f.yaml").mkdir()
    loaded = load_profiles_dir(tmp_path)
    assert loaded.registry is None
    assert [str(p).removeprefix(f"{tmp_path}/") for p in loaded.problems] == [
        "a.yaml: not valid YAML (line 2, column 7): mapping values are not allowed in this context",
        "b.json: not valid JSON (line 2, column 10): Expecting value",
        "c.yaml: not UTF-8 text (byte 11)",
        "e.yaml: larger than 262,144 bytes; a profile takes a few hundred",
        "f.yaml: not a regular file",
        "d.yaml: expected a mapping with name, base and overrides, got nothing",
    ]


def test_a_missing_directory_is_a_problem_not_an_empty_registry(tmp_path):
    assert load_profiles_dir(tmp_path / "none").problems == (Problem(str(tmp_path / "none"), "", "no such directory"),)
    (tmp_path / "file").write_text("")
    assert load_profiles_dir(tmp_path / "file").problems == (Problem(str(tmp_path / "file"), "", "not a directory"),)


def test_the_fingerprint_changes_on_an_edit_an_addition_and_a_link_swap(tmp_path):
    (tmp_path / "..v1").mkdir()
    (tmp_path / "..v1" / "a.yaml").write_text(YAML)
    (tmp_path / "..data").symlink_to("..v1")
    (tmp_path / "a.yaml").symlink_to("..data/a.yaml")
    first = fingerprint(tmp_path)
    assert fingerprint(tmp_path) == first
    (tmp_path / "notes.txt").write_text("ignored")
    assert fingerprint(tmp_path) == first
    (tmp_path / "..v2").mkdir()
    (tmp_path / "..v2" / "a.yaml").write_text(YAML)  # the same text, another file
    (tmp_path / "..tmp").symlink_to("..v2")
    os.replace(tmp_path / "..tmp", tmp_path / "..data")
    swapped = fingerprint(tmp_path)
    assert swapped != first
    (tmp_path / "b.json").write_text("{}")
    assert fingerprint(tmp_path) != swapped
    assert fingerprint(tmp_path / "none") == ("unreadable", 2)


def test_shipped_documents_make_the_same_registry_once_per_process(tmp_path):
    (tmp_path / "a.yaml").write_text(YAML)
    shipped = json.loads(json.dumps(shippable(load_profiles_dir(tmp_path))))  # as a task argument travels
    assert shipped == [[str(tmp_path / "a.yaml"), {"name": "club-a", "base": "lezi", "overrides": {"ordinaryBase": 3}}]]
    registry = registry_of(shipped)
    assert registry.get("club-a").ordinary_base == 3
    assert registry_of(json.loads(json.dumps(shipped))) is registry
    assert [e.name for e in registry_of([]).entries] == [*BUILTIN_PROFILES]

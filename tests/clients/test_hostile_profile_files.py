"""Profile files no careful operator writes (issue 21, findings 3, 4 and 8): an alias bomb, an
integer longer than Python reads, values YAML cannot build, deep nesting, links out of the
directory, devices and FIFOs. Each is one problem naming the file (and the field or line), read
within a time budget, and no problem quotes the file beyond a bounded excerpt."""

from __future__ import annotations

import os
import time

import pytest

from clients.cli import main
from profile_files import load_profiles_dir
from profile_files.load import read_documents
from profile_files.parse import MAX_INTEGER_CHARS, parse_yaml

DIGITS = "1" + "0" * 4999  # 5,000 digits: over Python's 4,300-digit limit for int()
SECRET = "ghp_0123456789abcdefSECRET"
SHADOW = "root:$6$salt$hashhashhash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n"


def alias_bomb(levels: int) -> str:
    """A profile file whose last value stands for 9^levels strings, in a few hundred bytes."""
    lines = ["name: club-bomb", "base: classic", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 9)}]")
    lines.append(f"overrides: *a{levels - 1}")
    return "\n".join(lines) + "\n"


def problems_of(directory, **options) -> list[str]:
    loaded = load_profiles_dir(directory, **options)
    assert loaded.registry is None
    return [str(problem).removeprefix(f"{directory}/") for problem in loaded.problems]


def test_an_alias_bomb_is_refused_at_its_first_alias_before_anything_is_built(tmp_path):
    text = alias_bomb(9)  # 9^9 values; reading it once took every worker ~26 s
    assert len(text) < 600
    (tmp_path / "bomb.yaml").write_text(text)
    assert problems_of(tmp_path) == [
        "bomb.yaml: a YAML alias (line 4, column 10); write the value out, profile files take no aliases"
    ]


def test_an_alias_in_a_merge_key_is_refused_too(tmp_path):
    (tmp_path / "merge.yaml").write_text("base: &b classic\nname: club-m\noverrides:\n  <<: *b\n")
    assert problems_of(tmp_path) == [
        "merge.yaml: a YAML alias (line 4, column 7); write the value out, profile files take no aliases"
    ]


def test_an_over_long_yaml_integer_names_its_field(tmp_path):
    (tmp_path / "long.yaml").write_text(f"name: club-l\nbase: classic\noverrides:\n  ordinaryBase: {DIGITS}\n")
    (tmp_path / "hex.yaml").write_text(f"name: club-h\nbase: classic\noverrides:\n  laziValue: 0x{'f' * 100_000}\n")
    (tmp_path / "sexagesimal.yaml").write_text(
        f"name: club-s\nbase: classic\noverrides:\n  huangfanMultiplier: {':'.join(['59'] * 50_000)}\n"
    )
    assert problems_of(tmp_path) == [
        "hex.yaml: overrides.lazi_value: an integer of 100,002 digits is out of the int32 range",
        "long.yaml: overrides.ordinary_base: an integer of 5,000 digits is out of the int32 range",
        "sexagesimal.yaml: overrides.huangfan_multiplier: an integer of 149,999 digits is out of the int32 range",
    ]


def test_an_integer_up_to_the_bound_is_read_as_ever():
    assert parse_yaml("a: " + "1" * MAX_INTEGER_CHARS) == ({"a": int("1" * MAX_INTEGER_CHARS)}, None)
    assert parse_yaml("a: 0x1f\nb: 1_000\nc: 1:30") == ({"a": 31, "b": 1000, "c": 90}, None)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("a: 2001-13-01\n", "not valid YAML (line 1, column 4): cannot be read as 'timestamp'"),
        ("a: !!int abc\n", "not valid YAML (line 1, column 4): cannot be read as 'int'"),
        ("a: !!float x\n", "not valid YAML (line 1, column 4): cannot be read as 'float'"),
        ("a: !!int \n", "not valid YAML (line 1, column 4): cannot be read as 'int'"),
        (
            f"a: !!python/object:{SECRET}{SECRET}\n",
            "not valid YAML (line 1, column 4): could not determine a constructor for the tag "
            "'tag:yaml.org,2002:python/object:'… (84 characters)",
        ),
        ("[" * 65 + "]" * 65, "nested deeper than 64 levels (line 1, column 65)"),
        ("[" * 100_000, "not valid YAML (line 1, column 1001): exceeded maximum nesting depth"),
    ],
    ids=["timestamp", "int", "float", "empty-int", "python-tag", "deep", "very-deep"],
)
def test_a_value_yaml_cannot_build_is_a_problem_at_its_line(tmp_path, text, problem):
    (tmp_path / "bad.yaml").write_text(text)
    assert problems_of(tmp_path) == [f"bad.yaml: {problem}"]


def test_reading_stops_when_its_time_budget_runs_out(tmp_path):
    assert parse_yaml("name: club\n", deadline=time.monotonic() - 1) == (
        None,
        "took too long to read; a profile takes a few hundred bytes",
    )
    (tmp_path / "a.yaml").write_text("name: club-a\nbase: classic\n")
    assert read_documents(tmp_path, budget_s=0)[1][0].description == "not read: the directory took over 0 s to read"


def configmap(directory, files: dict[str, str]) -> None:
    """A Kubernetes ConfigMap volume: the files under a timestamped directory, ``..data`` linked to
    it, and each key a link through ``..data``."""
    data = directory / "..2026_12_01_09_00_00.000000001"
    data.mkdir()
    for name, text in files.items():
        (data / name).write_text(text)
    (directory / "..data").symlink_to(data.name)
    for name in files:
        (directory / name).symlink_to(f"..data/{name}")


def test_links_inside_the_directory_are_read_as_a_configmap_mount_needs(tmp_path):
    configmap(
        tmp_path, {"club-a.yaml": "name: club-a\nbase: lezi\n", "club-b.json": '{"name": "club-b", "base": "classic"}'}
    )
    (tmp_path / "alias.yaml").symlink_to("club-a.yaml")  # a link to a link inside
    linked_dir = tmp_path.parent / f"{tmp_path.name}-link"
    linked_dir.symlink_to(tmp_path)  # the directory itself reached through a link
    for directory in (tmp_path, linked_dir):
        loaded = load_profiles_dir(directory)
        assert loaded.problems[0].description == "'club-a' is already defined in " + str(directory / "alias.yaml")


def test_a_link_out_of_the_directory_is_refused_and_never_read(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "shadow").write_text(SHADOW)
    (outside / "token").write_text(SECRET + "\n")
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    (profiles / "shadow.yaml").symlink_to(outside / "shadow")
    (profiles / "token.yaml").symlink_to("../outside/token")
    assert problems_of(profiles) == [
        f"shadow.yaml: a symbolic link out of the directory (to {outside}/shadow); not read without --profiles-follow-links",
        f"token.yaml: a symbolic link out of the directory (to {outside}/token); not read without --profiles-follow-links",
    ]


def test_with_the_flag_a_link_out_is_read_and_still_never_quoted(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "shadow").write_text(SHADOW)
    (outside / "token").write_text(f"name: {SECRET}\nbase: {SECRET}\n")
    (outside / "club.yaml").write_text("name: club-out\nbase: classic\n")
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    for name in ("shadow", "token", "club.yaml"):
        (profiles / (name if name.endswith(".yaml") else f"{name}.yaml")).symlink_to(outside / name)
    problems = problems_of(profiles, follow_links=True)
    assert problems == [
        "shadow.yaml: (a key of 43 characters): unknown field; a profile has name, base, description, overrides",
        "shadow.yaml: (a key of 26 characters): unknown field; a profile has name, base, description, overrides",
        "shadow.yaml: name: required: a profile name such as 'shanghai-club-a'",
        "shadow.yaml: base: required; a house profile is based on one of classic, sankou, lezi, qiaoma, qiaoma_lezi, qinghunpeng",
        "token.yaml: name: 'ghp_0123456789abcdefSECRET': lower-case letters, digits and '-' only (such as 'shanghai-club-a')",
        "token.yaml: base: unknown profile 'ghp_0123456789abcdefSECRET'; a house profile is based on one of classic, sankou, lezi, qiaoma, qiaoma_lezi, qinghunpeng",
    ]
    assert "hashhash" not in "".join(problems)


def test_a_long_value_is_shown_as_a_bounded_excerpt(tmp_path):
    (tmp_path / "club.yaml").write_text(f"name: club-x\nbase: {SECRET * 4}\n")
    assert problems_of(tmp_path) == [
        "club.yaml: base: unknown profile 'ghp_0123456789abcdefSECRETghp_01'… (104 characters); "
        "a house profile is based on one of classic, sankou, lezi, qiaoma, qiaoma_lezi, qinghunpeng"
    ]


def test_a_device_or_a_fifo_is_never_opened_for_reading(tmp_path):
    os.mkfifo(tmp_path / "fifo.yaml")  # opened for reading, a FIFO waits for a writer for ever
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    assert problems_of(tmp_path) == [
        "fifo.yaml: not a regular file",
        "zero.yaml: a symbolic link out of the directory (to /dev/zero); not read without --profiles-follow-links",
    ]
    assert problems_of(tmp_path, follow_links=True) == [
        "fifo.yaml: not a regular file",
        "zero.yaml: not a regular file",
    ]


def test_profiles_check_takes_the_flag_and_prints_no_traceback(tmp_path, capsys):
    outside = tmp_path / "outside.yaml"
    outside.write_text("name: club-out\nbase: classic\n")
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    (profiles / "club.yaml").symlink_to(outside)
    (profiles / "bomb.yaml").write_text(alias_bomb(9))
    assert main(["profiles", "check", str(profiles)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{profiles}/bomb.yaml: a YAML alias (line 4, column 10); write the value out, profile files take no aliases",
        f"{profiles}/club.yaml: a symbolic link out of the directory (to {outside}); not read without --profiles-follow-links",
    ]
    (profiles / "bomb.yaml").unlink()
    assert main(["profiles", "check", str(profiles), "--profiles-follow-links"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{profiles}: 1 house profile(s) 自定规则, all valid 全部有效",
        "  club-out  (based on 基于 classic)",
    ]

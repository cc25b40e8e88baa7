"""House profiles in `shmj`: `profiles check`, and `--profiles-dir` with `--local` for score,
profiles and rescore (local worker processes, and Dask, which gets the profiles as data)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules_core as rc
from clients.cli import main
from convert.json_write import error_record
from convert.profile_digest import profile_digest
from rules_core.registry import BUILTIN_REGISTRY
from tests.server.conftest import ROOT, run_server

BUILT_IN = list(rc.BUILTIN_PROFILES)

HANDS = ROOT / "examples" / "hands.jsonl"
CLUB_A = (
    "name: shanghai-club-a\nbase: lezi\ndescription: 勒子 room, base 3, liability replaces payments\n"
    "overrides:\n  ordinaryBase: 3\n  liabilityMode: LIABILITY_MODE_REPLACE\n"
)
CLUB_A_OVERRIDES = {"ordinaryBase": 3, "liabilityMode": "LIABILITY_MODE_REPLACE"}


@pytest.fixture
def profiles(tmp_path) -> Path:
    directory = tmp_path / "profiles"
    directory.mkdir()
    (directory / "club-a.yaml").write_text(CLUB_A)
    (directory / "tournament.json").write_text(json.dumps({"name": "tournament", "base": "classic"}))
    return directory


def as_base(record: dict) -> dict:
    """A result under the house profile, as its base would print it."""
    return dict(record, profile="lezi") if record.get("profile") == "shanghai-club-a" else record


def test_check_prints_a_summary_and_exits_0_when_every_file_is_valid(profiles, capsys):
    assert main(["profiles", "check", str(profiles)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{profiles}: 2 house profile(s) 自定规则, all valid 全部有效",
        "  shanghai-club-a  (based on 基于 lezi)  勒子 room, base 3, liability replaces payments",
        "  tournament  (based on 基于 classic)",
    ]


def test_check_names_each_file_and_field_and_exits_1(profiles, capsys):
    (profiles / "bad.yml").write_text(
        "name: club-b\nbase: lezi\noverrides:\n  fan:\n    - {pattern: PATTERN_CONCEALED, value: 9}\n"
    )
    (profiles / "broken.yaml").write_text("name: [club\n")
    (profiles / "readme.txt").write_text("not a profile")
    assert main(["profiles", "check", str(profiles)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"{profiles}/broken.yaml: not valid YAML (line 2, column 1): did not find expected ',' or ']'",
        f"{profiles}/bad.yml: overrides.fan[0].value: must be 0 to 8, got 9",
    ]
    assert (
        err
        == "shmj profiles check: 2 problem(s) 处问题 in 2 file(s) 个文件; a server refuses the directory 服务器会拒绝加载此目录\n"
    )
    for spelt in (str(profiles / "none"), f"{profiles}/none/"):
        assert main(["profiles", "check", spelt]) == 1
        assert (
            capsys.readouterr()
            == (
                f"{profiles}/none: no such directory\n",
                "shmj profiles check: the directory cannot be read 目录无法读取; a server refuses it 服务器会拒绝加载\n",  # not 1 problem in 1 file
            )
        )


def test_score_and_profiles_with_local_house_profiles(profiles, capsys):
    hand = ["score", "111m 555m 999p EEE 77s", "--win", "7s", "--flowers", "1f 5f", "--json", "--local"]
    assert main([*hand, "--profile", "shanghai-club-a", "--profiles-dir", str(profiles)]) == 0
    house = json.loads(capsys.readouterr().out)
    assert (
        main([*hand, "--profile", "lezi", "--override", "ordinary_base=3", "--override", "liability_mode=REPLACE"]) == 0
    )
    assert as_base(house) == json.loads(capsys.readouterr().out)
    assert house["seatDeltas"] == [18.0, -6.0, -6.0, -6.0]

    assert main([*hand, "--profile", "shanghai-club-a"]) == 2  # no --profiles-dir: not known
    assert (
        "profile: unknown profile 'shanghai-club-a'; known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou"
        in capsys.readouterr().err
    )
    assert main([*hand[:-1], "--profile", "shanghai-club-a", "--profiles-dir", str(profiles)]) == 2
    assert capsys.readouterr().err == "shmj: --profiles-dir goes with --local (a server reads its own --profiles-dir)\n"

    assert main(["profiles", "--local", "--profiles-dir", str(profiles), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["profiles"]
    assert [p["name"] for p in listed] == [*BUILT_IN, "shanghai-club-a", "tournament"]
    assert (listed[6]["ordinaryBase"], listed[6]["liabilityMode"]) == (3, "LIABILITY_MODE_REPLACE")


def test_profiles_prints_base_and_description_the_same_from_local_and_from_a_server(profiles, tmp_path, capsys):
    assert main(["profiles", "--local", "--profiles-dir", str(profiles), "--json"]) == 0
    local = json.loads(capsys.readouterr().out)
    digests = [summary.pop("digest") for summary in local["summaries"]]
    assert digests[:6] == [profile_digest(BUILTIN_REGISTRY.entry(name).profile) for name in BUILT_IN]
    assert digests[7] == digests[0]  # tournament: classic's values, so classic's digest
    assert digests[6] not in digests[:6] and digests[6].startswith("sha256:") and len(digests[6]) == 71
    assert local["summaries"] == [
        *({"name": name, "base": "", "description": BUILTIN_REGISTRY.entry(name).description} for name in BUILT_IN),
        {"name": "shanghai-club-a", "base": "lezi", "description": "勒子 room, base 3, liability replaces payments"},
        {"name": "tournament", "base": "classic", "description": ""},
    ]
    assert main(["profiles", "--local", "--profiles-dir", str(profiles), "--name", "shanghai-club-a", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert (one["base"], one["description"], one["profile"]) == (
        "lezi",
        "勒子 room, base 3, liability replaces payments",
        local["profiles"][6],
    )
    assert one["digest"] == digests[6]
    for summary, digest in zip(local["summaries"], digests, strict=True):
        summary["digest"] = digest
    with run_server(tmp_path, "--profiles-dir", str(profiles)) as server:
        assert main(["profiles", "--target", server.address, "--json"]) == 0
        assert json.loads(capsys.readouterr().out) == local
        assert main(["profiles", "--target", server.address, "--name", "shanghai-club-a", "--json"]) == 0
        assert json.loads(capsys.readouterr().out) == one


def test_a_bad_directory_stops_score_before_anything_runs(profiles, capsys):
    (profiles / "bad.json").write_text('{"name": "tournament", "base": "sankou"}')
    assert main(["profiles", "--local", "--profiles-dir", str(profiles)]) == 2
    assert capsys.readouterr().err == (
        f"shmj: bad house profiles in {profiles}:\n  {profiles}/tournament.json: name: 'tournament' is already defined in {profiles}/bad.json\n"
    )


def expected_lines(profile: str) -> list[dict]:
    """Each example line settled under lezi with the house overrides, in this process; a hand
    holding a dragon as a flower (RULES.md section 14) is refused, naming the field."""
    expected = []
    for line in HANDS.read_text().splitlines():
        request = dict(json.loads(line), profile="lezi", overrides=CLUB_A_OVERRIDES)
        try:
            expected.append(dict(rc.settle_json(request), profile=profile))
        except rc.InvalidRequest as error:  # said of the house profile by its name
            record = error_record(request["requestId"], "INVALID_ARGUMENT", str(error), error.violations)
            expected.append(json.loads(json.dumps(record).replace("profile 'lezi'", f"profile '{profile}'")))
    refused = [(e["requestId"], e["error"]["fieldViolations"][0]["field"]) for e in expected if "error" in e]
    assert refused == [
        (name, "winners[0].hand.dragon_flowers") for name in ("ex-14.8-1", "ex-14.8-19", "ex-14.10-e2", "ex-14.10-e3")
    ]
    return expected


def test_rescore_local_and_on_dask_settle_under_the_house_profile(profiles, tmp_path, capsys):
    local, cluster = tmp_path / "local.jsonl", tmp_path / "cluster"
    common = ["--profile", "shanghai-club-a", "--profiles-dir", str(profiles), "--no-progress"]
    assert main(["rescore", str(HANDS), "-o", str(local), "--local", "--workers", "2", *common]) == 0
    written = [json.loads(line) for line in local.read_text().splitlines()]
    assert written == expected_lines("shanghai-club-a")  # under lezi, abandon-classic too
    here = tmp_path / "here.jsonl"  # --workers 1: settled in this process, under the same registry
    assert main(["rescore", str(HANDS), "-o", str(here), "--local", "--workers", "1", *common]) == 0
    assert here.read_text() == local.read_text()

    assert main(["rescore", str(HANDS), "-o", str(cluster), "--dask", "local:1", *common]) == 0
    assert "".join(p.read_text() for p in sorted(cluster.glob("part-*.jsonl"))) == local.read_text()
    shipped = json.loads((cluster / "_job.json").read_text())["house"]
    assert [(Path(source).name, document["name"]) for source, document in shipped] == [
        ("club-a.yaml", "shanghai-club-a"),
        ("tournament.json", "tournament"),
    ]


def test_the_house_profiles_commands_of_operations_md_run_as_written(tmp_path):
    from tests.test_readme import fenced, guide, run_console, section

    (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    text = section("House profiles", guide("OPERATIONS.md"))
    (block,) = fenced(text, "console")
    run_console(block, tmp_path)
    (example,) = fenced(text, "yaml")
    assert example == (ROOT / "examples/profiles/shanghai-club-a.yaml").read_text().split("\n", 1)[1]


def test_a_description_is_printed_escaped_never_as_terminal_control(tmp_path, capsys):
    """Found with the hand records' request ids: a house profile's description went to the
    terminal as it was, so a profile file could clear the screen or retitle the window."""
    directory = tmp_path / "profiles"
    directory.mkdir()
    (directory / "club-x.yaml").write_text('name: club-x\nbase: classic\ndescription: "x \\e[2J\\e]0;owned\\a y"\n')
    shown = "'x \\x1b[2J\\x1b]0;owned\\x07 y'"
    assert main(["profiles", "check", str(directory)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == f"  club-x  (based on 基于 classic)  {shown}"
    assert main(["profiles", "--local", "--profiles-dir", str(directory), "--name", "club-x"]) == 0
    out += capsys.readouterr().out
    assert shown in out
    assert "\x1b" not in out and "\x07" not in out

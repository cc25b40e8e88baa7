"""`shmj` under the rule families of RULES.md section 14: dragon flowers written ``Cf Ff Pf``,
``--last-tile``, ``--declared`` (the knock), ``1:2:3:kept`` (pattern_kept), and the tables
saying how each 番 acts (doubling, or added up with the 兜底番 and 牌型番), the 番 cap, 无花 as
10 花, and why a seat pays under 包三口 and 承包, in English and Chinese. docs/CLI.md's session
runs as written."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from clients.cli import main
from tests.test_readme import fenced, guide, section


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_the_guides_session_runs_as_written(capsys):
    (block,) = fenced(section("Rule families: 敲麻 and 清混碰", guide("CLI.md")), "console")
    steps = re.findall(r"^\$ \.venv/bin/shmj (.*)\n((?:(?!\$ ).*\n)*)", block, flags=re.M)
    assert len(steps) == 7
    for command, expected in steps:
        assert run(capsys, *shlex.split(command)) == expected, command


def test_the_request_carries_dragon_flowers_the_last_tile_the_knocks_and_kept_patterns(capsys):
    printed = run(
        capsys,
        "request",
        "111p 555s 77s [EEEE] [9999m@1] 1f Cf",
        "--win",
        "7s",
        "--flowers",
        "2f Pf",
        "--last-tile",
        "--declared",
        "0, 2",
        "--claims",
        "1:2:3:kept,2<1:4",
        "--profile",
        "qiaoma",
    )
    request = json.loads(printed)
    winner = request["winners"][0]
    assert winner["hand"]["flowers"] == ["FLOWER_SPRING", "FLOWER_SUMMER"]
    assert winner["hand"]["dragonFlowers"] == ["TILE_RED", "TILE_WHITE"]
    assert winner["lastTile"] is True
    assert request["declaredSeats"] == [0, 2]
    assert request["liabilities"] == [
        {"claimerSeat": 1, "sourceSeat": 2, "claims": 3, "patternKept": True},
        {"claimerSeat": 2, "sourceSeat": 1, "claims": 4, "patternKept": False},
    ]


def test_a_fixed_value_hand_adds_a_lezi_per_fan(capsys):
    """RULES.md 14.8 example 3: 清一色 20 + 门清 1 × 10 = 30; its 6 花 do not count."""
    table = run(
        capsys,
        *("score", "123p 345p 678p 999p 22p", "--win", "9p", "--flowers", "1f 2f 3f Cf Cf Pf"),
        *("--seat", "3", "--outcome", "discard", "--discarder", "2", "--profile", "qiaoma_lezi", "--local"),
    )
    assert table.splitlines()[2:5] == [
        "  Full flush                                   清一色           = 20",
        "  Concealed hand                               门清             +10 (1 fan 番)",
        "  fixed value, each fan adds 10 勒子牌型每番加10: 20 + 10 × 1 = 30",
    ]


def test_a_winner_that_has_not_knocked_is_told_so(capsys):
    table = run(
        capsys,
        *("score", "123m 123p 123s 789m NN", "--win", "N", "--outcome", "discard", "--discarder", "2"),
        *("--profile", "qiaoma", "--local"),
    )
    assert table.splitlines()[1:3] == [
        "Seat 0  not legal 不合法  Concealed hand 门清, No flowers 无花果 / 无花  (flowers 花 10)",
        "  why 原因: not knocked 未敲",
    ]


def test_a_partner_that_has_knocked_pays_its_own_share(capsys):
    """RULES.md 14.10.11 E2, seats 0 and 1 knocked: seat 1 pays its discard, seat 2 as a partner."""
    table = run(
        capsys,
        *("score", "567p 11p [WWW@2] [888p@2] [333p@2] Cf", "--win", "1p", "--outcome", "discard"),
        *("--discarder", "1", "--claims", "0:2:3:kept", "--declared", "0,1", "--profile", "qiaoma", "--local"),
    )
    lines = table.splitlines()
    payments = lines[lines.index("Payments 付款") :]
    assert payments[:6] == [
        "Payments 付款",
        "  seat 1 -> seat 0      6 花  discard 点炮",
        "  seat 2 -> seat 0      6 花  liability 承包",
        "      seat 0 claimed 3 times from seat 2 座位0吃碰座位2 3口",
        "      its melds keep a pattern 副露仍可成碰碰和、混一色或清一色",
        "      承包: contract partners 承包：互为承包方",
    ]
    assert payments[6] == "Seat deltas 输赢  +12  -6  -6  +0"


def test_a_server_gives_the_words_the_profile_it_holds(capsys, server):  # noqa: F811  (the fixture)
    """Against a server the effective profile is asked for: classic with 番 added up and a 番 for
    the last tile, over the wire: (3 + 3) × (1 门清 + 1 海底捞月) = 12, where doubling would give 24."""
    table = run(
        capsys,
        *("score", "111m 555m 999p EEE 77s", "--win", "7s", "--flowers", "1f 5f", "--last-tile"),
        *("--override", "fan_additive=true", "--override", 'fan=[{"pattern": "PATTERN_LAST_TILE", "value": 1}]'),
        *("--declared", "0,2", "--target", server.address),
    )
    assert table.splitlines()[1:8] == [
        "Seat 0  legal 合法  All pungs 碰碰胡, Concealed hand 门清, Win on the last tile 海底捞月  (flowers 花 3)",
        "  Flower tile x2                               花牌             +2",
        "  Wind pung                                    风刻             +1",
        "  Base flowers                                 底注花           +3",
        "  Concealed hand                               门清             +1 fan 番",
        "  Win on the last tile                         海底捞月         +1 fan 番",
        "  fan add up 番相加: (3 + 3) × 2 = 12",
    ]


@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        ("--declared", "0,4", "argument --declared: seats are 0-3, separated by commas, such as 0,2, got '0,4'"),
        ("--flowers", "1f Ef", "bad notation: only the dragons are flowers: Cf Ff Pf (中发白)"),
    ],
)
def test_a_bad_knock_or_dragon_flower_is_one_line(capsys, flag, value, said):
    try:
        code = main(["score", "111m 555m 999p EEE 77s", "--win", "7s", flag, value, "--local"])
    except SystemExit as stopped:  # argparse's way out
        code = stopped.code
    assert code == 2
    assert said in capsys.readouterr().err.splitlines()[0]


def test_a_seat_that_knocks_twice_is_named_by_its_field(capsys):
    code = main(["score", "111m 555m 999p EEE 77s", "--win", "7s", "--declared", "0,0", "--local"])
    assert code == 2
    assert capsys.readouterr().err.splitlines()[1] == "  declared_seats[1]: seat 0 is listed twice"


def test_check_judges_one_win_against_a_server_with_the_knock(capsys, server):  # noqa: F811  (the fixture)
    """CheckWin by the CLI: classic with the knock and a 番 for the last tile (overrides)."""
    argv = [
        *("check", "111m 555m 999p EEE 77s", "--win", "7s", "--flowers", "1f 5f", "--last-tile", "--seat", "2"),
        *("--override", "win_requires_declaration=true"),
        *("--override", 'fan=[{"pattern": "PATTERN_LAST_TILE", "value": 1}]', "--target", server.address),
    ]
    assert run(capsys, *argv).splitlines()[1:3] == [
        "Seat 2  not legal 不合法  All pungs 碰碰胡, Concealed hand 门清, Win on the last tile 海底捞月  (flowers 花 3)",
        "  why 原因: not knocked 未敲",
    ]
    lines = run(capsys, *argv, "--declared", "2").splitlines()
    assert lines[0] == "Profile 规则 classic  (unit 单位: 花 flowers)"
    assert lines[-1] == "  value per share V 每份牌值 = 20 花  (before multipliers 倍数前 20)"
    assert "  Win on the last tile                         海底捞月         x2 (1 fan 番)" in lines


def test_check_refuses_an_outcome_without_a_winner(capsys):
    assert main(["check", "--outcome", "exhaustive-draw", "--local"]) == 2
    assert capsys.readouterr().err == "shmj: check judges a win: --outcome exhaustive-draw has no winner\n"

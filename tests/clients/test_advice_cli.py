"""`shmj advise` and `shmj review` (RULES.md section 15): the worked examples of 15.7 as a person
reads them, in both languages, in-process and by the real server alike."""

from __future__ import annotations

import json

import pytest

from convert.json_write import settle_record_request_dict
from rules_core import advise_json, review_record_json
from rules_core.records import SettleRecordRequest
from tests.clients.test_replay_cli import shmj
from tests.rules_core.test_advice_review import EXAMPLE_11

EXAMPLE_9 = ["advise", "111p 222p 333p 7789p C", "--seat", "1"]

EXAMPLE_9_OPTIONS = """\
  Discard 打出  shanten after 打后向听  total 合计  Useful tiles 有效牌 (live 剩余张数)
  C  best 最佳  0                       2           7p 2
      Waits 听牌: 7p 2 × V 20 (live value 剩余价值 40)
  7p            0                       3           C 3
      Waits 听牌: C 3 × V 6 (live value 剩余价值 18)
  1p            1                       24          1p 1, 4p 4, 5p 4, 6p 4, 7p 2, 8p 3, 9p 3, C 3
  2p            1                       20          2p 1, 5p 4, 6p 4, 7p 2, 8p 3, 9p 3, C 3
  3p            1                       20          3p 1, 5p 4, 6p 4, 7p 2, 8p 3, 9p 3, C 3
  9p            1                       15          6p 4, 7p 2, 8p 3, 9p 3, C 3
  8p            1                       11          7p 2, 8p 3, 9p 3, C 3"""

EXAMPLE_11_REVIEW = """\
seat 座位 0  discards 打牌 1  among the best 最佳打法 0  backward 退向 0  forced 听后摸打 0  dead 死手打牌 0  passes 漏胡 none 无
seat 座位 1  discards 打牌 1  among the best 最佳打法 1  backward 退向 0  forced 听后摸打 0  dead 死手打牌 0  passes 漏胡 none 无
seat 座位 2  discards 打牌 1  among the best 最佳打法 0  backward 退向 0  forced 听后摸打 0  dead 死手打牌 0  passes 漏胡 none 无
seat 座位 3  discards 打牌 0  among the best 最佳打法 0  backward 退向 0  forced 听后摸打 0  dead 死手打牌 0  passes 漏胡 W @8
Discards not among the best 非最佳打牌:
  at event 步 4  seat 座位 0: 7p (shanten after 打后向听 0, total 合计 3, live value 剩余价值 18); best 最佳应打 C
  at event 步 8  seat 座位 2: W (shanten after 打后向听 1, total 合计 5); best 最佳应打 9s
"""


@pytest.fixture
def record_file(tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(settle_record_request_dict(SettleRecordRequest("classic", EXAMPLE_11))))
    return path


def test_example_9_options_best_first_with_their_waits(capsys):
    code, out, _ = shmj([*EXAMPLE_9, "--local"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[:4] == [
        "Shanten 向听数: 0 (ready 听牌)",
        "Paths 胡牌路线:",
        "  Half flush 混一色 dots 筒                0",
        "  Full flush 清一色 dots 筒                0",
    ]
    assert "\n".join(lines[-10:]) == EXAMPLE_9_OPTIONS


def test_example_2_a_dead_wait_with_seen_tiles(capsys):
    code, out, _ = shmj(["advise", "111m 555m 999p CC 77s", "--seat", "1", "--seen", "C C 7s", "--local"], capsys)
    assert code == 0
    assert out.splitlines()[:3] == [
        "Shanten 向听数: 0 (ready 听牌)",
        "Paths 胡牌路线:",
        "  All pungs 碰碰胡                         0",
    ]
    assert out.splitlines()[-2:] == [
        "Useful tiles 有效牌 (live 剩余张数): 7s 1, C 0  (total 合计 1)",
        "Waits 听牌: 7s 1 × V 6, C 0 × V 10 (live value 剩余价值 6)",
    ]


def test_example_3_melds_by_flag_and_lezi_dead(capsys):
    flags = ["advise", "7s", "--melds", "[123m@3] [456p@3] [789s@3] [EEE@1]", "--local"]
    code, out, _ = shmj(flags, capsys)
    assert (code, out.splitlines()) == (
        0,
        [
            "Shanten 向听数: 0 (ready 听牌)",
            "Paths 胡牌路线:",
            "  Big hanging (single wait after four melds) 大吊车  0",
            "Useful tiles 有效牌 (live 剩余张数): 7s 2  (total 合计 2)",
            "Waits 听牌: 7s 2 × V 20 (live value 剩余价值 40)",
        ],
    )
    code, out, _ = shmj([*flags, "--profile", "lezi"], capsys)
    assert (code, out) == (
        0,
        "Shanten 向听数: dead holding 死手, no legal win can be reached with these melds 这些副露下没有可胡的路线\n",
    )


def test_json_is_the_answer_of_advise_json(capsys):
    code, out, _ = shmj([*EXAMPLE_9, "--local", "--json"], capsys)
    tiles = (
        ["TILE_P1"] * 3 + ["TILE_P2"] * 3 + ["TILE_P3"] * 3 + ["TILE_P7", "TILE_P7", "TILE_P8", "TILE_P9", "TILE_RED"]
    )
    assert (code, json.loads(out)) == (0, advise_json({"profile": "classic", "seat": 1, "hand": {"concealed": tiles}}))


def test_a_malformed_holding_is_named_by_its_field(capsys):
    code, out, err = shmj(["advise", "111m 555m", "--local"], capsys)
    assert (code, out) == (2, "")
    assert err == (
        "shmj: invalid request 请求有误 (INVALID_ARGUMENT)\n"
        "  hand.concealed: 0 meld(s) leave 13 or 14 concealed tiles, got 6\n"
    )
    code, out, err = shmj(["advise", "111m 555m 999p CC 77s", "--seen", "1m 1m", "--local"], capsys)
    assert (code, err.splitlines()[1:]) == (2, ["  seen: a tile has only four copies: 1m x5 (3 held, 2 seen)"])


def test_example_11_review(record_file, capsys):
    code, out, _ = shmj(["review", str(record_file), "--local"], capsys)
    assert (code, out) == (0, EXAMPLE_11_REVIEW)
    code, out, _ = shmj(["review", str(record_file), "--local", "--json"], capsys)
    assert json.loads(out) == review_record_json(json.loads(record_file.read_text()))


def test_a_server_advises_and_reviews_the_same(server, record_file, capsys):
    for flags in ((), ("--json",)):
        for command in (EXAMPLE_9, ["review", str(record_file)]):
            local = shmj([*command, "--local", *flags], capsys)
            remote = shmj([*command, "--target", server.address, *flags], capsys)
            assert remote == local

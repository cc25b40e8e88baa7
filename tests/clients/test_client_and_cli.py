"""The client library and the `shmj` CLI, against the real server and in-process."""

from __future__ import annotations

import json
import subprocess
import sys

import grpc
import pytest
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

from clients import ScoringClient, ScoringError, hand, retry_service_config, settle_request, winner
from clients.cli import main
from clients.report import display_width, pad
from rules_core.builtin_profiles import BUILTIN_PROFILES
from tests.server.conftest import ROOT

EXAMPLE_1 = ["111m 555m 999p EEE 77s", "--win", "7s", "--flowers", "1f 5f"]


def test_retry_policy_is_in_the_service_config():
    config = json.loads(retry_service_config(max_attempts=5))
    (method,) = config["methodConfig"]
    assert method["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"]
    assert method["retryPolicy"]["maxAttempts"] == 5
    assert method["name"] == [{"service": "mahjong.shanghai.v1.ScoringService"}]


def test_client_calls_every_rpc(server):
    with ScoringClient(server.address) as client:
        request = settle_request(
            "classic", "self-draw", [winner(0, "111m 555m 999p EEE 77s", win="7s", flowers="1f 5f")]
        )
        assert list(client.settle(request).seat_deltas) == [36, -12, -12, -12]
        results = client.settle_batch([request, settle_request("lezi", "exhaustive-draw", huangfan_count=1)])
        assert [r.response.next_hand.huangfan_count for r in results] == [0, 2]
        assert [list(r.seat_deltas) for r in client.settle_stream([request] * 2)] == [[36, -12, -12, -12]] * 2
        check = svc.CheckWinRequest(
            profile="classic", outcome=2, winner=winner(0, "7s 7s [123m@3] [456p@3] [789s@3] [EEE@1]", win="7s")
        )
        assert client.check_win(check).result.value == 20
        waits = client.list_waits(svc.ListWaitsRequest(profile="classic", hand=hand("111m 555m 999p EEE 7s")))
        assert [w.tile for w in waits.self_draw_waits] == [25]
        assert client.get_profile("sankou").ordinary_lazi_threshold == 8
        assert [p.name for p in client.list_profiles()] == [*BUILTIN_PROFILES]


def test_client_retries_then_reports_unavailable():
    with ScoringClient("127.0.0.1:1", timeout=2, max_attempts=3) as client:
        with pytest.raises(ScoringError) as error:
            client.list_profiles()
    assert (error.value.code, error.value.violations) == (grpc.StatusCode.UNAVAILABLE, ())


def test_score_prints_an_itemised_table(server, capsys):
    assert main(["score", *EXAMPLE_1, "--target", server.address]) == 0
    table = capsys.readouterr().out
    assert "Seat 0  legal 合法  All pungs 碰碰胡, Concealed hand 门清  (flowers 花 3)" in table
    assert "Concealed hand" in table and "x2 (1 fan 番)" in table
    assert "seat 1 -> seat 0     12 花  self-draw 自摸" in table
    assert "Seat deltas 输赢  +36  -12  -12  -12" in table
    assert "Next hand 下一手  dealer 庄家 seat 0, 荒番 count 荒番数 0" in table


def test_the_item_columns_line_up_on_a_terminal_whatever_the_chinese(capsys):
    """Padded by display width (花 takes two columns): every item's effect starts after 64 columns."""
    assert main(["score", *EXAMPLE_1, "--local"]) == 0
    items = capsys.readouterr().out.splitlines()[2:6]
    effects = ["+2", "+1", "+3", "x2 (1 fan 番)"]
    assert [line.endswith(effect) for line, effect in zip(items, effects, strict=True)] == [True] * 4
    assert [display_width(line.removesuffix(effect)) for line, effect in zip(items, effects, strict=True)] == [64] * 4
    assert items[0] == "  Flower tile x2" + " " * 31 + "花牌" + " " * 13 + "+2"
    assert pad("不足勒子按勒子算", 16) == "不足勒子按勒子算" and pad("门清", 16) == "门清" + " " * 12


def test_no_legal_win_and_the_hand_going_on_are_said_in_both_languages(capsys):
    """Issue 20: "the hand goes on" was English only, in the CLI as in the explorer."""
    assert (
        main(
            [
                "score",
                "456p 789s 234s EE [123m@0]",
                "--win",
                "E",
                "--seat",
                "1",
                "--outcome",
                "discard",
                "--discarder",
                "3",
                "--local",
            ]
        )
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "Next hand 下一手  none: no claimed win is legal, the hand goes on 无人合法胡牌，本手继续"


def test_score_local_and_remote_agree(server, capsys):
    args = [
        "score",
        "456p 789p 111p 55p [123p@1]",
        "--win",
        "5p",
        "--seat",
        "2",
        "--outcome",
        "discard",
        "--discarder",
        "1",
        "--profile",
        "lezi",
        "--dice",
        "1,4",
        "--json",
    ]
    assert main([*args, "--local"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*args, "--target", server.address]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert local == remote
    assert local["seatDeltas"] == [0.0, -20.0, 20.0, 0.0]  # 清一色 10, 开宝 x2


def test_score_with_overrides_and_claims(capsys):
    assert (
        main(
            [
                "score",
                "456s 99s [111s@2] [222s@2] [333s@2]",
                "--win",
                "9s",
                "--seat",
                "1",
                "--profile",
                "lezi",
                "--claims",
                "1:2:3",
                "--override",
                "liability_self_draw_share=2",
                "--local",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["seatDeltas"] == [-10.0, 50.0, -30.0, -10.0]


@pytest.mark.parametrize(("dice", "claims"), [("3,3", ["1:2:3"]), ("3 3", ["1<2:3"]), ("3+3", ["1<2", "2:1:1"])])
def test_score_takes_the_explorers_dice_and_claims_too(capsys, dice, claims):
    """Issue 20: the CLI refused the explorer's `3 3` and `1<2:3`."""
    flags = [flag for claim in claims for flag in ("--claims", claim)]
    hand = ["456s 99s [111s@2] [222s@2] [333s@2]", "--win", "9s", "--seat", "1", "--profile", "lezi"]
    assert main(["score", *hand, "--dice", dice, *flags, "--local", "--json"]) == 0
    response = json.loads(capsys.readouterr().out)
    assert response["seatDeltas"] == [-20.0, 120.0, -80.0, -20.0]  # 开宝 on the double doubles it
    assert response["huangfanAfterDice"] == 0


def test_score_reports_bad_input(server, capsys):
    assert main(["score", "111m 555x", "--local"]) == 2
    assert "bad notation" in capsys.readouterr().err
    assert main(["score", "111m 555m 999p EEE 77s", "--win", "77s", "--local"]) == 2
    assert "expected exactly one tile, read 2" in capsys.readouterr().err
    assert main(["score", "111m 555m 999p EEE 7s", "--win", "7s", "--target", server.address]) == 2
    err = capsys.readouterr().err
    assert "winners[0].hand.concealed: 0 meld(s) leave 14 concealed tiles, got 13" in err


def test_waits(capsys):
    assert main(["waits", "1112345678999m", "--local"]) == 0
    out = capsys.readouterr().out
    assert "On a discard 点炮胡: 9 winning tile(s) 胡张, value per share V 每份牌值" in out
    assert "5m  V =    20  Full flush 清一色, Concealed hand 门清" in out


def test_profiles(server, capsys):
    assert main(["profiles", "--name", "lezi", "--target", server.address, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["profile"]["abandonPenalty"] == 15


def test_installed_entry_point():
    result = subprocess.run(
        [sys.executable, "-m", "clients.cli", "score", *EXAMPLE_1, "--local", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]


def test_score_json_prints_defaults_and_matches_local(server, capsys):
    """`shmj score --json` over the wire and --local print the same JSON, seat 0 and dealer 0 explicit."""
    assert main(["score", *EXAMPLE_1, "--json", "--target", server.address]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert main(["score", *EXAMPLE_1, "--json", "--local"]) == 0
    assert json.loads(capsys.readouterr().out) == remote
    assert remote["nextHand"] == {"dealerSeat": 0, "huangfanCount": 0}
    assert (remote["winners"][0]["seat"], remote["requestId"], remote["penalties"]) == (0, "", [])


def test_waits_and_profiles_json_match_local(server, capsys):
    for command in (["waits", "111m 555m 999p EEE 7s", "--json"], ["profiles", "--name", "sankou", "--json"]):
        assert main([*command, "--target", server.address]) == 0
        remote = json.loads(capsys.readouterr().out)
        assert main([*command, "--local"]) == 0
        assert json.loads(capsys.readouterr().out) == remote, command
    assert remote["profile"]["floorPatterns"] == []

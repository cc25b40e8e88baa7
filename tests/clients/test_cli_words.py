"""Issue 20: every number `shmj` prints says what it is in English and Chinese, from
`rules_core.vocabulary`, and no raw enum name (``ALL_PUNGS``, ``UNIT_FLOWER``) reaches a person;
``--json`` stays the machine form."""

from __future__ import annotations

import json
import re

from clients.cli import main

EXAMPLE_1 = ["score", "111m 555m 999p EEE 77s", "--win", "7s", "--flowers", "1f 5f"]
# Worked example 13 (lezi, 承包): seat 1 wins on seat 0's discard, with three melds from seat 2.
EXAMPLE_13 = [
    "score",
    "456s 99s [111s@2] [222s@2] [333s@2]",
    "--win",
    "9s",
    "--seat",
    "1",
    "--outcome",
    "discard",
    "--discarder",
    "0",
    "--profile",
    "lezi",
]
ENUM_NAME = re.compile(r"\b[A-Z]{2,}(?:_[A-Z]+)+\b")  # ALL_PUNGS, UNIT_FLOWER, LIABILITY_MODE_NONE


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_the_score_table_says_every_number_in_both_languages(capsys):
    assert run(capsys, *EXAMPLE_1, "--local").splitlines() == [
        "Profile 规则 classic  (unit 单位: 花 flowers)",
        "Seat 0  legal 合法  All pungs 碰碰胡, Concealed hand 门清  (flowers 花 3)",
        "  Flower tile x2                               花牌             +2",
        "  Wind pung                                    风刻             +1",
        "  Base flowers                                 底注花           +3",
        "  Concealed hand                               门清             x2 (1 fan 番)",
        "  value per share V 每份牌值 = 12 花  (before multipliers 倍数前 12)",
        "Payments 付款",
        "  seat 1 -> seat 0     12 花  self-draw 自摸",
        "  seat 2 -> seat 0     12 花  self-draw 自摸",
        "  seat 3 -> seat 0     12 花  self-draw 自摸",
        "Seat deltas 输赢  +36  -12  -12  -12",
        "荒番 count after the dice 掷骰后荒番数  0",
        "Next hand 下一手  dealer 庄家 seat 0, 荒番 count 荒番数 0",
    ]


def test_a_claim_that_is_not_legal_says_why_in_both_languages(capsys):
    out = run(
        capsys,
        *("score", "456p 789s 234s EE [123m@0]", "--win", "E", "--seat", "1"),
        *("--outcome", "discard", "--discarder", "3", "--local"),
    )
    assert out.splitlines() == [
        "Profile 规则 classic  (unit 单位: 花 flowers)",
        "Seat 1  not legal 不合法  no pattern 无番型  (flowers 花 0)",
        "  why 原因: no qualifying pattern 无可胡番型",
        "Seat deltas 输赢  +0  +0  +0  +0",
        "荒番 count after the dice 掷骰后荒番数  0",
        "Next hand 下一手  none: no claimed win is legal, the hand goes on 无人合法胡牌，本手继续",
    ]


LIABLE_BOTH_WAYS = [
    "Payments 付款",
    "  seat 0 -> seat 1     10 分  discard 点炮",
    "  seat 2 -> seat 1     20 分  liability 承包",
    "      seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口",
    "      seat 2 claimed 3 times from seat 1 座位2吃碰座位1 3口",
    "      pays twice: the claims run both ways 双向承包，付两份",
    "Seat deltas 输赢  -10  +30  -20  +0",
]


def test_a_liable_seat_says_who_claimed_from_whom_and_why_it_pays_twice(capsys):
    lines = run(capsys, *EXAMPLE_13, "--claims", "1:2:3, 2:1:3", "--local").splitlines()
    assert lines[4:11] == LIABLE_BOTH_WAYS


def test_pays_twice_is_said_only_when_both_ways_reach_the_threshold(capsys):
    """2:1:2 is under lezi's threshold of 3: seat 2 is liable once, for seat 1's three claims."""
    lines = run(capsys, *EXAMPLE_13, "--claims", "1:2:3, 2:1:2", "--local").splitlines()
    assert lines[4:10] == [
        "Payments 付款",
        "  seat 0 -> seat 1     10 分  discard 点炮",
        "  seat 2 -> seat 1     10 分  liability 承包",
        "      seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口",
        "      seat 2 claimed 2 times from seat 1 座位2吃碰座位1 2口",
        "Seat deltas 输赢  -10  +20  -10  +0",
    ]


def test_the_threshold_is_the_overridden_one(capsys):
    """With liability_threshold=2 the two claims back count: seat 2 pays twice."""
    lines = run(
        capsys, *EXAMPLE_13, "--claims", "1:2:3, 2:1:2", "--override", "liability_threshold=2", "--local"
    ).splitlines()
    assert lines[4:11] == [
        "Payments 付款",
        "  seat 0 -> seat 1     10 分  discard 点炮",
        "  seat 2 -> seat 1     20 分  liability 承包",
        "      seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口",
        "      seat 2 claimed 2 times from seat 1 座位2吃碰座位1 2口",
        "      pays twice: the claims run both ways 双向承包，付两份",
        "Seat deltas 输赢  -10  +30  -20  +0",
    ]


def test_a_server_settles_and_explains_the_same(server, capsys):
    local = run(capsys, *EXAMPLE_13, "--claims", "1:2:3, 2:1:3", "--local")
    assert run(capsys, *EXAMPLE_13, "--claims", "1:2:3, 2:1:3", "--target", server.address) == local


def test_a_sankou_payment_names_the_claims_but_never_pays_twice(capsys):
    lines = run(
        capsys, *EXAMPLE_13[:-1], "sankou", "--discarder", "2", "--claims", "1:2:3, 2:1:3", "--local"
    ).splitlines()
    assert lines[4:9] == [
        "Payments 付款",
        "  seat 2 -> seat 1     40 花  three claims 三口",
        "      seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口",
        "      seat 2 claimed 3 times from seat 1 座位2吃碰座位1 3口",
        "Seat deltas 输赢  +0  +40  -40  +0",
    ]


def test_an_abandon_penalty_says_what_it_is(capsys):
    out = run(capsys, "score", "--outcome", "abandon", "--abandoning", "2", "--profile", "lezi", "--local")
    assert "Penalty 罚分  seat 2 loses 输 15 分  (abandon 逃跑)" in out.splitlines()


def test_waits_say_what_they_list_in_both_languages(capsys):
    assert run(capsys, "waits", "111m 555m 999p EEE 7s", "--local").splitlines() == [
        "On a discard 点炮胡: 1 winning tile(s) 胡张, value per share V 每份牌值",
        "  7s  V =     8  All pungs 碰碰胡, Concealed hand 门清",
        "By self-draw 自摸胡: 1 winning tile(s) 胡张, value per share V 每份牌值",
        "  7s  V =     8  All pungs 碰碰胡, Concealed hand 门清",
    ]


def test_no_enum_name_reaches_a_person_but_json_keeps_them(capsys):
    for argv in (EXAMPLE_1, [*EXAMPLE_13, "--claims", "1:2:3, 2:1:3"]):
        assert ENUM_NAME.findall(run(capsys, *argv, "--local")) == []
        answer = json.loads(run(capsys, *argv, "--local", "--json"))
        assert answer["unit"] in ("UNIT_FLOWER", "UNIT_POINT")


def test_every_status_a_call_can_end_with_is_said_in_both_languages_with_its_code():
    """Issue 20: error lines led with a bare status code name (`shmj: INVALID_ARGUMENT: ...`)."""
    import grpc

    from clients.cli_failures import status_said
    from rules_core.vocabulary import SERVING_WORDS, STATUS_WORDS

    assert sorted(STATUS_WORDS) == sorted(code.name for code in grpc.StatusCode if code != grpc.StatusCode.OK)
    assert status_said(grpc.StatusCode.INVALID_ARGUMENT) == "invalid request 请求有误 (INVALID_ARGUMENT)"
    assert status_said(grpc.StatusCode.DEADLINE_EXCEEDED) == "no answer in time 超时 (DEADLINE_EXCEEDED)"
    from grpc_health.v1 import health_pb2

    assert sorted(SERVING_WORDS) == sorted(health_pb2.HealthCheckResponse.ServingStatus.keys())


def test_a_mistake_found_locally_reads_as_the_server_finding_it(server, capsys):
    hand = ["score", "111m 555m 999p EEE 7s", "--win", "7s"]
    said = (
        "shmj: invalid request 请求有误 (INVALID_ARGUMENT)\n"
        "  winners[0].hand.concealed: 0 meld(s) leave 14 concealed tiles, got 13\n"
    )
    for where in (["--local"], ["--target", server.address]):
        assert main([*hand, *where]) == 2
        assert capsys.readouterr().err == said

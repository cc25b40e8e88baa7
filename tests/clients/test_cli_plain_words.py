"""What a person stumbles on in `shmj`'s words: counts of lines told apart from counts of wins, a
hand given where no one wins, an unknown profile said one way with the near name, the notation at
hand in `--help`, and one wording for a server that cannot be reached."""

from __future__ import annotations

import pytest

from clients.cli import main
from clients.rescore_report import dask_summary_line
from rules_core.builtin_profiles import BUILTIN_PROFILES
from rules_core.registry import unknown_profile
from tests.server.conftest import free_port


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_a_job_says_lines_and_wins_apart():
    # 26 lines settled hold 25 claimed wins: a line may have two winners (one discard) or none (a draw).
    summary = {
        **dict(records_this_run=27, seconds=0.3, records_per_second=90, skipped_by_resume=0, parts_complete=1, parts=1),
        **dict(settled=26, legal_wins=22, illegal_wins=3, rejected=1),
    }
    assert dask_summary_line(summary, "settled") == (
        "27 records 本次条数 in 0.3 s (90/s), 0 skipped by --resume 续跑跳过: 26 lines settled 已结算行,"
        " 1 rejected 被拒行; their claimed wins 所报胡牌: 22 legal 合法, 3 not legal 不合法; 1 of 1 parts 分块 in settled"
    )


@pytest.mark.parametrize("outcome", ["exhaustive-draw", "abandon"])
def test_a_hand_given_with_an_outcome_that_takes_no_winner_is_a_usage_error(capsys, outcome):
    seat = ["--abandoning", "2"] if outcome == "abandon" else []
    code, out, err = _run(
        capsys, "score", "111m 555m 999p EEE 77s", "--win", "7s", "--outcome", outcome, *seat, "--local"
    )
    assert (code, out) == (2, "")
    assert err == (
        f"shmj: a hand and --win name a winner, and --outcome {outcome} has none:"
        " leave out the hand and --win, or give the outcome it was won by\n"
    )


def test_a_draw_without_a_hand_is_still_settled(capsys):
    code, out, _ = _run(capsys, "score", "--outcome", "exhaustive-draw", "--local")
    assert code == 0
    assert "Next hand 下一手  dealer 庄家 seat 0, 荒番 count 荒番数 1" in out


def test_an_unknown_profile_is_said_one_way_with_the_near_name(capsys):
    said = "unknown profile 'Lezi' (did you mean lezi?); known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou"
    assert unknown_profile("Lezi", BUILTIN_PROFILES) == said
    assert unknown_profile("riichi", BUILTIN_PROFILES) == (
        "unknown profile 'riichi'; known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou"
    )
    assert unknown_profile("classik", BUILTIN_PROFILES) == (
        "unknown profile 'classik' (did you mean classic?); known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou"
    )
    # the CLI refuses a name no profile can have before any call ...
    code, _, err = _run(capsys, "score", "111m 555m 999p EEE 77s", "--win", "7s", "--profile", "Lezi", "--local")
    assert (code, err) == (2, f"shmj score: argument --profile: {said}\n")
    # ... and the engine a name a house profile could have, in the same words
    code, _, err = _run(capsys, "score", "111m 555m 999p EEE 77s", "--win", "7s", "--profile", "lezl", "--local")
    assert (code, err.splitlines()[-1]) == (
        2,
        "  profile: unknown profile 'lezl' (did you mean lezi?); known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou",
    )


def test_an_unknown_profile_of_a_megabyte_is_named_by_an_excerpt():
    said = unknown_profile("x" * 1_000_000, BUILTIN_PROFILES)
    assert len(said) < 200
    assert said.endswith("; known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou")


def test_score_help_carries_the_notation(capsys):
    code, out, _ = _run(capsys, "score", "--help")
    assert code == 0
    for example in ("123m 456p 789s", "EEE 77s", "[123m@3]", "[555p@1]", "[5555p@1]", "[5555p+@1]", "[5555p]", "1f 5f"):
        assert example in out
    for word in ("万", "筒", "条", "C F P", "E S W N", "1f-8f"):
        assert word in out


def test_no_server_is_said_the_same_by_health_and_by_score(capsys):
    target = f"127.0.0.1:{free_port()}"
    said = (
        f"shmj: server unavailable 无法连接服务器 (UNAVAILABLE): {target} refuses the connection (Connection refused):"
        " start the server (make run), or name it with --target or SHMJ_TARGET\n"
    )
    assert _run(capsys, "health", "--target", target, "--timeout", "2") == (1, "", said)
    assert _run(capsys, "score", "111m 555m 999p EEE 77s", "--win", "7s", "--target", target, "--timeout", "2") == (
        1,
        "",
        said,
    )

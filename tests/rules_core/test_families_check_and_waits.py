"""CheckWin and ListWaits under RULES.md section 14: a candidate is judged as Settle judges it.
Under `win_requires_declaration` (敲, `qiaoma`) a seat wins only when ``declared_seats`` names it;
ListWaits' ``last_tile`` makes each self-draw one on the last tile of the wall (海底捞月); dragon
flowers count as in a settlement."""

from __future__ import annotations

import pytest

from rules_core import (
    CheckWinRequest,
    IllegalReason,
    InvalidRequest,
    ListWaitsRequest,
    Outcome,
    Pattern,
    Tile,
    check_win,
    list_waits,
    settle,
)
from rules_core.build import hand, winner
from tests.rules_core.conftest import request

Q1 = winner(0, "123m 123p 123s 789m NN", win="N")  # RULES.md 14.10.11 Q1: 22 once knocked


@pytest.mark.parametrize(("declared", "legal", "value"), [((), False, 0), ((1, 0), True, 22), ((2,), False, 0)])
def test_check_win_needs_the_knock_as_settle_does(declared, legal, value):
    asked = CheckWinRequest("qiaoma", Outcome.DISCARD, Q1, declared_seats=declared)
    judged = check_win(asked)
    settled = settle(request("qiaoma", Outcome.DISCARD, [Q1], discarder_seat=2, declared_seats=declared))
    assert judged == settled.winners[0]
    assert (judged.legal, judged.value) == (legal, value)
    assert judged.illegal_reasons == (() if legal else (IllegalReason.NOT_DECLARED,))


def test_the_knock_is_read_only_where_the_profile_asks_for_it():
    assert check_win(CheckWinRequest("qiaoma_lezi", Outcome.SELF_DRAW, Q1)).legal


def test_a_seat_waits_only_once_it_has_knocked():
    short = ListWaitsRequest("qiaoma", 0, hand("123m 123p 123s 789m N"))
    assert list_waits(short)[1:3] == ((), ())
    knocked = list_waits(short._replace(declared_seats=(0,)))
    assert [(w.tile, w.result.value) for w in knocked.discard] == [(Tile.NORTH, 22)]
    assert [(w.tile, w.result.value) for w in knocked.self_draw] == [(Tile.NORTH, 22)]


def test_the_last_tile_is_a_self_draws_and_dragon_flowers_count():
    """RULES.md 14.8 example 19's hand one tile short, 11 flower tiles: 碰碰胡 + 海底捞月 on 7s is
    (3 + 15) × (1 + 1 + 1) = 54; without the last tile, 36."""
    flowers = "1f 2f 3f 4f 5f Cf Cf Ff Ff Pf Pf"
    short = ListWaitsRequest("qiaoma_lezi", 0, hand("111p 555s 7s [EEEE] [9999m@1]", flowers=flowers), dealer_seat=2)
    last = list_waits(short._replace(last_tile=True))
    on_seven = {w.tile: w.result for w in last.self_draw}[Tile.S7]
    assert on_seven.patterns == (Pattern.ALL_PUNGS, Pattern.LAST_TILE) and on_seven.value == 54
    assert all(Pattern.LAST_TILE not in w.result.patterns for w in last.discard)
    assert {w.tile: w.result.value for w in list_waits(short).self_draw}[Tile.S7] == 36


def test_knocked_seats_are_checked_as_a_settlements_are():
    with pytest.raises(InvalidRequest) as raised:
        check_win(CheckWinRequest("classic", Outcome.SELF_DRAW, Q1, declared_seats=(0, 0)))
    assert [(v.field, v.description) for v in raised.value.violations] == [
        ("declared_seats[1]", "seat 0 is listed twice")
    ]
    with pytest.raises(InvalidRequest) as raised:
        list_waits(ListWaitsRequest("classic", 0, hand("123m 123p 123s 789m N"), declared_seats=(4,)))
    assert [v.field for v in raised.value.violations] == ["declared_seats[0]"]

"""RULES.md 15.7: the worked examples of advice, exactly (example 11, the review, is in
test_advice_review.py). Profile classic, seat 0 deals, no dice, 荒番 0, nothing seen, unless told."""

from __future__ import annotations

from rules_core.patterns import Pattern
from tests.rules_core.advice_helpers import advice, option_rows, paths, useful, waits


def test_1_ready_on_two_tiles_with_values():
    result = advice("111m 555m 999p CC 77s", seat=1)
    assert result.reachable and result.shanten == 0
    assert useful(result.useful) == "7s:2 C:2"
    assert waits(result.waits) == "7s:2=6 C:2=10"
    assert result.live_total == 4
    assert result.live_value == 2 * 6 + 2 * 10
    assert paths(result)[:2] == ["ALL_PUNGS 0", "HALF_FLUSH 万 5"]
    assert result.options == ()


def test_2_a_dead_wait_is_listed_with_no_live_copy():
    result = advice("111m 555m 999p CC 77s", seat=1, seen="C C 7s")
    assert result.shanten == 0  # seen never changes distances
    assert useful(result.useful) == "7s:1 C:0"
    assert waits(result.waits) == "7s:1=6 C:0=10"
    assert result.live_total == 1
    assert result.live_value == 6


def test_3_four_melds_classic_big_hanging_lezi_dead():
    holding = "7s [123m@3] [456p@3] [789s@3] [EEE@1]"
    classic = advice(holding)
    assert classic.shanten == 0
    assert paths(classic) == ["BIG_HANGING 0"]
    assert waits(classic.waits) == "7s:2=20"
    assert classic.live_total == 2
    lezi = advice(holding, "lezi")
    assert (lezi.reachable, lezi.shanten, lezi.paths, lezi.useful, lezi.waits) == (False, None, (), (), ())


def test_4_full_flush_ready_on_six_tiles():
    result = advice("123p 456p 789p 11p 55p")
    assert result.shanten == 0
    assert waits(result.waits) == "1p:1=20 4p:3=20 5p:1=20 6p:3=20 7p:3=20 9p:3=20"
    assert result.live_total == 14
    assert paths(result)[:5] == [
        "FULL_FLUSH 筒 0",
        "HALF_FLUSH 筒 1",
        "ALL_PUNGS 4",
        "FULL_FLUSH_PUNGS 筒 4",
        "HALF_FLUSH_PUNGS 筒 5",
    ]


def test_4_without_full_flushes_a_half_flush_needs_an_honour():
    classic_without_full_flushes = [
        p
        for p in (
            Pattern.ALL_PUNGS,
            Pattern.HALF_FLUSH,
            Pattern.HALF_FLUSH_PUNGS,
            Pattern.ALL_HONOURS,
            Pattern.ALL_HONOURS_PUNGS,
            Pattern.EIGHT_FLOWERS,
            Pattern.BIG_HANGING,
            Pattern.HEAVENLY,
            Pattern.EARTHLY,
            Pattern.KONG_BLOOM,
        )
    ]
    result = advice("123p 456p 789p 11p 55p", overrides={"qualifying_patterns": classic_without_full_flushes})
    assert result.shanten == 1
    assert useful(result.useful) == "E:4 S:4 W:4 N:4 C:4 F:4 P:4"
    assert result.live_total == 28
    assert result.waits == ()
    assert paths(result) == [
        "HALF_FLUSH 筒 1",
        "ALL_PUNGS 4",
        "HALF_FLUSH_PUNGS 筒 5",
        "HALF_FLUSH 万 13",
        "HALF_FLUSH 条 13",
        "HALF_FLUSH_PUNGS 万 13",
        "HALF_FLUSH_PUNGS 条 13",
        "ALL_HONOURS 13",
        "ALL_HONOURS_PUNGS 13",
    ]


def test_5_four_copies_no_fifth_east():
    result = advice("EEEE 123p 456p 789p")
    assert result.shanten == 1
    assert paths(result)[:2] == ["HALF_FLUSH 筒 1", "FULL_FLUSH 筒 4"]
    assert useful(result.useful) == " ".join([f"{n}p:3" for n in range(1, 10)] + [f"{h}:4" for h in "SWNCFP"])  # not E
    assert result.live_total == 9 * 3 + 6 * 4 == 51


def test_6_big_hanging_whose_tile_is_gone():
    holding = "7s [123m@3] [456p@3] [777s@1] [EEE@2]"
    result = advice(holding)
    assert result.shanten == 1
    assert paths(result) == ["BIG_HANGING 1"]
    tiles = [u.tile.notation for u in result.useful]
    assert len(tiles) == 32 and "7s" not in tiles and "E" not in tiles
    live = {u.tile.notation: u.live for u in result.useful}
    assert {t for t, n in live.items() if n == 3} == {"1m", "2m", "3m", "4p", "5p", "6p"}
    assert result.live_total == 18 + 104 == 122
    assert not advice(holding, "lezi").reachable


def test_7_all_honours_in_any_shape():
    classic = advice("EE SS WW NN CC FF P")
    assert classic.shanten == 0
    assert waits(classic.waits) == "E:2=40 S:2=40 W:2=40 N:2=40 C:2=40 F:2=40 P:3=40"
    assert classic.live_total == 15
    assert paths(classic)[:3] == ["ALL_HONOURS 0", "ALL_PUNGS 3", "ALL_HONOURS_PUNGS 3"]
    lezi = advice("EE SS WW NN CC FF P", "lezi")
    assert waits(lezi.waits) == "E:2=20 S:2=20 W:2=20 N:2=20 C:2=20 F:2=20 P:3=20"


def test_8_a_dead_holding_in_every_profile():
    for profile in ("classic", "sankou", "lezi"):
        waiting = advice("789s 11s EE [123m@0] [456p@0]", profile, seat=1)
        assert (waiting.reachable, waiting.shanten, waiting.paths, waiting.useful) == (False, None, (), ())
        acting = advice("789s 11s EE 5s [123m@0] [456p@0]", profile, seat=1)
        assert (acting.reachable, acting.shanten, acting.options) == (False, None, ())


def test_9_options_live_value_before_live_total():
    result = advice("111p 222p 333p 7789p C", seat=1)
    assert result.shanten == 0
    assert option_rows(result) == [
        ("C", 0, 2, 40, True),
        ("7p", 0, 3, 18, False),
        ("1p", 1, 24, 0, False),
        ("2p", 1, 20, 0, False),
        ("3p", 1, 20, 0, False),
        ("9p", 1, 15, 0, False),
        ("8p", 1, 11, 0, False),
    ]
    by_tile = {o.tile.notation: o for o in result.options}
    assert waits(by_tile["C"].waits) == "7p:2=20"
    assert waits(by_tile["7p"].waits) == "C:3=6"
    assert useful(by_tile["1p"].useful) == "1p:1 4p:4 5p:4 6p:4 7p:2 8p:3 9p:3 C:3"
    assert useful(by_tile["2p"].useful) == "2p:1 5p:4 6p:4 7p:2 8p:3 9p:3 C:3"
    assert useful(by_tile["9p"].useful) == "6p:4 7p:2 8p:3 9p:3 C:3"
    assert useful(by_tile["8p"].useful) == "7p:2 8p:3 9p:3 C:3"


def test_10_a_holding_that_is_already_a_win():
    result = advice("111m 555m 999p CCC 77s", seat=1)
    assert result.shanten == -1
    assert option_rows(result) == [
        ("1m", 0, 3, 30, True),
        ("5m", 0, 3, 30, True),
        ("9p", 0, 3, 30, True),
        ("C", 0, 3, 22, False),
        ("7s", 0, 2, 20, False),
    ]
    by_tile = {o.tile.notation: o for o in result.options}
    assert waits(by_tile["1m"].waits) == "1m:1=10 7s:2=10"
    assert waits(by_tile["C"].waits) == "7s:2=6 C:1=10"
    assert waits(by_tile["7s"].waits) == "7s:2=10"

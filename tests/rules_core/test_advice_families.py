"""RULES.md 15.2-15.5 under the profiles of section 14: 垃圾胡 as the path ORDINARY, a 花 minimum
that counts the target's own pungs, dragon flowers, the knock, seven pairs read only where four sets
and a pair do not read, and all honours needing a shape. Values are WinnerResult.value of the
self-draw, by the seat (1, not the dealer) as if it had knocked."""

from __future__ import annotations

import pytest

from rules_core.advice import advise
from rules_core.advice_values import AdviseRequest
from rules_core.build import hand
from rules_core.errors import InvalidRequest
from rules_core.notation import parse_tiles
from tests.rules_core.advice_helpers import paths, useful, waits

SEVEN_PAIRS = {"seven_pairs": True}


def advice(text: str, profile: str, dragons: str = "", seen: str = "", **table):
    holding = hand(text)
    if dragons:
        holding = holding._replace(dragon_flowers=parse_tiles(dragons))
    request = AdviseRequest(profile, 1, holding, parse_tiles(seen) if seen else (), **table)
    return advise(request)


def faults(text: str, profile: str, dragons: str = "", seen: str = "") -> list[str]:
    with pytest.raises(InvalidRequest) as caught:
        advice(text, profile, dragons, seen)
    return [v.field for v in caught.value.violations]


def test_a_mixed_hand_with_chows_is_ordinary_in_qiaoma_lezi_and_no_path_in_qinghunpeng():
    # 垃圾胡 门清 无花果: (3 + 0) x (1 兜底 + 1 + 1) = 9 on E, 3 live.
    result = advice("123m 456p 789s 234s E", "qiaoma_lezi")
    assert (result.shanten, paths(result)[:2]) == (0, ["ORDINARY 0", "HALF_FLUSH 条 6"])
    assert waits(result.waits) == "E:3=9"
    # 清混碰: the same tiles are 6 from a half flush of 条.
    assert paths(advice("123m 456p 789s 234s E", "qinghunpeng"))[0] == "HALF_FLUSH 条 6"


def test_a_dragon_flower_counts_one_hua_and_removes_no_flowers():
    # (3 + 1) x (1 兜底 + 1 门清) = 8: 红中 is a flower tile, so no 无花果.
    assert waits(advice("123m 456p 789s 234s E", "qiaoma_lezi", dragons="C").waits) == "E:3=8"


def test_qiaoma_without_melds_wins_through_concealed_with_no_ordinary_path():
    # Every complete hand without melds is 门清, which qualifies: (1 + 10 无花) x 2 = 22.
    result = advice("123m 456p 789s 234s E", "qiaoma")
    assert paths(result)[0] == "CONCEALED 0"
    assert "ORDINARY" not in " ".join(paths(result))
    assert waits(result.waits) == "E:3=22"


def test_the_hua_minimum_of_an_ordinary_qiaoma_hand_counts_its_own_pungs():
    melds = "[123m@0] [456p@0] 789s 11s EE"
    # No flower: 111s leaves 花 0, which counts 10 (无花); EEE is 1 花, below 2. (1 + 10) x 1 = 11.
    assert waits(advice(melds, "qiaoma").waits) == "1s:2=11"
    # One flower: 111s leaves 1 花, too few; EEE's wind pung makes 2: (1 + 2) x 1 = 3.
    assert waits(advice(f"{melds} 1f", "qiaoma").waits) == "E:2=3"
    # qiaoma_lezi has no minimum: both win. 1s: 0 花, (3 + 0) x (1 + 1 无花果) = 6; E: (3 + 1) x 1 = 4.
    assert waits(advice(melds, "qiaoma_lezi").waits) == "1s:2=6 E:2=4"
    # qinghunpeng: a chow and two suits rule out every pattern (section 15.7, example 8).
    assert not advice(melds, "qinghunpeng").reachable


def test_one_flower_short_of_the_minimum_is_two_away():
    # 1f alone: the target needs a wind pung (EEE) for 2 花: 456p 789s EEE and a pair of 2s-4s or
    # 4p-6p, 7s-9s: 8 of 11 tiles kept, shanten 2.
    result = advice("[123m@0] 456p 789s 234s E 1f", "qiaoma")
    assert paths(result) == ["ORDINARY 2", "HALF_FLUSH 万 9", "FULL_FLUSH 万 10"]
    assert useful(result.useful) == "4p:3 5p:3 6p:3 2s:3 3s:3 4s:3 7s:3 8s:3 9s:3 E:3"
    with_two = advice("[123m@0] 456p 789s 234s E 1f 2f", "qiaoma")
    assert (with_two.shanten, waits(with_two.waits)) == (0, "E:3=3")


def test_big_hanging_and_the_half_flush_qualify_in_qiaoma():
    # HALF_FLUSH + BIG_HANGING: 2 番; 花 0 counts 10: (1 + 10) x 2^2 = 44.
    result = advice("[123m@0] [456m@0] [789m@0] [111m@0] E", "qiaoma")
    assert paths(result) == ["HALF_FLUSH 万 0", "BIG_HANGING 0", "FULL_FLUSH 万 1"]
    assert waits(result.waits) == "E:3=44"
    assert waits(advice("[123m@0] [456m@0] [789p@0] [111m@0] E", "qiaoma").waits) == "E:3=22"


def test_seven_pairs_where_enabled():
    # 14.8 example 9: SEVEN_PAIRS + CONCEALED, (2 + 2) x 2 = 8.
    result = advice("11m 22m 5555p 77s 99s E 2f 4f", "qinghunpeng", overrides=SEVEN_PAIRS)
    assert (paths(result)[:2], waits(result.waits)) == (["SEVEN_PAIRS 0", "ALL_PUNGS 2"], "E:3=8")
    # Without the switch the pairs are no shape: 555p and three pairs made pungs, shanten 2.
    without = advice("11m 22m 5555p 77s 99s E 2f 4f", "qinghunpeng")
    assert (without.shanten, useful(without.useful)) == (2, "1m:2 2m:2 7s:2 9s:2")


def test_seven_pairs_that_read_as_four_sets_and_a_pair_are_no_seven_pairs():
    # 11223344556677m is 123 123 456 456 77: a full flush (10 + 门清 10 + 无花果 10 = 30), never
    # 七对. Every seventh pair beside 112233445566 reads as sets too, so seven pairs keeps 11.
    result = advice("1122334455667m", "qinghunpeng", overrides=SEVEN_PAIRS)
    assert paths(result)[:3] == ["FULL_FLUSH 万 0", "HALF_FLUSH 万 1", "SEVEN_PAIRS 2"]
    assert waits(result.waits) == "1m:2=30 4m:2=30 7m:3=30"


def test_all_honours_need_a_shape():
    # qinghunpeng: thirteen honours in no shape win only as seven honour pairs, on P:
    # 2 勒 + (门清 + 无花果) x 10 = 40.
    result = advice("EE SS WW NN CC FF P", "qinghunpeng")
    assert (paths(result)[:3], waits(result.waits)) == (
        ["ALL_HONOURS 0", "ALL_PUNGS 3", "ALL_HONOURS_PUNGS 3"],
        "P:3=40",
    )
    # qiaoma_lezi's honours are the four winds: 风一色 only as EEEE SSSS WWWW NN (14.2), 40 + 门清 10.
    winds = advice("EEEE SSSS WWWW N", "qiaoma_lezi")
    assert (paths(winds)[0], waits(winds.waits)) == ("ALL_HONOURS 0", "N:3=50")
    assert "ALL_HONOURS_PUNGS" not in " ".join(paths(winds))  # four winds make no four pungs and a pair


def test_dragons_where_they_are_flowers():
    assert faults("123m 456p 789s 234s C", "qiaoma") == ["hand.concealed"]
    assert faults("123m 456p 789s 234s E", "qiaoma", seen="1m C") == ["seen[1]"]
    assert faults("123m 456p 789s 234s E", "qinghunpeng", dragons="C") == ["hand.dragon_flowers"]


def test_no_target_holds_a_dragon_where_they_are_flowers():
    # Section 15.7 example 5 in both families: 123p 456p 789p EEE wants a pair, never a fifth E.
    # 清混碰: a pair of 筒 or of an honour (a half flush), dragons included; 51 live.
    tiles = "1p:3 2p:3 3p:3 4p:3 5p:3 6p:3 7p:3 8p:3 9p:3"
    result = advice("EEEE 123p 456p 789p", "qinghunpeng")
    assert (result.shanten, useful(result.useful), result.live_total) == (1, f"{tiles} S:4 W:4 N:4 C:4 F:4 P:4", 51)
    # 敲麻: any suited pair too (a pair of 万 or 条 makes 垃圾胡), but no dragon: 18 x 4 + 27 + 12 = 111.
    result = advice("EEEE 123p 456p 789p", "qiaoma_lezi")
    other_suits = " ".join(f"{n}{s}:4" for s in "ms" for n in range(1, 10)).split()
    expected = " ".join(other_suits[:9] + tiles.split() + other_suits[9:] + ["S:4", "W:4", "N:4"])
    assert (result.shanten, useful(result.useful), result.live_total) == (1, expected, 111)
    assert paths(result)[:2] == ["HALF_FLUSH 筒 1", "ORDINARY 1"]

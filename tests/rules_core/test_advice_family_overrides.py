"""RULES.md 15.2-15.3 under overrides of the section 14 fields that change which hands are legal:
a target is a hand legal as a plain self-draw, so a `min_fan` minimum (14.10.1, `TOO_FEW_FAN`)
takes the hands with too few 番 away from every path; seven pairs that carry no qualifying
pattern win as 垃圾胡 (ORDINARY) where ordinary hands win, and through `CONCEALED` where that
qualifies; `NO_FLOWERS` is a path where it qualifies. Each example's winning tiles are also
found by brute force, judged by the settlement's own legality; generated holdings under these
overrides are held to brute force as the profiles' own are."""

from __future__ import annotations

import random

import pytest

from rules_core.build import hand
from rules_core.patterns import Pattern
from rules_core.profile import FlowerSource
from rules_core.requests import Hand, Meld, MeldKind
from rules_core.tiles import ALL_TILES, FIRST_DRAGON, FIRST_HONOUR, TILE_KINDS, Flower
from tests.rules_core.advice_helpers import paths, waits
from tests.rules_core.test_advice_brute_force import counts_of
from tests.rules_core.test_advice_families import advice
from tests.rules_core.test_advice_families_brute_force import (
    check_acting,
    check_waiting,
    completing,
    holdings,
    profile_of,
)

SHAPES = [
    Pattern.ALL_PUNGS,
    Pattern.HALF_FLUSH,
    Pattern.FULL_FLUSH,
    Pattern.HALF_FLUSH_PUNGS,
    Pattern.FULL_FLUSH_PUNGS,
    Pattern.ALL_HONOURS,
    Pattern.ALL_HONOURS_PUNGS,
    Pattern.EIGHT_FLOWERS,
]
# Seven pairs a shape, but SEVEN_PAIRS not a qualifying pattern.
PAIRS_UNQUALIFIED = {"seven_pairs": True, "qualifying_patterns": SHAPES}
PAIRS_CONCEALED = {"seven_pairs": True, "qualifying_patterns": [*SHAPES, Pattern.CONCEALED]}
NO_FLOWERS_QUALIFIES = {"qualifying_patterns": [*SHAPES, Pattern.NO_FLOWERS]}


def winning(text: str, name: str, overrides=None) -> str:
    """The tiles that make a legal self-draw of a waiting holding, by brute force."""
    holding = hand(text)
    found = completing(profile_of(name, overrides), holding, counts_of(holding))
    return " ".join(ALL_TILES[t].notation for t in found)


def test_a_fan_minimum_leaves_an_ordinary_qiaoma_hand_no_target():
    # 14.10.3 item 4: 一番和 (min_fan 1). 123m 456p 789s 111s EE has no 番 on a self-draw (无花
    # has none in qiaoma), so the only path, ORDINARY, loses its targets: the holding is dead.
    text = "[123m@0] [456p@0] 789s 11s EE"
    assert (advice(text, "qiaoma").shanten, winning(text, "qiaoma")) == (0, "1s")
    result = advice(text, "qiaoma", overrides={"min_fan": 1})
    assert (result.reachable, result.shanten, result.paths) == (False, None, ())
    assert winning(text, "qiaoma", {"min_fan": 1}) == ""


def test_a_fan_minimum_takes_a_path_away_by_the_targets_flowers():
    # qiaoma_lezi with min_fan 2: 兜底番 1, and a full flush has no 牌型番, so with an exposed
    # meld a full flush wins only with 无花果 (+1), and so does 垃圾胡; a half flush has 1 牌型番.
    text = "[123m@0] 456m 789m 234m E"
    bare = advice(text, "qiaoma_lezi", overrides={"min_fan": 2})
    assert paths(bare) == ["HALF_FLUSH 万 0", "FULL_FLUSH 万 1", "ORDINARY 1"]
    assert (waits(bare.waits), winning(text, "qiaoma_lezi", {"min_fan": 2})) == ("E:3=9", "E")
    flowered = advice(f"{text} 1f", "qiaoma_lezi", overrides={"min_fan": 2})
    assert paths(flowered) == ["HALF_FLUSH 万 0"]
    assert waits(flowered.waits) == "E:3=8"
    # The same holding with a flower and no minimum keeps both paths.
    assert paths(advice(f"{text} 1f", "qiaoma_lezi")) == ["HALF_FLUSH 万 0", "FULL_FLUSH 万 1", "ORDINARY 1"]


def test_a_fan_minimum_counts_the_targets_own_wind_pung_as_flowers():
    # 垃圾胡 with min_fan 2 needs 无花果: 111s with the EE pair has 0 花 (2 番), EEE has 1 (1 番).
    text = "[123m@0] 456p 789s EE 11s"
    assert waits(advice(text, "qiaoma_lezi").waits) == "1s:2=6 E:2=4"
    result = advice(text, "qiaoma_lezi", overrides={"min_fan": 2})
    assert (paths(result), waits(result.waits)) == (["ORDINARY 0", "HALF_FLUSH 万 8", "FULL_FLUSH 万 10"], "1s:2=6")
    assert winning(text, "qiaoma_lezi", {"min_fan": 2}) == "1s"


def test_a_fan_minimum_above_every_target_leaves_the_holding_dead():
    # qiaoma_lezi with seven pairs and min_fan 4: 七对 is 兜底 1 + 1 + 门清 1, four only with
    # 无花果; with a flower no hand reaches four 番 on a plain self-draw.
    text = "11m 22m 5555p 77s 99s E"
    result = advice(text, "qiaoma_lezi", overrides={"seven_pairs": True, "min_fan": 4})
    assert (paths(result)[:2], waits(result.waits)) == (["SEVEN_PAIRS 0", "ALL_PUNGS 2"], "E:3=12")
    flowered = advice(f"{text} 2f", "qiaoma_lezi", overrides={"seven_pairs": True, "min_fan": 4})
    assert not flowered.reachable
    assert winning(f"{text} 2f", "qiaoma_lezi", {"seven_pairs": True, "min_fan": 4}) == ""


def test_seven_pairs_that_do_not_qualify_win_as_ordinary_hands():
    # 14.8 example 9's holding: with SEVEN_PAIRS not qualifying, 11m 22m 5555p 77s 99s EE is a
    # complete hand with no qualifying pattern: 垃圾胡 in qiaoma_lezi. It still lists SEVEN_PAIRS,
    # whose 牌型番 counts: (3 + 1) x (兜底 1 + 七对 1 + 门清 1) = 12.
    text = "11m 22m 5555p 77s 99s E 2f"
    result = advice(text, "qiaoma_lezi", overrides=PAIRS_UNQUALIFIED)
    assert (result.shanten, paths(result)[:2]) == (0, ["ORDINARY 0", "ALL_PUNGS 2"])
    assert waits(result.waits) == "E:3=12"
    assert winning(text, "qiaoma_lezi", PAIRS_UNQUALIFIED) == "E"
    # 清混碰 has no 垃圾胡: such seven pairs never win, and the holding is two from 碰碰胡.
    unqualified = advice(text, "qinghunpeng", overrides=PAIRS_UNQUALIFIED)
    assert (unqualified.shanten, paths(unqualified)[0]) == (2, "ALL_PUNGS 2")
    assert winning(text, "qinghunpeng", PAIRS_UNQUALIFIED) == ""


def test_seven_pairs_join_the_concealed_path_where_concealed_qualifies():
    # Every seven-pairs hand is 门清: with CONCEALED qualifying it wins through it, (2 + 1) x 2 = 6.
    text = "11m 22m 5555p 77s 99s E 2f"
    result = advice(text, "qinghunpeng", overrides=PAIRS_CONCEALED)
    assert (result.shanten, paths(result)[:2], waits(result.waits)) == (0, ["CONCEALED 0", "ALL_PUNGS 2"], "E:3=6")
    assert winning(text, "qinghunpeng", PAIRS_CONCEALED) == "E"


def test_no_flowers_is_a_path_where_it_qualifies():
    # classic with NO_FLOWERS qualifying: a mixed hand of 0 花 wins; a flower takes the path away.
    text = "123m 456p 789s 234s E"
    result = advice(text, "classic", overrides=NO_FLOWERS_QUALIFIES)
    assert (paths(result)[:2], waits(result.waits)) == (["NO_FLOWERS 0", "HALF_FLUSH 条 6"], "E:3=6")
    assert winning(text, "classic", NO_FLOWERS_QUALIFIES) == "E"
    flowered = advice(f"{text} 1f", "classic", overrides=NO_FLOWERS_QUALIFIES)
    assert (flowered.shanten, paths(flowered)[0]) == (6, "HALF_FLUSH 条 6")


def test_no_flowers_is_reached_by_the_chow_reading_where_suited_pungs_carry_flowers():
    # A suited pung worth 1 花: 111 222 333m read as pungs is 3 花, read as 123m three times 0 花
    # and 无花. A legal reading counts before an illegal one (section 4), so the hand waits on 7s
    # through NO_FLOWERS, as the settlement judges it.
    overrides = {**NO_FLOWERS_QUALIFIES, "flower_values": {FlowerSource.SUITED_PUNG: 1}}
    text = "111222333m 456p 7s"
    result = advice(text, "classic", overrides=overrides)
    assert (result.shanten, paths(result)[:2], waits(result.waits)) == (0, ["NO_FLOWERS 0", "ALL_PUNGS 2"], "7s:3=6")
    assert winning(text, "classic", overrides) == "7s"


OVERRIDE_TABLES = (
    ("qiaoma", {"min_fan": 1}),
    ("qiaoma_lezi", {"min_fan": 2}),
    ("qiaoma_lezi", {"min_fan": 3, "seven_pairs": True}),
    ("qinghunpeng", {"min_fan": 2, "seven_pairs": True}),
    ("qiaoma_lezi", PAIRS_UNQUALIFIED),
    ("qinghunpeng", PAIRS_CONCEALED),
    ("qinghunpeng", NO_FLOWERS_QUALIFIES),
    ("classic", {"min_fan": 2}),
)


# Suited pungs worth 花, where 无花 is named: a target's 花 depend on its reading.
SUITED_PUNG_TABLES = (
    ("classic", {**NO_FLOWERS_QUALIFIES, "flower_values": {FlowerSource.SUITED_PUNG: 1}}),
    ("qiaoma", {"flower_values": {FlowerSource.SUITED_PUNG: 1}}),
    ("qinghunpeng", {**NO_FLOWERS_QUALIFIES, "flower_values": {FlowerSource.SUITED_PUNG: 2}}),
)


@pytest.mark.parametrize(
    ("tables", "seed"),
    [(OVERRIDE_TABLES, 21), (OVERRIDE_TABLES, 22), (SUITED_PUNG_TABLES, 26), (SUITED_PUNG_TABLES, 27)],
)
def test_an_acting_holding_under_overrides_wins_or_is_one_exchange_away_as_its_shanten_says(tables, seed):
    check_acting(holdings(seed, 32, waiting=False, tables=tables))


@pytest.mark.parametrize(
    ("tables", "seed"),
    [
        (OVERRIDE_TABLES, 23),
        (OVERRIDE_TABLES, 24),
        (OVERRIDE_TABLES, 25),
        (SUITED_PUNG_TABLES, 28),
        (SUITED_PUNG_TABLES, 29),
        (SUITED_PUNG_TABLES, 30),
    ],
)
def test_a_waiting_holding_under_overrides_is_ready_exactly_on_its_winning_tiles(tables, seed):
    check_waiting(holdings(seed, 48, waiting=True, tables=tables))


# 乱风向 of any shape with the dragons as tiles, and a 番 minimum that only 无花果 reaches.
SHAPELESS_NO_FLOWERS = {"all_honours_need_shape": False, "dragons_are_flowers": False, "min_fan": 3}


def test_a_shapeless_all_honour_hand_is_a_target_exactly_when_its_flowers_make_it_legal():
    # qiaoma_lezi: a wind pung is 1 花, a dragon pung none. The seven honours twice less 白 wait
    # on a shapeless 乱风向 of 0 花 (无花果 brings the third 番) by 中, 发 or 白; a wind makes a pung
    # of 1 花, too few 番. With a flower no shapeless hand has 0 花: no tile wins, the holding is
    # three from 乱风向 of four pungs.
    text = "E S W N C F P E S W N C F"
    result = advice(text, "qiaoma_lezi", overrides=SHAPELESS_NO_FLOWERS)
    assert winning(text, "qiaoma_lezi", SHAPELESS_NO_FLOWERS) == "C F P"
    assert (result.shanten, paths(result)[0]) == (0, "ALL_HONOURS 0")
    assert [w.tile.notation for w in result.waits] == ["C", "F", "P"]
    flowered = advice(f"{text} 1f", "qiaoma_lezi", overrides=SHAPELESS_NO_FLOWERS)
    assert winning(f"{text} 1f", "qiaoma_lezi", SHAPELESS_NO_FLOWERS) == ""
    assert (flowered.shanten, paths(flowered)[:2]) == (3, ["ALL_PUNGS 3", "ALL_HONOURS 3"])


SHAPELESS_TABLES = (
    ("qiaoma_lezi", SHAPELESS_NO_FLOWERS),
    ("qiaoma_lezi", {**SHAPELESS_NO_FLOWERS, "seven_pairs": True}),
    ("qiaoma_lezi", {"all_honours_need_shape": False, "min_fan": 3}),
    ("qiaoma", {"all_honours_need_shape": False, "dragons_are_flowers": False, "min_fan": 1}),
)


def honour_holding(rng: random.Random, profile, waiting: bool) -> Hand:
    """Honours alone, mostly in ones and twos (a shapeless hand of 0 花 is near), now and then
    a pung of honours laid down, a flower or a tile of a suit."""
    kinds = list(range(FIRST_HONOUR, FIRST_DRAGON if profile.dragons_are_flowers else TILE_KINDS))
    used = [0] * TILE_KINDS
    melds = ()
    if rng.random() < 0.25:
        tile = rng.choice(kinds)
        used[tile] = 3
        melds = (Meld(MeldKind.PUNG, (ALL_TILES[tile],) * 3, 2),)
    size = 14 - 3 * len(melds) - (1 if waiting else 0)
    concealed = []
    while len(concealed) < size:
        tile = rng.choice(kinds) if rng.random() < 0.95 else rng.randrange(FIRST_HONOUR)
        if used[tile] < (4 if rng.random() < 0.15 else 2):
            used[tile] += 1
            concealed.append(tile)
    flowers = tuple(rng.sample(list(Flower), rng.choice((0, 0, 0, 1))))
    return Hand(tuple(ALL_TILES[t] for t in sorted(concealed)), None, melds, flowers)


def honour_holdings(seed: int, count: int, waiting: bool):
    rng = random.Random(seed)
    for number in range(count):
        name, overrides = SHAPELESS_TABLES[number % len(SHAPELESS_TABLES)]
        profile = profile_of(name, overrides)
        yield name, overrides, profile, honour_holding(rng, profile, waiting)


@pytest.mark.parametrize("seed", [31, 32])
def test_an_acting_honour_holding_is_as_far_from_a_shapeless_win_as_its_shanten_says(seed):
    check_acting(honour_holdings(seed, 24, waiting=False))


@pytest.mark.parametrize("seed", [33, 34])
def test_a_waiting_honour_holding_is_ready_exactly_on_its_shapeless_winning_tiles(seed):
    check_waiting(honour_holdings(seed, 40, waiting=True))

"""RULES.md sections 5-7: 花, hand values per profile, caps and multipliers."""

from rules_core import ItemKind, settle
from rules_core import Pattern as P
from rules_core.build import dice, winner

from .conftest import DISCARD, EIGHT, SELF, request


def value_of(text, win, profile="classic", outcome=SELF, seat=0, flowers="", table=None, **flags):
    w = winner(seat, text, win=win, flowers=flowers, **flags)
    extra = {"discarder_seat": (seat + 1) % 4} if outcome == DISCARD else {}
    extra.update(table or {})
    (result,) = settle(request(profile, outcome, [w], **extra)).winners
    return result


def test_flowers_per_source():
    # 1 flower + wind pung 1 + dragon pung 2 + suited exposed kong 1 + wind concealed kong 3
    r = value_of("WWW CCC 77s [5555m@1] [EEEE]", "7s", flowers="3f", outcome=DISCARD)
    assert r.flowers == 1 + 1 + 2 + 1 + 3
    r = value_of("111m 77s [SSSS@1] [FFFF+@2] [9999p]", "7s", outcome=DISCARD)
    assert r.flowers == 2 + 3 + 2  # wind exposed kong, dragon added kong, suited concealed kong
    r = value_of("111m 999m 222p 77s [CCCC]", "7s", outcome=DISCARD)
    assert r.flowers == 4  # dragon concealed kong


def test_shapeless_all_honours_counts_concealed_triples_as_pungs():
    r = value_of("EEE SSSS WW N CC F P", "P")
    assert r.patterns == (P.ALL_HONOURS, P.CONCEALED)
    assert r.flowers == 1 + 1  # EEE and SSSS, one wind pung each


def test_classic_ordinary_value_is_capped_at_one_lazi():
    r = value_of("111m 555m EEE 77s [CCCC]", "7s", flowers="1f 2f 3f 4f", outcome=DISCARD)
    assert r.flowers == 4 + 1 + 4
    assert r.base_value == 20  # (3 + 9) x 2 = 24 -> 20
    codes = [(i.kind, i.code, i.contribution) for i in r.items]
    assert codes[-2:] == [(ItemKind.FAN, "CONCEALED", 1), (ItemKind.CAP, "LAZI_CAP", -4)]


def test_sankou_threshold_applies_after_fan():
    concealed = "111m 555m 999p 333s 77s"
    assert value_of(concealed, "7s", profile="sankou", flowers="1f 2f").value == 6  # (1 + 2) x 2
    r = value_of(concealed, "7s", profile="sankou", flowers="1f 2f 3f")
    assert r.value == 20  # (1 + 3) x 2 = 8 reaches the threshold
    assert r.items[-1].kind == ItemKind.THRESHOLD and r.items[-1].contribution == 12
    melded = value_of("111m 555m 999p 77s [333s@1]", "7s", profile="sankou", flowers="1f 2f 3f")
    assert melded.value == 4  # no 门清: 1 + 3 stays below the threshold


def test_fixed_values_take_the_highest():
    assert value_of("111m 555m 999m 333m 77m", "7m").value == 40  # 清碰 over 清一色
    assert value_of("EEE SSS WWW CCC PP", "P").value == 80  # 字一色
    assert value_of("ESWN CFP ESWN CFP", "P").value == 40  # 乱风向


def test_fixed_values_sum_without_counting_implied_patterns():
    overrides = {"combine_fixed": __import__("rules_core").CombineFixed.SUM}
    text = "7s 7s [111s@3] [444s@1] [555s@2] [999s@1]"
    r = value_of(text, "7s", outcome=DISCARD, table={"overrides": overrides})
    # 清碰 40 + 大吊车 20; 清一色 and 碰碰胡 are implied by 清碰
    assert r.patterns == (P.ALL_PUNGS, P.FULL_FLUSH, P.FULL_FLUSH_PUNGS, P.BIG_HANGING)
    assert r.value == 60


def test_fan_does_not_double_fixed_hands_unless_asked():
    r = value_of("123m 456m 789m 111m 77m", "7m", replacement_draw=True)
    assert r.value == 20
    r = value_of("123m 456m 789m 111m 77m", "7m", replacement_draw=True, table={"overrides": {"fan_on_fixed": True}})
    assert r.value == 80


def test_lezi_values_and_floors():
    assert value_of("111m 555m 999p EEE 77s", "7s", profile="lezi").value == 3  # 2 + 1
    assert value_of("111m 555m 999m 333m 77m", "7m", profile="lezi").value == 20  # 清碰
    assert value_of("EEE SSS WWW CCC PP", "P", profile="lezi").value == 40  # 风碰
    assert value_of("ESWN CFP ESWN CFP", "P", profile="lezi").value == 20  # 风一色
    big = value_of("7s 7s [111m@3] [555p@1] [999s@2] [EEE@1]", "7s", profile="lezi", outcome=DISCARD)
    assert big.patterns == (P.ALL_PUNGS, P.BIG_HANGING)
    assert big.value == 10  # 2 + 1 = 3, raised to 1 勒 by 大吊车
    assert big.items[-1].code == "LAZI_FLOOR" and big.items[-1].contribution == 7


def test_lezi_ordinary_cap():
    r = value_of("111m 555m 77s [CCCC] [FFFF]", "7s", profile="lezi", flowers="1f 2f")
    assert r.flowers == 2 + 4 + 4 and r.value == 10


def test_eight_flowers_values():
    w = "123m 456p 789s 234s E"
    flowers = "1f 2f 3f 4f 5f 6f 7f 8f"
    assert value_of(w, None, outcome=EIGHT, flowers=flowers).value == 120
    assert value_of(w, None, profile="lezi", outcome=EIGHT, flowers=flowers).flowers == 8
    short = value_of(w, None, outcome=EIGHT, flowers="1f 2f 3f")
    assert not short.legal and short.patterns == ()


def test_eight_flowers_winning_another_way_scores_that_way():
    r = value_of("111m 555m 999p EEE 77s", "7s", flowers="1f 2f 3f 4f 5f 6f 7f 8f")
    assert P.EIGHT_FLOWERS not in r.patterns
    assert r.flowers == 9 and r.value == 20


def test_dice_huangfan_table():
    def after(a, b):
        return settle(request("classic", __import__("rules_core").Outcome.EXHAUSTIVE_DRAW, dice=dice(a, b)))

    assert after(1, 1).huangfan_after_dice == 2
    assert after(4, 4).huangfan_after_dice == 2
    assert after(6, 6).huangfan_after_dice == 1
    assert after(1, 5).huangfan_after_dice == 1
    assert after(6, 4).huangfan_after_dice == 1
    assert after(2, 3).huangfan_after_dice == 0


def test_kaibao_is_lezi_only_and_huangfan_per_level_is_a_reading():
    text, win = "111m 555m 999p EEE 77s", "7s"
    assert value_of(text, win, profile="lezi", table={"dice": dice(1, 4)}).value == 6
    assert value_of(text, win, profile="lezi", table={"dice": dice(2, 5)}).value == 3
    assert value_of(text, win, table={"dice": dice(3, 3)}).value == 16  # classic: a double is dice 荒番
    overrides = {"huangfan_mode": __import__("rules_core").HuangfanMode.PER_LEVEL}
    assert value_of(text, win, table={"huangfan_count": 2, "overrides": overrides}).value == 32

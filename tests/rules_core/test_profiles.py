"""The three built-in profiles hold the values of RULES.md sections 5-8 and 11; overrides merge onto them."""

from __future__ import annotations

from rules_core import BUILTIN_PROFILES, CombineFixed, HuangfanMode, LiabilityMode, Unit
from rules_core import Pattern as P
from rules_core.overrides import resolve_profile
from rules_core.profile import FlowerSource as F

CLASSIC, SANKOU, LEZI = (BUILTIN_PROFILES[n] for n in ("classic", "sankou", "lezi"))
SHAPE = {
    P.ALL_PUNGS,
    P.HALF_FLUSH,
    P.FULL_FLUSH,
    P.HALF_FLUSH_PUNGS,
    P.FULL_FLUSH_PUNGS,
    P.ALL_HONOURS,
    P.ALL_HONOURS_PUNGS,
    P.EIGHT_FLOWERS,
}


def test_classic_and_sankou_fixed_values_in_lazi():
    table = {
        P.HEAVENLY: 200,
        P.EARTHLY: 160,
        P.EIGHT_FLOWERS: 120,
        P.ALL_HONOURS_PUNGS: 80,
        P.ALL_HONOURS: 40,
        P.FULL_FLUSH_PUNGS: 40,
        P.FULL_FLUSH: 20,
        P.HALF_FLUSH_PUNGS: 20,
        P.BIG_HANGING: 20,
    }
    assert dict(CLASSIC.fixed_values) == dict(SANKOU.fixed_values) == table
    assert CLASSIC.unit == SANKOU.unit == Unit.FLOWER and CLASSIC.lazi_value == 20


def test_the_differences_of_sankou():
    assert (CLASSIC.ordinary_base, SANKOU.ordinary_base) == (3, 1)
    assert (CLASSIC.ordinary_lazi_threshold, SANKOU.ordinary_lazi_threshold) == (0, 8)
    assert (CLASSIC.liability_mode, SANKOU.liability_mode) == (LiabilityMode.NONE, LiabilityMode.SANKOU)
    assert SANKOU.sankou_self_draw_shares == (1, 5, 3.5, 3)
    assert (SANKOU.sankou_related_discarder_share, SANKOU.sankou_related_seat_share) == (2, 1)


def test_lezi_values_in_lezi_and_its_readings():
    assert dict(LEZI.fixed_values) == {
        P.ALL_HONOURS_PUNGS: 40,
        P.ALL_HONOURS: 20,
        P.FULL_FLUSH_PUNGS: 20,
        P.EIGHT_FLOWERS: 20,
        P.FULL_FLUSH: 10,
        P.HALF_FLUSH_PUNGS: 10,
    }
    assert (LEZI.unit, LEZI.lazi_value, LEZI.ordinary_base) == (Unit.POINT, 10, 2)
    assert LEZI.floor_patterns == {P.KONG_BLOOM, P.BIG_HANGING}
    assert dict(LEZI.fan) == {} and dict(LEZI.dice_huangfan) == {}
    assert LEZI.kaibao_throws == {(n, n) for n in range(1, 7)} | {(1, 4)}
    assert LEZI.liability_mode == LiabilityMode.ADDITIVE
    assert (LEZI.liability_discard_share, LEZI.liability_self_draw_share, LEZI.liability_robbing_kong_share) == (
        1,
        3,
        3,
    )
    assert LEZI.abandon_penalty == 15 and not CLASSIC.has_abandon_rule


def test_qualifying_patterns():
    assert (
        CLASSIC.qualifying_patterns
        == SANKOU.qualifying_patterns
        == SHAPE | {P.BIG_HANGING, P.HEAVENLY, P.EARTHLY, P.KONG_BLOOM}
    )
    assert LEZI.qualifying_patterns == SHAPE


def test_section_11_readings():
    for profile in (CLASSIC, SANKOU, LEZI):
        assert profile.combine_fixed == CombineFixed.MAX
        assert profile.fan_on_fixed is False
        assert profile.huangfan_mode == HuangfanMode.ONCE and profile.huangfan_multiplier == 2
        assert profile.liability_threshold == 3
        assert (profile.self_draw_share, profile.discard_share, profile.robbing_kong_share) == (1, 1, 3)
    assert dict(CLASSIC.fan) == {P.KONG_BLOOM: 1, P.CONCEALED: 1}


def test_flowers_per_source_in_every_profile():
    table = {
        F.FLOWER_TILE: 1,
        F.SUITED_PUNG: 0,
        F.WIND_PUNG: 1,
        F.DRAGON_PUNG: 2,
        F.SUITED_EXPOSED_KONG: 1,
        F.SUITED_CONCEALED_KONG: 2,
        F.WIND_EXPOSED_KONG: 2,
        F.WIND_CONCEALED_KONG: 3,
        F.DRAGON_EXPOSED_KONG: 3,
        F.DRAGON_CONCEALED_KONG: 4,
    }
    for profile in (CLASSIC, SANKOU, LEZI):
        assert dict(profile.flower_values) == table


def test_dice_huangfan_table():
    table = dict(CLASSIC.dice_huangfan)
    assert table[(1, 1)] == table[(4, 4)] == 2
    assert all(table[(n, n)] == 1 for n in (2, 3, 5, 6))
    assert all(table[tuple(sorted((1, n)))] == 1 for n in range(2, 7))
    assert all(table[tuple(sorted((4, n)))] == 1 for n in (1, 2, 3, 5, 6))
    assert (2, 3) not in table and (5, 6) not in table
    assert len(table) == 15


def test_names_are_exact():
    assert resolve_profile("Classic", None)[0] is None
    assert resolve_profile("classic", None)[0] is CLASSIC


def test_tables_merge_and_scalars_replace():
    profile, violations = resolve_profile(
        "classic", {"fixed_values": {P.FULL_FLUSH: 30}, "ordinary_base": 5, "qualifying_patterns": [P.ALL_PUNGS]}
    )
    assert violations == []
    assert profile.fixed_values[P.FULL_FLUSH] == 30 and profile.fixed_values[P.HEAVENLY] == 200
    assert profile.ordinary_base == 5
    assert profile.qualifying_patterns == {P.ALL_PUNGS}
    assert CLASSIC.fixed_values[P.FULL_FLUSH] == 20  # the built-in profile is untouched


def test_bad_overrides_name_the_field():
    _, violations = resolve_profile(
        "lezi", {"name": "x", "fan": {P.CONCEALED: 99}, "sankou_self_draw_shares": [1, 2], "unit": 3}
    )
    assert [v.field for v in violations] == [
        "overrides.name",
        "overrides.fan[0].value",
        "overrides.sankou_self_draw_shares",
        "overrides.unit",
    ]
    assert violations[1].description == "must be 0 to 8, got 99"

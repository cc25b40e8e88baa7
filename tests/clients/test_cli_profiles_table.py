"""Issue 20: `shmj profiles` printed raw JSON with enum names (``UNIT_FLOWER``,
``LIABILITY_MODE_NONE``); it prints each profile's fields under their labels in English and
Chinese, every value with its unit, and ``--json`` keeps the answer as it came."""

from __future__ import annotations

import json
import re

import pytest

from clients.cli import main
from rules_core.builtin_profiles import BUILTIN_PROFILES
from tests.server.conftest import ROOT

ENUM_NAME = re.compile(r"\b[A-Z]{2,}(?:_[A-Z]+)+\b")
LEZI = [
    "Profile 规则 lezi  (built-in profile 内置规则)  勒子 family: points, 1 勒 = 10 分, 底分 2, 开宝, 承包",
    "  Rules digest 规则摘要                          sha256:33e4bd19998a17c18f44f816573a4eca52f7ea20b6a4a6b08659329e7e7cfa34",
    "  unit 单位                                      points 分",
    "  value of 1 喇 喇子值                           10 分",
    "  base 底注                                      2 分",
    "  喇 threshold 起喇门槛                          0 (not used 不用)",
    "  fixed values 定值番型                          Full flush 清一色 = 10 分",
    "                                                 Half flush all pungs 混碰 = 10 分",
    "                                                 Full flush all pungs 清碰 = 20 分",
    "                                                 All honours 乱风向 / 风一色 = 20 分",
    "                                                 All honour pungs 字一色 / 风碰 = 40 分",
    "                                                 Eight flowers 八花 = 20 分",
    "  fan 番数                                       none 无",
    "  floor patterns 保底番型                        Big hanging (single wait after four melds) 大吊车",
    "                                                 Win on a replacement tile 杠开",
]
LEZI_LIABILITY = [
    "  liability mode 承包方式                        liability in addition 承包另付",
    "  liability threshold 承包门槛                   3 claims from one seat 口",
    "  liability discard share 承包点炮份数           1 × V 份",
    "  liability self-draw share 承包自摸份数         3 × V 份",
    "  liability robbing-kong share 承包抢杠份数      3 × V 份",
    "  sankou self-draw shares 三口自摸份数           related seats 有关系的家数 0: 1 × V 份",
    "                                                 related seats 有关系的家数 1: 5 × V 份",
    "                                                 related seats 有关系的家数 2: 3.5 × V 份",
    "                                                 related seats 有关系的家数 3: 3 × V 份",
    "  sankou related discarder 三口放炮份数          2 × V 份",
    "  sankou related seat 三口连带份数               1 × V 份",
    "  abandon penalty 逃跑罚分                       15 分",
]


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_one_profile_is_a_table_of_its_fields_with_their_units(capsys):
    lines = run(capsys, "profiles", "--name", "lezi", "--local").splitlines()
    assert lines[: len(LEZI)] == LEZI
    assert lines[-len(LEZI_LIABILITY) :] == LEZI_LIABILITY
    assert "  开宝 throws 开宝点数                           1,1  1,4  2,2  3,3  4,4  5,5  6,6" in lines
    assert ENUM_NAME.findall("\n".join(lines)) == []


def test_classic_says_its_dice_荒番_and_that_it_has_no_abandon_rule(capsys):
    lines = run(capsys, "profiles", "--name", "classic", "--local").splitlines()
    assert "  dice 荒番 骰子荒番                             +2 荒番 count 荒番数: 1,1  4,4" in lines
    assert "  liability mode 承包方式                        no liability 不承包" in lines
    assert lines[-1] == "  abandon penalty 逃跑罚分                       0 (no abandon rule 没有逃跑规则)"


def test_all_profiles_the_house_ones_said_as_such(capsys):
    out = run(capsys, "profiles", "--local", "--profiles-dir", str(ROOT / "examples" / "profiles"))
    headings = [line for line in out.splitlines() if line.startswith("Profile ")]
    assert [h.split()[2] for h in headings] == [*BUILTIN_PROFILES, "shanghai-club-a"]
    assert headings[6] == (
        "Profile 规则 shanghai-club-a  (house profile 自定规则, based on 基于 lezi)"
        "  勒子 room, base 3, liability replaces payments"
    )
    assert ENUM_NAME.findall(out) == []


@pytest.mark.parametrize("name", ["lezi", "qiaoma", "qiaoma_lezi"])
def test_a_server_answers_the_same_table(server, capsys, name):
    """GetProfile's answer, from a server, in the same words as the CLI's own profiles."""
    assert run(capsys, "profiles", "--name", name, "--target", server.address) == run(
        capsys, "profiles", "--name", name, "--local"
    )


def test_json_keeps_the_machine_form(capsys):
    answer = json.loads(run(capsys, "profiles", "--name", "classic", "--local", "--json"))
    assert (answer["profile"]["unit"], answer["profile"]["liabilityMode"]) == ("UNIT_FLOWER", "LIABILITY_MODE_NONE")
    assert [p["name"] for p in json.loads(run(capsys, "profiles", "--local", "--json"))["profiles"]] == [
        *BUILTIN_PROFILES
    ]


# The fields of RULES.md section 14 that qiaoma sets, after the fields every profile has: each in
# words (yes 是, 10 flowers 花, 3 fan 番), never True or a bare number.
QIAOMA_SECTION_14 = [
    "  abandon penalty 逃跑罚分                       0 (no abandon rule 没有逃跑规则)",
    "  dragons are flowers 中发白算花                 yes 是",
    "  ordinary hand wins 垃圾胡可胡                  yes 是",
    "  all honours need a shape 风一色要成形          yes 是",
    "  荒番 resets after a win 胡后荒番清零           yes 是",
    "  multi-win: discarder deals 一炮多响放炮者坐庄  yes 是",
    "  standard shape only 只胡四副一将               yes 是",
    "  no flowers counts as 无花算花                  10 flowers 花",
    "  rubbish hand: self-draw flowers 垃圾胡自摸花数 2 flowers 花",
    "  rubbish hand: discard flowers 垃圾胡点炮花数   3 flowers 花",
    "  fan cap 封顶番                                 3 fan 番",
    "  knock before winning 须敲才胡                  yes 是",
    "  claims that always relate 无条件承包口数       4 claims from one seat 口",
    "  no cap 不封顶                                  yes 是",
]


def test_qiaoma_says_the_fields_of_section_14_it_sets_in_words(capsys):
    lines = run(capsys, "profiles", "--name", "qiaoma", "--local").splitlines()
    assert lines[0] == (
        "Profile 规则 qiaoma  (built-in profile 内置规则)  敲麻, MIL 2024 competition rules: 中发白 are flowers,"
        " (1 + 花) × 2^番 up to 3 番, 无花 10 花, the knock, 承包"
    )
    assert lines[-len(QIAOMA_SECTION_14) :] == QIAOMA_SECTION_14
    assert "  liability mode 承包方式                        contract partners 承包（竞赛规则）" in lines
    assert ENUM_NAME.findall("\n".join(lines)) == []


def test_qiaoma_lezi_says_its_shape_fan_and_its_cap_in_勒(capsys):
    lines = run(capsys, "profiles", "--name", "qiaoma_lezi", "--local").splitlines()
    start = lines.index("  base fan 兜底番                                1 fan 番")
    assert lines[start : start + 9] == [
        "  base fan 兜底番                                1 fan 番",
        "  shape fan 牌型番                               All pungs 碰碰胡 1 fan 番",
        "                                                 Half flush 混一色 1 fan 番",
        "                                                 Half flush all pungs 混碰 1 fan 番",
        "                                                 Eight flowers 八花 4 fan 番",
        "                                                 Seven pairs 七对 / 七小对 1 fan 番",
        "  cap above 1 喇 封顶加喇                        7 (the cap is 封顶 8 勒 = 80 分)",
        "  cap on fixed values 勒子牌封顶                 yes 是",
        "  all honours need a shape 风一色要成形          yes 是",
    ]
    assert "  fan add up 番数相加                            yes 是" in lines
    assert "  荒番 count limit 荒番上限                      3 荒番 count 荒番数" in lines
    assert "  liability mode 承包方式                        one liable seat 包三口" in lines


def test_every_label_fits_its_column_and_every_value_is_said_in_words(capsys):
    """Padded by display width: in every built-in profile's table each shown field's value starts
    at terminal column 49, whatever the Chinese; every field, section 14's at their defaults too
    (`every_field`, as the explorer shows them), is said in words."""
    from clients.profile_report import LABEL_WIDTH
    from clients.report import display_width
    from convert import message_dict, rule_profile
    from rules_core.profile_words import field_values
    from rules_core.vocabulary import PROFILE_FIELD_WORDS

    for name, label in PROFILE_FIELD_WORDS.items():
        assert display_width(f"{label.en} {label.zh}") <= LABEL_WIDTH, name
    for name, profile in BUILTIN_PROFILES.items():
        said = field_values(message_dict(rule_profile(profile)), every_field=True)
        assert list(said) == [n for n in PROFILE_FIELD_WORDS if n != "name"]
        shown = "\n".join(line for lines in said.values() for line in lines)
        assert ENUM_NAME.findall(shown) == [] and not re.search(r"\b(True|False|None)\b", shown), name
        lines = run(capsys, "profiles", "--name", name, "--local").splitlines()
        labelled = [line for line in lines[2:] if not line.startswith("   ")]
        labels = [
            f"  {PROFILE_FIELD_WORDS[n].en} {PROFILE_FIELD_WORDS[n].zh}"
            for n in field_values(message_dict(rule_profile(profile)))
        ]
        assert [line[: len(label)] for line, label in zip(labelled, labels, strict=True)] == labels
        starts = {
            display_width(line) - display_width(line[len(label) :].lstrip())
            for line, label in zip(labelled, labels, strict=True)
        }
        assert starts == {49}, name

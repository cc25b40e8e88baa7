"""Waits, profiles side by side, comparisons, pasted requests, links that reproduce a view,
and a phone-sized screen, in a real browser."""

from __future__ import annotations

import json
from pathlib import Path

import rules_core as rc
from convert.profile_digest import profile_digest
from server.explorer.vocabulary import vocabulary
from tests.explorer.form import enter, settle
from tests.worked_examples import REQUESTS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_waits_of_a_hand_one_tile_short(page):
    page.click("nav a[data-view=waits]")
    page.fill("#waits-hand", "1112345678999m")
    page.press("#waits-hand", "Enter")
    page.wait_for_selector("#waits-result .waits.discard")
    expected = rc.list_waits_json(
        {"profile": "classic", "seat": 0, "hand": {"concealed": [f"TILE_M{n}" for n in "1112345678999"]}}
    )
    for kind, key in (("discard", "discardWaits"), ("self-draw", "selfDrawWaits")):
        rows = page.locator(f"#waits-result .waits.{kind} tbody tr")
        tiles = rows.evaluate_all("nodes => nodes.map(n => n.dataset.tile)")
        assert tiles == [f"{n}m" for n in range(1, 10)]
        values = rows.locator("td.num").all_inner_texts()
        assert values == [f"{w['result']['value']:g}" for w in expected[key]]
    assert page.locator("#waits-result .waits.discard tbody tr").first.locator("td").nth(2).inner_text() == (
        "清一色 Full flush, 门清 Concealed hand"
    )
    # Issue 20: the count and the V column said what they are in English only, or not at all
    assert page.locator("#waits-result .waits h3").all_inner_texts() == [
        "On a discard 点炮: 9 胡张 winning tile(s)",
        "By self-draw 自摸: 9 胡张 winning tile(s)",
    ]
    assert page.locator("#waits-result .waits.discard thead th").all_inner_texts() == [
        "Tile 牌",
        "每份牌值 value per share V",
        "Patterns 牌型",
    ]


def test_profiles_side_by_side_with_each_fields_meaning(page):
    page.click("nav a[data-view=profiles]")
    page.wait_for_selector("#profiles-table table")
    heads = page.locator("#profiles-table thead th").all_inner_texts()
    assert heads == ["Field 字段 · meaning 含义", "classic", "sankou", "lezi", "qiaoma", "qiaoma_lezi", "qinghunpeng"]
    row = page.locator("#profiles-table tr[data-field=ordinary_lazi_threshold]")
    assert row.locator("td").all_inner_texts() == ["0 (not used 不用)", "8 花", *["0 (not used 不用)"] * 4]
    words = vocabulary()["profileFields"]["ordinary_lazi_threshold"]
    assert row.locator(".field-words").inner_text() == "起喇门槛 喇 threshold"
    assert row.locator(".meaning").all_inner_texts() == [words["zhMeaning"], words["meaning"]]
    assert row.get_attribute("class") == "diff"
    fields = page.locator("#profiles-table tbody tr").evaluate_all("nodes => nodes.map(n => n.dataset.field)")
    assert fields == [name for name in vocabulary()["profileFields"] if name != "name"]  # the heads name them


def test_the_profiles_show_words_never_raw_enum_names(page):
    """Issue 20: the Profiles view showed UNIT_FLOWER, LIABILITY_MODE_NONE, SUITED_PUNG 0."""
    page.click("nav a[data-view=profiles]")
    page.wait_for_selector("#profiles-table table")

    def cells(field: str) -> list[str]:
        return page.locator(f"#profiles-table tr[data-field={field}] td").all_inner_texts()

    assert cells("unit") == ["flowers 花", "flowers 花", "points 分", "flowers 花", "points 分", "points 分"]
    assert cells("liability_mode") == [
        "no liability 不承包",
        "sankou table 吃三口包五家",
        "liability in addition 承包另付",
        "contract partners 承包（竞赛规则）",
        "one liable seat 包三口",
        "one liable seat 包三口",
    ]
    assert cells("flower_values")[0].startswith("flower tile 花牌 1 花, suited pung 数牌刻子 ")
    assert cells("fan_on_fixed")[0] in ("yes 是", "no 否")
    # Issue 20: values with their units, in the words `shmj profiles` prints (rules_core.profile_words)
    assert cells("lazi_value") == ["20 花", "20 花", "10 分", "20 花", "10 分", "10 分"]
    assert cells("robbing_kong_share") == ["3 × V 份"] * 3 + ["1 × V 份", "3 × V 份", "3 × V 份"]
    assert cells("liability_threshold")[2] == "3 claims from one seat 口"
    values = " ".join(page.locator("#profiles-table td").all_inner_texts())
    for raw in ("UNIT_", "LIABILITY_MODE_", "SUITED_PUNG", "COMBINE_FIXED_", "HUANGFAN_MODE_", "true", "false"):
        assert raw not in values


def test_a_hand_under_two_profiles_shows_the_differences(page):
    enter(page, REQUESTS["13"])  # lezi: deltas -10 +20 -10 0; under sankou -20 +40 -20 0 (example 15)
    page.select_option("#compare", "sankou")
    settle(page)
    table = page.locator("#result .comparison table")
    assert table.locator("thead th").all_inner_texts() == ["", "lezi", "sankou"]
    differing = table.locator("tr.diff").evaluate_all("rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    assert ["Seat deltas 输赢", "-10 +20 -10 +0 分", "-20 +40 -20 +0 花"] in differing
    same = table.locator("tbody tr:not(.diff) th").all_inner_texts()
    assert "Seat 1 legal 合法" in same
    lezi, sankou = profile_digest(rc.BUILTIN_PROFILES["lezi"]), profile_digest(rc.BUILTIN_PROFILES["sankou"])
    assert ["Rules (profile digest) 规则摘要", lezi, sankou] in differing


def test_overrides_change_the_value(page):
    enter(page, REQUESTS["1"])  # classic: V = 12
    page.click("#overrides-box summary")
    page.fill("#overrides", '{"ordinaryBase": 5}')
    settle(page)
    assert page.locator("#result .value-number").inner_text() == "16"  # (2 + 1 + 5) x 2


def test_a_pasted_rescore_line_is_settled(page):
    line = (EXAMPLES / "requests.jsonl").read_text().splitlines()[1]
    expected = rc.settle_json(json.loads(line))
    page.click("#paste-box summary")
    page.fill("#paste", line)
    page.click("#load-paste")
    page.wait_for_selector("#result .settlement")
    assert page.locator("#result .deltas .delta").all_inner_texts() == [f"{d:+g}" for d in expected["seatDeltas"]]
    assert page.input_value("#profile") == expected["profile"]
    page.fill("#paste", "{not json")
    page.click("#load-paste")
    assert page.inner_text("#paste-error").startswith("Not JSON 不是JSON: ")


def test_a_link_reproduces_the_view(page, browser, explorer_server):
    enter(page, REQUESTS["12"])
    settle(page)
    link = page.url
    assert "#settle?" in link
    other = browser.new_page()
    try:
        other.goto(link)
        other.wait_for_selector("#result .settlement")
        assert other.locator("#result .deltas .delta").all_inner_texts() == ["+30", "-15", "-15", "+0"]
        assert other.input_value("#winners .winner .w-hand") == page.input_value("#winners .winner .w-hand")
    finally:
        other.close()


def test_a_phone_sized_screen_needs_no_sideways_scrolling(page):
    page.set_viewport_size({"width": 390, "height": 844})
    enter(page, REQUESTS["17"])
    settle(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("#result svg.table-picture").bounding_box()["width"] <= 390


def test_the_fields_of_section_14_are_rows_with_both_languages_and_every_profile_s_value(page):
    """RULES.md section 14's fields beside the others: their labels in Chinese and English, the
    .proto's meaning, and each profile's value, a default said as such (no 否, 0 (no limit 不限))."""
    page.click("nav a[data-view=profiles]")
    page.wait_for_selector("#profiles-table table")

    def row(field: str):
        return page.locator(f"#profiles-table tr[data-field={field}]")

    expected = {
        "fan_additive": ("番数相加 fan add up", ["no 否"] * 4 + ["yes 是"] * 2),
        "dragons_are_flowers": ("中发白算花 dragons are flowers", ["no 否"] * 3 + ["yes 是"] * 2 + ["no 否"]),
        "ordinary_base_fan": ("兜底番 base fan", ["0 fan 番"] * 4 + ["1 fan 番", "0 fan 番"]),
        "cap_lazi_extra": (
            "封顶加喇 cap above 1 喇",
            ["0 (the cap is 封顶 1 喇 = 20 花)"] * 2
            + ["0 (the cap is 封顶 1 勒 = 10 分)", "0 (no cap 不封顶)"]  # qiaoma: uncapped
            + ["7 (the cap is 封顶 8 勒 = 80 分)"] * 2,
        ),
        "max_fan": ("封顶番 fan cap", ["0 (no limit 不限)"] * 3 + ["3 fan 番"] + ["0 (no limit 不限)"] * 2),
        "no_flowers_value": (
            "无花算花 no flowers counts as",
            ["0 (not used 不用)"] * 3 + ["10 flowers 花"] + ["0 (not used 不用)"] * 2,
        ),
        "win_requires_declaration": ("须敲才胡 knock before winning", ["no 否"] * 3 + ["yes 是"] + ["no 否"] * 2),
        "uncapped": ("不封顶 no cap", ["no 否"] * 3 + ["yes 是"] + ["no 否"] * 2),
    }
    meanings = vocabulary()["profileFields"]
    for field, (words, values) in expected.items():
        assert row(field).locator(".field-words").inner_text() == words, field
        assert row(field).locator(".meaning").all_inner_texts() == [
            meanings[field]["zhMeaning"],
            meanings[field]["meaning"],
        ]
        assert meanings[field]["meaning"], field  # the .proto comment
        assert row(field).locator("td").all_inner_texts() == values, field
        assert row(field).get_attribute("class") == "diff"
    shape_fan = row("shape_fan").locator("td").all_inner_texts()
    assert shape_fan[:4] == ["none 无"] * 4 and shape_fan[4] == shape_fan[5]
    assert shape_fan[4].startswith("All pungs 碰碰胡 1 fan 番, Half flush 混一色 1 fan 番, ")


def test_every_profile_menu_offers_the_six_built_in_profiles(page):
    built_in = list(rc.BUILTIN_PROFILES)
    assert built_in == ["classic", "sankou", "lezi", "qiaoma", "qiaoma_lezi", "qinghunpeng"]
    for menu in ("#profile", "#waits-profile", "#advice-profile"):
        assert page.locator(f"{menu} option").all_inner_texts() == built_in, menu
    assert page.locator("#compare option").all_inner_texts() == ["none 不对比", *built_in]

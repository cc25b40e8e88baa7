"""The settle view under the rules of RULES.md section 14, in a real browser: dragon flowers
typed as ``Cf``, the last tile, the knocked seats and a kept pattern entered in the form (or
pasted), and the answer saying in both languages how each 番 acts (added up, with the 兜底番 and
the 牌型番; doubling up to the 番 cap), 无花 counted as 10 花, and why a seat pays under 包三口
and 承包. The profiles are reached through classic's overrides, as a request may."""

from __future__ import annotations

import json

import rules_core as rc
from rules_core.build import claims, winner
from tests.explorer.form import enter, settle

# classic, 番 added up, a 兜底番 and a 牌型番 for all pungs: (3 + 3) × (1 + 1 + 1) = 18.
ADDED = {
    "profile": "classic",
    "outcome": "OUTCOME_SELF_DRAW",
    "overrides": {
        "fanAdditive": True,
        "ordinaryBaseFan": 1,
        "shapeFan": [{"pattern": "PATTERN_ALL_PUNGS", "value": 1}],
    },
    "winners": [{"seat": 0, "hand": {"concealed": "111m 555m 999p EEE 77s", "winningTile": "7s", "flowers": "1f 5f"}}],
}
# 番 doubling up to 1, no flowers counting 10, no cap: (3 + 10) × 2^1 = 26.
CAPPED = {
    "profile": "classic",
    "outcome": "OUTCOME_SELF_DRAW",
    "overrides": {"maxFan": 1, "noFlowersValue": 10, "uncapped": True, "ordinaryHandWins": True},
    "winners": [
        {
            "seat": 0,
            "replacementDraw": True,
            "hand": {"concealed": "123m 456p 789s 234s 55s", "winningTile": "5s"},
        }
    ],
}
# 承包 with the knock (RULES.md 14.10.11 E2's shape): seat 2 is seat 0's partner.
CONTRACT_RULES = {
    "winRequiresDeclaration": True,
    "liabilityMode": "LIABILITY_MODE_CONTRACT",
    "liabilityThreshold": 3,
    "liabilityThresholdUnconditional": 4,
    "liabilityDiscardShare": 1,
}
CONTRACT = {
    "profile": "classic",
    "outcome": "OUTCOME_DISCARD",
    "discarderSeat": 1,
    "declaredSeats": [0, 1],
    "overrides": CONTRACT_RULES,
    "liabilities": [{"claimerSeat": 0, "sourceSeat": 2, "claims": 3, "patternKept": True}],
    "winners": [{"seat": 0, "hand": {"concealed": "567p 11p [WWW@2] [888p@2] [333p@2]", "winningTile": "1p"}}],
}


def paste(page, request: dict) -> None:
    page.evaluate("document.querySelector('#result').replaceChildren()")
    page.click("#paste-box summary")
    page.fill("#paste", json.dumps(request, ensure_ascii=False))
    page.click("#load-paste")
    page.wait_for_selector("#result .settlement, #settle-error:not(:empty)")
    assert page.inner_text("#settle-error") == ""


def effects(page) -> list[tuple[str, str]]:
    rows = page.locator("#result .winner-result .items tbody tr")
    return [(row.get_attribute("data-code"), row.locator("td.num").inner_text()) for row in rows.all()]


def deltas(page) -> list[str]:
    return page.locator("#result .deltas .delta").all_inner_texts()


def test_added_fan_with_base_and_shape_fan_is_said_with_its_sum(page):
    paste(page, ADDED)
    assert effects(page) == [
        ("FLOWER_TILE", "+2"),
        ("WIND_PUNG", "+1"),
        ("ORDINARY_BASE", "+3"),
        ("BASE_FAN", "+1 fan 番"),
        ("ALL_PUNGS", "+1 fan 番"),
        ("CONCEALED", "+1 fan 番"),
    ]
    names = page.locator("#result .items tbody tr td[lang=zh]").all_inner_texts()
    assert names[3:5] == ["兜底番", "碰碰胡（牌型番）"]
    assert page.inner_text("#result .value-sum") == "fan add up 番相加: (3 + 3) × 3 = 18"
    assert page.inner_text("#result .value-number") == "18"
    assert deltas(page) == ["+54", "-18", "-18", "-18"]


def test_the_fan_cap_and_no_flowers_as_ten(page):
    paste(page, CAPPED)
    assert effects(page) == [
        ("NO_FLOWERS", "+10"),
        ("ORDINARY_BASE", "+3"),
        ("KONG_BLOOM", "x2 (1 fan 番)"),
        ("CONCEALED", "x2 (1 fan 番)"),
        ("FAN_CAP", "-1 fan 番"),
    ]
    assert page.inner_text("#result .value-sum") == (
        "each fan doubles 番翻倍, fan used at most 1 番数封顶: (3 + 10) × 2^1 = 26"
    )
    assert deltas(page) == ["+78", "-26", "-26", "-26"]


def test_dragon_flowers_and_the_last_tile_are_typed_in_the_form(page):
    request = rc.SettleRequest(
        "classic",
        rc.Outcome.SELF_DRAW,
        (winner(2, "111m 555m 999p EEE 77s", win="7s", flowers="1f Cf Pf", last_tile=True),),
        overrides={"dragons_are_flowers": True},
    )
    enter(page, request)
    card = page.locator("#winners .winner").first
    assert card.locator(".w-flowers").input_value() == "1f Cf Pf"
    assert card.locator(".w-last").is_checked()
    page.click("#overrides-box summary")
    page.fill("#overrides", '{"dragonsAreFlowers": true, "fan": [{"pattern": "PATTERN_LAST_TILE", "value": 1}]}')
    settle(page)
    assert page.inner_text("#settle-error") == ""
    shown = page.locator("#result .pattern").evaluate_all("nodes => nodes.map(n => n.dataset.pattern)")
    assert shown == ["ALL_PUNGS", "CONCEALED", "LAST_TILE"]
    assert "(花 flowers 4)" in page.inner_text("#result .winner-result h3")  # 1f Cf Pf and the wind pung
    assert ("LAST_TILE", "x2 (1 fan 番)") in effects(page)
    assert deltas(page) == ["-20", "-20", "+60", "-20"]


def test_a_knock_and_a_kept_pattern_say_who_pays_under_contract(page):
    paste(page, CONTRACT)
    assert page.input_value("#declared") == "0,1"
    assert page.input_value("#claims") == "0:2:3:kept"
    rows = page.locator("#result .payment-list li").all_inner_texts()
    assert rows[1].endswith(
        "(seat 0 claimed 3 times from seat 2 座位0吃碰座位2 3口; its melds keep a pattern"
        " 副露仍可成碰碰和、混一色或清一色; 承包: contract partners 承包：互为承包方)"
    )
    assert deltas(page) == ["+8", "-4", "-4", "+0"]
    page.fill("#declared", "0")  # the discarder has not knocked: it pays its partner's share too
    settle(page)
    rows = page.locator("#result .payment-list li").all_inner_texts()
    assert rows[1].endswith("(seat 1 had not knocked: pays every share 未敲，包付全部)")
    assert deltas(page) == ["+8", "-8", "+0", "+0"]
    page.fill("#declared", "1")
    settle(page)
    reasons = page.locator("#result .reasons li").evaluate_all("nodes => nodes.map(n => n.dataset.reason)")
    assert reasons == ["NOT_DECLARED"]


def test_baosankou_is_paid_once_by_the_liable_seat(page):
    request = rc.SettleRequest(
        "classic",
        rc.Outcome.SELF_DRAW,
        (winner(0, "666m 88p [222s@3] [444p@3] [WWW@3]", win="8p", flowers="8f"),),
        liabilities=(claims(0, 3, 3), claims(3, 0, 3)),
    )
    enter(page, request)
    page.click("#overrides-box summary")
    page.fill("#overrides", '{"liabilityMode": "LIABILITY_MODE_BAOSANKOU", "liabilitySelfDrawShare": 5}')
    settle(page)
    rows = page.locator("#result .payment-list li").all_inner_texts()
    assert len(rows) == 1 and rows[0].endswith("包三口: one liable seat pays 包三口：一家赔付)")
    assert "pays twice" not in rows[0]
    assert deltas(page) == ["+25", "+0", "+0", "-25"]


def test_a_comparison_words_each_sides_items_as_its_profile_makes_them(page):
    """Overrides apply to both sides: lezi's 番 add up too, its ordinary base 5 (lezi's)."""
    page.select_option("#compare", "lezi")
    paste(page, ADDED)
    rows = page.locator("#result .comparison tbody tr")
    items = next(row for row in rows.all() if row.locator("th").inner_text() == "Seat 0 items 项目")
    left, right = (cell.locator("div").all_inner_texts() for cell in items.locator("td").all())
    assert left[3:] == [
        "Base fan 兜底番 +1 fan 番",
        "All pungs (shape fan) 碰碰胡（牌型番） +1 fan 番",
        "Concealed hand 门清 +1 fan 番",
        "fan add up 番相加: (3 + 3) × 3 = 18",
    ]
    assert right[-1].startswith("fan add up 番相加: (")

"""The Advice 牌效 view in a real browser: RULES.md section 15.7's worked examples typed into the
form and read back from the page exactly (the shanten, the paths, the options in order with their
useful tiles, live counts and waits), live counts from the `seen` field, melds in their own field,
a link that reproduces the view, and bad input named by its field."""

from __future__ import annotations

import json

import pytest

from rules_core.vocabulary import term


def zh_en(key: str) -> str:
    """A label as the page shows it: Chinese, then English (as `term` of explorer.js)."""
    words = term(key)  # "English 中文", as the CLI prints it
    english, chinese = words.rsplit(" ", 1)
    return f"{chinese} {english}"


def advise(page, hand: str, seat: int = 0, melds: str = "", seen: str = "", profile: str = "classic") -> None:
    page.click("nav a[data-view=advice]")
    page.fill("#advice-hand", hand)
    page.fill("#advice-melds", melds)
    page.fill("#advice-seen", seen)
    page.fill("#advice-seat", str(seat))
    page.select_option("#advice-profile", profile)
    page.evaluate("document.querySelector('#advice-result').replaceChildren()")
    page.click("#advice-button")
    page.wait_for_selector("#advice-result .advice, #advice-error:not(:empty), #advice-fields-error:not(:empty)")


def useful_said(cell) -> str:
    """``1p 1, 4p 4``: each useful tile of a cell or section and the live count under it."""
    return ", ".join(
        cell.locator(".useful").evaluate_all("nodes => nodes.map(n => `${n.dataset.tile} ${n.dataset.live}`)")
    )


def waits_said(cell) -> str:
    """``7s 2 × V 6, C 1 × V 10``: each wait's tile, live count and value as the page writes them."""
    return ", ".join(
        cell.locator(".wait").evaluate_all("nodes => nodes.map(n => n.dataset.tile + n.lastChild.textContent)")
    )


def option_rows(page) -> list[tuple]:
    rows = page.locator("#advice-result .advice-options tbody tr")
    said = []
    for index in range(rows.count()):
        row = rows.nth(index)
        cells = row.locator("td")
        said.append(
            (
                row.get_attribute("data-tile"),
                row.get_attribute("class") == "best",
                cells.nth(1).inner_text(),
                useful_said(cells.nth(2)),
                cells.nth(3).inner_text(),
                waits_said(cells.nth(4)),
                cells.nth(5).inner_text(),
            )
        )
    return said


def path_rows(page) -> list[tuple[str, str]]:
    return [
        tuple(row)
        for row in page.locator("#advice-result .advice-paths tbody tr").evaluate_all(
            "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
        )
    ]


def test_example_9_options_in_order_live_value_before_live_total(page):
    advise(page, "111p 222p 333p 7789p C", seat=1)
    assert page.inner_text("#advice-result h3.shanten") == "向听数 Shanten: 0 听牌 ready"
    assert option_rows(page) == [
        ("C", True, "0", "7p 2", "2", "7p 2 × V 20", "40"),
        ("7p", False, "0", "C 3", "3", "C 3 × V 6", "18"),
        ("1p", False, "1", "1p 1, 4p 4, 5p 4, 6p 4, 7p 2, 8p 3, 9p 3, C 3", "24", "", ""),
        ("2p", False, "1", "2p 1, 5p 4, 6p 4, 7p 2, 8p 3, 9p 3, C 3", "20", "", ""),
        ("3p", False, "1", "3p 1, 5p 4, 6p 4, 7p 2, 8p 3, 9p 3, C 3", "20", "", ""),
        ("9p", False, "1", "6p 4, 7p 2, 8p 3, 9p 3, C 3", "15", "", ""),
        ("8p", False, "1", "7p 2, 8p 3, 9p 3, C 3", "11", "", ""),
    ]
    assert page.locator("#advice-result .advice-options tr.best .best-mark").all_inner_texts() == [zh_en("best")]
    assert page.locator("#advice-result .advice-options thead th").all_inner_texts() == [
        "打出 Discard",
        "打后向听 shanten after",
        "有效牌 Useful tiles (剩余张数 live)",
        "合计 total",
        "听牌 Waits (剩余张数 live × V)",
        "剩余价值 live value",
    ]
    assert path_rows(page)[:2] == [("混一色 Half flush 筒 dots", "0"), ("清一色 Full flush 筒 dots", "0")]


def test_example_1_and_2_a_ready_hand_its_waits_and_a_dead_wait_from_seen(page):
    advise(page, "111m 555m 999p CC 77s", seat=1)
    assert (
        page.inner_text("#advice-result .advice-useful h3") == "有效牌 Useful tiles (剩余张数 live): 2 · 合计 total 4"
    )
    assert useful_said(page.locator("#advice-result .advice-useful")) == "7s 2, C 2"
    waits = page.locator("#advice-result .advice-wait-list tbody tr")
    assert waits.evaluate_all(
        "rows => rows.map(r => [r.dataset.tile, ...[...r.cells].slice(1).map(c => c.textContent)])"
    ) == [
        ["7s", "2", "6"],
        ["C", "2", "10"],
    ]
    assert page.inner_text("#advice-result .advice-wait-list h3") == "听牌 Waits: 2 · 剩余价值 live value 32"
    # paths: ALL_PUNGS 0, then the half flush of 万 at 5 (only 111m 555m CC fit it)
    assert path_rows(page)[:2] == [("碰碰胡 All pungs", "0"), ("混一色 Half flush 万 characters", "5")]

    advise(page, "111m 555m 999p CC 77s", seat=1, seen="C C 7s")
    assert page.inner_text("#advice-result h3.shanten") == "向听数 Shanten: 0 听牌 ready"  # seen changes no distance
    assert useful_said(page.locator("#advice-result .advice-useful")) == "7s 1, C 0"
    assert page.locator("#advice-result .advice-useful .useful.dead").get_attribute("data-tile") == "C"
    assert page.inner_text("#advice-result .advice-wait-list h3") == "听牌 Waits: 2 · 剩余价值 live value 6"
    assert page.locator("#advice-result .seen .tile").evaluate_all("ns => ns.map(n => n.dataset.tile)") == [
        "7s",
        "C",
        "C",
    ]


def test_example_3_melds_in_their_own_field_big_hanging_and_dead_under_lezi(page):
    melds = "[123m@3] [456p@3] [789s@3] [EEE@1]"
    advise(page, "7s", melds=melds)
    assert path_rows(page) == [("大吊车 Big hanging (single wait after four melds)", "0")]
    assert page.locator("#advice-result .advice-wait-list tbody tr").evaluate_all(
        "rows => rows.map(r => [r.dataset.tile, ...[...r.cells].slice(1).map(c => c.textContent)])"
    ) == [["7s", "2", "20"]]
    assert page.locator("#advice-result .group.meld").count() == 4
    advise(page, "7s", melds=melds, profile="lezi")
    assert page.inner_text("#advice-result h3.shanten") == "向听数 Shanten: 死手 dead holding"
    assert (
        page.inner_text("#advice-result .dead-holding")
        == "这些副露下没有可胡的路线 no legal win can be reached with these melds"
    )
    assert page.locator("#advice-result .advice-paths, #advice-result .advice-options").count() == 0


def test_example_10_a_holding_that_is_already_a_win(page):
    advise(page, "111m 555m 999p CCC 77s", seat=1)
    assert page.inner_text("#advice-result h3.shanten") == "向听数 Shanten: -1 合法胡牌 a legal win"
    rows = option_rows(page)
    assert [(r[0], r[1], r[6]) for r in rows] == [
        ("1m", True, "30"),
        ("5m", True, "30"),
        ("9p", True, "30"),
        ("C", False, "22"),
        ("7s", False, "20"),
    ]
    assert [r[5] for r in rows] == [  # live counted on the 14 tiles: the discarded tile lies on the table
        "1m 1 × V 10, 7s 2 × V 10",
        "5m 1 × V 10, 7s 2 × V 10",
        "9p 1 × V 10, 7s 2 × V 10",
        "7s 2 × V 6, C 1 × V 10",
        "7s 2 × V 10",
    ]


def test_a_link_reproduces_the_advice(page, explorer_server):
    advise(page, "111m 555m 999p CC 77s", seat=1, seen="C C 7s")
    link = page.url
    other = page.context.new_page()
    other.goto(link)
    other.wait_for_selector("#advice-result .advice")
    assert other.input_value("#advice-seen") == "C C 7s"
    assert useful_said(other.locator("#advice-result .advice-useful")) == "7s 1, C 0"
    assert other.get_attribute("nav a[data-view=advice]", "aria-current") == "page"
    other.close()


@pytest.mark.parametrize(
    ("field", "selector", "text", "message"),
    [
        ("hand", "#advice-hand", "111m 5x5m", "手牌 hand: 111m 5x5m 记法有误 cannot read:"),
        ("melds", "#advice-melds", "123m", "副露 melds: 123m 记法有误 cannot read: melds are written in brackets"),
        ("seen", "#advice-seen", "7s 9z", "已见牌 seen: 7s 9z 记法有误 cannot read:"),
    ],
)
def test_unreadable_notation_is_marked_in_its_field(page, field, selector, text, message):
    fields = {"hand": "111m 555m 999p CC 77s", "melds": "", "seen": ""}
    fields[field] = text
    advise(page, fields["hand"], melds=fields["melds"], seen=fields["seen"])
    error = page.locator(f"#advice-fields-error .notation-error[data-field={field}]")
    assert error.inner_text().startswith(message)
    assert page.get_attribute(selector, "aria-invalid") == "true"
    assert page.locator("#advice-result").inner_text() == ""


def test_a_holding_the_server_refuses_is_named_by_its_field(page):
    advise(page, "111m 555m")
    assert page.inner_text("#advice-error p") == "请求有误 invalid request (INVALID_ARGUMENT)"
    assert page.locator("#advice-error .violation").all_inner_texts() == [
        "hand.concealed: 0 meld(s) leave 13 or 14 concealed tiles, got 6"
    ]
    assert page.get_attribute("#advice-hand", "aria-invalid") == "true"
    advise(page, "111m 555m 999p CC 77s", seen="1m 1m")
    assert page.locator("#advice-error .violation").all_inner_texts() == [
        "seen: a tile has only four copies: 1m x5 (3 held, 2 seen)"
    ]
    assert page.get_attribute("#advice-seen", "aria-invalid") == "true"
    assert page.get_attribute("#advice-hand", "aria-invalid") is None
    assert page.locator("#advice-result").inner_text() == ""


CLASSIC_WITHOUT_FULL_FLUSHES = [
    f"PATTERN_{name}"
    for name in (
        "ALL_PUNGS",
        "HALF_FLUSH",
        "HALF_FLUSH_PUNGS",
        "ALL_HONOURS",
        "ALL_HONOURS_PUNGS",
        "EIGHT_FLOWERS",
        "BIG_HANGING",
        "HEAVENLY",
        "EARTHLY",
        "KONG_BLOOM",
    )
]


def test_example_4_under_overrides_a_half_flush_needs_an_honour(page):
    advise(page, "123p 456p 789p 11p 55p")
    assert page.inner_text("#advice-result h3.shanten") == "向听数 Shanten: 0 听牌 ready"
    assert useful_said(page.locator("#advice-result .advice-useful")) == "1p 1, 4p 3, 5p 1, 6p 3, 7p 3, 9p 3"
    page.click("#advice-overrides-box summary")
    page.fill("#advice-overrides", json.dumps({"qualifying_patterns": CLASSIC_WITHOUT_FULL_FLUSHES}))
    advise(page, "123p 456p 789p 11p 55p")
    assert page.inner_text("#advice-result h3.shanten") == "向听数 Shanten: 1"
    assert useful_said(page.locator("#advice-result .advice-useful")) == "E 4, S 4, W 4, N 4, C 4, F 4, P 4"
    assert (
        page.inner_text("#advice-result .advice-useful h3") == "有效牌 Useful tiles (剩余张数 live): 7 · 合计 total 28"
    )
    assert page.locator("#advice-result .advice-wait-list").count() == 0
    assert [shanten for _, shanten in path_rows(page)] == ["1", "4", "5", "13", "13", "13", "13", "13", "13"]


def test_overrides_that_are_not_json_are_named(page):
    page.click("nav a[data-view=advice]")
    page.click("#advice-overrides-box summary")
    page.fill("#advice-overrides", "{lazi_value: 5}")
    advise(page, "123p 456p 789p 11p 55p")
    assert page.inner_text("#advice-fields-error .overrides-error").startswith(
        "规则修改 overrides: 不是JSON not JSON: "
    )
    assert page.get_attribute("#advice-overrides", "aria-invalid") == "true"
    page.fill("#advice-overrides", '{"lazi_value": -5}')
    advise(page, "123p 456p 789p 11p 55p")
    assert page.locator("#advice-error .violation").evaluate_all("ns => ns.map(n => n.dataset.field)") == [
        "overrides.lazi_value"
    ]
    assert page.get_attribute("#advice-overrides", "aria-invalid") == "true"


def test_the_keyboard_alone_advises(page):
    page.click("nav a[data-view=advice]")
    page.focus("#advice-hand")
    page.keyboard.type("111m 555m 999p CC 77s")
    for _ in range(3):  # melds, flowers, seen
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "advice-seen"
    page.keyboard.type("C C 7s")
    page.keyboard.press("Enter")
    page.wait_for_selector("#advice-result .advice")
    assert useful_said(page.locator("#advice-result .advice-useful")) == "7s 1, C 0"

"""What a new user and a support person meet in the explorer, each in a real browser: payment
arrows that keep their heads, a comparison that says its units, a pasted message taken to the
view it belongs to, a held pattern that adds nothing explained, and the words of the replay."""

from __future__ import annotations

import json
from pathlib import Path

from tests.explorer.form import enter, open_explorer, settle
from tests.worked_examples import REQUESTS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RECORD = (EXAMPLES / "record.json").read_text()


def first_line(name: str) -> str:
    return (EXAMPLES / name).read_text().splitlines()[0]


def replay(page, text: str) -> None:
    page.click("nav a[data-view=replay]")
    page.fill("#record", text)
    page.click("#replay-button")
    page.wait_for_selector("#replay-result:not([hidden]), #replay-error:not(:empty)")


def test_replay_arrows_keep_their_heads_after_a_settle(page):
    """Both pictures named their marker `arrow`: Replay's arrows took the hidden Settle one, and
    a marker in a hidden view is not drawn."""
    settle(page)
    replay(page, RECORD)
    page.click("#replay-end")
    arrows = page.evaluate(
        """() => [...document.querySelectorAll('line.payment')].map((line) => {
            const id = line.getAttribute('marker-end').match(/^url\\(#(.+)\\)$/)[1];
            const marker = document.getElementById(id);
            return [line.closest('section').id || line.closest('#replay-picture, #result').id,
                    marker !== null && marker.closest('svg') === line.closest('svg')];
        })"""
    )
    assert sorted(arrows) == [["replay-picture", True]] + [["result", True]] * 3
    ids = page.evaluate("() => [...document.querySelectorAll('[id]')].map((node) => node.id)")
    assert len(ids) == len(set(ids))


def test_a_comparison_says_its_units_and_both_sides_items(page):
    page.select_option("#compare", "lezi")
    settle(page)
    rows = page.locator("#result .comparison tbody tr").evaluate_all(
        "rows => rows.map(row => [...row.children].map(cell => cell.innerText))"
    )
    table = {label: (left, right) for label, left, right in rows}
    assert table["Unit 单位"] == ("花 flowers", "分 points")
    assert table["Seat 0 V 每份牌值"] == ("12 花", "5 分")
    assert table["Seat deltas 输赢"] == ("+36 -12 -12 -12 花", "+15 -5 -5 -5 分")
    assert table["Seat 0 items 项目"] == (
        "Flower tile x2 花牌 +2\nWind pung 风刻 +1\nBase flowers 底注花 +3\nConcealed hand 门清 x2 (1 fan 番)",
        "Flower tile x2 花牌 +2\nWind pung 风刻 +1\nBase points 底分 +2",
    )


def test_a_comparison_fits_a_1400_pixel_window(browser, explorer_server):
    page = open_explorer(browser, explorer_server.http_url, 1400, 900)
    page.select_option("#compare", "lezi")
    settle(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1400
    page.close()


def test_a_hand_record_pasted_into_settle_is_replayed(page):
    page.click("#paste-box summary")
    page.fill("#paste", first_line("records.jsonl"))
    page.click("#load-paste")
    page.wait_for_selector("#replay-result:not([hidden])")
    assert page.is_hidden("#view-settle") and page.is_visible("#view-replay")
    assert json.loads(page.input_value("#record")) == json.loads(first_line("records.jsonl"))
    assert page.inner_text("#replay-note") == (
        "This is a hand record (SettleRecordRequest): replayed here. 这是牌谱，已在牌谱回放中打开。"
    )
    assert page.inner_text("#paste-error") == ""


def test_a_settle_request_pasted_into_replay_is_settled(page):
    page.click("nav a[data-view=replay]")
    page.fill("#record", first_line("requests.jsonl"))
    page.click("#replay-button")
    page.wait_for_selector("#result .settlement")
    assert page.is_visible("#view-settle") and page.is_hidden("#view-replay")
    assert page.inner_text("#replay-error") == ""
    assert page.inner_text("#settle-note") == (
        "This is a SettleRequest, not a hand record: settled here. 这是结算请求，不是牌谱，已在结算中打开。"
    )
    assert page.input_value("#winners .winner .w-seat") == "3"
    assert page.locator("#result .deltas .delta").all_inner_texts() == ["-32", "-32", "-32", "+96"]


def test_a_held_pattern_that_adds_nothing_says_why(page):
    enter(page, REQUESTS["12"])
    settle(page)
    assert page.locator("#result .winner-result .no-value").all_inner_texts() == [
        "混一色 Half flush adds nothing here: in lezi it makes a hand legal (可胡番型 qualifying patterns) but has"
        " no value of its own; the hand is valued as an ordinary one, base and 花. 本规则中此牌型只使胡牌合法，不另计分。",
        "抢杠 Robbing a kong adds nothing here: in lezi it is neither a fixed value, a 番 nor a qualifying pattern:"
        " it counts for nothing in the value. 本规则中此牌型不计分。",
    ]


def test_a_pattern_under_a_fixed_value_says_the_value_is_that_one(page):
    enter(page, REQUESTS["17"])  # seat 0: 混碰, with 碰碰胡 and 混一色 held too
    settle(page)
    assert page.locator("#result .winner-result[data-seat='0'] .no-value").all_inner_texts() == [
        f"{words} adds nothing here: in classic it makes a hand legal (可胡番型 qualifying patterns) but has no value"
        " of its own; the value is the fixed value of 混碰 Half flush all pungs. 此牌型只使胡牌合法，牌值取定值牌型。"
        for words in ("碰碰胡 All pungs", "混一色 Half flush")
    ]


def test_a_notation_error_is_said_in_both_languages(page):
    page.fill("#winners .winner .w-hand", "123m 4x5p [789s@7] 11s EEE")
    page.locator("#winners .winner .notation-error").wait_for()
    text = page.inner_text("#winners .winner .notation-error")
    assert text.startswith("手牌 hand: 123m 4x5p [789s@7] 11s EEE 记法有误 cannot read: ")
    assert text.endswith(" (字符位置 6 at character 6)")


def test_an_empty_seat_s_label_stays_on_one_line(page):
    replay(page, RECORD)  # event 0: seat 0 is dealt, the others hold nothing yet
    label = page.locator(".replay-seat[data-seat='1'] .group.concealed small")
    assert label.inner_text() == "concealed 暗牌"
    box = label.bounding_box()
    line_height = label.evaluate("node => parseFloat(getComputedStyle(node).lineHeight)")
    assert box["height"] < 1.5 * line_height, box


def test_replay_says_events_in_the_cli_s_words(page):
    replay(page, RECORD)
    page.click("#replay-next-pass")
    assert page.inner_text("#replay-event") == "event 10 of 13 第10步: seat 3 discards 打出 2m"


def test_the_recorded_deltas_come_before_the_settlement(page):
    replay(page, RECORD)
    page.click("#replay-end")
    order = page.evaluate(
        "() => [...document.querySelectorAll('#replay-picture .recorded, #replay-picture .settlement,"
        " #replay-picture details')].map((node) => node.className || node.tagName)"
    )
    assert order[0] == "recorded" and order.index("recorded") < order.index("settlement"), order

"""The waits view under the rules of RULES.md section 14, in a real browser: the knocked seats
(敲: under qiaoma a seat that has not knocked has no wait, and the page says so as
``shmj waits`` does), the last tile (海底捞月) and dragon flowers typed ``Cf`` in the hand, each
bad field named. qiaoma is reached through classic's overrides, as a request may."""

from __future__ import annotations

import json

from convert.json_write import profile_dict
from rules_core.builtin_profiles import BUILTIN_PROFILES

QIAOMA = {key: value for key, value in profile_dict(BUILTIN_PROFILES["qiaoma"]).items() if key != "name"}
NOT_KNOCKED = "seat 0 座位0: 未敲，不能胡牌 has not knocked, and may win only once it has (Knocked seats 已敲: 0)"


def list_waits(page, hand: str, declared: str = "", last: bool = False) -> None:
    page.click("nav a[data-view=waits]")
    page.fill("#waits-hand", hand)
    page.fill("#waits-declared", declared)
    page.locator("#waits-last").set_checked(last)
    if not page.locator("#waits-overrides-box").evaluate("box => box.open"):
        page.click("#waits-overrides-box summary")
    page.fill("#waits-overrides", json.dumps(QIAOMA))
    page.evaluate("document.querySelector('#waits-result').replaceChildren()")
    page.press("#waits-hand", "Enter")
    page.wait_for_selector("#waits-result .waits.self-draw, #waits-error:not(:empty), #waits-hand-error:not(:empty)")


def waits(page, kind: str) -> list[tuple[str, str, str]]:
    rows = page.locator(f"#waits-result .waits.{kind} tbody tr").all()
    return [
        (row.get_attribute("data-tile"), row.locator("td.num").inner_text(), row.locator("td").nth(2).inner_text())
        for row in rows
    ]


def test_a_seat_that_has_not_knocked_has_no_wait_and_is_told_why(page):
    """``shmj waits "123m 123p 123s 789m N" --profile qiaoma``: 0 and 0, seat 0 has not knocked."""
    list_waits(page, "123m 123p 123s 789m N")
    assert page.locator("#waits-result .waits h3").all_inner_texts() == [
        "On a discard 点炮: 0 胡张 winning tile(s)",
        "By self-draw 自摸: 0 胡张 winning tile(s)",
    ]
    assert page.inner_text("#waits-result .not-knocked") == NOT_KNOCKED
    list_waits(page, "123m 123p 123s 789m N", declared="1, 2")  # others knocked, not seat 0
    assert waits(page, "discard") == [] and page.inner_text("#waits-result .not-knocked") == NOT_KNOCKED


def test_once_knocked_the_seat_waits_on_north_with_no_flowers_as_ten(page):
    """``--declared 0``: N, V = (1 + 10) × 2^1 = 22 both ways; the last tile only on a self-draw."""
    list_waits(page, "123m 123p 123s 789m N", declared="0")
    both = [("N", "22", "门清 Concealed hand, 无花果 / 无花 No flowers")]
    assert waits(page, "discard") == both and waits(page, "self-draw") == both
    assert page.locator("#waits-result .not-knocked").count() == 0
    list_waits(page, "123m 123p 123s 789m N", declared="0", last=True)
    assert waits(page, "discard") == both
    assert waits(page, "self-draw") == [
        ("N", "22", "门清 Concealed hand, 无花果 / 无花 No flowers, 海底捞月 Win on the last tile")
    ]
    assert json.loads(page.evaluate("decodeURIComponent(location.hash.split('?')[1])"))["last"] is True


def test_a_dragon_flower_in_the_hand_counts_one_flower(page):
    """Cf is a flower under qiaoma: no 无花, V = (1 + 1) × 2^1 = 4 on 6m and 9m."""
    list_waits(page, "123m 123p 123s 78m 99s Cf", declared="0")
    assert waits(page, "discard") == [("6m", "4", "门清 Concealed hand"), ("9m", "4", "门清 Concealed hand")]
    assert page.locator("#waits-result .dragon-flowers .tile").evaluate_all("ts => ts.map(t => t.dataset.tile)") == [
        "C"
    ]


def test_a_link_keeps_the_knocks_the_last_tile_and_the_overrides(page, browser, explorer_server):
    list_waits(page, "123m 123p 123s 789m N", declared="0", last=True)
    context = browser.new_context(base_url=explorer_server.http_url)
    other = context.new_page()
    other.goto("/" + page.evaluate("location.hash"))
    other.wait_for_selector("#waits-result .waits.self-draw")
    assert other.input_value("#waits-declared") == "0" and other.locator("#waits-last").is_checked()
    assert waits(other, "self-draw") == waits(page, "self-draw")
    context.close()


def test_bad_knocked_seats_and_bad_overrides_are_named_by_field(page):
    list_waits(page, "123m 123p 123s 789m N", declared="0, 7")
    error = page.locator("#waits-hand-error .notation-error")
    assert error.get_attribute("data-field") == "declared"
    assert error.locator(".field-name").inner_text() == "已敲 knocked seats: "
    assert error.locator(".bad-token").inner_text() == "7"
    assert page.locator("#waits-result > *").count() == 0
    page.fill("#waits-declared", "0")
    page.fill("#waits-overrides", "{not json")
    page.press("#waits-hand", "Enter")
    page.wait_for_selector("#waits-hand-error [data-field=overrides]")
    assert page.inner_text("#waits-hand-error").startswith("规则修改 overrides: 不是 JSON not JSON: ")
    page.fill("#waits-overrides", '{"maxFan": -1}')
    page.press("#waits-hand", "Enter")
    page.wait_for_selector("#waits-error .violation")
    assert page.locator("#waits-error .violation code").all_inner_texts() == ["overrides.max_fan"]

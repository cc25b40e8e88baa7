"""The explorer findings of issue 20, each in a real browser: what support staff saw that
was wrong or stale."""

from __future__ import annotations

from tests.explorer.form import settle


def test_a_waits_error_shows_its_violation_and_no_stale_table(page):
    """The error was followed by a literal [object HTMLDivElement], above the last hand's waits."""
    page.click("nav a[data-view=waits]")
    page.fill("#waits-hand", "1112345678999m")
    page.press("#waits-hand", "Enter")
    page.wait_for_selector("#waits-result .waits.discard")
    page.fill("#waits-hand", "11123456789999m")  # 14 tiles: not one tile short
    page.press("#waits-hand", "Enter")
    page.wait_for_selector("#waits-error .violation")
    text = page.inner_text("#waits-error")
    assert "[object" not in text
    assert page.locator("#waits-error .violation").all_inner_texts() == [
        "hand.concealed: 0 meld(s) leave 13 concealed tiles, got 14"
    ]
    assert page.locator("#waits-result").inner_html() == ""


def test_a_hand_edited_into_an_invalid_one_clears_the_old_result(page):
    page.fill("#winners .winner .w-hand", "111m 555m 999p EEE 77s")
    page.fill("#winners .winner .w-win", "7s")
    settle(page)
    assert page.locator("#result .settlement").count() == 1
    page.fill("#winners .winner .w-hand", "111m 555m 999p EEE 7x")  # not a tile
    page.wait_for_selector("#winners .winner .notation-error")
    assert page.locator("#result").inner_html() == ""


def test_a_violation_not_tied_to_a_winner_is_printed_once(page):
    page.fill("#winners .winner .w-hand", "111m 555m 999p EEE 77s")
    page.fill("#winners .winner .w-win", "7s")
    page.click("#overrides-box summary")
    page.fill("#overrides", '{"laziValue": 0}')
    settle(page)
    text = page.inner_text("#settle-error")
    assert text.count("overrides.lazi_value") == 1, text
    assert text.startswith("请求有误 invalid request (INVALID_ARGUMENT)\n")  # issue 20: the code said in words
    assert page.locator("#settle-error .violation").count() == 1


def test_a_draw_or_an_abandon_leaves_no_winner_behind(page):
    for outcome in ("OUTCOME_EXHAUSTIVE_DRAW", "OUTCOME_ABANDON"):
        page.select_option("#outcome", "OUTCOME_SELF_DRAW")
        if page.locator("#winners .winner").count() == 0:
            page.click("#add-winner")
        page.select_option("#outcome", outcome)
        assert page.locator("#winners .winner").count() == 0, outcome


def _boxes(page, selector: str) -> list[dict]:
    return page.locator(selector).evaluate_all(
        "nodes => nodes.map(n => { const b = n.getBBox(); return {x: b.x, y: b.y, right: b.x + b.width,"
        " bottom: b.y + b.height, text: n.textContent}; })"
    )


def test_the_dealer_mark_and_the_amounts_stay_inside_the_picture(page):
    """The 庄 mark was clipped at the right edge when seat 1 dealt next; the amounts sat on the table's edge."""
    from tests.explorer.form import enter
    from tests.worked_examples import WORKED_EXAMPLES

    request = next(r for name, r, _, _ in WORKED_EXAMPLES if name == "13-both")  # seat 1 deals next
    enter(page, request)
    settle(page)
    (mark,) = _boxes(page, "#result svg text.dealer-mark")
    assert mark["text"] == "庄"
    assert 0 <= mark["x"] and mark["right"] <= 320 and 0 <= mark["y"] and mark["bottom"] <= 320, mark
    (felt,) = _boxes(page, "#result svg rect.felt")
    for amount in _boxes(page, "#result svg text.amount"):
        inside = felt["x"] <= amount["x"] and amount["right"] <= felt["right"]
        assert inside and felt["y"] <= amount["y"] and amount["bottom"] <= felt["bottom"], (amount, felt)


def test_every_placeholder_fits_its_input(page):
    too_narrow = page.evaluate(
        """() => [...document.querySelectorAll('input[placeholder]')].filter((input) => {
            const style = getComputedStyle(input);
            const context = document.createElement('canvas').getContext('2d');
            context.font = `${style.fontSize} ${style.fontFamily}`;
            const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            return input.offsetParent !== null && context.measureText(input.placeholder).width > room;
        }).map((input) => input.id)"""
    )
    assert too_narrow == []


def test_the_table_fields_line_up(page):
    """ "荒番 count" was one line where the others have two (English, then Chinese)."""
    boxes = page.evaluate(
        "() => ['dealer', 'discarder', 'huangfan', 'dice'].map((id) => {"
        " const label = document.getElementById(id).closest('label').getBoundingClientRect();"
        " return [label.top, label.height]; })"
    )
    assert len({tuple(box) for box in boxes}) == 1, boxes


def test_every_number_of_a_settlement_says_what_it_is_in_both_languages(page):
    """Issue 20: the profile line, V, its base, the amounts, 荒番 after the dice were English or bare."""
    page.fill("#winners .winner .w-hand", "111m 555m 999p EEE 77s")
    page.fill("#winners .winner .w-win", "7s")
    page.fill("#winners .winner .w-flowers", "1f 5f")
    settle(page)
    result = page.locator("#result")
    assert result.locator(".profile-line").inner_text() == "规则 Profile classic (单位 unit: 花 flowers)"
    assert result.locator(".winner-result h3").inner_text() == "Seat 0 合法 legal (花 flowers 3)"
    assert result.locator(".winner-result .value").inner_text() == (
        "每份牌值 value per share V = 12 花 (倍数前 before multipliers 12)"
    )
    assert result.locator(".payment-list li").all_inner_texts() == [
        f"seat {seat} → seat 0 12 花 自摸 self-draw" for seat in (1, 2, 3)
    ]
    assert result.locator(".huangfan-after").inner_text() == "掷骰后荒番数 荒番 count after the dice 0"
    assert result.locator(".next-hand").inner_text() == "Next hand 下一手: dealer 庄家 seat 0, 荒番数 荒番 count 0"

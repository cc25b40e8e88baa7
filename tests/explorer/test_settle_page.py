"""The settle view in a real browser: the 20 worked examples of RULES.md section 12 entered in
the form show their legality, patterns, value, seat deltas and next hand; bad notation is
pointed at its token; the keyboard alone settles a hand."""

from __future__ import annotations

import pytest

import rules_core as rc
from convert.profile_digest import BUILTIN_REGISTRY as DIGESTED
from convert.profile_digest import profile_digest
from tests.explorer.form import enter, settle
from tests.worked_examples import WORKED_EXAMPLES


def _signed(value: float) -> str:
    return f"{value:+g}"


def test_every_worked_example_shows_its_settlement(page):
    for name, request, deltas, next_hand in WORKED_EXAMPLES:
        enter(page, request)
        settle(page)
        assert page.inner_text("#settle-error") == "", name
        expected = rc.settle(request, DIGESTED)
        cards = page.locator("#result .winner-result")
        assert cards.count() == len(expected.winners), name
        for index, winner in enumerate(expected.winners):
            card = cards.nth(index)
            assert card.get_attribute("data-seat") == str(winner.seat), name
            assert card.locator(".verdict").inner_text() == ("合法 legal" if winner.legal else "不合法 not legal"), name
            shown = card.locator(".pattern").evaluate_all("nodes => nodes.map(n => n.dataset.pattern)")
            assert shown == [p.name for p in winner.patterns], name
            if winner.legal:
                assert card.locator(".value-number").inner_text() == f"{winner.value:g}", name
            else:
                reasons = card.locator(".reasons li").evaluate_all("nodes => nodes.map(n => n.dataset.reason)")
                assert reasons == [r.name for r in winner.illegal_reasons], name
        shown_deltas = page.locator("#result .deltas .delta").all_inner_texts()
        assert shown_deltas == [_signed(d) for d in deltas], name
        text = page.inner_text("#result .next-hand")
        if next_hand is None:
            assert (
                text == "Next hand 下一手: none 无: no claimed win is legal, the hand goes on 无人合法胡牌，本手继续"
            ), name
        else:
            assert text == (
                f"Next hand 下一手: dealer 庄家 seat {next_hand.dealer_seat}, 荒番数 荒番 count {next_hand.huangfan_count}"
            ), name


def test_the_settlement_says_which_rules_and_engine_made_it(page):
    enter(page, WORKED_EXAMPLES[0][1])
    page.click("#overrides-box summary")
    page.fill("#overrides", '{"ordinaryBase": 5}')
    settle(page)
    merged = rc.settle(WORKED_EXAMPLES[0][1]._replace(overrides={"ordinary_base": 5}), DIGESTED)
    assert page.inner_text("#result .versions .profile-digest") == merged.profile_digest
    assert page.inner_text("#result .versions .engine-version") == rc.ENGINE_VERSION
    assert merged.profile_digest != profile_digest(rc.BUILTIN_PROFILES[WORKED_EXAMPLES[0][1].profile])


def test_payments_are_arrows_between_the_seats(page):
    enter(page, _example("13-both"))
    settle(page)
    arrows = page.locator("#result svg line.payment").evaluate_all(
        "nodes => nodes.map(n => [Number(n.dataset.from), Number(n.dataset.to)]).sort()"
    )
    assert arrows == [[0, 1], [2, 1]]
    labels = page.locator("#result svg text.seat-delta").all_text_contents()
    assert labels == ["-10", "+30", "-20", "+0"]
    rows = page.locator("#result .payment-list li").all_inner_texts()
    assert len(rows) == len(rc.settle(_example("13-both")).payments)


def _example(name: str):
    return next(request for n, request, _, _ in WORKED_EXAMPLES if n == name)


@pytest.mark.parametrize(
    ("field", "text", "position", "token"),
    [
        (".w-hand", "123m 4x5p 678s 99s [EEE@1]", 6, "4x5p"),
        (".w-hand", "123m 456p [789s@7] 11s EEE", 16, "[789s@7]"),
        (".w-win", "0m", 0, "0m"),
    ],
)
def test_malformed_notation_is_marked_at_its_token(page, field, text, position, token):
    card = page.locator("#winners .winner").first
    card.locator(field).fill(text)
    error = card.locator(".notation-error")
    error.wait_for()
    assert error.get_attribute("data-position") == str(position)
    assert error.locator("mark.bad-token").inner_text() == token
    assert card.locator(field).get_attribute("aria-invalid") == "true"
    settle(page)
    assert page.inner_text("#settle-error") == "Fix the marked fields first 请先改正标出的输入"


def test_the_servers_field_violations_land_under_their_winner(page):
    card = page.locator("#winners .winner").first
    card.locator(".w-hand").fill("111m 555m 999p EEE 7s")
    settle(page)
    violation = card.locator(".violation")
    assert violation.get_attribute("data-field") == "winners[0].hand.concealed"
    assert violation.inner_text() == "winners[0].hand.concealed: 0 meld(s) leave 14 concealed tiles, got 13"
    card.locator(".w-hand").fill("111m 555m 999p EEE 77s")  # edited: the server's verdict is stale
    assert card.locator(".violation").count() == 0


def test_the_keyboard_alone_settles_a_hand(page):
    page.keyboard.press("Tab")  # the first link of the page's navigation
    focused = page.evaluate("document.activeElement.textContent")
    assert focused == "Settle 结算"
    page.focus("#winners .winner .w-hand")
    page.keyboard.press("Control+A")
    page.keyboard.type("123m 456p 789s 234s EE")
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("E")
    page.keyboard.press("Enter")  # submits the form
    page.wait_for_selector("#result .settlement")
    assert page.locator("#result .verdict").inner_text() == "不合法 not legal"
    assert page.locator("#result .reasons li").get_attribute("data-reason") == "NO_QUALIFYING_PATTERN"


def test_a_liability_payment_shows_the_claims_and_why_it_is_paid_twice(page):
    """Issue 20: it read "seat 2 → seat 1 20 承包: a liable seat pays", without the claims."""
    enter(page, _example("13-both"))  # lezi; seat 1 claimed 3 from seat 2 and seat 2 3 from seat 1
    settle(page)
    rows = page.locator("#result .payment-list li").all_inner_texts()
    assert rows == [
        "seat 0 → seat 1 10 分 点炮 discard",
        "seat 2 → seat 1 20 分 承包 liability (seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口; seat 2 claimed 3 times from seat 1 座位2吃碰座位1 3口;"
        " pays twice: the claims run both ways 双向承包，付两份)",
    ]
    enter(page, _example("13"))  # one way only: once
    settle(page)
    assert page.locator("#result .payment-list li").nth(1).inner_text() == (
        "seat 2 → seat 1 10 分 承包 liability (seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口)"
    )


def test_an_illegal_reason_and_no_next_hand_are_said_in_both_languages(page):
    page.fill("#winners .winner .w-hand", "123m 456p 789s 234s EE")
    page.fill("#winners .winner .w-win", "E")
    settle(page)
    reason = page.locator("#result .reasons li").inner_text()
    assert reason == (
        "无可胡番型 no qualifying pattern: 牌已成形，但没有本规则允许胡的番型 · "
        "A complete hand with no pattern that the profile lets win."
    )
    assert "NO_QUALIFYING_PATTERN" not in page.locator("#result .settlement").inner_text().replace(
        page.locator("#result pre.json").inner_text(), ""
    )


def test_the_explorers_older_dice_and_claims_are_read_too(page):
    """Issue 20: the explorer wrote `3 3` and `1<2:3` and refused the CLI's `3,3` and
    `1:2:3` (the form `enter` types now)."""
    enter(page, _example("13-both"))
    page.fill("#claims", "1<2:3, 2<1")  # the explorer's older form; the count left out is 3
    settle(page)
    assert page.locator("#result .deltas .delta").all_inner_texts() == ["-10", "+30", "-20", "+0"]
    page.fill("#claims", "1-2")
    page.click("#settle-button")
    page.wait_for_selector("#table-error:not(:empty)")
    assert page.inner_text("#table-error") == (
        "claims: a claim is CLAIMER:SOURCE:COUNT with seats 0-3, such as 1:2:3 (at character 1)"
    )

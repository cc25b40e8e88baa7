"""Entering a rules_core SettleRequest into the explorer's form, as a person would type it."""

from __future__ import annotations

from rules_core import SettleRequest
from rules_core.notation import format_flowers, format_hand, format_tiles
from rules_core.table_notation import format_claims, format_dice


def winner_fields(winner) -> dict[str, str]:
    hand = winner.hand
    return {
        ".w-seat": str(winner.seat),
        ".w-hand": format_hand(hand.concealed, hand.melds),
        ".w-win": hand.winning_tile.notation if hand.winning_tile is not None else "",
        ".w-flowers": format_flowers(hand.flowers, hand.dragon_flowers),
        ".w-passed": format_tiles(winner.passed_tiles),
    }


def open_explorer(browser, base_url: str, width: int = 1200, height: int = 900):
    """A new page with the explorer loaded and ready (its script has run)."""
    page = browser.new_page(viewport={"width": width, "height": height}, base_url=base_url)
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    return page


def enter(page, request: SettleRequest) -> None:
    page.select_option("#profile", request.profile)
    page.select_option("#outcome", f"OUTCOME_{request.outcome.name}")
    page.fill("#dealer", str(request.dealer_seat))
    page.fill("#discarder", str(request.discarder_seat or 0))
    page.fill("#huangfan", str(request.huangfan_count))
    page.fill("#dice", format_dice(request.dice.first, request.dice.second) if request.dice else "")
    page.fill("#claims", format_claims(request.liabilities))
    page.fill("#declared", ",".join(map(str, request.declared_seats)))
    page.evaluate("document.querySelector('#winners').replaceChildren()")
    for index, winner in enumerate(request.winners):
        page.click("#add-winner")
        card = page.locator("#winners .winner").nth(index)
        for selector, value in winner_fields(winner).items():
            card.locator(selector).fill(value)
        card.locator(".w-replacement").set_checked(winner.replacement_draw)
        card.locator(".w-first").set_checked(winner.first_go_around)
        card.locator(".w-last").set_checked(winner.last_tile)


def settle(page) -> None:
    page.evaluate("document.querySelector('#result').replaceChildren()")
    page.click("#settle-button")
    page.wait_for_selector("#result .settlement, #settle-error:not(:empty)")

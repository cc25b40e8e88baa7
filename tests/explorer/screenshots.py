"""The explorer's screenshots in docs/: ``make explorer-screenshots`` (a real server and Chromium)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.debian_tools import missing_message
from tests.explorer.form import enter, open_explorer, settle
from tests.server.conftest import run_server
from tests.worked_examples import REQUESTS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def replay_screenshot(browser, url: str) -> None:
    """The Replay 牌谱 view of examples/record.json at its pass (docs/explorer-replay.png)."""
    page = open_explorer(browser, url, 1100, 800)
    page.click("nav a[data-view=replay]")
    page.fill("#record", (DOCS.parent / "examples" / "record.json").read_text())
    page.click("#replay-button")
    page.wait_for_selector("#replay-result:not([hidden])")
    page.click("#replay-next-pass")
    page.screenshot(path=DOCS / "explorer-replay.png", full_page=True)
    page.close()


def advice_screenshot(browser, url: str) -> None:
    """The Advice 牌效 view of RULES.md 15.7 example 9 (docs/explorer-advice.png)."""
    page = open_explorer(browser, url, 1100, 800)
    page.click("nav a[data-view=advice]")
    page.fill("#advice-hand", "111p 222p 333p 7789p C")
    page.fill("#advice-seat", "1")
    page.fill("#advice-seen", "C 8p 9p")
    page.click("#advice-button")
    page.wait_for_selector("#advice-result .advice")
    page.screenshot(path=DOCS / "explorer-advice.png", full_page=True)
    page.close()


def review_screenshot(browser, url: str) -> None:
    """The Replay view of RULES.md 15.7 example 11 at its last discard not among the best, with
    each seat's review and every option of that discard (docs/explorer-review.png)."""
    from convert.json_write import settle_record_request_dict
    from rules_core.records import SettleRecordRequest
    from tests.rules_core.test_advice_review import EXAMPLE_11

    page = open_explorer(browser, url, 1100, 800)
    page.click("nav a[data-view=replay]")
    page.fill("#record", json.dumps(settle_record_request_dict(SettleRecordRequest("classic", EXAMPLE_11))))
    page.click("#replay-button")
    page.wait_for_selector("#replay-result:not([hidden])")
    page.click("#replay-next-missed")
    page.click("#replay-next-missed")
    page.click(".discard-review .show-options")
    page.wait_for_selector(".review-options .advice-options")
    page.screenshot(path=DOCS / "explorer-review.png", full_page=True)
    page.close()


def waits_knock_screenshot(browser, url: str) -> None:
    """The Waits 听牌 view under qiaoma (classic's overrides) for a seat that has not knocked
    (docs/explorer-waits-knock.png)."""
    from tests.explorer.test_waits_families import list_waits

    page = open_explorer(browser, url, 1100, 800)
    list_waits(page, "123m 123p 123s 789m N")
    page.screenshot(path=DOCS / "explorer-waits-knock.png", full_page=True)
    page.close()


def ticket_picture(page) -> None:
    """The first page of the Settle view printed for a dispute ticket (docs/explorer-ticket.png):
    Chromium's PDF, drawn by pdftoppm (poppler-utils)."""
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        raise SystemExit(missing_message("pdftoppm"))
    with tempfile.TemporaryDirectory() as folder:
        pdf = Path(folder) / "ticket.pdf"
        page.pdf(path=str(pdf), format="A4", print_background=True)
        subprocess.run(
            [pdftoppm, "-png", "-r", "70", "-singlefile", str(pdf), str(DOCS / "explorer-ticket")], check=True
        )


def main() -> int:
    chromium = shutil.which("chromium")
    if chromium is None:
        print(missing_message("chromium"), file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder, run_server(Path(folder)) as server:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = open_explorer(browser, server.http_url, 1100, 800)
            enter(page, REQUESTS["13-both"])
            settle(page)
            page.screenshot(path=DOCS / "explorer-settle.png", full_page=True)
            ticket_picture(page)

            page.select_option("#compare", "sankou")
            settle(page)
            page.locator("#result .comparison").screenshot(path=DOCS / "explorer-compare.png")

            page.locator("#winners .winner .w-hand").fill("123m 4x5p [789s@7] 11s EEE")
            page.locator("#winners .winner .notation-error").wait_for()
            page.locator("#winners .winner").screenshot(path=DOCS / "explorer-error.png")

            page.click("nav a[data-view=waits]")
            page.fill("#waits-hand", "1112345678999m")
            page.press("#waits-hand", "Enter")
            page.wait_for_selector("#waits-result .waits.self-draw")
            page.screenshot(path=DOCS / "explorer-waits.png", full_page=True)

            page.click("nav a[data-view=profiles]")
            page.wait_for_selector("#profiles-table table")
            page.screenshot(path=DOCS / "explorer-profiles.png", full_page=True)

            replay_screenshot(browser, server.http_url)
            advice_screenshot(browser, server.http_url)
            waits_knock_screenshot(browser, server.http_url)
            review_screenshot(browser, server.http_url)

            phone = open_explorer(browser, server.http_url, 390, 844)
            enter(phone, REQUESTS["17"])
            settle(phone)
            phone.screenshot(path=DOCS / "explorer-phone.png", full_page=True)
            browser.close()
    print("wrote docs/explorer-*.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())

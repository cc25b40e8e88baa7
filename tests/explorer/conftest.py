"""One real server and one real headless Chromium (Debian's, driven by Playwright) for every
explorer test; each test opens its own page.

Both live for this package only: Playwright's sync API keeps an event loop running in the
main thread while it is open, and tests elsewhere call ``asyncio.run``."""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from tests.debian_tools import debian_tool
from tests.server.conftest import run_server


@pytest.fixture(scope="package")
def explorer_server(tmp_path_factory):
    with run_server(tmp_path_factory.mktemp("explorer")) as running:
        yield running


@pytest.fixture(scope="package")
def browser():
    chromium = debian_tool("chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser, explorer_server):
    """The explorer, loaded and ready; any script error on the page fails the test."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, base_url=explorer_server.http_url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    yield page
    context.close()
    assert errors == []

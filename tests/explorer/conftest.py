"""One real server and one real headless Chromium (Debian's, driven by Playwright) for every
explorer test; each test opens its own page.

Both live for this package only: Playwright's sync API keeps an event loop running in the
main thread while it is open, and tests elsewhere call ``asyncio.run``."""

from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import sync_playwright

from tests.server.conftest import run_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="package")
def explorer_server(tmp_path_factory):
    with run_server(tmp_path_factory.mktemp("explorer")) as running:
        yield running


@pytest.fixture(scope="package")
def browser():
    if not shutil.which(CHROMIUM):
        pytest.fail("Chromium is missing: apt-get install chromium (listed in .ci/debian-packages)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
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

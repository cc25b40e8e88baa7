"""A settlement exported for a dispute ticket: the Settle view and the end of a replay printed
to PDF by Chromium (as the page's button has the browser do), read back with pdftotext and
drawn as pages with pdftoppm (poppler-utils)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import rules_core as rc
from convert.profile_digest import profile_digest
from tests.debian_tools import debian_tool
from tests.explorer.form import enter, settle
from tests.worked_examples import REQUESTS

RECORD = (Path(__file__).resolve().parents[2] / "examples" / "record.json").read_text()


def printed(page, folder: Path, name: str) -> tuple[str, list[Path]]:
    """The page printed to PDF: its text, and its pages as PNG files."""
    pdf = folder / f"{name}.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    text = subprocess.run(
        [debian_tool("pdftotext"), "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    subprocess.run([debian_tool("pdftoppm"), "-png", "-r", "60", str(pdf), str(folder / name)], check=True)
    return text, sorted(folder.glob(f"{name}-*.png"))


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_the_button_has_the_browser_print_the_settlement(page):
    settle(page)
    button = page.locator("#result .export .print-button")
    assert button.inner_text() == "Print or save as PDF 打印 / 存为PDF"
    page.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
    button.click()
    assert page.evaluate("window.printed") == 1


def test_a_settlement_printed_holds_what_a_dispute_needs_in_both_languages(page, tmp_path):
    enter(page, REQUESTS["13-both"])  # lezi, liability both ways: seat 2 pays twice
    settle(page)
    request = page.inner_text("#result .ticket .request-json")
    assert json.loads(request)["outcome"] == "OUTCOME_DISCARD" and json.loads(request)["profile"] == "lezi"
    text, pages = printed(page, tmp_path, "settle")
    said = squeezed(text)  # a PDF's text runs break between the Latin and the Chinese glyphs
    assert squeezed(request) in said  # the whole request, to paste back into the page
    for phrase in (
        "The request 请求 (SettleRequest)",
        f"Rules 规则 {profile_digest(rc.BUILTIN_PROFILES['lezi'])} · engine 引擎 {rc.ENGINE_VERSION}",
        "规则 Profile lezi (单位 unit: 分 points)",
        "Item 项目 Effect 效果 Full flush 清一色 = 10",
        "每份牌值 value per share V = 10 分",
        "seat 0 → seat 1 10 分 点炮 discard",
        "seat 2 → seat 1 20 分 承包 liability (seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口;",
        "Seat deltas 输赢: -10 +30 -20 +0",
    ):
        assert squeezed(phrase) in said, phrase
    assert "Add a winner" not in text and "Print or save as PDF" not in text  # the form and the button stay off paper
    assert len(pages) == 1 and pages[0].stat().st_size > 10_000


def test_the_end_of_a_replay_printed_holds_the_record_and_the_recorded_deltas(page, tmp_path):
    page.click("nav a[data-view=replay]")
    page.fill("#record", RECORD)
    page.click("#replay-button")
    page.wait_for_selector("#replay-result:not([hidden])")
    page.click("#replay-end")
    record = page.inner_text("#replay-picture .ticket .record-json")
    derived = page.inner_text("#replay-picture .ticket .request-json")
    assert json.loads(record) == json.loads(RECORD)
    text, pages = printed(page, tmp_path, "replay")
    said = squeezed(text)
    assert squeezed(record) in said and squeezed(derived) in said
    for phrase in (
        "The recorded deltas differ at seat(s) 0, 2 记录不符",
        "The hand record 牌谱 (SettleRecordRequest)",
        "The request derived from it 推得的请求 (SettleRequest)",
        f"Rules 规则 {profile_digest(rc.BUILTIN_PROFILES['classic'])} · engine 引擎 {rc.ENGINE_VERSION}",
        "Full flush 清一色 = 20",
        "seat 0 → seat 1 20 花 点炮 discard",
    ):
        assert squeezed(phrase) in said, phrase
    assert "◀" not in text and "Next pass" not in text
    assert len(pages) == 2 and all(png.stat().st_size > 10_000 for png in pages)

"""The review (复盘) in the Replay view, in a real browser: RULES.md 15.7 example 11 replayed, each
seat summed up, each discard marked among the best or with the best tiles instead, in the words of
`shmj review`, and the rivers marked the same way."""

from __future__ import annotations

import json

from convert.json_write import settle_record_request_dict
from rules_core import review_record_json
from rules_core.build import deal, discard, exhaustive_draw
from rules_core.records import SettleRecordRequest
from tests.explorer.test_replay_view import RECORD
from tests.explorer.test_replay_view import replay as open_replay
from tests.rules_core.test_advice_knock import KNOCKED
from tests.rules_core.test_advice_review import EXAMPLE_11, LEZI_CHOW_THEN_PUNG, OTHER_DEALS, SEEN_RECORD

EXAMPLE_11_JSON = json.dumps(settle_record_request_dict(SettleRecordRequest("classic", EXAMPLE_11)))


def summary_rows(page) -> list[list[str]]:
    return page.locator("#replay-review tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )


def river_marks(page, seat: int) -> list[tuple[str, str]]:
    marks = page.locator(f".replay-seat[data-seat='{seat}'] .group.discards .tile").evaluate_all(
        "nodes => nodes.map(n => [n.dataset.tile, [...n.classList].find(c => c.startsWith('reviewed-')) || ''])"
    )
    return [tuple(mark) for mark in marks]


def test_example_11_each_seat_summed_up(page):
    open_replay(page, EXAMPLE_11_JSON)
    assert page.locator("#replay-review thead th").all_inner_texts() == [
        "",
        "打牌 discards",
        "最佳打法 among the best",
        "退向 backward",
        "听后摸打 forced",
        "死手打牌 dead",
        "漏胡 passes",
    ]
    assert summary_rows(page) == [
        ["座位 seat 0", "1", "0", "0", "0", "0", "无 none"],
        ["座位 seat 1", "1", "1", "0", "0", "0", "无 none"],
        ["座位 seat 2", "1", "0", "0", "0", "0", "无 none"],
        ["座位 seat 3", "0", "0", "0", "0", "0", "西 @8"],  # the tile W, drawn
    ]
    assert page.locator("#replay-review tr[data-seat='3'] .pass-at .tile").get_attribute("data-tile") == "W"
    expected = review_record_json(json.loads(EXAMPLE_11_JSON))["seats"]
    assert [row[1:6] for row in summary_rows(page)] == [
        [str(s.get(k, 0)) for k in ("discards", "agreements", "backward", "forcedDiscards", "deadDiscards")]
        for s in expected
    ]


def test_example_11_each_discard_among_the_best_or_what_was_better(page):
    open_replay(page, EXAMPLE_11_JSON)
    assert page.locator(".discard-review").count() == 0  # a deal is no discard
    page.click("#replay-next-missed")
    assert page.inner_text("#replay-event") == "event 4 of 9 第4步: seat 0 discards 打出 7p"
    line = page.locator(".discard-review")
    assert (line.get_attribute("class"), line.get_attribute("data-event")) == ("discard-review better", "4")
    assert line.locator(".tile").first.get_attribute("data-tile") == "7p"
    assert line.locator(".review-words").inner_text() == (
        "非最佳 not among the best (打后向听 shanten after 0, 合计 total 3, 剩余价值 live value 18)"
    )
    assert line.locator(".better-words").inner_text() == "— 最佳应打 best"
    assert line.locator(".best-tiles .tile").evaluate_all("ns => ns.map(n => n.dataset.tile)") == ["C"]
    assert page.get_attribute(".replay-seat[data-seat='0'] .group.discards .tile", "title") == (
        "7p @4: 非最佳 not among the best (打后向听 shanten after 0, 合计 total 3, 剩余价值 live value 18)"
    )
    assert river_marks(page, 0) == [("7p", "reviewed-better")]

    page.click("#replay-next")
    page.click("#replay-next")
    assert page.inner_text("#replay-event") == "event 6 of 9 第6步: seat 1 discards 打出 4m"
    line = page.locator(".discard-review")
    assert line.get_attribute("class") == "discard-review agrees"
    assert line.locator(".review-words").inner_text() == (
        "最佳打法 among the best (打后向听 shanten after 0, 合计 total 4, 剩余价值 live value 14)"
    )
    assert line.locator(".best-tiles").count() == 0
    assert river_marks(page, 0) == []  # seat 1 punged the 7p
    assert river_marks(page, 1) == [("4m", "reviewed-agrees")]

    page.click("#replay-next-missed")  # skips the agreeing 4m
    assert page.inner_text("#replay-event") == "event 8 of 9 第8步: seat 2 discards 打出 W"
    line = page.locator(".discard-review")
    assert (
        line.locator(".review-words").inner_text()
        == "非最佳 not among the best (打后向听 shanten after 1, 合计 total 5)"
    )
    assert line.locator(".best-tiles .tile").evaluate_all("ns => ns.map(n => n.dataset.tile)") == ["9s"]
    assert river_marks(page, 2) == [("W", "reviewed-better")]
    assert page.locator(".pass").get_attribute("data-seat") == "3"  # the pass of section 13, as before

    page.click("#replay-next-missed")  # none left: the end
    assert page.inner_text("#replay-event") == "event 9 of 9 第9步: the wall is exhausted 流局"
    assert page.locator(".discard-review").count() == 0
    assert river_marks(page, 1) == [("4m", "reviewed-agrees")]


def test_a_backward_discard_is_said_so(page):
    """RULES.md 15.7 example 11's first illustration: discarding 1m from 111m 555m 999p CC 77s E."""
    events = (deal(0, "111m 555m 999p CC 77s E"), *OTHER_DEALS, discard(0, "1m"), exhaustive_draw())
    record = settle_record_request_dict(SettleRecordRequest("classic", events))
    (expected,) = review_record_json(record)["discards"]
    assert (expected["chosen"]["shanten"], expected["backward"]) == (1, True)
    open_replay(page, json.dumps(record))
    page.click("#replay-next-missed")
    line = page.locator(".discard-review")
    assert line.get_attribute("class") == "discard-review backward"
    assert line.locator(".review-words").inner_text() == (
        f"退向 backward (打后向听 shanten after 1, 合计 total {expected['chosen']['liveTotal']})"
    )
    assert line.locator(".best-tiles .tile").evaluate_all("ns => ns.map(n => n.dataset.tile)") == ["E"]
    assert summary_rows(page)[0][:4] == ["座位 seat 0", "1", "0", "1"]
    assert river_marks(page, 0) == [("1m", "reviewed-backward")]


def test_a_dead_discard_is_no_choice_and_is_only_counted(page):
    """RULES.md 15.7 example 11's second illustration: a lezi seat that chowed and then punged in
    another suit has no path left; its next discard is dead, and 'next discard not among the best'
    passes it by."""
    record = settle_record_request_dict(SettleRecordRequest("lezi", LEZI_CHOW_THEN_PUNG))
    open_replay(page, json.dumps(record))
    assert summary_rows(page)[1][:6] == ["座位 seat 1", "2", "1", "0", "0", "1"]  # the first agreed
    page.fill("#replay-step", "12")
    page.dispatch_event("#replay-step", "input")
    line = page.locator(".discard-review")
    assert (line.get_attribute("class"), line.locator(".review-words").inner_text()) == (
        "discard-review dead",
        "死手 dead holding",
    )
    assert line.locator(".best-tiles").count() == 0
    # the chowed 1m left seat 0's river and the punged 5p seat 3's: the marks stay on their own tiles
    assert river_marks(page, 0) == []
    assert [tile for tile, _ in river_marks(page, 1)] == ["1s", "3s"]
    assert river_marks(page, 1)[1] == ("3s", "reviewed-dead")
    dead = page.locator(".replay-seat[data-seat='1'] .group.discards .tile").nth(1)
    assert dead.evaluate("n => getComputedStyle(n).boxShadow") == "rgb(91, 100, 114) 0px 0px 0px 2px"  # grey
    missed = [d["eventIndex"] for d in review_record_json(record)["discards"] if d["reachable"] and not d["agrees"]]
    page.fill("#replay-step", "0")
    page.dispatch_event("#replay-step", "input")
    shown = []
    while page.locator(".discard-review").count() or not shown:
        page.click("#replay-next-missed")
        if not page.locator(".discard-review").count():
            break
        shown.append(int(page.get_attribute(".discard-review", "data-event")))
    assert shown == missed


def test_every_discard_of_the_example_record_is_reviewed_and_marked(page):
    """examples/record.json: each discard's line follows its review, and no other event has one."""
    record = json.loads(RECORD)
    discards = {d["eventIndex"]: d for d in review_record_json(record)["discards"]}
    assert discards  # the record has discards to mark
    open_replay(page, RECORD)
    for index in range(len(record["events"])):
        page.fill("#replay-step", str(index))
        page.dispatch_event("#replay-step", "input")
        line = page.locator(".discard-review")
        if index not in discards:
            assert line.count() == 0, index
            continue
        review = discards[index]
        kind = "agrees" if review.get("agrees") else "backward" if review.get("backward") else "better"
        assert line.get_attribute("class") == f"discard-review {kind}", index


def test_every_option_of_a_discard_is_advised_from_the_holding_and_what_the_seat_saw(page):
    """At example 11's events[8], seat 2 sees the pung of 7p and the 4m: discarding 9s leaves S,
    W and F useful (8 live), the W it discarded only S and F (5), as RULES.md 15.7 says."""
    open_replay(page, EXAMPLE_11_JSON)
    page.click("#replay-next-missed")
    page.click("#replay-next-missed")
    page.click(".discard-review .show-options")
    page.wait_for_selector(".review-options .advice-options, .review-options .call-error")
    rows = page.locator(".review-options .advice-options tbody tr")
    said = rows.evaluate_all(
        "rows => rows.map(r => [r.dataset.tile, r.className, r.cells[1].textContent, r.cells[3].textContent,"
        " [...r.cells[2].querySelectorAll('.useful')].map(u => `${u.dataset.tile} ${u.dataset.live}`).join(', ')])"
    )
    assert said[0] == ["9s", "best", "1", "8", "S 2, W 3, F 3"]
    chosen = [row for row in said if "chosen" in row[1]]
    assert chosen == [["W", "chosen", "1", "5", "S 2, F 3"]]
    assert page.locator(".review-options tr.chosen .played-mark").inner_text() == "打出 played"
    # the review's own numbers for the discard agree with the options shown
    review = next(d for d in review_record_json(json.loads(EXAMPLE_11_JSON))["discards"] if d["eventIndex"] == 8)
    assert (str(review["chosen"]["shanten"]), str(review["chosen"]["liveTotal"])) == (chosen[0][2], chosen[0][3])
    assert page.locator(".discard-review .show-options").is_disabled()


def test_a_dead_discard_offers_no_options(page):
    record = settle_record_request_dict(SettleRecordRequest("lezi", LEZI_CHOW_THEN_PUNG))
    open_replay(page, json.dumps(record))
    page.fill("#replay-step", "12")
    page.dispatch_event("#replay-step", "input")
    assert page.locator(".discard-review.dead .show-options").count() == 0


def test_the_options_shown_agree_with_the_review_at_every_discard(page):
    """A record with a concealed kong (face down: not seen), a claimed pung (seen in its meld) and
    a pass: the holding and the seen tiles the page sends give the review's own numbers."""
    record = settle_record_request_dict(SettleRecordRequest("classic", SEEN_RECORD))
    reviews = [d for d in review_record_json(record)["discards"] if d["reachable"]]
    assert len(reviews) == 5
    open_replay(page, json.dumps(record))
    for review in reviews:
        page.fill("#replay-step", str(review["eventIndex"]))
        page.dispatch_event("#replay-step", "input")
        page.click(".discard-review .show-options")
        chosen = page.locator(".review-options tr.chosen")
        chosen.wait_for()
        cells = chosen.locator("td")
        expected = review["chosen"]
        said = (cells.nth(1).inner_text(), cells.nth(3).inner_text(), cells.nth(5).inner_text())
        value = f"{expected['liveValue']:g}" if expected.get("waits") else ""
        assert said == (str(expected.get("shanten", 0)), str(expected.get("liveTotal", 0)), value), review


def step_to(page, index: int) -> None:
    page.fill("#replay-step", str(index))
    page.dispatch_event("#replay-step", "input")


def test_a_discard_after_the_knock_is_marked_forced_and_only_counted(page):
    """RULES.md 15.6 under qiaoma: seat 0 knocks (敲, DECLARE) with its 9p at events[5], then draws
    2m and must let it go at events[13]: that discard is forced (听后摸打), counted apart, never
    among the best nor a step back, marked so in the river, and passed by when looking for the
    next discard not among the best. The knocking discard itself is an ordinary choice."""
    record = settle_record_request_dict(SettleRecordRequest("qiaoma", KNOCKED))
    reviews = {d["eventIndex"]: d for d in review_record_json(record)["discards"]}
    assert (reviews[13]["forced"], reviews[13].get("agrees", False), reviews[13].get("backward", False)) == (
        True,
        True,
        False,
    )
    open_replay(page, json.dumps(record))
    assert summary_rows(page) == [
        ["座位 seat 0", "2", "1", "0", "1", "0", "无 none"],
        ["座位 seat 1", "1", "1", "0", "0", "0", "无 none"],
        ["座位 seat 2", "1", "0", "0", "0", "0", "无 none"],
        ["座位 seat 3", "1", "0", "0", "0", "0", "无 none"],
    ]

    step_to(page, 4)
    assert page.inner_text("#replay-event") == "event 4 of 14 第4步: seat 0 knocks 敲"
    assert page.locator(".discard-review").count() == 0  # the knock is no discard
    step_to(page, 5)
    knocking = page.locator(".discard-review")
    assert knocking.get_attribute("class") == "discard-review agrees"  # the knocking 9p: a choice
    chosen = reviews[5]["chosen"]
    assert knocking.locator(".review-words").inner_text() == (
        f"最佳打法 among the best (打后向听 shanten after 0, 合计 total {chosen['liveTotal']}, "
        f"剩余价值 live value {chosen['liveValue']:g})"
    )

    step_to(page, 13)
    assert page.inner_text("#replay-event") == "event 13 of 14 第13步: seat 0 discards 打出 2m"
    forced = page.locator(".discard-review")
    assert (forced.get_attribute("class"), forced.get_attribute("data-event")) == ("discard-review forced", "13")
    assert forced.locator(".tile").first.get_attribute("data-tile") == "2m"
    assert forced.locator(".review-words").inner_text() == "听后摸打 forced"
    assert forced.locator(".better-words, .best-tiles").count() == 0  # no choice, so nothing was better
    assert river_marks(page, 0) == [("9p", "reviewed-agrees"), ("2m", "reviewed-forced")]
    river = page.locator(".replay-seat[data-seat='0'] .group.discards .tile")
    assert river.nth(1).get_attribute("title") == "2m @13: 听后摸打 forced"
    # each reviewed river tile is ringed, the forced one in a colour of its own (an unreviewed
    # tile has only its shadow beneath, "0px 2px 0px 0px")
    rings = river.evaluate_all("nodes => nodes.map(n => getComputedStyle(n).boxShadow)")
    assert [ring.endswith(" 0px 0px 0px 2px") for ring in rings] == [True, True], rings
    assert rings[0] != rings[1]

    step_to(page, 0)
    shown = []
    while True:
        page.click("#replay-next-missed")
        if not page.locator(".discard-review").count():
            break
        shown.append(int(page.get_attribute(".discard-review", "data-event")))
    assert shown == [d for d, r in reviews.items() if r["reachable"] and not r["forced"] and not r.get("agrees")]
    assert 13 not in shown

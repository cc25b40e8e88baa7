"""The sample files' lines under the rule families of RULES.md section 14 (examples/requests.jsonl,
examples/hands.jsonl, examples/requests-with-errors.jsonl): each is one of the section's worked
examples (14.8, 14.10.11), or the hand of one under another outcome or profile, and settles to
the deltas, reasons and next hand worked out there by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_core import InvalidRequest, settle_json

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FAMILIES = ("qiaoma", "qiaoma_lezi", "qinghunpeng")


def lines(name: str) -> dict[str, dict]:
    requests = (json.loads(line) for line in (EXAMPLES / name).read_text(encoding="utf-8").splitlines())
    return {r["requestId"]: r for r in requests if r.get("profile") in FAMILIES}


# request id: (seat deltas, illegal reasons of each winner, next hand (dealer, 荒番 count) or None)
REQUESTS = {
    # 14.10.11 Q2: 垃圾胡 self-drawn with 1f and 红中 as flowers: (1 + 2) x 1 = 3
    "qiaoma-self-draw": ((9, -3, -3, -3), [[]], (0, 0)),
    # Q6: partners 0 and 3 (three claims, pattern_kept); seat 2 has not knocked and pays both shares
    "qiaoma-discard": ((16, 0, -16, 0), [[]], (0, 0)),
    # E3: a robbed kong, partners 0 (four claims) and 2 (three, pattern kept), 发 as a flower
    "qiaoma-robbing-kong": ((-16, -16, -16, 48), [[]], (3, 0)),
    # 14.10.2: no 八花 under qiaoma
    "qiaoma-eight-flowers-not-legal": ((0, 0, 0, 0), [["ILLEGAL_REASON_NO_QUALIFYING_PATTERN"]], None),
    # 14.10.7: the same dealer, the 荒番 count one more
    "qiaoma-exhaustive-draw": ((0, 0, 0, 0), [], (2, 2)),
    # 14.8.19: 海底捞月 (last_tile), eleven flowers, six of them dragons: (3 + 15) x 3 = 54
    "qiaoma_lezi-self-draw": ((162, -54, -54, -54), [[]], (0, 0)),
    # 14.8.14: 荒番 count 2 and 开宝: (40 + 10) x 2^2 x 2 = 400
    "qiaoma_lezi-discard": ((0, -400, 0, 400), [[]], (3, 0)),
    # 14.8.17: 垃圾胡 + 门清 + 抢杠, (3 + 1) x 3 = 12, three shares
    "qiaoma_lezi-robbing-kong": ((0, 0, 36, -36), [[]], (2, 0)),
    # 14.8.10: 八花 with 红中 and 白板 as flowers, 90 capped at 80
    "qiaoma_lezi-eight-flowers": ((-80, -80, 240, -80), [[]], (2, 0)),
    # 14.8.20: 荒番 count 2 becomes 3
    "qiaoma_lezi-exhaustive-draw": ((0, 0, 0, 0), [], (2, 3)),
    # 14.8.13: 包三口, the liable seat 3 alone pays 5 x 4
    "qinghunpeng-self-draw": ((20, 0, 0, -20), [[]], (0, 0)),
    # 14.8.15: two winners on one discard; the discarder deals next
    "qinghunpeng-discard": ((4, 0, 4, -8), [[], []], (3, 0)),
    # 14.8.18 with no tile passed (their engine's answer there): 混一色 (2 + 2) x 3 = 12, three shares
    "qinghunpeng-robbing-kong": ((-36, 36, 0, 0), [[]], (1, 0)),
    # 14.8.10's hand with the eight seasons alone: (2 + 8 + 2) x (4 八花 + 1 门清) = 60
    "qinghunpeng-eight-flowers": ((-60, -60, 180, -60), [[]], (2, 0)),
    # 14.6: a count of 3 stays 3 (huangfan_max_count)
    "qinghunpeng-exhaustive-draw": ((0, 0, 0, 0), [], (1, 3)),
    # Q1 with nobody knocked
    "qiaoma-not-declared-not-legal": ((0, 0, 0, 0), [["ILLEGAL_REASON_NOT_DECLARED"]], None),
    # 14.8.2: 0 花 wins by self-draw only
    "qiaoma_lezi-no-flowers-on-a-discard-not-legal": (
        (0, 0, 0, 0),
        [["ILLEGAL_REASON_NO_FLOWERS_SELF_DRAW_ONLY"]],
        None,
    ),
    # 14.8.6: 清混碰 has no 垃圾胡
    "qinghunpeng-no-pattern-not-legal": ((0, 0, 0, 0), [["ILLEGAL_REASON_NO_QUALIFYING_PATTERN"]], None),
}

HANDS = {
    "ex-14.8-1": ((-14, 42, -14, -14), [[]], (1, 0)),  # 垃圾胡 with 中 and 发 as flowers: (3 + 4) x 2
    "ex-14.8-13": ((20, 0, 0, -20), [[]], (0, 0)),
    "ex-14.8-19": ((162, -54, -54, -54), [[]], (0, 0)),
    "ex-14.10-q1": ((22, 0, -22, 0), [[]], (0, 0)),  # 无花 counts 10: (1 + 10) x 2
    "ex-14.10-q1-not-declared": ((0, 0, 0, 0), [["ILLEGAL_REASON_NOT_DECLARED"]], None),
    "ex-14.10-q6": ((16, 0, -16, 0), [[]], (0, 0)),
    # E2: seats 0 and 1 have knocked; seat 2 is seat 0's partner (three pungs, pattern kept)
    "ex-14.10-e2": ((12, -6, -6, 0), [[]], (0, 0)),
    "ex-14.10-e3": ((-16, -16, -16, 48), [[]], (3, 0)),
}


def answer(request: dict) -> tuple:
    settled = settle_json(request)
    next_hand = settled.get("nextHand")
    return (
        tuple(settled["seatDeltas"]),
        [w.get("illegalReasons", []) for w in settled.get("winners", [])],
        None if next_hand is None else (next_hand.get("dealerSeat", 0), next_hand.get("huangfanCount", 0)),
    )


@pytest.mark.parametrize(("name", "expected"), REQUESTS.items())
def test_each_family_request_settles_as_its_worked_example(name, expected):
    assert answer(lines("requests.jsonl")[name]) == expected


@pytest.mark.parametrize(("name", "expected"), HANDS.items())
def test_each_family_hand_settles_as_its_worked_example(name, expected):
    assert answer(lines("hands.jsonl")[name]) == expected


def test_every_family_line_is_one_of_these():
    assert list(lines("requests.jsonl")) == list(REQUESTS)
    assert list(lines("hands.jsonl")) == list(HANDS)


def test_the_section_14_fields_are_all_used():
    used = json.dumps([*lines("requests.jsonl").values(), *lines("hands.jsonl").values()])
    for field in ('"dragonFlowers": ["', '"lastTile": true', '"declaredSeats": [', '"patternKept": true'):
        assert field in used, field


def test_a_dragon_held_as_a_tile_is_refused_naming_the_field():
    request = json.loads((EXAMPLES / "requests-with-errors.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert (request["requestId"], request["profile"]) == ("qiaoma-a-dragon-held-as-a-tile", "qiaoma")
    with pytest.raises(InvalidRequest) as refused:
        settle_json(request)
    assert [(v.field, v.description) for v in refused.value.violations] == [
        (
            "winners[0].hand.concealed",
            "中发白 are flowers under this profile (dragons_are_flowers): a dragon goes in hand.dragon_flowers: "
            "C C C at [9, 10, 11]",
        )
    ]

"""The deals the record tests play from, in the notation of RULES.md.

Seat 0 deals. Seat 1 waits on every 万 for a full flush (九莲); seat 2 on 8p for a half flush;
seat 3 holds nothing near a win. The wall tiles the tests draw are left in the comments of
each test, so that no tile shows a fifth copy.
"""

from __future__ import annotations

from rules_core import SettleRecordRequest
from rules_core.build import deal, discard, draw, win

DEALER = "5m 8p 99p 2468s WW N C F P"  # 14
NINE_GATES = "1112345678999m"  # full flush, waits on 1m-9m
HALF_FLUSH = "EEE SSS 234p 567p 8p"  # waits on 8p
NOTHING = "111p 33p 99s 77s 55s 3s N"

DEALS = (deal(0, DEALER), deal(1, NINE_GATES), deal(2, HALF_FLUSH), deal(3, NOTHING))


def record(*events, profile: str = "classic", deals=DEALS, **table) -> SettleRecordRequest:
    return SettleRecordRequest(profile, tuple(deals) + tuple(events), **table)


# Under the rule families (RULES.md 14.6, 14.10.8): seat 0 deals, holds a dealt 红中 flower and,
# knocking with 9p, waits on N; it draws 发财 (a flower where dragons are flowers) and then N, on
# the flower's replacement. The knock itself (a DECLARE before events[4]) is each test's to add.
KNOCK_DEALS = (
    deal(0, "123m 123p 123s 789m N 9p", dragon_flowers="C"),
    deal(1, "456m 456p 456s 9p 9p S W"),
    deal(2, "789p 789s 55m 66p E S W"),
    deal(3, "234s 567s 22p 33p E S W"),
)
KNOCK_PLAY = (
    discard(0, "9p"),
    draw(1, "E"),
    discard(1, "E"),
    draw(2, "9s"),
    discard(2, "9s"),
    draw(3, "1m"),
    discard(3, "1m"),
    draw(0, "F"),
    draw(0, "N"),
    win(0),
)

"""The deals the record tests play from, in the notation of RULES.md.

Seat 0 deals. Seat 1 waits on every 万 for a full flush (九莲); seat 2 on 8p for a half flush;
seat 3 holds nothing near a win. The wall tiles the tests draw are left in the comments of
each test, so that no tile shows a fifth copy.
"""

from __future__ import annotations

from rules_core import SettleRecordRequest
from rules_core.build import deal

DEALER = "5m 8p 99p 2468s WW N C F P"  # 14
NINE_GATES = "1112345678999m"  # full flush, waits on 1m-9m
HALF_FLUSH = "EEE SSS 234p 567p 8p"  # waits on 8p
NOTHING = "111p 33p 99s 77s 55s 3s N"

DEALS = (deal(0, DEALER), deal(1, NINE_GATES), deal(2, HALF_FLUSH), deal(3, NOTHING))


def record(*events, profile: str = "classic", deals=DEALS, **table) -> SettleRecordRequest:
    return SettleRecordRequest(profile, tuple(deals) + tuple(events), **table)

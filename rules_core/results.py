"""What the rules answer: per-winner legality and itemised value, payments, the next hand."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from rules_core.patterns import IllegalReason, Pattern
from rules_core.profile import Unit

# A named tuple's class call goes through a Python-level __new__; the hot paths build their
# results with `new(Class, (field, ...))`, positionally, in half the time.
new = tuple.__new__


class ItemKind(IntEnum):
    """What a value item does to the running value, and so how to read its contribution."""

    FLOWERS = 1  # adds `contribution` 花 from `count` sources of one kind
    BASE = 2  # adds the base (底注花 / 底分)
    FAN = 3  # `contribution` 番: the ordinary value doubles that many times
    PATTERN = 4  # a fixed-value pattern: `contribution` is the value it gives
    CAP = 5  # the cap (封顶): `contribution` is the (negative) change
    THRESHOLD = 6  # sankou: an ordinary value reaching the threshold becomes 1 喇; the change
    FLOOR = 7  # lezi 杠开 / 大吊车: a value below 1 勒 is raised to it; the change
    MULTIPLIER = 8  # 荒番 / 开宝: the value is multiplied by `contribution`


class ValueItem(NamedTuple):
    kind: ItemKind
    code: str
    name_zh: str
    name_en: str
    contribution: float
    count: int = 1


class WinnerResult(NamedTuple):
    seat: int
    legal: bool
    illegal_reasons: tuple[IllegalReason, ...]
    patterns: tuple[Pattern, ...]
    flowers: int  # 花
    items: tuple[ValueItem, ...]
    base_value: float  # after caps, before multipliers
    value: float  # V: after multipliers; 0 for an illegal win


class PaymentReason(IntEnum):
    SELF_DRAW = 1  # 自摸
    DISCARD = 2  # 点炮
    ROBBING_KONG = 3  # 抢杠 (paid by the kong player)
    EIGHT_FLOWERS = 4  # 八花 (paid as a self-draw)
    LIABILITY = 5  # 承包 (lezi, in addition) or the liable seat's share (REPLACE)
    SANKOU = 6  # 三口 relations (sankou): the related seats' shares


class Payment(NamedTuple):
    from_seat: int
    to_seat: int
    amount: float
    reason: PaymentReason


class PenaltyReason(IntEnum):
    ABANDON = 1  # 逃跑: paid to no one


class Penalty(NamedTuple):
    seat: int
    amount: float
    reason: PenaltyReason


class NextHand(NamedTuple):
    dealer_seat: int
    huangfan_count: int


class SettleResult(NamedTuple):
    request_id: str
    profile: str
    unit: Unit
    winners: tuple[WinnerResult, ...]
    payments: tuple[Payment, ...]
    seat_deltas: tuple[float, float, float, float]
    next_hand: NextHand | None  # None while the hand has not ended (no claimed win is legal)
    penalties: tuple[Penalty, ...] = ()
    huangfan_after_dice: int = 0  # this hand's 荒番 count after the dice
    profile_digest: str = ""  # the effective profile's digest ("" under a registry that computes none)

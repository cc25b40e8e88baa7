"""Response messages back to rules_core results, for clients.

`shmj rescore` writes a server's answers with rules_core's JSON writer, which
gives the dict protobuf's `MessageToDict` gives (tests hold them to it) several
times faster. An enum number rules_core does not define (a newer server's, or 0,
which no answer should hold) raises KeyError: the caller falls back to
`MessageToDict`, which writes it as protobuf does.
"""

from __future__ import annotations

from mahjong.shanghai.v1 import settlement_pb2 as pb

import rules_core as rc


def _defined(enum):
    """Number -> member for the members only: unlike a request's tables, 0 is not read as None."""
    return {member: member for member in enum}.__getitem__  # IntEnum members hash as their numbers


_UNIT = _defined(rc.Unit)
_REASON = _defined(rc.IllegalReason)
_PATTERN = _defined(rc.Pattern)
_ITEM_KIND = _defined(rc.ItemKind)
_PAYMENT_REASON = _defined(rc.PaymentReason)
_PENALTY_REASON = _defined(rc.PenaltyReason)


def _item(m: pb.ValueItem) -> rc.ValueItem:
    return rc.ValueItem(_ITEM_KIND(m.kind), m.code, m.name_zh, m.name_en, m.contribution, m.count)


def winner_result(m: pb.WinnerResult) -> rc.WinnerResult:
    return rc.WinnerResult(
        m.seat,
        m.legal,
        tuple(map(_REASON, m.illegal_reasons[:])),
        tuple(map(_PATTERN, m.patterns[:])),
        m.flowers,
        tuple(map(_item, m.items[:])),
        m.base_value,
        m.value,
    )


def settle_result(m: pb.SettleResponse) -> rc.SettleResult:
    return rc.SettleResult(
        m.request_id,
        m.profile,
        _UNIT(m.unit),
        tuple(map(winner_result, m.winners[:])),
        tuple(rc.Payment(p.from_seat, p.to_seat, p.amount, _PAYMENT_REASON(p.reason)) for p in m.payments[:]),
        tuple(m.seat_deltas[:]),
        rc.NextHand(m.next_hand.dealer_seat, m.next_hand.huangfan_count) if m.HasField("next_hand") else None,
        tuple(rc.Penalty(p.seat, p.amount, _PENALTY_REASON(p.reason)) for p in m.penalties[:]),
        m.huangfan_after_dice,
    )

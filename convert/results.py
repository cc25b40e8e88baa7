"""Response messages back to rules_core results, for clients.

`shmj rescore` writes a server's answers with rules_core's JSON writer, which
gives the dict protobuf's `MessageToDict` gives (tests hold them to it) several
times faster. An enum number rules_core does not define (a newer server's, or 0,
which no answer should hold) raises KeyError: the caller falls back to
`MessageToDict`, which writes it as protobuf does.
"""

from __future__ import annotations

from mahjong.shanghai.v1 import records_pb2
from mahjong.shanghai.v1 import settlement_pb2 as pb

import rules_core as rc
from convert.enums import Violations
from convert.profiles import overrides


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
        m.profile_digest,
    )


def settle_record_result(m: records_pb2.SettleRecordResponse) -> rc.RecordResult:
    """A SettleRecordResponse back to rules_core's answer (its derived request read back as a
    request is, an unspecified tile as None)."""
    derived = m.derived
    request = rc.SettleRequest(
        profile=derived.profile,
        outcome=_OUTCOME(derived.outcome),
        winners=tuple(_winner(w) for w in derived.winners[:]),
        dealer_seat=derived.dealer_seat,
        dice=rc.Dice(derived.dice.first, derived.dice.second) if derived.HasField("dice") else None,
        huangfan_count=derived.huangfan_count,
        discarder_seat=derived.discarder_seat,
        liabilities=tuple(
            rc.LiabilityRelation(r.claimer_seat, r.source_seat, r.claims, r.pattern_kept)
            for r in derived.liabilities[:]
        ),
        abandoning_seat=derived.abandoning_seat,
        overrides=overrides(derived.overrides, "derived.overrides", Violations())
        if derived.HasField("overrides")
        else None,
        request_id=derived.request_id,
        declared_seats=tuple(derived.declared_seats[:]),
    )
    passes = tuple(
        rc.Pass(p.seat, _tile(p.tile), p.event_index, tuple(map(_PATTERN, p.patterns[:]))) for p in m.passes[:]
    )
    return rc.RecordResult(
        m.request_id, settle_result(m.settlement), request, passes, m.recorded_match, tuple(m.mismatched_seats[:])
    )


_OUTCOME = _defined(rc.Outcome)
_MELD_KIND = _defined(rc.MeldKind)
_FLOWER = _defined(rc.Flower)
_TILE_OF = {t + 1: t for t in rc.Tile}


def _tile(number: int) -> rc.Tile:
    return _TILE_OF[number]


def _tile_or_none(number: int) -> rc.Tile | None:
    return None if number == 0 else _TILE_OF[number]


def _winner(w) -> rc.Winner:
    hand = w.hand
    return rc.Winner(
        w.seat,
        rc.Hand(
            tuple(map(_tile, hand.concealed[:])),
            _tile_or_none(hand.winning_tile),
            tuple(rc.Meld(_MELD_KIND(x.kind), tuple(map(_tile, x.tiles[:])), x.from_seat) for x in hand.melds[:]),
            tuple(map(_FLOWER, hand.flowers[:])),
            tuple(map(_tile, hand.dragon_flowers[:])),
        ),
        tuple(map(_tile, w.passed_tiles[:])),
        w.replacement_draw,
        w.first_go_around,
        w.last_tile,
    )


def settle_record_response_dict(m: records_pb2.SettleRecordResponse) -> dict:
    """A server's SettleRecordResponse as the JSON `rules_core.settle_record_json` gives, key for
    key and in the same order (`MessageToDict` orders its keys otherwise); an enum number
    rules_core does not define is left to `MessageToDict`."""
    from convert.json_form import message_dict
    from convert.json_write import settle_record_response_dict as record_dict

    try:
        return record_dict(settle_record_result(m))
    except KeyError:
        return message_dict(m)

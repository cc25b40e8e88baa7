"""rules_core results to response messages: winners, CheckWin and ListWaits (errors: `server.errors`)."""

from __future__ import annotations

from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import rules_core as rc
from convert.memo import Memo
from rules_core.version import ENGINE_VERSION


def _items_message(items: tuple) -> pb.WinnerResult:
    message = pb.WinnerResult()
    add_item = message.items.add
    for kind, code, name_zh, name_en, contribution, count in items:
        add_item(kind=kind, code=code, name_zh=name_zh, name_en=name_en, contribution=contribution, count=count)
    return message


# Few distinct item lists occur (a profile's patterns, flower counts, caps, multipliers): each
# is built once as a message holding only those items, then merged in one call. They are only
# built for a winner result the wire memo has not seen: 3,889 in 60,000 random hands. The bound
# is reached within the first few hundred thousand hands, so a worker's memory is flat after
# (at 50,000 it still rose 15% from 1M to 1.75M hands: docs/PERFORMANCE.md, Memory).
_ITEM_TEMPLATES = Memo(_items_message, limit=10_000)


def fill_winner(target: pb.WinnerResult, w: rc.WinnerResult) -> None:
    """Write a winner's result into a message in place (cheaper than building and copying one)."""
    target.seat = w.seat
    target.legal = w.legal
    target.illegal_reasons.extend(w.illegal_reasons)
    target.patterns.extend(w.patterns)
    target.flowers = w.flowers
    target.base_value = w.base_value
    target.value = w.value
    if w.items:
        target.MergeFrom(_ITEM_TEMPLATES[w.items])


def check_win_response(request_id: str, result: rc.WinnerResult, profile_digest: str) -> svc.CheckWinResponse:
    response = svc.CheckWinResponse(request_id=request_id, engine_version=ENGINE_VERSION, profile_digest=profile_digest)
    response.result.SetInParent()
    fill_winner(response.result, result)
    return response


def list_waits_response(waits: rc.Waits) -> svc.ListWaitsResponse:
    response = svc.ListWaitsResponse(
        request_id=waits.request_id, engine_version=ENGINE_VERSION, profile_digest=waits.profile_digest
    )
    for target, found in ((response.discard_waits, waits.discard), (response.self_draw_waits, waits.self_draw)):
        for wait in found:
            message = target.add(tile=wait.tile + 1)
            fill_winner(message.result, wait.result)
    return response

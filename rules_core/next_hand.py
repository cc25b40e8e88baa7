"""What the next hand starts with (RULES.md sections 9 and 10)."""

from __future__ import annotations

from rules_core.profile import RuleProfile
from rules_core.requests import ON_ABANDON, ON_EXHAUSTIVE_DRAW, SettleRequest
from rules_core.results import NextHand, WinnerResult, new


def next_hand(
    request: SettleRequest,
    winners: tuple[WinnerResult, ...],
    huangfan_after_dice: int,
    profile: RuleProfile,
) -> NextHand | None:
    """None while the hand has not ended: a claimed win that is not legal ends nothing. The
    profile's `huangfan_reset_after_win`, `huangfan_max_count` and `multi_win_discarder_deals`
    (RULES.md section 14.6) change it."""
    outcome = request.outcome
    if outcome == ON_EXHAUSTIVE_DRAW:
        count = huangfan_after_dice + 1
        if profile.huangfan_max_count and count > profile.huangfan_max_count:
            count = profile.huangfan_max_count  # 14.6: min(count + 1, huangfan_max_count)
        return new(NextHand, (request.dealer_seat, count))  # 流局: the dealer stays
    if outcome == ON_ABANDON:
        return new(NextHand, (request.dealer_seat, 0))  # 荒番 lapses when a player leaves
    legal = [w.seat for w in winners if w.legal]
    if not legal:
        return None
    after_win = 0 if profile.huangfan_reset_after_win else max(huangfan_after_dice - 1, 0)
    if len(legal) == 1:
        dealer = legal[0]
    elif profile.multi_win_discarder_deals:
        dealer = request.discarder_seat  # the discarder, or the kong's player
    else:
        # 一炮多响: the first winner in turn order after the discarder (点炮者最近的一个胡牌者)
        discarder = request.discarder_seat
        dealer = min(legal, key=lambda seat: (seat - discarder) % 4)
    return new(NextHand, (dealer, after_win))

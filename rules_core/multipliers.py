"""Multipliers of a hand's value (RULES.md section 7): 荒番, dice 荒番 and 开宝.

They apply after the caps, and the caps rise with them. They are the same for
every winner of a hand, so they are worked out once per request.
"""

from __future__ import annotations

from typing import NamedTuple

from rules_core.profile import HuangfanMode, RuleProfile, dice_throw
from rules_core.requests import Dice
from rules_core.results import ItemKind, ValueItem


class Multipliers(NamedTuple):
    huangfan_after_dice: int  # this hand's 荒番 count once the dice are added
    factor: int
    items: tuple[ValueItem, ...]


def multipliers(profile: RuleProfile, huangfan_count: int, dice: Dice | None) -> Multipliers:
    # The count and the dice as one int (validated: the count is not negative, a die shows 1-6).
    key = (profile, huangfan_count * 64 + (dice.first * 8 + dice.second if dice is not None else 0))
    found = _MULTIPLIERS.get(key)
    if found is None:
        throw = dice_throw(dice.first, dice.second) if dice is not None else None
        if len(_MULTIPLIERS) >= MAX_MULTIPLIERS:
            _MULTIPLIERS.clear()
        found = _MULTIPLIERS[key] = _multipliers(profile, huangfan_count, throw)
    return found


# (profile, 荒番 count and dice) -> multipliers: a dict look-up where an lru_cache costs a call
# (3% of a compiled settlement). Emptied when it reaches MAX_MULTIPLIERS entries.
MAX_MULTIPLIERS = 4096
_MULTIPLIERS: dict[tuple[RuleProfile, int], Multipliers] = {}


def _multipliers(profile: RuleProfile, huangfan_count: int, throw: tuple[int, int] | None) -> Multipliers:
    count = huangfan_count
    items: list[ValueItem] = []
    factor = 1
    if throw is not None:
        count += profile.dice_huangfan.get(throw, 0)
    if count > 0:
        if profile.huangfan_mode == HuangfanMode.PER_LEVEL:
            huangfan = profile.huangfan_multiplier**count
        else:
            huangfan = profile.huangfan_multiplier
        factor *= huangfan
        if huangfan != 1:  # a profile without 荒番 (qiaoma: ×1) lists no item for it (RULES.md 14.10.4)
            items.append(ValueItem(ItemKind.MULTIPLIER, "HUANGFAN", "荒番", f"Huangfan hand (count {count})", huangfan))
    if throw is not None and throw in profile.kaibao_throws and profile.kaibao_multiplier != 1:
        factor *= profile.kaibao_multiplier
        items.append(
            ValueItem(
                ItemKind.MULTIPLIER,
                "KAIBAO",
                "开宝",
                f"Kaibao dice {throw[0]} and {throw[1]}",
                profile.kaibao_multiplier,
            )
        )
    return Multipliers(count, factor, tuple(items))

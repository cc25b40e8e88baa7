"""One claimed win under a section 14 profile: patterns, legality, 花, value and its items
(RULES.md 14.3, 14.4, 14.10.3, 14.10.4)."""

from __future__ import annotations

from dataclasses import dataclass

from tests.rules_core.reference_families.profiles import PATTERN_NUMBER, REASON_NUMBER, Profile
from tests.rules_core.reference_families.shape import (
    Meld,
    Reading,
    flower_sources,
    is_seven_pairs,
    shape_patterns,
    standard_readings,
)
from tests.rules_core.reference_families.tiles import FLOWER_OF, MELD_KIND_OF, TILE_OF, is_honour


@dataclass(frozen=True)
class Table:
    """What the request says around the winner."""

    outcome: str  # SELF_DRAW, DISCARD, ROBBING_KONG, EIGHT_FLOWERS
    dealer: int
    declared: frozenset
    huangfan: int
    dice: tuple[int, int] | None


@dataclass
class Judged:
    seat: int
    legal: bool
    reasons: list[str]
    patterns: list[str]
    flowers: int
    items: list[tuple[str, str, float, int]]  # (kind, code, contribution, count)
    base_value: float
    value: float
    fan: int = 0  # for choosing a reading: the 番 of 14.4 item 2, before `max_fan`


def _ordered(patterns: set[str]) -> list[str]:
    return sorted(patterns, key=PATTERN_NUMBER.__getitem__)


def _situational(profile: Profile, table: Table, winner: dict, melds: list[Meld]) -> set[str]:
    """The patterns that do not depend on the reading (a complete hand)."""
    seat = winner["seat"]
    self_draw = table.outcome == "SELF_DRAW"
    found = set()
    if all(m.kind == "concealed_kong" for m in melds):
        found.add("CONCEALED")
    if len(melds) == 4:
        found.add("BIG_HANGING")
    first = winner.get("firstGoAround", False) and not melds
    if first and seat == table.dealer and self_draw:
        found.add("HEAVENLY")
    if first and seat != table.dealer and (self_draw or not profile.earthly_self_draw_only):
        found.add("EARTHLY")
    if self_draw and winner.get("replacementDraw", False):
        found.add("KONG_BLOOM")
    if table.outcome == "ROBBING_KONG":
        found.add("ROBBING_KONG")
    if self_draw and winner.get("lastTile", False):
        found.add("LAST_TILE")
    return found


def huangfan_after_dice(profile: Profile, table: Table) -> int:
    """Section 7: under dice 荒番, 1-1 or 4-4 add 2 to this hand's count; any other double, or
    any throw with a 1 or a 4, adds 1."""
    count = table.huangfan
    if profile.dice_huangfan and table.dice is not None:
        a, b = table.dice
        if a == b and a in (1, 4):
            count += 2
        elif a == b or {1, 4} & {a, b}:
            count += 1
    return count


def _multipliers(profile: Profile, table: Table) -> list[tuple[str, str, float, int]]:
    items = []
    count = huangfan_after_dice(profile, table)
    if profile.huangfan_per_level and count > 0:
        items.append(("ITEM_KIND_MULTIPLIER", "HUANGFAN", float(2**count), 1))
    elif profile.huangfan_once and count > 0:  # section 7: ×2 once, whatever the count
        items.append(("ITEM_KIND_MULTIPLIER", "HUANGFAN", 2.0, 1))
    if profile.kaibao and table.dice is not None:
        a, b = table.dice
        if a == b or {a, b} == {1, 4}:
            items.append(("ITEM_KIND_MULTIPLIER", "KAIBAO", 2.0, 1))
    return items


def _value(profile: Profile, table: Table, patterns: set[str], sources: dict, flowers: int) -> tuple:
    """(items, base value, value, 番 before max_fan) of a legal hand."""
    items: list[tuple[str, str, float, int]] = []
    extra = [p for p in _ordered(patterns) if profile.fan.get(p)]
    sigma = sum(profile.fan[p] for p in extra)
    fixed = [profile.fixed_values[p] for p in patterns if profile.fixed_values.get(p)]
    if fixed:  # 14.4 item 1: a fixed-value (勒子) hand
        best = max(fixed)
        code = next(p for p in _ordered(patterns) if profile.fixed_values.get(p) == best)
        items.append(("ITEM_KIND_PATTERN", code, float(best), 1))
        fan = sigma if profile.fan_on_fixed else 0
        if fan:
            items += [("ITEM_KIND_FAN", p, float(profile.fan[p]), 1) for p in extra]
        used = min(fan, profile.max_fan) if profile.max_fan else fan
        if profile.max_fan and fan > profile.max_fan:  # 14.10.1: limited the same way with fan_on_fixed
            items.append(("ITEM_KIND_CAP", "FAN_CAP", float(profile.max_fan - fan), 1))
        raw = best + profile.lazi_value * used if profile.additive else best * 2**used
    else:  # 14.4 item 2: an ordinary hand
        if profile.no_flowers_value and "NO_FLOWERS" in patterns:
            items.append(("ITEM_KIND_FLOWERS", "NO_FLOWERS", float(profile.no_flowers_value), 1))
        else:
            items += [("ITEM_KIND_FLOWERS", s, float(v), n) for s, (v, n) in sources.items()]
        items.append(("ITEM_KIND_BASE", "ORDINARY_BASE", float(profile.ordinary_base), 1))
        if profile.base_fan:
            items.append(("ITEM_KIND_FAN", "BASE_FAN", float(profile.base_fan), 1))
        shaped = [p for p in _ordered(patterns) if profile.shape_fan.get(p)]
        shape = max((profile.shape_fan[p] for p in shaped), default=0)
        if shape:  # on a tie (混碰 lists three of 1), the last in pattern order: HALF_FLUSH_PUNGS
            code = [p for p in shaped if profile.shape_fan[p] == shape][-1]
            items.append(("ITEM_KIND_FAN", code, float(shape), 1))
        items += [("ITEM_KIND_FAN", p, float(profile.fan[p]), 1) for p in extra]
        fan = profile.base_fan + shape + sigma
        used = min(fan, profile.max_fan) if profile.max_fan else fan
        if profile.max_fan and fan > profile.max_fan:
            items.append(("ITEM_KIND_CAP", "FAN_CAP", float(profile.max_fan - fan), 1))
        points = profile.ordinary_base + flowers
        raw = points * max(1, used) if profile.additive else points * 2**used
        if profile.lazi_threshold and profile.lazi_threshold <= raw < profile.lazi_value:  # section 6, sankou
            items.append(("ITEM_KIND_THRESHOLD", "LAZI_THRESHOLD", float(profile.lazi_value - raw), 1))
            raw = profile.lazi_value
    capped = profile.cap is not None and (profile.cap_fixed_values or not fixed)
    base = min(raw, profile.cap) if capped else raw
    if base < raw:
        items.append(("ITEM_KIND_CAP", "LAZI_CAP", float(base - raw), 1))
    if patterns & profile.floor_patterns and base < profile.lazi_value:  # section 6, lezi 杠开 / 大吊车
        items.append(("ITEM_KIND_FLOOR", "LAZI_FLOOR", float(profile.lazi_value - base), 1))
        base = profile.lazi_value
    multipliers = _multipliers(profile, table)
    value = base
    for item in multipliers:
        value *= item[2]
    return items + multipliers, float(base), float(value), fan


def _min_fan_count(profile: Profile, patterns: set[str]) -> int:
    """14.10.1: `min_fan` compares "the 番 of 14.4 item 2": 兜底番, the highest 牌型番 and the
    summed 番, before `max_fan`, taken literally for a fixed-value hand too (where 14.4 item 1
    says 兜底番 and 牌型番 do not apply to its value)."""
    shape = max((profile.shape_fan.get(p, 0) for p in patterns), default=0)
    return profile.base_fan + shape + sum(profile.fan.get(p, 0) for p in patterns)


def _hand(winner: dict) -> tuple[list[str], list[Meld], int, int]:
    hand = winner.get("hand", {})
    concealed = [TILE_OF[t] for t in hand.get("concealed", [])]
    melds = [
        Meld(MELD_KIND_OF[m["kind"]], tuple(TILE_OF[t] for t in m["tiles"]), m.get("fromSeat", 0))
        for m in hand.get("melds", [])
    ]
    seasons = len({FLOWER_OF[f] for f in hand.get("flowers", [])})
    return concealed, melds, seasons, len(hand.get("dragonFlowers", []))


def _eight_flowers(profile: Profile, table: Table, winner: dict) -> Judged:
    _, melds, seasons, dragons = _hand(winner)
    sources = flower_sources(Reading((), None), [], melds, seasons + dragons, profile.flower_values)
    flowers = sum(v for v, _ in sources.values())
    patterns = set()
    if seasons == 8:
        patterns.add("EIGHT_FLOWERS")
        if profile.eight_flowers_lists_concealed and all(m.kind == "concealed_kong" for m in melds):
            patterns.add("CONCEALED")
    reasons = []
    if not patterns & profile.qualifying:
        reasons.append("NO_QUALIFYING_PATTERN")
    if profile.win_requires_declaration and winner["seat"] not in table.declared:
        reasons.append("NOT_DECLARED")
    if reasons:
        return Judged(winner["seat"], False, reasons, _ordered(patterns), flowers, [], 0.0, 0.0)
    items, base, value, fan = _value(profile, table, patterns, sources, flowers)
    return Judged(winner["seat"], True, [], _ordered(patterns), flowers, items, base, value, fan)


def _judge_reading(
    profile: Profile, table: Table, winner: dict, reading: Reading, concealed: list[str], melds: list[Meld]
) -> Judged:
    _, _, seasons, dragons = _hand(winner)
    seat = winner["seat"]
    patterns = shape_patterns(reading, concealed, melds) | _situational(profile, table, winner, melds)
    if reading.seven_pairs and profile.seven_pairs and "ALL_HONOURS" not in patterns:
        patterns.add("SEVEN_PAIRS")
    if reading.shapeless:  # section 4: 天胡, 地胡 and 大吊车 need a complete shape
        patterns -= {"HEAVENLY", "EARTHLY", "BIG_HANGING"}
    sources = flower_sources(
        reading if reading.standard else None, concealed, melds, seasons + dragons, profile.flower_values
    )
    flowers = sum(v for v, _ in sources.values())
    if flowers == 0 and profile.evaluates_no_flowers:
        patterns.add("NO_FLOWERS")
        flowers = profile.no_flowers_value
    claimed = table.outcome in ("DISCARD", "ROBBING_KONG")
    qualifies = bool(patterns & profile.qualifying)
    reasons = []
    if not qualifies and not profile.ordinary_hand_wins:
        reasons.append("NO_QUALIFYING_PATTERN")
    if claimed and winner["hand"].get("winningTile") in winner.get("passedTiles", []):
        reasons.append("MISSED_WIN")
    if profile.no_flowers_self_draw_only and claimed and "NO_FLOWERS" in patterns:
        reasons.append("NO_FLOWERS_SELF_DRAW_ONLY")
    if profile.ordinary_hand_wins and not qualifies:
        minimum = profile.min_flowers_discard if claimed else profile.min_flowers_self_draw
        if flowers < minimum:
            reasons.append("TOO_FEW_FLOWERS")
    if profile.win_requires_declaration and seat not in table.declared:
        reasons.append("NOT_DECLARED")
    items, base, value, _ = _value(profile, table, patterns, sources, flowers)
    # The 番 that rank readings are the patterns' (section 4: "under sections 1-13 番 do not depend
    # on the reading"), not those a fixed value happens to use.
    fan = _min_fan_count(profile, patterns)
    if profile.min_fan and fan < profile.min_fan:
        reasons.append("TOO_FEW_FAN")
    if reasons:
        return Judged(seat, False, reasons, _ordered(patterns), flowers, [], 0.0, 0.0, fan)
    return Judged(seat, True, [], _ordered(patterns), flowers, items, base, value, fan)


def judge(profile: Profile, table: Table, winner: dict) -> Judged:
    if table.outcome == "EIGHT_FLOWERS":
        return _eight_flowers(profile, table, winner)
    concealed, melds, seasons, dragons = _hand(winner)
    readings = standard_readings(concealed)
    all_honours = all(is_honour(t) for t in concealed + [t for m in melds for t in m.tiles])
    if not readings and not profile.standard_shape_only and is_seven_pairs(concealed, melds):
        # 14.3: an all-honour seven pairs is complete "with all_honours_any_shape = false"; with it
        # true (and seven_pairs off) it is only 乱风向 in any shape, with no 天胡 / 地胡
        if profile.seven_pairs or (all_honours and not profile.all_honours_any_shape):
            readings = [Reading((), None, seven_pairs=True)]
    if not readings and not profile.standard_shape_only and all_honours and profile.all_honours_any_shape:
        readings = [Reading((), None, shapeless=True)]  # never incomplete (section 4)
    if not readings:  # INCOMPLETE_SHAPE: the situational patterns that do not need a shape
        situational = _situational(profile, table, winner, melds) & {"CONCEALED", "KONG_BLOOM", "ROBBING_KONG"}
        sources = flower_sources(None, concealed, melds, seasons + dragons, profile.flower_values)
        flowers = sum(v for v, _ in sources.values())
        return Judged(winner["seat"], False, ["INCOMPLETE_SHAPE"], _ordered(situational), flowers, [], 0.0, 0.0)
    judged = [(_judge_reading(profile, table, winner, r, concealed, melds), _suited_pungs(r)) for r in readings]
    # Section 4 / 14.10.4: one that may win, then the higher value, then more 番, then ALL_PUNGS.
    # Readings still equal may differ in 花 where suited pungs carry 花 (清一色 111222333m 456m
    # 77m: 3 or 0); section 4 ranks no further, and the reading with the most suited pungs counts.
    return max(judged, key=lambda jp: (jp[0].legal, jp[0].value, jp[0].fan, "ALL_PUNGS" in jp[0].patterns, jp[1]))[0]


def _suited_pungs(reading: Reading) -> int:
    return sum(1 for kind, first in reading.sets if kind == "pung" and not is_honour(first))


def reason_order(reasons: list[str]) -> list[str]:
    return sorted(reasons, key=REASON_NUMBER.__getitem__)

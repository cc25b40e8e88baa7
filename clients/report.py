"""Readable tables of settlements and waits, from their proto3 JSON form."""

from __future__ import annotations

import unicodedata

from rules_core.patterns import Pattern
from rules_core.tiles import TILE_NOTATION
from rules_core.vocabulary import ENUM_WORDS


def words(name: str) -> str:
    """An enum value as a person reads it, English then Chinese (`rules_core.vocabulary`):
    ``self-draw 自摸``; the name itself for one the vocabulary lacks."""
    found = ENUM_WORDS.get(name)
    return f"{found.en} {found.zh}" if found else name


def display_width(text: str) -> int:
    """Columns a terminal gives the text: two for a wide (East Asian) character such as 花."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (``f"{text:<14}"`` counts
    characters, which leaves a Chinese column two spaces short per character)."""
    return text + " " * max(width - display_width(text), 0)


def _number(value: float) -> str:
    return f"{value:g}"


def pattern_label(name: str) -> str:
    pattern = Pattern[name.removeprefix("PATTERN_")]
    return f"{pattern.name} {pattern.name_zh}"


def tile_label(name: str | int) -> str:
    if isinstance(name, int):
        return TILE_NOTATION[name - 1]
    from rules_core.json_names import TILE

    return TILE.by_name[name].notation


def _effect(item: dict) -> str:
    kind = item.get("kind", "")
    amount = item.get("contribution", 0.0)
    if kind in ("ITEM_KIND_FLOWERS", "ITEM_KIND_BASE"):
        return f"+{_number(amount)}"
    if kind == "ITEM_KIND_FAN":
        return f"x{2 ** int(amount)} ({_number(amount)} 番)"
    if kind == "ITEM_KIND_PATTERN":
        return f"= {_number(amount)}"
    if kind == "ITEM_KIND_MULTIPLIER":
        return f"x{_number(amount)}"
    return f"{amount:+g}"


def winner_lines(winner: dict, unit: str) -> list[str]:
    seat = winner.get("seat", 0)
    legal = winner.get("legal", False)
    patterns = ", ".join(pattern_label(p) for p in winner.get("patterns", [])) or "no pattern"
    lines = [f"Seat {seat}  {'LEGAL' if legal else 'NOT LEGAL'}  {patterns}  ({winner.get('flowers', 0)} 花)"]
    if not legal:
        reasons = ", ".join(words(r) for r in winner.get("illegalReasons", []))
        lines.append(f"  why: {reasons}")
        return lines
    for item in winner.get("items", []):
        count = item.get("count", 1)
        name = item.get("nameEn", "") + (f" x{count}" if count > 1 else "")
        lines.append(f"  {pad(name, 44)} {pad(item.get('nameZh', ''), 16)} {_effect(item)}")
    lines.append(
        f"  value per share V = {_number(winner.get('value', 0.0))} {unit}"
        f"  (before multipliers {_number(winner.get('baseValue', 0.0))})"
    )
    return lines


def settlement_table(response: dict) -> str:
    unit = ENUM_WORDS[response["unit"]].zh if response.get("unit") in ENUM_WORDS else ""
    lines = [
        f"Profile {response.get('profile', '')} (unit {unit})"
        + (f"  request {response['requestId']}" if response.get("requestId") else "")
    ]
    for winner in response.get("winners", []):
        lines += winner_lines(winner, unit)
    payments = response.get("payments", [])
    if payments:
        lines.append("Payments")
        for p in payments:
            reason = words(p.get("reason", ""))
            lines.append(
                f"  seat {p.get('fromSeat', 0)} -> seat {p.get('toSeat', 0)}  {_number(p.get('amount', 0.0)):>6}  {reason}"
            )
    for penalty in response.get("penalties", []):
        lines.append(f"Penalty  seat {penalty.get('seat', 0)} loses {_number(penalty.get('amount', 0.0))} (逃跑)")
    deltas = "  ".join(f"{d:+g}" for d in response.get("seatDeltas", []))
    lines.append(f"Seat deltas  {deltas}")
    lines.append(f"荒番 after dice  {response.get('huangfanAfterDice', 0)}")
    if "nextHand" in response:
        next_hand = response["nextHand"]
        lines.append(
            f"Next hand  dealer {next_hand.get('dealerSeat', 0)}, 荒番 count {next_hand.get('huangfanCount', 0)}"
        )
    else:
        lines.append("Next hand  none 无: no claimed win is legal, the hand goes on 无人合法胡牌，本手继续")
    return "\n".join(lines)


def waits_table(response: dict) -> str:
    lines = []
    for key, title in (("discardWaits", "On a discard"), ("selfDrawWaits", "By self-draw")):
        waits = response.get(key, [])
        lines.append(f"{title}: {len(waits)} winning tile(s)")
        for wait in waits:
            result = wait.get("result", {})
            patterns = ", ".join(pattern_label(p) for p in result.get("patterns", []))
            lines.append(f"  {tile_label(wait['tile']):<3} V = {_number(result.get('value', 0.0)):>5}  {patterns}")
    return "\n".join(lines)

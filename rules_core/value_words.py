"""How each item of a winner's value acts, and the sum the items make, in English and Chinese:
one wording for `shmj score` and `shmj waits` and the explorer (``POST /explorer/why``).

A 番 item doubles the value under ``fan_additive`` false (``x2 (1 fan 番)``); under it (RULES.md
section 14.4) it adds its 番 to the multiplier of an ordinary hand (``+1 fan 番``), and
``lazi_value`` × 番 to a fixed-value hand (``+10``). The sum is said where it is not the
product of doublings that the items already show: under additive 番, and where the 番 cap
(``FAN_CAP``, 封顶) leaves some unused. Everything is read from the proto3 JSON of the answer's
winner and of the effective ``RuleProfile``.
"""

from __future__ import annotations

from typing import NamedTuple

from rules_core.vocabulary import TERMS, term


class ValueRules(NamedTuple):
    """What the words of a value need of the effective profile."""

    fan_additive: bool = False
    lazi_value: float = 0.0

    @classmethod
    def of(cls, profile: dict | None) -> ValueRules:
        """From the proto3 JSON of a RuleProfile (None: a profile of today's rules)."""
        if not profile:
            return cls()
        return cls(bool(profile.get("fanAdditive", False)), float(profile.get("laziValue", 0) or 0))


def _number(value: float) -> str:
    return f"{value:g}"


def _sum(items: list[dict], kinds: tuple[str, ...], codes: tuple[str, ...] | None = None) -> float:
    return sum(
        float(item.get("contribution", 0) or 0)
        for item in items
        if item.get("kind") in kinds and (codes is None or item.get("code") in codes)
    )


def _fixed_value(items: list[dict]) -> float | None:
    values = [float(i.get("contribution", 0) or 0) for i in items if i.get("kind") == "ITEM_KIND_PATTERN"]
    return max(values) if values else None


def item_effect(item: dict, rules: ValueRules, fixed: bool = False) -> str:
    """What one item does to the value: ``+3``, ``x2 (1 fan 番)``, ``+1 fan 番``, ``= 20``,
    ``-2 fan 番``.
    ``fixed``: the winner's hand is a fixed-value one (it has a pattern item)."""
    kind = item.get("kind", "")
    amount = float(item.get("contribution", 0) or 0)
    fan = term("fan")
    if kind in ("ITEM_KIND_FLOWERS", "ITEM_KIND_BASE"):
        return f"+{_number(amount)}"
    if kind == "ITEM_KIND_FAN":
        if not rules.fan_additive:
            return f"x{_number(2**amount)} ({_number(amount)} {fan})"
        if fixed:
            return f"+{_number(rules.lazi_value * amount)} ({_number(amount)} {fan})"
        return f"+{_number(amount)} {fan}"
    if kind == "ITEM_KIND_PATTERN":
        return f"= {_number(amount)}"
    if kind == "ITEM_KIND_MULTIPLIER":
        return f"x{_number(amount)}"
    if kind == "ITEM_KIND_CAP" and item.get("code") == "FAN_CAP":
        return f"{amount:+g} {fan}"
    return f"{amount:+g}"


def value_sum(winner: dict, rules: ValueRules) -> str:
    """The sum the items make before any cap of the value and the multipliers, with the rule
    that makes it (``fan add up 番相加: (3 + 4) × 2 = 14``); empty where the items' doublings say
    it all (today's rules with no 番 cap reached) or the winner is not legal."""
    items = winner.get("items", [])
    capped = any(i.get("kind") == "ITEM_KIND_CAP" and i.get("code") == "FAN_CAP" for i in items)
    if not winner.get("legal") or not items or not (rules.fan_additive or capped):
        return ""
    fan = _sum(items, ("ITEM_KIND_FAN",)) + _sum(items, ("ITEM_KIND_CAP",), ("FAN_CAP",))
    fixed = _fixed_value(items)
    if fixed is not None:
        if rules.fan_additive:
            said = TERMS["fan_on_fixed_add"]
            lazi = _number(rules.lazi_value)
            total = fixed + rules.lazi_value * fan
            return f"{said.en} {lazi} {said.zh}{lazi}: {_number(fixed)} + {lazi} × {_number(fan)} = {_number(total)}"
        said = TERMS["fan_double"]
        return f"{said.en} {said.zh}: {_number(fixed)} × 2^{_number(fan)} = {_number(fixed * 2**fan)}"
    base = _sum(items, ("ITEM_KIND_FLOWERS", "ITEM_KIND_BASE"))
    parts = " + ".join(_number(_sum(items, (kind,))) for kind in ("ITEM_KIND_BASE", "ITEM_KIND_FLOWERS"))
    if rules.fan_additive:
        said = TERMS["fan_add_up"]
        used = max(1.0, fan)
        return f"{said.en} {said.zh}: ({parts}) × {_number(used)} = {_number(base * used)}"
    said = TERMS["fan_double"]
    at_most = TERMS["fan_at_most"]
    return (
        f"{said.en} {said.zh}, {at_most.en} {_number(fan)} {at_most.zh}: "
        f"({parts}) × 2^{_number(fan)} = {_number(base * 2**fan)}"
    )

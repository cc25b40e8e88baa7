"""``POST /explorer/why``: why each liable (承包, 包三口) or related (三口) seat of a settlement pays,
and how each item of a winner's value acts, in the words `shmj score` prints
(`rules_core.liability_words`, `rules_core.value_words`), so the page and the CLI word them once.

Body: ``{"payments": [...], "liabilities": [...], "threshold": 3, "mode": "LIABILITY_MODE_CONTRACT",
"declaredSeats": [0, 2], "winners": [...], "fanAdditive": true, "laziValue": 10}``: the answer's
``payments`` and ``winners`` and the request's ``liabilities`` and ``declaredSeats`` in proto3
JSON, and the effective profile's ``liability_threshold`` (null when there is no liability
payment), ``liability_mode``, ``fan_additive`` and ``lazi_value`` (RULES.md section 14); each
key but ``payments`` may be left out. Answer: ``{"why": [[...], ...], "values": [{"effects":
[...], "sum": "..."}, ...]}``: the phrases of each payment in order (none for a payment of another
reason), and for each winner the effect of each item in order and the sum they make (empty
where the items say it all).
"""

from __future__ import annotations

from rules_core.errors import excerpt, key_path
from rules_core.liability_words import payments_why
from rules_core.value_words import ValueRules, item_effect, value_sum
from server.explorer.bodies import BadExplorerBody, read_object

FIELDS = ("payments", "liabilities", "threshold", "mode", "declaredSeats", "winners", "fanAdditive", "laziValue")
MAX_ENTRIES = 64  # a settlement has at most 3 payments a winner and 3 winners; relations 12
MAX_WINNERS = 4
_PAYMENT_KEYS = {"fromSeat": int, "toSeat": int, "amount": (int, float), "reason": str}
# A relation as a settlement's request writes it, `patternKept` (RULES.md section 14) included.
_RELATION_KEYS = {"claimerSeat": int, "sourceSeat": int, "claims": int, "patternKept": bool}
# A WinnerResult as the answer has it, and each of its items.
_WINNER_KEYS = {
    "seat": int,
    "legal": bool,
    "illegalReasons": list,
    "patterns": list,
    "flowers": int,
    "items": list,
    "baseValue": (int, float),
    "value": (int, float),
}
_ITEM_KEYS = {"kind": str, "code": str, "nameZh": str, "nameEn": str, "contribution": (int, float), "count": int}
_EXPECTED = {str: "a string", bool: "true or false", list: "a list"}


def _checked(entry, where: str, keys: dict) -> dict:
    if not isinstance(entry, dict):
        raise BadExplorerBody(f"{where}: expected an object, got {excerpt(entry)}")
    for key, value in entry.items():
        kind = keys.get(key)
        if kind is None:
            raise BadExplorerBody(f"{where}: unknown key {key_path(key)}; known: {', '.join(keys)}")
        if (kind is not bool and isinstance(value, bool)) or not isinstance(value, kind):
            raise BadExplorerBody(f"{where}.{key}: expected {_EXPECTED.get(kind, 'a number')}, got {excerpt(value)}")
    return entry


def _entries(data: dict, name: str, keys: dict, limit: int = MAX_ENTRIES) -> list[dict]:
    entries = data.get(name, [])
    if not isinstance(entries, list) or len(entries) > limit:
        raise BadExplorerBody(f"{name}: expected a list of at most {limit} objects, got {excerpt(entries)}")
    return [_checked(entry, f"{name}[{index}]", keys) for index, entry in enumerate(entries)]


def _winners(data: dict) -> list[dict]:
    winners = _entries(data, "winners", _WINNER_KEYS, MAX_WINNERS)
    for index, winner in enumerate(winners):
        items = winner.get("items", [])
        if len(items) > MAX_ENTRIES:
            raise BadExplorerBody(f"winners[{index}].items: expected at most {MAX_ENTRIES} objects, got {len(items)}")
        for number, item in enumerate(items):
            _checked(item, f"winners[{index}].items[{number}]", _ITEM_KEYS)
    return winners


def _value_rules(data: dict) -> ValueRules:
    additive, lazi = data.get("fanAdditive", False), data.get("laziValue", 0)
    if not isinstance(additive, bool):
        raise BadExplorerBody(f"fanAdditive: expected true or false, got {excerpt(additive)}")
    if isinstance(lazi, bool) or not isinstance(lazi, int | float):
        raise BadExplorerBody(f"laziValue: expected a number, got {excerpt(lazi)}")
    return ValueRules(additive, float(lazi))


def _declared(data: dict) -> list[int] | None:
    declared = data.get("declaredSeats")
    if declared is None:
        return None
    if (
        not isinstance(declared, list)
        or len(declared) > 4
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in declared)
    ):
        raise BadExplorerBody(f"declaredSeats: expected a list of at most 4 seats, got {excerpt(declared)}")
    return declared


def _values(winner: dict, rules: ValueRules) -> dict:
    items = winner.get("items", [])
    fixed = any(item.get("kind") == "ITEM_KIND_PATTERN" for item in items)
    return {"effects": [item_effect(item, rules, fixed) for item in items], "sum": value_sum(winner, rules)}


def read_why(body: bytes) -> dict:
    """The phrases for a body, or `BadExplorerBody` naming what is wrong."""
    data = read_object(body, FIELDS, '{"payments": [...], "liabilities": [...], "threshold": 3}')
    threshold = data.get("threshold")
    if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, int)):
        raise BadExplorerBody(f"threshold: expected a whole number or null, got {excerpt(threshold)}")
    mode = data.get("mode", "")
    if not isinstance(mode, str):
        raise BadExplorerBody(f"mode: expected a string, got {excerpt(mode)}")
    payments = _entries(data, "payments", _PAYMENT_KEYS)
    liabilities = _entries(data, "liabilities", _RELATION_KEYS)
    declared = _declared(data)
    rules = _value_rules(data)
    answer: dict = {"why": payments_why(payments, liabilities, threshold, mode, declared)}
    if "winners" in data:
        answer["values"] = [_values(winner, rules) for winner in _winners(data)]
    return answer

"""``POST /explorer/why``: why each liable (承包) or related (三口) seat of a settlement pays, in
the words `shmj score` prints (`rules_core.liability_words`), so the page and the CLI word it
once.

Body: ``{"payments": [...], "liabilities": [...], "threshold": 3}``: the answer's ``payments``
and the request's ``liabilities`` in proto3 JSON, and the effective profile's
``liability_threshold`` (null when there is no liability payment). Answer: ``{"why": [[...],
...]}``, the phrases of each payment in order (none for a payment of another reason).
"""

from __future__ import annotations

from rules_core.errors import excerpt, key_path
from rules_core.liability_words import payments_why
from server.explorer.bodies import BadExplorerBody, read_object

FIELDS = ("payments", "liabilities", "threshold")
MAX_ENTRIES = 64  # a settlement has at most 3 payments a winner and 3 winners; relations 12
_PAYMENT_KEYS = {"fromSeat": int, "toSeat": int, "amount": (int, float), "reason": str}
# A relation as a settlement's request writes it, `patternKept` (RULES.md section 14) included.
_RELATION_KEYS = {"claimerSeat": int, "sourceSeat": int, "claims": int, "patternKept": bool}


def _entries(data: dict, name: str, keys: dict) -> list[dict]:
    entries = data.get(name, [])
    if not isinstance(entries, list) or len(entries) > MAX_ENTRIES:
        raise BadExplorerBody(f"{name}: expected a list of at most {MAX_ENTRIES} objects, got {excerpt(entries)}")
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise BadExplorerBody(f"{name}[{index}]: expected an object, got {excerpt(entry)}")
        for key, value in entry.items():
            kind = keys.get(key)
            if kind is None:
                raise BadExplorerBody(f"{name}[{index}]: unknown key {key_path(key)}; known: {', '.join(keys)}")
            if (kind is not bool and isinstance(value, bool)) or not isinstance(value, kind):
                expected = {str: "a string", bool: "true or false"}.get(kind, "a number")
                raise BadExplorerBody(f"{name}[{index}].{key}: expected {expected}, got {excerpt(value)}")
    return entries


def read_why(body: bytes) -> dict:
    """The phrases for a body, or `BadExplorerBody` naming what is wrong."""
    data = read_object(body, FIELDS, '{"payments": [...], "liabilities": [...], "threshold": 3}')
    threshold = data.get("threshold")
    if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, int)):
        raise BadExplorerBody(f"threshold: expected a whole number or null, got {excerpt(threshold)}")
    payments = _entries(data, "payments", _PAYMENT_KEYS)
    liabilities = _entries(data, "liabilities", _RELATION_KEYS)
    return {"why": payments_why(payments, liabilities, threshold)}

"""Errors for input that cannot be a real request.

Each violation names the field by its path of proto field names, snake_case,
with list indexes (``winners[0].hand.melds[1]``), as API.md spells it.
"""

from __future__ import annotations

from typing import NamedTuple


class FieldViolation(NamedTuple):
    field: str
    description: str


class InvalidRequest(ValueError):
    """Malformed input. ``violations`` lists every ``(field_path, description)`` found."""

    def __init__(self, violations: list[FieldViolation] | list[tuple[str, str]]):
        self.violations = [FieldViolation(*v) for v in violations]
        super().__init__("; ".join(f"{v.field}: {v.description}" for v in self.violations))


class NotationError(ValueError):
    """Tile notation that cannot be read; ``position`` is the 0-based character offset."""

    def __init__(self, text: str, position: int, message: str):
        self.text = text
        self.position = position
        self.message = message
        pointer = " " * position + "^"
        super().__init__(f"{message} at position {position}:\n  {text}\n  {pointer}")

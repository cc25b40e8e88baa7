"""Errors for input that cannot be a real request.

Each violation names the field by its path of proto field names, snake_case,
with list indexes (``winners[0].hand.melds[1]``), as API.md spells it.

What an error says is bounded, whatever the input: at most `MAX_VIOLATIONS`
violations are listed (then one entry says how many more were found), each
field path and description is cut to a bound, and all of them together stay
within `MAX_VIOLATION_BYTES`, so an answer's trailers fit the 8 KiB a default
gRPC client accepts.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class LongInteger:
    """An integer of an input with more digits than Python reads (the wire layer's JSON reader
    makes one): kept as its number of digits only, for a field check to refuse as out of range."""

    __slots__ = ("digits",)

    def __init__(self, text: str):
        self.digits = len(text.lstrip("-"))

    def __repr__(self) -> str:
        return f"an integer of {self.digits:,} digits"

    __str__ = __repr__

    def _refused(self):  # protobuf's JSON parser calls int() or float(): its error then names the field
        raise ValueError(f"{self} is out of range")

    __int__ = __float__ = __index__ = _refused


MAX_VIOLATIONS = 20
MAX_FIELD_CHARS = 120
MAX_DESCRIPTION_CHARS = 240
MAX_VIOLATION_BYTES = 3000  # field paths and descriptions together, UTF-8
UNLISTED_FIELD = "request"  # the field of the entry that counts the violations not listed


def bounded(text: str, limit: int) -> str:
    """``text``, or its first ``limit`` characters and a note of how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"


MAX_EXCERPT_CHARS = 32  # of a value shown in a message: enough to recognise it, too little to copy a secret
_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_KINDS = {dict: "an object", list: "a list", tuple: "a list"}
_JSON_WORDS = {None: "null", True: "true", False: "false"}
_INFINITIES = (float("inf"), float("-inf"))
_JSON_FLOATS = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}  # as JSON readers spell them


def excerpt(value) -> str:
    """A value as an error message or a log line may show it: bounded and printable whatever it
    is. A string is quoted (control characters escaped) and cut to `MAX_EXCERPT_CHARS`; a list or
    an object is named by its kind only; an integer too long to read is named by its size; null,
    true, false, NaN and Infinity as JSON spells them."""
    kind = type(value)
    if kind is str:
        if len(value) <= MAX_EXCERPT_CHARS:
            return repr(value)
        return f"{value[:MAX_EXCERPT_CHARS]!r}… ({len(value):,} characters)"
    if kind is int:
        if value.bit_length() <= 64:
            return repr(value)
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    if kind is float:
        return repr(value) if value == value and value not in _INFINITIES else _JSON_FLOATS[str(value)]
    if kind is bool or value is None:
        return _JSON_WORDS[value]  # what the input said: every value quoted was read from JSON (or YAML)
    shown = _KINDS.get(kind)
    if shown is not None:
        return shown
    if kind is LongInteger:
        return repr(value)
    return f"a {kind.__name__}"


def key_path(key) -> str:
    """A key of an input object as a field path may show it: a name of letters, digits, '_' and
    '-' as it is, any other key by its kind and size only (a key may be a line of a file that is
    no profile at all)."""
    if type(key) is str and _NAME.fullmatch(key):
        return key
    if type(key) is str:
        return f"(a key of {len(key):,} characters)"
    return f"(a key that is {excerpt(key)})"


class FieldViolation(NamedTuple):
    field: str
    description: str


class Violations(list):
    """Field violations as they are found: the first `MAX_VIOLATIONS` are kept, the rest only
    counted (in ``unlisted``), so a request with a million faults costs no more memory than one
    with twenty."""

    unlisted = 0  # an instance's own count from its first unlisted fault (no __init__: one per request)

    def append(self, violation) -> None:
        if len(self) < MAX_VIOLATIONS:
            super().append(violation)
        else:
            self.unlisted += 1


def _utf8(text: str) -> str:
    """``text`` as UTF-8 can hold it: a lone surrogate (which JSON can escape, "\\ud800", and
    an input may quote) written as its escape."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode()
    return text


def _listed(violations) -> list[FieldViolation]:
    """The violations an error reports, within the bounds, and one entry counting the rest."""
    listed: list[FieldViolation] = []
    budget = MAX_VIOLATION_BYTES
    found = list(violations)
    for field, description in found[:MAX_VIOLATIONS]:
        violation = FieldViolation(
            bounded(_utf8(field), MAX_FIELD_CHARS), bounded(_utf8(description), MAX_DESCRIPTION_CHARS)
        )
        size = len(violation.field.encode()) + len(violation.description.encode())
        if size > budget:
            break
        budget -= size
        listed.append(violation)
    unlisted = len(found) - len(listed) + getattr(violations, "unlisted", 0)
    if unlisted:
        listed.append(FieldViolation(UNLISTED_FIELD, f"{unlisted} more violation(s) not listed"))
    return listed


class InvalidRequest(ValueError):
    """Malformed input. ``violations`` lists every ``(field_path, description)`` found, within the
    bounds above.

    Raised with the violations as found (``InvalidRequest(violations)``, its one argument, which
    the raiser hands over and no longer changes); the bounded list and the message are made when
    first read. A refusal nobody reads the details of (a caller that only counts refusals) then
    costs its raising alone, no more than settling a hand."""

    # No __init__: BaseException keeps the argument in ``args``, and raising calls no Python code.

    @property
    def violations(self) -> list[FieldViolation]:
        held = self.__dict__
        listed = held.get("_listed")
        if listed is None:
            listed = held["_listed"] = _listed(self.args[0])
        return listed

    def __str__(self) -> str:
        return "; ".join(f"{v.field}: {v.description}" for v in self.violations)

    def __repr__(self) -> str:  # the message, as a ValueError shows it: bounded, not the list as raised
        return f"{type(self).__name__}({str(self)!r})"


class NotationError(ValueError):
    """Tile notation that cannot be read; ``position`` is the 0-based character offset."""

    def __init__(self, text: str, position: int, message: str):
        self.text = text
        self.position = position
        self.message = message
        pointer = " " * position + "^"
        super().__init__(f"{message} at position {position}:\n  {text}\n  {pointer}")

    def in_one_line(self, around: int = 10) -> str:
        """The fault in one line, its character marked within ``around`` characters either side:
        ``bad notation at position 10 ('111m 555m ⟨x⟩99p EEE 7…'): unexpected 'x': ...``."""
        text, at = self.text, self.position
        start, end = max(0, at - around), min(len(text), at + 1 + around)
        shown = f"{'…' * (start > 0)}{text[start:at]}⟨{text[at : at + 1]}⟩{text[at + 1 : end]}{'…' * (end < len(text))}"
        return f"bad notation at position {at} ('{shown}'): {self.message}"


class ProfileDigestMismatch(Exception):
    """A request pinned to a profile digest that is not the effective profile's (API.md,
    "Versioned answers"): the rules in force are not the ones the caller settled by."""

    def __init__(self, expected: str, actual: str):
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"profile_digest: the request expects {bounded(expected, 80)} but the effective profile is "
            + (actual or "not digested (its registry was given no digest function)")
        )

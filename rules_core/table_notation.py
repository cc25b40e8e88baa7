"""The dice and the claims as a person writes them, read in one place for the CLI and the
explorer (``POST /explorer/notation``), each accepting the other's former spelling.

- Dice: two numbers 1-6, written ``3,3`` (canonical), ``3 3`` or ``3+3``.
- Claims: ``CLAIMER:SOURCE:COUNT`` (canonical: seat 1 claimed 3 melds from seat 2's discards
  is ``1:2:3``), or ``1<2:3``; the count may be left out (``1:2``, ``1<2``) and is then 3.
  ``:kept`` after it says the claimer's exposed melds keep a pattern (`pattern_kept`, RULES.md
  14.10.1): ``1:2:3:kept``. Several are separated by commas or spaces: ``1:2:3, 2:1:3``.
- Seats (the seats that have knocked, 敲: `declared_seats`): ``0,2`` or ``0 2``.

A fault raises `NotationError` with the character offset of the part at fault.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from rules_core.errors import NotationError

DEFAULT_CLAIMS = 3  # a relation's usual threshold: what "1:2" means
_DICE = re.compile(r"\s*([1-6])\s*[,+\s]\s*([1-6])\s*")
_CLAIM = re.compile(r"([0-3])\s*[:<]\s*([0-3])(?:\s*:\s*(\d{1,6}))?(\s*:\s*kept)?")
_SEAT = re.compile(r"[0-3]")
_SEPARATOR = re.compile(r"[\s,]+")


class Claim(NamedTuple):
    claimer_seat: int
    source_seat: int
    claims: int
    pattern_kept: bool = False


def parse_dice(text: str) -> tuple[int, int]:
    found = _DICE.fullmatch(text)
    if found is None:
        raise NotationError(text, 0, "two dice 1-6 such as 3,3")
    return int(found.group(1)), int(found.group(2))


def format_dice(first: int, second: int) -> str:
    return f"{first},{second}"


def _matches(text: str, item: re.Pattern, fault: str) -> list[re.Match]:
    """Every match of ``item`` in ``text``, in order, separated by commas or spaces; anything else
    raises `NotationError` at the item it stops."""
    found_all: list[re.Match] = []
    position = 0
    while position < len(text):
        gap = _SEPARATOR.match(text, position)
        if gap is not None:
            position = gap.end()
            continue
        found = item.match(text, position)
        end = found.end() if found is not None else position
        if found is None or (end < len(text) and not _SEPARATOR.match(text, end)):
            raise NotationError(text, position, fault)
        found_all.append(found)
        position = end
    return found_all


def parse_claims(text: str) -> tuple[Claim, ...]:
    """Every claim in ``text``, in order."""
    claims: list[Claim] = []
    for found in _matches(text, _CLAIM, "a claim is CLAIMER:SOURCE:COUNT with seats 0-3, such as 1:2:3"):
        count = int(found.group(3)) if found.group(3) is not None else DEFAULT_CLAIMS
        claims.append(Claim(int(found.group(1)), int(found.group(2)), count, found.group(4) is not None))
    return tuple(claims)


def format_claims(claims) -> str:
    return ", ".join(
        f"{c.claimer_seat}:{c.source_seat}:{c.claims}" + (":kept" if len(c) > 3 and c[3] else "")  # pattern_kept
        for c in claims
    )


def parse_seats(text: str) -> tuple[int, ...]:
    """Every seat in ``text`` (``0,2``), in order; one listed twice is the request's to refuse."""
    return tuple(
        int(found.group()) for found in _matches(text, _SEAT, "seats are 0-3, separated by commas, such as 0,2")
    )

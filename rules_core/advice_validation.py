"""Reject an advice request that cannot be real (RULES.md 15.1, 15.4), naming the field.

The table's fields are checked as every request's (`rules_core.validation.check_table`), the
holding as a winner's hand with no winning tile (`check_holding`, and its dragons as section 14
says: `check_dragons`), and ``seen``: each entry a tile (never a dragon under
`dragons_are_flowers`, where dragons are flowers), and no tile held and seen more than four times
in all.
"""

from __future__ import annotations

from rules_core.errors import FieldViolation, InvalidRequest, Violations
from rules_core.profile import RuleProfile
from rules_core.registry import BUILTIN_REGISTRY, ProfileRegistry
from rules_core.requests import Hand
from rules_core.tiles import FIRST_DRAGON, TILE_KINDS, TILE_NOTATION
from rules_core.validation import check_dragons, check_holding, check_table

# Every tile of the game once over: a longer `seen` cannot be real, and is refused unread.
MAX_SEEN = 136


def validate_advice(request, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> tuple[RuleProfile, list[int], list[int]]:
    """The effective profile, the holding's concealed counts and the counts of ``seen``, or
    InvalidRequest naming every fault."""
    violations = Violations()
    add = violations.append
    profile = check_table(request, add, profiles)
    seat = request.seat
    seat_ok = type(seat) is int and 0 <= seat <= 3
    if not seat_ok:
        add(FieldViolation("seat", "must be a seat 0-3"))
    before = len(violations)
    counts = check_holding(request.hand, seat if seat_ok else None, "hand", add)
    hand = request.hand
    if profile is not None and (profile.dragons_are_flowers or (len(hand) > 4 and hand.dragon_flowers)):
        check_dragons(profile, hand, (), "", add)
    hand_ok = len(violations) == before
    seen = seen_counts(request.seen, add, profile is not None and profile.dragons_are_flowers)
    if hand_ok and seen is not None:
        _check_copies(request.hand, counts, seen, add)
    if violations or profile is None or seen is None:  # no profile only with a violation naming why
        raise InvalidRequest(violations)
    return profile, counts, seen


def seen_counts(seen, add, dragons_are_flowers: bool = False) -> list[int] | None:
    """The counts of ``seen``, or None with its faults passed to ``add``; a dragon is no tile
    that can be seen where dragons are flowers."""
    if len(seen) > MAX_SEEN:
        add(FieldViolation("seen", f"at most {MAX_SEEN} entries, got {len(seen)}"))
        return None
    counts = [0] * TILE_KINDS
    ok = True
    for index, tile in enumerate(seen):
        if tile is None:
            add(FieldViolation(f"seen[{index}]", "must be a specified tile"))
            ok = False
        elif dragons_are_flowers and tile >= FIRST_DRAGON:
            add(
                FieldViolation(
                    f"seen[{index}]",
                    f"{TILE_NOTATION[tile]} is a flower under this profile (dragons_are_flowers), never a tile seen",
                )
            )
            ok = False
        else:
            counts[tile] += 1
    return counts if ok else None


def held_counts(hand: Hand, counts: list[int]) -> list[int]:
    """Copies of each tile in a holding: its concealed counts and its melds' tiles."""
    held = counts[:]
    for meld in hand.melds:
        for tile in meld.tiles:
            held[tile] += 1  # type: ignore[index]  # validated: no None
    return held


def _check_copies(hand: Hand, counts: list[int], seen: list[int], add) -> None:
    held = held_counts(hand, counts)
    over = [
        f"{TILE_NOTATION[t]} x{held[t] + seen[t]} ({held[t]} held, {seen[t]} seen)"
        for t in range(TILE_KINDS)
        if held[t] + seen[t] > 4
    ]
    if over:
        add(FieldViolation("seen", f"a tile has only four copies: {', '.join(over)}"))

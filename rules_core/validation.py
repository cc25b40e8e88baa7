"""Reject input that cannot be a real request (RULES.md section 3), naming the field.

Paths follow API.md: proto field names, snake_case, with list indexes, the
deepest field that is wrong, or the hand when the fault is the hand as a whole.
Checks that depend on a broken field are skipped, so one fault reports once.
The tile counts computed on the way are handed to the scorer.
"""

from __future__ import annotations

from typing import Final, cast

from rules_core.errors import FieldViolation, InvalidRequest, ProfileDigestMismatch, Violations
from rules_core.overrides import resolve_profile
from rules_core.profile import HuangfanMode, RuleProfile, dice_throw
from rules_core.registry import BUILTIN_REGISTRY, ProfileRegistry
from rules_core.requests import (
    CHOW,
    CLAIMED_DISCARD,
    CONCEALED_KONG,
    ON_ABANDON,
    ON_EIGHT_FLOWERS,
    ON_SELF_DRAW,
    PUNG,
    Hand,
    MeldKind,
    Outcome,
    SettleRequest,
    Winner,
)
from rules_core.tiles import FIRST_DRAGON, FIRST_HONOUR, TILE_KINDS, TILE_NOTATION
from rules_core.vocabulary import ENUM_WORDS

# Members of the other enums the hot path compares with, as constants (see rules_core.requests).
_PER_LEVEL: Final = HuangfanMode.PER_LEVEL
# Meld kinds as ints: compiled, a meld's kind is read once into a machine int and compared with
# these C statics, where comparing members is a globals look-up and a generic comparison.
_CHOW: Final = int(CHOW)
_PUNG: Final = int(PUNG)
_CONCEALED_KONG: Final = int(CONCEALED_KONG)

SEATS = range(4)


def not_a_dragon(shown: str) -> str:
    """The words for a tile given as a dragon flower that is no dragon (a hand's, a record's)."""
    return f"must be a dragon 中发白 (C, F, P), got {shown}"


def _is_seat(value: object) -> bool:
    """``value in SEATS``, with a plain int (the usual case) compared natively when compiled."""
    if type(value) is int:
        return 0 <= value <= 3
    return value in SEATS


# Bounds that keep every amount a finite double, every count an int32 and no request slow.
MAX_HUANGFAN_COUNT = 1000
MAX_PER_LEVEL_COUNT = 24
_SEAT_TEXT = "must be a seat 0-3"

# Bounds on what a request can hold, shared by every way in (core values, proto messages, JSON).
MAX_REQUEST_ID_BYTES = 256
# The longest each repeated field of a real request can be, by field name. A longer one is
# refused before any of its elements is read, so a list of a million costs no more than one of 20.
# The bounds the hot paths check inline are Final literals (a call per list costs more than
# the check, and the compiled build inlines a literal where it would look a name up).
MAX_WINNERS: Final = 4
MAX_LIABILITIES: Final = 48  # entries for one pair add up: 12 pairs, 4 melds claimed each at most
MAX_CONCEALED: Final = 14
MAX_MELDS: Final = 4
MAX_MELD_TILES: Final = 4
MAX_FLOWERS: Final = 8
MAX_PASSED: Final = 136
MAX_DRAGON_FLOWERS: Final = 12  # 中发白, four of each
MAX_DECLARED: Final = 4
MAX_LENGTHS = {
    "winners": MAX_WINNERS,
    "liabilities": MAX_LIABILITIES,
    "concealed": MAX_CONCEALED,
    "melds": MAX_MELDS,
    "tiles": MAX_MELD_TILES,  # of a meld
    "flowers": MAX_FLOWERS,
    "passed_tiles": MAX_PASSED,
    "dragon_flowers": MAX_DRAGON_FLOWERS,
    "declared_seats": MAX_DECLARED,
    # RuleProfile overrides
    "fixed_values": 64,
    "fan": 64,
    "flower_values": 16,
    "floor_patterns": 64,
    "qualifying_patterns": 64,
    "dice_huangfan": 36,
    "kaibao_throws": 36,
    "sankou_self_draw_shares": 4,
    "shape_fan": 64,
}


def over_limit(name: str, count: int) -> str | None:
    """Why a repeated field named ``name`` holding ``count`` entries cannot be real, or None."""
    limit = MAX_LENGTHS[name]
    return f"at most {limit} entries, got {count}" if count > limit else None


def request_id_violation(request_id: str) -> FieldViolation | None:
    """A request id longer than `MAX_REQUEST_ID_BYTES` (it is echoed in answers and logs)."""
    if len(request_id) * 4 <= MAX_REQUEST_ID_BYTES:  # no need to encode: 4 bytes a character at most
        return None
    size = len(request_id.encode("utf-8", "surrogatepass"))
    if size <= MAX_REQUEST_ID_BYTES:
        return None
    return FieldViolation("request_id", f"at most {MAX_REQUEST_ID_BYTES} bytes, got {size}")


# Field paths of the winners, made once (the winners are checked to be at most MAX_WINNERS first).
_WINNER_PATHS: Final = tuple(f"winners[{index}]" for index in range(MAX_WINNERS))
_HAND_PATHS: Final = {path: f"{path}.hand" for path in (*_WINNER_PATHS, "winner")}


def _length_ok(values, name: str, path: str, add) -> bool:
    problem = over_limit(name, len(values))
    if problem:
        add(FieldViolation(path, problem))
    return problem is None


def validate_settle(
    request: SettleRequest, profiles: ProfileRegistry = BUILTIN_REGISTRY
) -> tuple[RuleProfile, list[list[int]]]:
    """The effective profile and each winner's concealed tile counts, or InvalidRequest."""
    violations: list[tuple[str, str]] = []
    profile, all_counts = settle_inputs(request, profiles, violations)
    if violations or profile is None:  # no profile only with a violation naming why
        raise InvalidRequest(violations)
    return profile, all_counts


def settle_inputs(
    request: SettleRequest, profiles: ProfileRegistry, violations: list[tuple[str, str]]
) -> tuple[RuleProfile | None, list[list[int]]]:
    """What `validate_settle` checks, each fault appended to ``violations``, for a caller that
    raises the refusal itself (`rules_core.settle`: a refused request then costs one traceback
    entry, not two). A plain list, appended to in C: every repeated field of the request is
    refused by its length before its entries are read, so one request's faults stay a few
    hundred at most, and `InvalidRequest` lists the first `MAX_VIOLATIONS` of them."""
    add = violations.append
    profile = _check_table(request, add, profiles)
    outcome = request.outcome
    if outcome is None:
        add(FieldViolation("outcome", "must be specified"))
    elif outcome == ON_ABANDON and profile is not None and not profile.has_abandon_rule:
        add(FieldViolation("outcome", f"profile {profile.name!r} has no abandon rule"))
    discarder = request.discarder_seat
    on_discard = outcome in CLAIMED_DISCARD
    if not _is_seat(discarder):  # a seat outside 0-3 is impossible whatever the outcome
        add(FieldViolation("discarder_seat", _SEAT_TEXT))

    winners = request.winners
    if len(winners) <= MAX_WINNERS or _length_ok(winners, "winners", "winners", add):
        check_hands = _check_winner_count(outcome, len(winners), add)
    else:
        winners, check_hands = (), False
    all_counts: list[list[int]] = []
    seen_seats: set[int] = set()
    for index, winner in enumerate(winners):
        path = _WINNER_PATHS[index]
        seat = _check_winner(winner, outcome, path, add, check_hands, all_counts)
        if profile is not None and check_hands:
            hand = winner.hand
            if hand.dragon_flowers or (
                profile.dragons_are_flowers and not _dragon_free(all_counts[-1], hand, winner.passed_tiles)
            ):
                check_dragons(profile, hand, winner.passed_tiles, path, add)
        if seat is None:
            continue
        if seat in seen_seats:
            add(FieldViolation(f"{path}.seat", f"seat {seat} cannot win twice"))
        elif on_discard and seat == discarder:
            add(FieldViolation(f"{path}.seat", f"seat {seat} discarded the tile and cannot win on it"))
        seen_seats.add(seat)

    declared = request.declared_seats
    if declared:
        _check_declared_seats(declared, add)

    liabilities = request.liabilities
    if len(liabilities) > MAX_LIABILITIES and not _length_ok(liabilities, "liabilities", "liabilities", add):
        liabilities = ()
    for index, relation in enumerate(liabilities):
        path = f"liabilities[{index}]"
        if not _is_seat(relation.claimer_seat):
            add(FieldViolation(f"{path}.claimer_seat", _SEAT_TEXT))
        if not _is_seat(relation.source_seat):
            add(FieldViolation(f"{path}.source_seat", _SEAT_TEXT))
        elif relation.source_seat == relation.claimer_seat:
            add(FieldViolation(path, "a seat cannot claim from its own discards"))
        if relation.claims < 0:
            add(FieldViolation(f"{path}.claims", f"must not be negative, got {relation.claims}"))
    if not _is_seat(request.abandoning_seat):
        add(FieldViolation("abandoning_seat", _SEAT_TEXT))
    return profile, all_counts


def validate_check_win(request, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> tuple[RuleProfile, list[int]]:
    """Validate a `CheckWinRequest`: one candidate winner of a win outcome."""
    violations = Violations()
    add = violations.append
    profile = _check_table(request, add, profiles)
    outcome = request.outcome
    if outcome is None:
        add(FieldViolation("outcome", "must be specified"))
    elif not outcome.is_win:
        add(FieldViolation("outcome", f"a win is judged, not an {_OUTCOME_TEXT[outcome]}"))
        outcome = None
    counts: list[list[int]] = []
    _check_winner(request.winner, outcome, "winner", add, True, counts)
    if request.declared_seats:
        _check_declared_seats(request.declared_seats, add)
    winner = request.winner
    if profile is not None and (profile.dragons_are_flowers or winner.hand.dragon_flowers):
        check_dragons(profile, winner.hand, winner.passed_tiles, "winner", add)
    if violations or profile is None:  # no profile only with a violation naming why
        raise InvalidRequest(violations)
    return profile, counts[0]


def validate_waits(request, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> tuple[RuleProfile, list[int]]:
    """Validate a `ListWaitsRequest`: a hand one tile short; returns its concealed counts."""
    violations = Violations()
    add = violations.append
    profile = _check_table(request, add, profiles)
    if not _is_seat(request.seat):
        add(FieldViolation("seat", _SEAT_TEXT))
    seat = request.seat if _is_seat(request.seat) else None
    counts = _check_hand(request.hand, seat, None, "hand", add, waiting=True)
    passed = request.passed_tiles if _length_ok(request.passed_tiles, "passed_tiles", "passed_tiles", add) else ()
    for index, tile in enumerate(passed):
        if tile is None:
            add(FieldViolation(f"passed_tiles[{index}]", "must be a specified tile"))
    if request.declared_seats:
        _check_declared_seats(request.declared_seats, add)
    if profile is not None and (profile.dragons_are_flowers or request.hand.dragon_flowers):
        check_dragons(profile, request.hand, passed, "", add)
    if violations or profile is None:  # no profile only with a violation naming why
        raise InvalidRequest(violations)
    return profile, counts


def check_table(request, add, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> RuleProfile | None:
    """The fields every request shares (id, profile, overrides, dealer, dice, 荒番 count), each
    fault passed to ``add``; the effective profile, or None with a fault naming why."""
    return _check_table(request, add, profiles)


def _check_table(request, add, profiles: ProfileRegistry) -> RuleProfile | None:
    request_id = request.request_id
    if len(request_id) * 4 > MAX_REQUEST_ID_BYTES:  # else short enough, whatever its characters
        too_long = request_id_violation(request_id)
        if too_long:
            add(too_long)
    profile = profiles.get(request.profile) if not request.overrides else None
    if profile is None:  # overrides to merge, or an unknown profile to name
        profile, profile_violations = resolve_profile(request.profile, request.overrides, profiles)
        for violation in profile_violations:
            add(violation)
    pinned = request.profile_digest
    if pinned and profile is not None:
        actual = profiles.digest(profile)
        if pinned != actual:
            raise ProfileDigestMismatch(pinned, actual)
    if not _is_seat(request.dealer_seat):
        add(FieldViolation("dealer_seat", _SEAT_TEXT))
    dice = request.dice
    if dice is not None:
        if not 1 <= dice.first <= 6:
            add(FieldViolation("dice.first", f"a die shows 1-6, got {dice.first}"))
        if not 1 <= dice.second <= 6:
            add(FieldViolation("dice.second", f"a die shows 1-6, got {dice.second}"))
    count = request.huangfan_count
    if count < 0:
        add(FieldViolation("huangfan_count", f"must not be negative, got {count}"))
    elif count > MAX_HUANGFAN_COUNT:
        add(FieldViolation("huangfan_count", f"at most {MAX_HUANGFAN_COUNT}, got {count}"))
    elif profile is not None and profile.huangfan_mode == _PER_LEVEL:
        # Each level doubles: the count after the dice (dice 荒番 adds to it) stays small.
        added = 0
        table = profile.dice_huangfan
        if dice is not None and table:
            added = table.get(dice_throw(dice.first, dice.second), 0)
        if count + added > MAX_PER_LEVEL_COUNT:
            got = f"{count} + {added} from the dice" if added else f"{count}"
            add(
                FieldViolation(
                    "huangfan_count",
                    f"with huangfan_mode PER_LEVEL the count doubles per level: at most {MAX_PER_LEVEL_COUNT}, got {got}",
                )
            )
    return profile


def _check_winner(winner: Winner, outcome, path: str, add, check_hand: bool, all_counts: list) -> int | None:
    """Check one winner, appending its concealed counts; returns its seat when valid."""
    seat: int | None = winner.seat
    if not _is_seat(seat):
        add(FieldViolation(f"{path}.seat", _SEAT_TEXT))
        seat = None
    if check_hand:
        all_counts.append(_check_hand(winner.hand, seat, outcome, _HAND_PATHS.get(path) or f"{path}.hand", add))
    passed = winner.passed_tiles
    if len(passed) > MAX_PASSED and not _length_ok(passed, "passed_tiles", f"{path}.passed_tiles", add):
        passed = ()
    if None in passed:
        for tile_index, tile in enumerate(passed):
            if tile is None:
                add(FieldViolation(f"{path}.passed_tiles[{tile_index}]", "must be a specified tile"))
    if winner.replacement_draw and outcome is not None and outcome != ON_SELF_DRAW:
        add(FieldViolation(f"{path}.replacement_draw", "only a self-draw is won on a replacement tile"))
    if winner.last_tile and outcome is not None and outcome != ON_SELF_DRAW:
        add(FieldViolation(f"{path}.last_tile", "only a self-draw is won on the last tile of the wall (海底捞月)"))
    return seat


def _check_declared_seats(declared: tuple[int, ...], add) -> None:
    """敲: each seat that has knocked, once (RULES.md section 14.10.1), under every profile."""
    if len(declared) > MAX_DECLARED and not _length_ok(declared, "declared_seats", "declared_seats", add):
        return
    seen = 0  # bits of the seats listed
    for index, seat in enumerate(declared):
        if not _is_seat(seat):
            add(FieldViolation(f"declared_seats[{index}]", _SEAT_TEXT))
        elif seen >> seat & 1:
            add(FieldViolation(f"declared_seats[{index}]", f"seat {seat} is listed twice"))
        else:
            seen |= 1 << seat


_DRAGON_TEXT: Final = (
    "中发白 are flowers under this profile (dragons_are_flowers): a dragon goes in hand.dragon_flowers"
)


def check_dragons(profile: RuleProfile, hand: Hand, passed, path: str, add) -> None:
    """Dragons under `dragons_are_flowers` (RULES.md section 14.3): never a tile of the hand, the
    winning tile or a passed tile, at most four of each among `dragon_flowers`; without it,
    `dragon_flowers` stays empty. ``path`` is the winner's (empty for a ListWaits request).

    A dragon among the tiles is the usual mistake under these profiles: its violations are
    plain ``(field, description)`` tuples, which `InvalidRequest` lists as `FieldViolation`s,
    without the named tuple's Python constructor."""
    hand_path = f"{path}.hand" if path else "hand"
    dragons = hand.dragon_flowers
    if not profile.dragons_are_flowers:
        add(
            (
                f"{hand_path}.dragon_flowers",
                f"profile {profile.name!r} has no dragon flowers (dragons_are_flowers is off)",
            )
        )
        return
    concealed = hand.concealed
    if _holds_dragon(concealed):
        add((f"{hand_path}.concealed", _dragons_text(concealed)))
    winning = hand.winning_tile
    if winning is not None and winning >= FIRST_DRAGON:
        add((f"{hand_path}.winning_tile", _DRAGON_TEXT))
    for index, meld in enumerate(hand.melds):
        if _holds_dragon(meld.tiles):
            add((f"{hand_path}.melds[{index}]", _dragons_text(meld.tiles)))
    if passed and len(passed) <= MAX_PASSED and _holds_dragon(passed):
        add((f"{path}.passed_tiles" if path else "passed_tiles", _dragons_text(passed)))
    if not dragons:
        return
    if len(dragons) > MAX_DRAGON_FLOWERS:
        _length_ok(dragons, "dragon_flowers", f"{hand_path}.dragon_flowers", add)
        return
    seen = [0, 0, 0]
    for index, tile in enumerate(dragons):
        if tile is None or tile < FIRST_DRAGON:
            shown = "an unspecified tile" if tile is None else TILE_NOTATION[tile]
            add(FieldViolation(f"{hand_path}.dragon_flowers[{index}]", not_a_dragon(shown)))
            continue
        seen[tile - FIRST_DRAGON] += 1
        if seen[tile - FIRST_DRAGON] == 5:
            add(
                FieldViolation(
                    f"{hand_path}.dragon_flowers[{index}]",
                    f"a dragon has only four copies: a fifth {TILE_NOTATION[tile]}",
                )
            )


def _check_winner_count(outcome: Outcome | None, count: int, add) -> bool:
    """Check how many winners the outcome allows; True when their hands are to be checked."""
    if outcome is None:
        return True
    if outcome in (ON_SELF_DRAW, ON_EIGHT_FLOWERS):
        if count != 1:
            add(FieldViolation("winners", f"a {_OUTCOME_TEXT[outcome]} has exactly one winner, got {count}"))
    elif outcome in CLAIMED_DISCARD:
        if count == 0:
            add(FieldViolation("winners", f"a {_OUTCOME_TEXT[outcome]} needs at least one winner"))
    elif count:
        add(FieldViolation("winners", f"an {_OUTCOME_TEXT[outcome]} has no winners, got {count}"))
        return False
    return True


# The outcomes in the words of the one vocabulary (`rules_core.vocabulary`).
_OUTCOME_TEXT = {outcome: ENUM_WORDS[f"OUTCOME_{outcome.name}"].en for outcome in Outcome}


def check_holding(hand: Hand, seat: int | None, path: str, add) -> list[int]:
    """Check a holding (RULES.md 15.1): a hand between turns, 13 or 14 concealed tiles less three
    per meld, checked as a winner's hand but with no winning tile; returns its concealed counts."""
    return _check_hand(hand, seat, None, path, add, holding=True)


def _check_hand(
    hand: Hand, seat: int | None, outcome: Outcome | None, path: str, add, waiting: bool = False, holding: bool = False
) -> list[int]:
    """Check one hand; ``waiting`` is a hand one tile short, with no winning tile yet; ``holding``
    one with a tile short or not (`check_holding`)."""
    counts = [0] * TILE_KINDS
    concealed, melds, flowers = hand.concealed, hand.melds, hand.flowers
    if len(concealed) > MAX_CONCEALED or len(melds) > MAX_MELDS or len(flowers) > MAX_FLOWERS:
        for name in ("concealed", "melds", "flowers"):
            _length_ok(getattr(hand, name), name, f"{path}.{name}", add)
        return counts  # a hand that cannot be real is not looked at further
    tiles_ok = True
    over_four = False  # a tile counted more than 4 times, concealed and melded
    for tile in concealed:
        if tile is None:
            tiles_ok = False
        else:
            count = counts[tile] + 1
            counts[tile] = count
            if count > 4:
                over_four = True
    if not tiles_ok:
        for index, tile in enumerate(concealed):
            if tile is None:
                add(FieldViolation(f"{path}.concealed[{index}]", "must be a specified tile"))

    eight_flowers = outcome == ON_EIGHT_FLOWERS
    expected = 14 - 3 * len(melds) - waiting
    got = len(concealed)
    if got != expected and not ((eight_flowers or holding) and got == expected - 1):
        wanted = f"{expected - 1} or {expected}" if eight_flowers or holding else str(expected)
        add(
            FieldViolation(
                f"{path}.concealed",
                f"{len(melds)} meld(s) leave {wanted} concealed tiles, got {got}",
            )
        )

    if holding:
        if hand.winning_tile is not None:
            add(FieldViolation(f"{path}.winning_tile", "a holding has no winning tile: leave it unset"))
    elif not eight_flowers and not waiting:
        winning = hand.winning_tile
        if winning is None:
            add(FieldViolation(f"{path}.winning_tile", "must be specified"))
        elif tiles_ok and not counts[winning]:
            add(
                FieldViolation(
                    f"{path}.winning_tile",
                    f"{TILE_NOTATION[winning]} is not among the concealed tiles",
                )
            )

    all_counts = counts[:] if melds else counts
    for index, meld in enumerate(melds):
        if _check_meld(meld, seat, path, index, add):
            for known in cast(tuple[int, ...], meld.tiles):
                count = all_counts[known] + 1
                all_counts[known] = count
                if count > 4:
                    over_four = True

    if flowers and (None in flowers or len(set(flowers)) != len(flowers)):
        seen_flowers = 0
        for index, flower in enumerate(flowers):
            if flower is None:
                add(FieldViolation(f"{path}.flowers[{index}]", "must be a specified flower"))
            elif seen_flowers >> flower & 1:
                add(FieldViolation(f"{path}.flowers[{index}]", f"flower {int(flower)}f appears twice"))
            else:
                seen_flowers |= 1 << flower

    if over_four:
        over = ", ".join(f"{TILE_NOTATION[t]} x{c}" for t, c in enumerate(all_counts) if c > 4)
        add(FieldViolation(path, f"a tile has only four copies: {over}"))
    return counts


def _check_meld(meld, seat: int | None, hand_path: str, index: int, add) -> bool:
    """Check one meld; True when its tiles form its kind and so count towards the hand."""
    kind = meld.kind
    tiles = meld.tiles
    if len(tiles) > MAX_MELD_TILES and not _length_ok(tiles, "tiles", f"{hand_path}.melds[{index}].tiles", add):
        return False
    if kind is None or _holds_none(tiles):
        path = f"{hand_path}.melds[{index}]"
        if kind is None:
            add(FieldViolation(f"{path}.kind", "must be specified"))
        for tile_index, tile in enumerate(tiles):
            if tile is None:
                add(FieldViolation(f"{path}.tiles[{tile_index}]", "must be a specified tile"))
        return False
    code: int = kind
    forms = _forms(code, tiles)
    if not forms:
        shown = " ".join(TILE_NOTATION[t] for t in tiles) or "no tiles"
        add(FieldViolation(f"{hand_path}.melds[{index}]", f"{shown} do not form a {_KIND_TEXT[kind]}"))
    if code != _CONCEALED_KONG:
        source = meld.from_seat
        problem = None
        if not _is_seat(source):
            problem = _SEAT_TEXT
        elif seat is None:
            pass
        elif source == seat:
            problem = "a meld cannot be claimed from the winner's own discard"
        elif code == _CHOW and source != (seat + 3) % 4:
            problem = f"a chow is claimed from the 上家 (seat {(seat + 3) % 4}), not seat {source}"
        if problem:
            add(FieldViolation(f"{hand_path}.melds[{index}].from_seat", problem))
    return forms


def _forms(kind: int, tiles: tuple) -> bool:
    if kind == _CHOW:
        if len(tiles) != 3:
            return False
        # Three different tiles two apart are consecutive (no sorting: plain int comparisons).
        a: int = tiles[0]
        b: int = tiles[1]
        c: int = tiles[2]
        low = a if a < b else b
        if c < low:
            low = c
        high = a if a > b else b
        if c > high:
            high = c
        return high - low == 2 and a != b and b != c and a != c and high < FIRST_HONOUR and low // 9 == high // 9
    size = 3 if kind == _PUNG else 4
    if len(tiles) != size:
        return False
    first: int = tiles[0]
    for i in range(1, size):
        other: int = tiles[i]
        if other != first:
            return False
    return True


_NOTATION: Final = TILE_NOTATION  # compiled: a C static, not a look-up in the module's globals


def _dragons_text(tiles) -> str:
    """What is wrong with a list of tiles holding 中发白 under `dragons_are_flowers`: one
    violation for the list (a hand of dragon pungs would otherwise be a dozen), the dragons and
    their indexes (``中发白 are flowers ...: C C at [3, 4]``)."""
    shown: list[str] = []
    at: list[str] = []
    index = 0
    for tile in tiles:
        if tile is not None and tile >= FIRST_DRAGON:
            shown.append(_NOTATION[tile])
            at.append(str(index))
        index += 1
    return f"{_DRAGON_TEXT}: {' '.join(shown)} at [{', '.join(at)}]"


def _dragon_free(counts: list[int], hand: Hand, passed) -> bool:
    """Whether no 中发白 is among a hand's concealed tiles (``counts``, as `_check_hand` made
    them), its melds or its passed tiles: the usual case, answered without naming a field. A
    meld is looked at by its first tile (a meld a dragon breaks is refused as a meld)."""
    if counts[FIRST_DRAGON] or counts[FIRST_DRAGON + 1] or counts[FIRST_DRAGON + 2]:
        return False
    for meld in hand.melds:
        tiles = meld.tiles
        if tiles:
            first = tiles[0]
            if first is not None and first >= FIRST_DRAGON:
                return False
    return not passed or not _holds_dragon(passed)


def _holds_dragon(tiles) -> bool:
    """Whether a 中发白 is among ``tiles`` (None for an unspecified tile skipped)."""
    for tile in tiles:
        if tile is not None and tile >= FIRST_DRAGON:
            return True
    return False


def _holds_none(values: tuple) -> bool:
    """Whether an unspecified (None) value is among ``values``: identity tests, where ``None in
    values`` compares every tile with None through the generic comparison."""
    for value in values:
        if value is None:
            return True
    return False


_KIND_TEXT = {
    MeldKind.CHOW: "chow (three consecutive tiles of one suit)",
    MeldKind.PUNG: "pung (three identical tiles)",
    MeldKind.EXPOSED_KONG: "kong (four identical tiles)",
    MeldKind.ADDED_KONG: "kong (four identical tiles)",
    MeldKind.CONCEALED_KONG: "kong (four identical tiles)",
}

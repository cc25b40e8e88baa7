"""Read requests from their proto3 JSON form (lowerCamelCase or snake_case keys, enum names or
numbers), collecting a violation with its field path for everything that is wrong."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import cache
from typing import Any

from convert.json_names import (
    ENUM_FIELDS,
    EVENT_KIND,
    FLAG_FIELDS,
    FLOWER,
    FLOWER_SOURCE,
    INT_FIELDS,
    MELD_KIND,
    OUTCOME,
    PATTERN,
    PATTERN_LIST_FIELDS,
    PATTERN_TABLE_FIELDS,
    PROFILE_MESSAGE_FIELDS,
    SHARE_FIELDS,
    TILE,
    EnumCodec,
    camel,
)
from convert.profile_digest import BUILTIN_REGISTRY
from rules_core.errors import FieldViolation, InvalidRequest, LongInteger, NotationError, Violations, excerpt, key_path
from rules_core.notation import ParsedHand, parse_all_flowers, parse_hand, parse_melds, parse_tile, parse_tiles
from rules_core.record_checks import MAX_DEAL_DRAGON_FLOWERS, MAX_DEAL_FLOWERS, MAX_DEAL_TILES, MAX_EVENTS
from rules_core.records import HandEvent, SettleRecordRequest
from rules_core.registry import ProfileRegistry
from rules_core.replay import first_impossible_event
from rules_core.requests import (
    CheckWinRequest,
    Dice,
    Hand,
    LiabilityRelation,
    ListWaitsRequest,
    Meld,
    SettleRequest,
    Winner,
)
from rules_core.validation import MAX_LENGTHS, over_limit, request_id_violation

# A string no message can hold: protobuf strings are UTF-8, so every face refuses it alike.
NOT_UTF8 = "holds a lone surrogate, which no UTF-8 text can hold"


class _Reader:
    """Reads one JSON object against the field names of its message, collecting violations."""

    def __init__(self, data, path: str, fields: tuple[str, ...], violations: list, once: bool = False):
        """``once``: a field given by both its names (``dealer_seat`` and ``dealerSeat``) is a
        fault, not the later key's value (as protobuf's Python parser takes it; Go's refuses)."""
        self.path = path
        self.violations = violations
        self.values: dict[str, Any] = {}
        if data is None:
            return
        if not isinstance(data, dict):
            violations.append(FieldViolation(path or "request", f"expected a JSON object, got {kind_of(data)}"))
            return
        names = _field_names(fields)
        for key, value in data.items():
            name = names.get(key)
            if name is None:
                violations.append(FieldViolation(self.sub(key_path(key)), "unknown field"))
                continue
            if once and key != name and name in data:
                first, second = (name, key) if list(data).index(name) < list(data).index(key) else (key, name)
                violations.append(FieldViolation(self.sub(name), f"given twice, as {first} and as {second}"))
            if value is not None:
                self.values[name] = value

    def sub(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def has(self, name: str) -> bool:
        return name in self.values

    def int(self, name: str, default: int = 0) -> int:
        value = self.values.get(name)
        if value is None:
            return default
        if type(value) is int and -(2**31) <= value < 2**31:
            return value  # the usual case, answered before a path is built
        return _read_int(value, self.sub(name), self.violations)

    def float(self, name: str) -> float:
        return _read_float(self.values.get(name, 0.0), self.sub(name), self.violations)

    def str(self, name: str) -> str:
        value = self.values.get(name, "")
        if not isinstance(value, str):
            self.violations.append(FieldViolation(self.sub(name), f"expected a string, got {kind_of(value)}"))
            return ""
        if not value.isascii():
            try:
                value.encode()
            except UnicodeEncodeError:  # a lone surrogate, which JSON can escape ("\\ud800")
                self.violations.append(FieldViolation(self.sub(name), f"{excerpt(value)} {NOT_UTF8}"))
                return ""
        return value

    def bool(self, name: str) -> bool:
        value = self.values.get(name, False)
        if not isinstance(value, bool):
            self.violations.append(FieldViolation(self.sub(name), f"expected true or false, got {excerpt(value)}"))
            return False
        return value

    def enum(self, name: str, codec: EnumCodec):
        if name not in self.values:
            return None
        return codec.read(self.values[name], self.sub(name), self.violations)

    def list(self, name: str) -> list:
        """The list, or an empty one when it is not a list or longer than a real request holds
        (then a violation: none of its elements is read)."""
        value = self.values.get(name, [])
        if not isinstance(value, list):
            self.violations.append(FieldViolation(self.sub(name), f"expected a list, got {kind_of(value)}"))
            return []
        problem = over_limit(name, len(value)) if name in MAX_LENGTHS else None
        if problem:
            self.violations.append(FieldViolation(self.sub(name), problem))
            return []
        return value

    def enums(self, name: str, codec: EnumCodec) -> tuple:
        return codec.read_all(self.list(name), self.sub(name), self.violations)

    def messages(self, name: str, read: Callable) -> tuple:
        path = self.sub(name)
        return tuple(
            read(_element(v, f"{path}[{i}]", self.violations), f"{path}[{i}]", self.violations)
            for i, v in enumerate(self.list(name))
        )


def _element(value, path: str, violations: list):
    """A message in a list: null there is no absent message but a fault, as protobuf has it."""
    if value is None:
        violations.append(FieldViolation(path, "expected a JSON object, got null"))
        return {}
    return value


@cache
def _field_names(fields: tuple[str, ...]) -> dict[str, str]:
    """Each field by its snake_case and its lowerCamelCase key."""
    return {**{camel(f): f for f in fields}, **{f: f for f in fields}}


def kind_of(value) -> str:
    """What a JSON value is, for a message saying it is the wrong kind (`null`, `a list`, `5`...):
    never more of it than `excerpt`."""
    return _KINDS.get(type(value)) or excerpt(value)


_KINDS = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}


# A JSON number (RFC 8259), ASCII digits only: what a number in a string may hold.
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def _unquoted(value, parse):
    """The proto3 JSON mapping lets a number come as a string holding a JSON number ("5", "5e0"),
    not as whatever Python's int() or float() would take (" 5", "5_0", "+5", "５"); a string
    that holds none is returned as it is, for the caller to refuse."""
    if not isinstance(value, str):
        return value
    number = _JSON_NUMBER.fullmatch(value)
    if number is None:
        return value
    try:
        if parse is int and number.lastindex is None:
            return int(value)
        read = float(value)
    except ValueError:  # more digits than int() reads
        return value
    if not math.isfinite(read):
        return value
    return int(read) if parse is int and read.is_integer() else read


def _read_float(value, path: str, violations: list) -> float:
    value = _unquoted(value, float)
    number = value
    if type(value) is int:  # one of 400 digits is too large for a float: isfinite() would raise
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
    if isinstance(value, bool) or not isinstance(number, (int, float)) or not math.isfinite(number):
        violations.append(FieldViolation(path, f"expected a finite number, got {excerpt(value)}"))
        return 0.0
    return float(number)


def _read_int(value, path: str, violations: list) -> int:
    value = _unquoted(value, int)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, (int, LongInteger)):
        violations.append(FieldViolation(path, f"expected a whole number, got {excerpt(value)}"))
        return 0
    if type(value) is LongInteger or not -(2**31) <= value < 2**31:
        violations.append(FieldViolation(path, f"{excerpt(value)} is out of the int32 range"))
        return 0
    return value


# The core request types carry the message field names of API.md, so they name the JSON keys too.
_MELD_FIELDS = Meld._fields
_HAND_FIELDS = Hand._fields
_WINNER_FIELDS = Winner._fields
_DICE_FIELDS = Dice._fields
_RELATION_FIELDS = LiabilityRelation._fields
_REQUEST_FIELDS = SettleRequest._fields
_WAITS_FIELDS = ListWaitsRequest._fields


def _meld(data, path, violations) -> Meld:
    r = _Reader(data, path, _MELD_FIELDS, violations)
    return Meld(r.enum("kind", MELD_KIND), r.enums("tiles", TILE), r.int("from_seat"))


# --- the notation of RULES.md section 2, beside the TILE_ names -------------------------------
# A hand's ``concealed`` may be a string in the CLI's notation (concealed tiles, bracketed melds
# and flowers: "111m 555m 999p EEE 77s 1f 5f"), ``melds`` a string of bracketed melds
# ("[555p@1] [5555p]"), ``flowers`` and ``passed_tiles`` strings of flowers or tiles, a
# ``winning_tile`` one tile ("7s"). A string longer than any hand is written in is refused
# by its length, unread.

MAX_NOTATION_CHARS = 400  # a full hand with four kongs and eight flowers, spaced out, is under 120


def _notation(r: _Reader, name: str, parse: Callable):
    """What ``parse`` reads of the string ``r`` holds at ``name``, or None with its fault."""
    text = r.values[name]
    if len(text) > MAX_NOTATION_CHARS:
        r.violations.append(
            FieldViolation(r.sub(name), f"at most {MAX_NOTATION_CHARS} characters of notation, got {len(text):,}")
        )
        return None
    try:
        return parse(text)
    except NotationError as error:
        r.violations.append(FieldViolation(r.sub(name), error.in_one_line()))
        return None


def _counted(r: _Reader, name: str, values: tuple | None) -> tuple:
    """Notation's values, refused as a list of as many would be when more than a request holds."""
    problem = over_limit(name, len(values)) if values else None
    if problem:
        r.violations.append(FieldViolation(r.sub(name), problem))
        return ()
    return values or ()


def _tiles(r: _Reader, name: str) -> tuple:
    """A list of TILE_ names (or numbers), or a string of tiles in notation."""
    if isinstance(r.values.get(name), str):
        return _counted(r, name, _notation(r, name, parse_tiles))
    return r.enums(name, TILE)


def _tile(r: _Reader, name: str):
    """A TILE_ name (or number), or one tile in notation (``7s``, ``E``). A string that misspells
    a name (``s7``, ``TILE_S0``) is answered as a name, with the name it spells."""
    value = r.values.get(name)
    if isinstance(value, str) and value not in TILE.by_name and value != TILE.unspecified:
        if not value.upper().startswith("TILE_") and TILE.guess(value) is None:
            return _notation(r, name, parse_tile)
    return r.enum(name, TILE)


def _given_twice(r: _Reader, name: str, in_concealed: tuple) -> bool:
    """Whether melds or flowers are given both in ``concealed``'s notation and at ``name``
    (then a fault naming both)."""
    if not (in_concealed and r.values.get(name)):
        return False
    r.violations.append(
        FieldViolation(
            r.sub(name),
            f"given twice: as {r.sub(name)} and in the notation of {r.sub('concealed')}; give {name} one way",
        )
    )
    return True


def _dragon_flowers(r: _Reader, written: tuple) -> tuple:
    """The dragon flowers written in notation (``Cf``, among the flowers) or listed at
    ``dragon_flowers``; both is a fault naming them."""
    if not written:
        return r.enums("dragon_flowers", TILE)
    if r.values.get("dragon_flowers"):
        where = r.sub("dragon_flowers")
        said = f"given twice: as {where} and in notation (Cf Ff Pf); give the dragon flowers one way"
        r.violations.append(FieldViolation(where, said))
    return written


def read_hand(data, path, violations) -> Hand:
    r = _Reader(data, path, _HAND_FIELDS, violations)
    if str in (type(r.values.get("concealed")), type(r.values.get("melds")), type(r.values.get("flowers"))):
        return _hand_in_notation(r)
    return Hand(
        concealed=r.enums("concealed", TILE),
        winning_tile=_tile(r, "winning_tile"),
        melds=r.messages("melds", _meld),
        flowers=r.enums("flowers", FLOWER),
        dragon_flowers=r.enums("dragon_flowers", TILE),
    )


def _hand_in_notation(r: _Reader) -> Hand:
    """A hand with one string of notation or more (the others lists of names)."""
    if isinstance(r.values.get("concealed"), str):
        whole = _notation(r, "concealed", parse_hand) or ParsedHand((), (), ())
    else:
        whole = ParsedHand(r.enums("concealed", TILE), (), ())
    winning_tile = _tile(r, "winning_tile")
    if isinstance(r.values.get("melds"), str):
        melds = _counted(r, "melds", _notation(r, "melds", parse_melds))
    else:
        melds = r.messages("melds", _meld)
    written_dragons: tuple = ()
    if isinstance(r.values.get("flowers"), str):
        flowers, written_dragons = _notation(r, "flowers", parse_all_flowers) or ((), ())
        flowers = _counted(r, "flowers", flowers)
    else:
        flowers = r.enums("flowers", FLOWER)
    if not _given_twice(r, "melds", whole.melds):
        melds = whole.melds + melds
    if not _given_twice(r, "flowers", whole.flowers):
        flowers = whole.flowers + flowers
    dragons = _dragon_flowers(r, whole.dragon_flowers + written_dragons)
    return Hand(
        concealed=_counted(r, "concealed", whole.concealed),
        winning_tile=winning_tile,
        melds=_counted(r, "melds", melds),
        flowers=_counted(r, "flowers", flowers),
        dragon_flowers=_counted(r, "dragon_flowers", dragons),
    )


def read_dice(data, path, violations) -> Dice:
    r = _Reader(data, path, _DICE_FIELDS, violations)
    return Dice(r.int("first"), r.int("second"))


def read_winner(data, path, violations) -> Winner:
    r = _Reader(data, path, _WINNER_FIELDS, violations)
    return Winner(
        seat=r.int("seat"),
        hand=read_hand(r.values.get("hand"), r.sub("hand"), violations),
        passed_tiles=_tiles(r, "passed_tiles"),
        replacement_draw=r.bool("replacement_draw"),
        first_go_around=r.bool("first_go_around"),
        last_tile=r.bool("last_tile"),
    )


def _relation(data, path, violations) -> LiabilityRelation:
    r = _Reader(data, path, _RELATION_FIELDS, violations)
    return LiabilityRelation(r.int("claimer_seat"), r.int("source_seat"), r.int("claims"), r.bool("pattern_kept"))


def _read_table(r: _Reader) -> dict[str, Any]:
    """The fields every request shares: id, profile, overrides, dealer, dice, 荒番 count."""
    request_id = r.str("request_id")
    too_long = request_id_violation(request_id)
    if too_long:
        r.violations.append(too_long)
    return {
        "request_id": request_id,
        "profile": r.str("profile"),
        "overrides": read_overrides(r.values.get("overrides"), "overrides", r.violations),
        "dealer_seat": r.int("dealer_seat"),
        "dice": read_dice(r.values["dice"], "dice", r.violations) if r.has("dice") else None,
        "huangfan_count": r.int("huangfan_count"),
        "profile_digest": r.str("profile_digest"),
    }


def read_settle_request(data: dict) -> SettleRequest:
    """A core request from its proto3 JSON form, or InvalidRequest."""
    violations = Violations()
    r = _Reader(data, "", _REQUEST_FIELDS, violations)
    request = SettleRequest(
        **_read_table(r),
        outcome=r.enum("outcome", OUTCOME),
        discarder_seat=r.int("discarder_seat"),
        winners=r.messages("winners", read_winner),
        liabilities=r.messages("liabilities", _relation),
        abandoning_seat=r.int("abandoning_seat"),
        declared_seats=_read_seats(r),
    )
    if violations:
        raise InvalidRequest(violations)
    return request


def _read_seats(r: _Reader) -> tuple[int, ...]:
    """``declared_seats``: the seats that have knocked (RULES.md section 14), each a whole number."""
    return tuple(
        _read_int(v, f"{r.sub('declared_seats')}[{i}]", r.violations) for i, v in enumerate(r.list("declared_seats"))
    )


def read_overrides(data, path: str, violations: list) -> dict[str, Any] | None:
    """Core overrides (field -> value) from a partial RuleProfile in JSON; None when empty."""
    if data is None:
        return None
    r = _Reader(data, path, PROFILE_MESSAGE_FIELDS, violations)
    overrides: dict[str, Any] = {}
    if r.str("name"):
        overrides["name"] = r.str("name")
    for name in INT_FIELDS:
        if r.has(name):
            overrides[name] = r.int(name)
    for name in SHARE_FIELDS:
        if r.has(name):
            overrides[name] = r.float(name)
    for name in FLAG_FIELDS:
        if r.has(name):
            overrides[name] = r.bool(name)
    for name, codec in ENUM_FIELDS.items():
        member = r.enum(name, codec)
        if member is not None:
            overrides[name] = member
    for name in PATTERN_TABLE_FIELDS:
        table = _table(r, name, "pattern", PATTERN)
        if table:
            overrides[name] = table
    flower_values = _table(r, "flower_values", "source", FLOWER_SOURCE)
    if flower_values:
        overrides["flower_values"] = flower_values
    for name in PATTERN_LIST_FIELDS:
        patterns = r.enums(name, PATTERN)
        if patterns:
            overrides[name] = frozenset(p for p in patterns if p is not None)
            for index, value in enumerate(r.list(name)):
                if (type(value) is int and value == 0) or value == PATTERN.unspecified:
                    violations.append(FieldViolation(f"{r.sub(name)}[{index}]", "must be a specified pattern"))
    dice_huangfan = []  # (throw, value) pairs in order: rules_core names an entry by its index
    for index, entry in enumerate(r.list("dice_huangfan")):
        entry_path = f"{r.sub('dice_huangfan')}[{index}]"
        er = _Reader(entry, entry_path, ("dice", "value"), violations)
        dice = read_dice(er.values.get("dice"), er.sub("dice"), violations)
        dice_huangfan.append(((dice.first, dice.second), er.int("value")))
    if dice_huangfan:
        overrides["dice_huangfan"] = dice_huangfan
    throws = r.messages("kaibao_throws", read_dice)
    if throws:
        overrides["kaibao_throws"] = [(d.first, d.second) for d in throws]
    shares = r.list("sankou_self_draw_shares")
    if shares:
        path = r.sub("sankou_self_draw_shares")
        overrides["sankou_self_draw_shares"] = tuple(
            _read_float(v, f"{path}[{i}]", violations) for i, v in enumerate(shares)
        )
    return overrides or None


def _table(r: _Reader, name: str, key_field: str, codec: EnumCodec) -> list:
    """(key, value) pairs in order: rules_core names an entry by its index."""
    table = []
    for index, entry in enumerate(r.list(name)):
        er = _Reader(entry, f"{r.sub(name)}[{index}]", (key_field, "value"), r.violations)
        found_before = len(r.violations)
        key = er.enum(key_field, codec)
        if key is None:
            if len(r.violations) == found_before:  # absent or UNSPECIFIED, not already reported
                r.violations.append(FieldViolation(er.sub(key_field), "must be specified"))
            continue
        table.append((key, er.int("value")))
    return table


_CHECK_WIN_FIELDS = CheckWinRequest._fields


def read_check_win_request(data: dict) -> CheckWinRequest:
    """A core CheckWinRequest from its proto3 JSON form, or InvalidRequest."""
    violations = Violations()
    r = _Reader(data, "", _CHECK_WIN_FIELDS, violations)
    request = CheckWinRequest(
        **_read_table(r),
        outcome=r.enum("outcome", OUTCOME),
        winner=read_winner(r.values.get("winner"), "winner", violations),
        declared_seats=_read_seats(r),
    )
    if violations:
        raise InvalidRequest(violations)
    return request


def read_list_waits_request(data: dict) -> ListWaitsRequest:
    violations = Violations()
    r = _Reader(data, "", _WAITS_FIELDS, violations)
    request = ListWaitsRequest(
        **_read_table(r),
        seat=r.int("seat"),
        hand=read_hand(r.values.get("hand"), "hand", violations),
        passed_tiles=_tiles(r, "passed_tiles"),
        replacement_draw=r.bool("replacement_draw"),
        first_go_around=r.bool("first_go_around"),
        last_tile=r.bool("last_tile"),
        declared_seats=_read_seats(r),
    )
    if violations:
        raise InvalidRequest(violations)
    return request


# --- hand records (RULES.md section 13) -------------------------------------------------------

_EVENT_FIELDS = HandEvent._fields
_RECORD_FIELDS = SettleRecordRequest._fields


def _bounded_list(r: _Reader, name: str, limit: int, what: str = "entries") -> list:
    """A list no longer than ``limit`` (else a violation, and none of it is read)."""
    value = r.values.get(name, [])
    if not isinstance(value, list):
        r.violations.append(FieldViolation(r.sub(name), f"expected a list, got {kind_of(value)}"))
        return []
    if len(value) > limit:
        r.violations.append(FieldViolation(r.sub(name), f"at most {limit} {what}, got {len(value)}"))
        return []
    return value


def _event(data, path, violations) -> HandEvent:
    usual = usual_event(data)
    return usual if usual is not None else read_event(data, path, violations)


def read_event(data, path, violations) -> HandEvent:
    """An event in any form the proto3 JSON mapping allows, each fault named at its path."""
    r = _Reader(_element(data, path, violations), path, _EVENT_FIELDS, violations)
    return HandEvent(
        kind=r.enum("kind", EVENT_KIND),
        seat=r.int("seat"),
        tile=r.enum("tile", TILE),
        tiles=TILE.read_all(_bounded_list(r, "tiles", MAX_DEAL_TILES), r.sub("tiles"), violations),
        flower=r.enum("flower", FLOWER),
        flowers=FLOWER.read_all(_bounded_list(r, "flowers", MAX_DEAL_FLOWERS), r.sub("flowers"), violations),
        dragon_flowers=TILE.read_all(
            _bounded_list(r, "dragon_flowers", MAX_DEAL_DRAGON_FLOWERS), r.sub("dragon_flowers"), violations
        ),
        last_tile=r.bool("last_tile"),
    )


# The one-word fields, whose camelCase and snake_case keys are the same: an event with any other
# key (`dragonFlowers`, `lastTile`) is left to the general reader.
_EVENT_KEYS = frozenset(name for name in _EVENT_FIELDS if "_" not in name)
_KIND_NAMED = EVENT_KIND.by_name
_TILE_NAMED = TILE.by_name
_FLOWER_NAMED = FLOWER.by_name


def usual_event(data) -> HandEvent | None:
    """An event in the form this product writes it (lowerCamelCase keys, which an event's
    one-word fields share with snake_case; enum names; a seat 0-3; lists within their bounds),
    read at once; None for any other form or fault, which the general reader reads and names.
    Reading the events was three quarters of a typical record's cost in JSON."""
    if type(data) is not dict or not _EVENT_KEYS.issuperset(data):
        return None
    try:
        kind = _KIND_NAMED[data["kind"]]
        seat = data.get("seat", 0)
        if type(seat) is not int or not 0 <= seat <= 3:
            return None
        tile = data.get("tile")
        tiles = data.get("tiles") or ()
        flower = data.get("flower")
        flowers = data.get("flowers") or ()
        if not (type(tiles) in (list, tuple) and len(tiles) <= MAX_DEAL_TILES):
            return None
        if not (type(flowers) in (list, tuple) and len(flowers) <= MAX_DEAL_FLOWERS):
            return None
        return HandEvent(
            kind,
            seat,
            None if tile is None else _TILE_NAMED[tile],
            tuple(map(_TILE_NAMED.__getitem__, tiles)),
            None if flower is None else _FLOWER_NAMED[flower],
            tuple(map(_FLOWER_NAMED.__getitem__, flowers)),
        )
    except (KeyError, TypeError):  # an unknown or unspecified name, a number, something unhashable
        return None


def read_events(
    values, read: Callable, collect: Callable[[], list] = Violations
) -> tuple[tuple[HandEvent, ...], list[FieldViolation]]:
    """The events of a record, read in order up to the first that cannot be read (``read(value,
    path, violations)``, one reader's, into a bounded list ``collect`` makes): those before it,
    and its faults (none when all were read). Nothing after it is read."""
    events = []
    for index, value in enumerate(values):
        found = collect()
        event = read(value, f"events[{index}]", found)
        if found:
            return tuple(events), found
        events.append(event)
    return tuple(events), []


def record_or_faults(
    request: SettleRecordRequest,
    unread: list[FieldViolation],
    violations: Violations,
    profiles: ProfileRegistry = BUILTIN_REGISTRY,
) -> SettleRecordRequest:
    """The record read, or InvalidRequest: the faults of its table (``violations``) and those of
    its first impossible event. When an event cannot be read (``unread``: its faults), that is
    an earlier event if one of those could not have happened (RULES.md section 13: nothing
    after the first impossible event is read), else the unreadable one; a table that could not
    be read is not followed."""
    if unread:
        earlier = first_impossible_event(request, profiles) if not violations else []
        for violation in earlier or unread:
            violations.append(violation)
        if not earlier:
            violations.unlisted += getattr(unread, "unlisted", 0)  # the event's faults beyond those kept
    if violations:
        raise InvalidRequest(violations)
    return request


def read_settle_record_request(data: dict, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> SettleRecordRequest:
    """A hand record from its proto3 JSON form, or InvalidRequest. ``profiles`` (the built-in
    ones by default) tell, when an event cannot be read, whether an earlier one was impossible."""
    violations = Violations()
    r = _Reader(data, "", _RECORD_FIELDS, violations, once=True)  # an audit record means one thing
    values = _bounded_list(r, "events", MAX_EVENTS, "events (the longest legal hand)")
    deltas = _bounded_list(r, "recorded_deltas", 4, "entries (none, or the four seat deltas)")
    events, unread = read_events(values, _event)
    request = SettleRecordRequest(
        **_read_table(r),
        events=events,
        recorded_deltas=tuple(_read_float(v, f"recorded_deltas[{i}]", violations) for i, v in enumerate(deltas)),
    )
    return record_or_faults(request, unread, violations, profiles)

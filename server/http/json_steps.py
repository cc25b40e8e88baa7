"""Large JSON read and written in steps, so that the interpreter can switch threads between them,
and so that what a large body costs is bounded before it is read.

``json.loads`` and ``json.dumps`` are single C calls that hold the interpreter throughout:
0.16-0.25 s for the 5 MB body of a 10,000-hand batch, during which no other thread runs, the
event loop that serves gRPC included, even when the call runs in a thread of its own
(`server.off_loop`). So a large body, an object, is read member by member and its
arrays element by element, each element by `convert.json_text.read_json` with the same
bounds, and no step reads more than `STEP_MAX_CHARS` of text. What a request can hold bounds the
rest (`Limits`): a list longer than its limit is refused when its next element is reached, the
elements after it never read; an object of more than `MAX_MEMBERS` keys, and an element or
member longer than a step, are refused likewise. A text the steps refuse as not JSON is read
whole by ``read_json`` for its exact words when it holds few values (`WHOLE_READ_VALUES`), and
is otherwise refused with the steps' own words. A large answer is written the same way, each
element of its long arrays by ``json.dumps``; the text is the same as one ``json.dumps`` of the
whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from convert.json_text import MAX_DEPTH, JsonTextError, KeyGivenTwice, most_values, read_json
from rules_core.errors import key_path

STEP_ITEMS = 64  # arrays longer than this are written element by element
STEP_MIN_BYTES = 64 * 1024  # a shorter text is read whole: one C call of well under a millisecond
# The most text one step reads (one C call that holds the interpreter: about 10-25 ms of the
# densest JSON). A SettleRequest, or a hand record, is far shorter even indented.
STEP_MAX_CHARS = 256 * 1024
MAX_MEMBERS = 64  # keys of a large body's object: a request message has far fewer fields (two names each)
WHOLE_READ_VALUES = 65_536  # a refused text is read whole, for read_json's exact words, only when this small
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_COUNTING_DIGITS = json.JSONDecoder(parse_int=len)  # finds where a value with an over-long integer ends
_CUT_SLACK = 8  # a step whose text failed this close to its end may have been cut inside a value
_dumps = partial(json.dumps, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Limits:
    """What a large body may hold: the most entries of each top-level list by key (``lists``;
    ``others`` for the rest), and the top-level list whose entries are left unread (``unread``)."""

    lists: Mapping[str, int] = field(default_factory=dict)
    others: int = 256
    unread: str = ""


NO_LIMITS = Limits(others=2**62)


class TooManyEntries(Exception):
    """A top-level list of a large body with more than ``limit`` entries (those after it unread)."""

    def __init__(self, path: str, limit: int):
        super().__init__(f"{path}: at most {limit} entries, got more")
        self.path = path
        self.limit = limit


class TooLong(Exception):
    """A value or key list of a large body longer than a request holds, refused unread."""

    def __init__(self, path: str, description: str):
        super().__init__(f"{path}: {description}")
        self.path = path
        self.description = description


class NotAnObject(Exception):
    """A large body that is not a JSON object, holding more values than are read whole."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


class UnreadJson:
    """An entry of the list `Limits.unread` names, left as its JSON text: its reader reads it
    when its turn comes (`read_entry`), so entries are read one at a time."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def read(self) -> Any:
        """The entry's value (`JsonTextError` as the whole body's when it nests too deep)."""
        return _read_piece(self.text, 2)


def _read_piece(text: str, levels_above: int, path: str = "") -> Any:
    """``read_json`` of a value ``levels_above`` levels into the body, at ``path`` in it,
    refused in the body's words."""
    try:
        return read_json(text, MAX_DEPTH - levels_above)
    except KeyGivenTwice as twice:
        raise twice.under(path) from None
    except JsonTextError:  # the steps found where it ends, so it is JSON: it nests too deep
        raise JsonTextError(f"nested deeper than {MAX_DEPTH} levels") from None


class _NotInSteps(Exception):
    """A text the steps do not read: ``message`` at ``position``, as ``json`` would say it."""

    def __init__(self, message: str, position: int):
        super().__init__(message)
        self.message = message
        self.position = position


def read_in_steps(text: bytes, limits: Limits = NO_LIMITS, whole_below: int = STEP_MIN_BYTES) -> Any:
    """What ``read_json(text)`` gives, or raises, within ``limits`` (`TooManyEntries`, `TooLong`,
    `NotAnObject` otherwise); the entries of ``limits.unread`` as `UnreadJson`. A text shorter
    than ``whole_below`` is read whole (0: in steps whatever its size)."""
    if len(text) < whole_below:
        return read_json(text)
    text = bytes(text)
    try:
        return _Steps(text.decode("utf-8-sig"), limits).object()  # a BOM, as read_json
    except (_NotInSteps, UnicodeDecodeError) as refused:
        if most_values(text) <= WHOLE_READ_VALUES:
            return read_json(text)  # its value, or its exact words
        if isinstance(refused, UnicodeDecodeError):
            raise JsonTextError(f"not UTF-8 text (byte {refused.start})") from None
        start = text.lstrip(b" \t\n\r")[:1]
        if start != b"{":
            if b"[" * (MAX_DEPTH + 1) in text:  # what read_json would say first
                raise JsonTextError(f"nested deeper than {MAX_DEPTH} levels") from None
            raise NotAnObject(_KINDS.get(start, "a number")) from None
        decoded = text.decode("utf-8-sig")
        line = decoded.count("\n", 0, refused.position) + 1
        column = refused.position - decoded.rfind("\n", 0, refused.position)
        raise JsonTextError(refused.message, line, column) from None


_KINDS = {b"[": "an array", b'"': "a string", b"t": "a boolean", b"f": "a boolean", b"n": "null"}


class _Steps:
    """One large text read in steps: ``window`` is the slice of it the current steps read."""

    def __init__(self, text: str, limits: Limits):
        self.text = text
        self.limits = limits
        self.window = ""
        self.start = 0  # where the window begins in the text

    def object(self) -> dict:
        text = self.text
        position = _skip(text, 0)
        if text[position : position + 1] != "{":
            raise _NotInSteps("Expecting value", position)
        value: dict[str, Any] = {}
        position = _skip(text, position + 1)
        if text[position : position + 1] == "}":
            return self._at_end(position + 1, value)
        members = 0
        while True:
            if text[position : position + 1] != '"':
                raise _NotInSteps("Expecting property name enclosed in double quotes", position)
            members += 1
            if members > MAX_MEMBERS:
                raise TooLong("request", f"at most {MAX_MEMBERS} fields, got more")
            key, position = self._key(position)
            if key in value:
                raise KeyGivenTwice(key_path(key))
            position = _skip(text, position)
            if text[position : position + 1] != ":":
                raise _NotInSteps("Expecting ':' delimiter", position)
            position = _skip(text, position + 1)
            if text[position : position + 1] == "[":
                value[key], position = self._array(key, position)
            else:
                end = self._value_end(position, key)
                value[key] = _read_piece(text[position:end], 1, key_path(key))
                position = end
            position = _skip(text, position)
            mark = text[position : position + 1]
            if mark == "}":
                return self._at_end(position + 1, value)
            if mark != ",":
                raise _NotInSteps("Expecting ',' delimiter", position)
            position = _skip(text, position + 1)

    def _key(self, position: int) -> tuple[str, int]:
        end = self._value_end(position, "request")
        return json.loads(self.text[position:end]), end

    def _array(self, key: str, position: int) -> tuple[list, int]:
        text, limits = self.text, self.limits
        limit = limits.lists.get(key, limits.others)
        unread = key == limits.unread
        items: list[Any] = []
        position = _skip(text, position + 1)
        if text[position : position + 1] == "]":
            return items, position + 1
        while True:
            if len(items) == limit:
                raise TooManyEntries(key, limit)
            end = self._value_end(position, f"{key}[{len(items)}]")
            piece = text[position:end]
            items.append(UnreadJson(piece) if unread else _read_piece(piece, 2, f"{key_path(key)}[{len(items)}]"))
            position = _skip(text, end)
            mark = text[position : position + 1]
            if mark == "]":
                return items, position + 1
            if mark != ",":
                raise _NotInSteps("Expecting ',' delimiter", position)
            position = _skip(text, position + 1)

    def _value_end(self, position: int, path: str) -> int:
        """Where the value at ``position`` ends, found in one step of at most `STEP_MAX_CHARS`."""
        if len(self.text) - position <= STEP_MAX_CHARS:  # the rest of the text is one step
            return self._end_in(self.text, 0, position, cut=False)
        if not self.start <= position < self.start + len(self.window):
            self._window_at(position)
        while True:
            end = self._end_in(self.window, self.start, position, cut=True)
            if end is not None:
                return end
            if self.start == position:
                raise TooLong(path, f"longer than {STEP_MAX_CHARS:,} characters of JSON, more than a request holds")
            self._window_at(position)  # the value went on past the window: once more, from its start

    def _window_at(self, position: int) -> None:
        self.start = position
        self.window = self.text[position : position + STEP_MAX_CHARS]

    @staticmethod
    def _end_in(window: str, start: int, position: int, cut: bool) -> int | None:
        """The end of the value at ``position`` of the text, read in ``window`` (the text from
        ``start``); None when the window was ``cut`` and ended within the value."""
        try:
            try:
                return _DECODER.raw_decode(window, position - start)[1] + start
            except json.JSONDecodeError:
                raise
            except ValueError:  # an integer longer than Python reads: read_json reads it as LongInteger
                return _COUNTING_DIGITS.raw_decode(window, position - start)[1] + start
        except json.JSONDecodeError as error:
            if cut and (error.pos >= len(window) - _CUT_SLACK or error.msg.startswith("Unterminated string")):
                return None
            raise _NotInSteps(error.msg, error.pos + start) from None
        except RecursionError:
            raise JsonTextError(f"nested deeper than {MAX_DEPTH} levels") from None

    def _at_end(self, position: int, value: dict) -> dict:
        end = _skip(self.text, position)
        if end != len(self.text):
            raise _NotInSteps("Extra data", end)
        return value


def _skip(text: str, position: int) -> int:
    return _WHITESPACE.match(text, position).end()


def dumps_in_steps(value: Any, levels: int = 2) -> str:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``, the elements of long
    arrays within the top ``levels`` of objects written one by one."""
    if isinstance(value, dict) and levels > 0:
        return "{" + ",".join(_dumps(str(k)) + ":" + dumps_in_steps(v, levels - 1) for k, v in value.items()) + "}"
    if isinstance(value, list) and len(value) > STEP_ITEMS:
        return "[" + ",".join(_dumps(item) for item in value) + "]"
    return _dumps(value)

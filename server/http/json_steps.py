"""Large JSON read and written in steps, so that the interpreter can switch threads between them.

``json.loads`` and ``json.dumps`` are single C calls that hold the interpreter throughout:
0.16-0.25 s for the 5 MB body of a 10,000-hand batch, during which no other thread runs, the
event loop that serves gRPC included, even when the call runs in a thread of its own
(`server.off_loop`). So a large body that is an object of long arrays (a batch's
``requests``) is read element by element, each element by `rules_core.json_text.read_json`
with the same bounds; anything else, and anything the steps refuse, is read whole by
``read_json``, which then says what is wrong exactly as it always does. A large answer is
written the same way, each element of its long arrays by ``json.dumps``; the text is the same
as one ``json.dumps`` of the whole.
"""

from __future__ import annotations

import json
import re
from functools import partial
from typing import Any

from rules_core.json_text import MAX_DEPTH, read_json

STEP_ITEMS = 64  # arrays longer than this are read and written element by element
STEP_MIN_BYTES = 64 * 1024  # a shorter text is read whole: one C call of well under a millisecond
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_dumps = partial(json.dumps, ensure_ascii=False, separators=(",", ":"))


class _NotInSteps(Exception):
    """A text the steps do not read: ``read_json`` reads it whole."""


def read_in_steps(text: bytes) -> Any:
    """What ``read_json(text)`` gives, or raises."""
    if len(text) < STEP_MIN_BYTES:
        return read_json(text)
    try:
        return _object_in_steps(bytes(text).decode("utf-8"))
    except (_NotInSteps, ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        return read_json(text)


def _object_in_steps(text: str) -> dict:
    position = _skip(text, 0)
    if text[position : position + 1] != "{":
        raise _NotInSteps
    value: dict[str, Any] = {}
    position = _skip(text, position + 1)
    if text[position : position + 1] == "}":
        return _at_end(text, position + 1, value)
    while True:
        key, position = _DECODER.raw_decode(text, position)
        if not isinstance(key, str):
            raise _NotInSteps
        position = _skip(text, position)
        if text[position : position + 1] != ":":
            raise _NotInSteps
        position = _skip(text, position + 1)
        if text[position : position + 1] == "[":
            value[key], position = _array_in_steps(text, position)
        else:
            end = _DECODER.raw_decode(text, position)[1]
            value[key] = read_json(text[position:end], MAX_DEPTH - 1)
            position = end
        position = _skip(text, position)
        mark = text[position : position + 1]
        if mark == "}":
            return _at_end(text, position + 1, value)
        if mark != ",":
            raise _NotInSteps
        position = _skip(text, position + 1)


def _array_in_steps(text: str, position: int) -> tuple[list, int]:
    items: list[Any] = []
    position = _skip(text, position + 1)
    if text[position : position + 1] == "]":
        return items, position + 1
    while True:
        end = _DECODER.raw_decode(text, position)[1]  # where the element ends (a short C call)
        items.append(read_json(text[position:end], MAX_DEPTH - 2))  # read within the bounds
        position = _skip(text, end)
        mark = text[position : position + 1]
        if mark == "]":
            return items, position + 1
        if mark != ",":
            raise _NotInSteps
        position = _skip(text, position + 1)


def _skip(text: str, position: int) -> int:
    return _WHITESPACE.match(text, position).end()


def _at_end(text: str, position: int, value: dict) -> dict:
    if _skip(text, position) != len(text):
        raise _NotInSteps
    return value


def dumps_in_steps(value: Any, levels: int = 2) -> str:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``, the elements of long
    arrays within the top ``levels`` of objects written one by one."""
    if isinstance(value, dict) and levels > 0:
        return "{" + ",".join(_dumps(str(k)) + ":" + dumps_in_steps(v, levels - 1) for k, v in value.items()) + "}"
    if isinstance(value, list) and len(value) > STEP_ITEMS:
        return "[" + ",".join(_dumps(item) for item in value) + "]"
    return _dumps(value)

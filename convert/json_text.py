"""JSON text read into Python values within bounds, whatever the text: the one JSON reader of the
product (HTTP bodies, batch lines, profile files, the CLI's files) and of any faster reader's
fallback (call `read_json` to learn what is wrong with a text another parser refused).

- Nesting deeper than `MAX_DEPTH` is refused (`JsonTextError`), never a `RecursionError`.
- An integer too long for Python's ``int`` (over 4,300 digits, ``sys.get_int_max_str_digits``) is
  read as a `LongInteger`: a value no field accepts, so the field reader refuses it as out of
  range, naming the field, and the rest of the text is still read (every other fault is found).
- A text that is not JSON is a `JsonTextError` with its line and column.
- An object that gives a key twice is a `KeyGivenTwice` naming its path (``winners[0].seat``):
  JSON lets a reader take either value (RFC 8259 only says names SHOULD be unique), so two
  readers could read two different hands; the product refuses it, as it refuses a field given
  under both of its names.

The usual text costs what ``json.loads`` costs, and each object's keys counted as it is made (a
sixth more for a 4 MB batch, 15 µs more for a request of 400 bytes); the depth is measured only when the text holds more brackets than `MAX_DEPTH`,
and the integers are looked at only when ``json.loads`` refused one.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from rules_core.errors import LongInteger

MAX_DEPTH = 64  # a SettleBatch of requests with overrides nests 8 deep; a profile file 6


class JsonTextError(ValueError):
    """Text that is not JSON the product reads. ``message`` says what is wrong (no text of the
    input in it); ``line`` and ``column`` (1-based) say where, when known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        self.message = message
        self.line = line
        self.column = column
        super().__init__(message if line is None else f"{message} (line {line}, column {column})")


class KeyGivenTwice(JsonTextError):
    """An object of the text gives a key twice; ``path`` is the key's, from the text's top."""

    def __init__(self, path: str):
        self.path = path
        super().__init__(f"{path}: given twice")

    def under(self, path: str) -> KeyGivenTwice:
        """The same key, its path from ``path`` (where the text read was in a larger one)."""
        if not path:
            return self
        return KeyGivenTwice(path + self.path if self.path.startswith("[") else f"{path}.{self.path}")


class _Twice(Exception):
    """Raised by `_object` as soon as an object gives a key twice."""


def _object(pairs: list) -> dict:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise _Twice
    return value


def _integer(text: str):
    try:
        return int(text)
    except ValueError:  # over the interpreter's digit limit
        return LongInteger(text)


def read_json(text: bytes | bytearray | str, max_depth: int = MAX_DEPTH) -> Any:
    """The value of a JSON text; `JsonTextError` when it is not JSON, or nests over ``max_depth``.
    Bytes are decoded as ``json.loads`` does (UTF-8, or UTF-16/32 by their first bytes)."""
    data = None  # the text as UTF-8 bytes, when it came so: what the depth is measured on
    if not isinstance(text, str):
        data = bytes(text)
        encoding = json.detect_encoding(data)
        try:
            text = data.decode(encoding, "surrogatepass")
        except UnicodeDecodeError as error:
            raise JsonTextError(f"not UTF-8 text (byte {error.start})") from None
        if not encoding.startswith("utf-8"):
            data = None
    try:
        try:
            value = json.loads(text, object_pairs_hook=_object)
        except (json.JSONDecodeError, _Twice):
            raise
        except ValueError:  # an integer over the interpreter's digit limit
            value = json.loads(text, object_pairs_hook=_object, parse_int=_integer)
    except _Twice:
        value = _Twice  # the text may still fault after that object: the path's reading says
    except json.JSONDecodeError as error:
        raise JsonTextError(error.msg, error.lineno, error.colno) from None
    except RecursionError:
        raise JsonTextError(f"nested deeper than {max_depth} levels") from None
    if value is _Twice:
        try:
            path = _twice_path(text)
        except json.JSONDecodeError as error:
            raise JsonTextError(error.msg, error.lineno, error.colno) from None
        except RecursionError:
            raise JsonTextError(f"nested deeper than {max_depth} levels") from None
        raise KeyGivenTwice(path)
    if text.count("[") + text.count("{") > max_depth:
        if data is None:
            data = text.encode("utf-8", "surrogatepass")
        if _depth(data, max_depth) > max_depth:
            raise JsonTextError(f"nested deeper than {max_depth} levels")
    return value


class _Marked(dict):
    """An object read with the key it gives twice (`_twice_path`)."""

    twice: str


def _marked(pairs: list) -> dict:
    value = _Marked(pairs)
    if len(value) != len(pairs):
        seen: set = set()
        value.twice = next(key for key, _ in pairs if key in seen or seen.add(key))
    return value


def _twice_path(text: str) -> str:
    """The path of the first key given twice in a text known to hold one (read again, marking
    each object that does: only a text to be refused pays for it)."""
    from rules_core.errors import key_path

    pending = deque([("", json.loads(text, object_pairs_hook=_marked, parse_int=_integer))])
    while pending:
        path, value = pending.popleft()
        if isinstance(value, dict):
            twice = getattr(value, "twice", None)
            if twice is not None:
                return f"{path}.{key_path(twice)}" if path else key_path(twice)
            pending.extend((f"{path}.{key_path(k)}" if path else key_path(k), v) for k, v in value.items())
        elif isinstance(value, list):
            pending.extend((f"{path}[{i}]", v) for i, v in enumerate(value))
    return "(a key)"  # not reached: the text gives one


def most_values(data: bytes) -> int:
    """The most values and keys the JSON text ``data`` (UTF-8) can hold, counted on its bytes
    before anything is read (4 C passes): every value but the first of an array or object follows
    a comma, every key precedes a colon; commas, colons and brackets in strings count too."""
    data = bytes(data)
    return data.count(b",") + data.count(b":") + data.count(b"[") + data.count(b"{") + 1


_ALL_BUT_BRACKETS_AND_QUOTES = bytes(c for c in range(256) if c not in b'[]{}"')
_TO_SQUARE = bytes.maketrans(b"{}", b"[]")


def _depth(data: bytes, limit: int) -> int:
    """How deep the arrays and objects of a valid JSON text nest, counted up to ``limit + 1``, at
    C speed (a 6 MB batch in 8 ms): escaped backslashes and quotes taken out, then all but
    brackets and quotes, then the strings; with every bracket made square, each round of
    removing the innermost ``[]`` pairs takes one level off."""
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")  # left to right, as JSON pairs them
    data = data.translate(None, _ALL_BUT_BRACKETS_AND_QUOTES)
    outside = data.replace(b'""', b"")  # every string, when none holds a bracket (then no quote is left)
    if b'"' in outside:
        outside = b"".join(data.split(b'"')[::2])
    brackets = outside.translate(_TO_SQUARE)
    for depth in range(limit + 1):
        if not brackets:
            return depth
        brackets = brackets.replace(b"[]", b"")
    return limit + 1

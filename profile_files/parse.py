"""One profile file's text into a document, within bounds whatever the text (issue 21).

- JSON through `convert.json_text.read_json`: nesting bounded, an over-long integer kept for the
  profile's check to name its field.
- YAML with no aliases (``*name``; a 351-byte file of nested aliases once stood for 9^9 values),
  nesting at most `MAX_DEPTH`, an integer of more than `MAX_INTEGER_CHARS` characters kept as a
  `LongInteger` (YAML's base-60 integers cost the square of their length), and a value its type
  cannot read (``2001-13-01``, ``!!int abc``) a problem at its line, not an exception.
- A time budget: past ``deadline`` (``time.monotonic()``) the reading stops with a problem.

No problem quotes the file beyond a bounded excerpt (`rules_core.errors.excerpt`): the file
may be no profile at all.
"""

from __future__ import annotations

import re
import time
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from convert.json_text import MAX_DEPTH, JsonTextError, read_json
from rules_core.errors import LongInteger, bounded, excerpt

MAX_INTEGER_CHARS = 32  # an int32 takes 11; an integer written longer is out of range anyway
MAX_PROBLEM_CHARS = 160
_CHECK_EVERY = 256  # events between two looks at the clock
_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class TooSlow(Exception):
    """The time budget ran out."""


class _ProfileLoader(_Base):  # type: ignore[misc,valid-type]
    """The safe loader, bounded: the clock looked at for every value; an integer too long is a
    `LongInteger`; a value its type cannot read is a `ConstructorError` at its line."""

    deadline = float("inf")

    def construct_object(self, node, deep=False):
        if time.monotonic() > self.deadline:
            raise TooSlow
        try:
            return super().construct_object(node, deep)
        except (TooSlow, yaml.YAMLError):
            raise
        except Exception:  # ValueError, TypeError, IndexError (`!!int ` with no digits), RecursionError...
            kind = node.tag.rsplit(":", 1)[-1]
            raise ConstructorError(None, None, f"cannot be read as {excerpt(kind)}", node.start_mark) from None

    def construct_yaml_int(self, node):
        if len(node.value) > MAX_INTEGER_CHARS:
            return LongInteger(node.value.replace("_", ""))
        return SafeConstructor.construct_yaml_int(self, node)


_ProfileLoader.add_constructor("tag:yaml.org,2002:int", _ProfileLoader.construct_yaml_int)


def parse_json(text: str) -> tuple[Any, str | None]:
    try:
        return read_json(text), None
    except JsonTextError as error:
        where = f" (line {error.line}, column {error.column})" if error.line is not None else ""
        return None, f"not valid JSON{where}: {error.message}"


def parse_yaml(text: str, deadline: float = float("inf")) -> tuple[Any, str | None]:
    """(document, None) or (None, what is wrong): the events are looked at first (aliases and
    depth), then the document is built from the text."""
    try:
        problem = _event_problem(text, deadline)
        if problem is not None:
            return None, problem
        loader = _ProfileLoader(text)
        loader.deadline = deadline
        try:
            return loader.get_single_data(), None
        finally:
            loader.dispose()
    except TooSlow:
        return None, "took too long to read; a profile takes a few hundred bytes"
    except yaml.MarkedYAMLError as error:
        return None, f"not valid YAML{_where(error.problem_mark)}: {_printable(error.problem or error.context)}"
    except (yaml.YAMLError, RecursionError) as error:
        return None, f"not valid YAML: {_printable(str(error))}"


def _event_problem(text: str, deadline: float) -> str | None:
    depth = 0
    for count, event in enumerate(yaml.parse(text, Loader=_Base)):
        if isinstance(event, yaml.AliasEvent):
            return f"a YAML alias{_where(event.start_mark)}; write the value out, profile files take no aliases"
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                return f"nested deeper than {MAX_DEPTH} levels{_where(event.start_mark)}"
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        if count % _CHECK_EVERY == 0 and time.monotonic() > deadline:
            raise TooSlow
    return None


def _where(mark) -> str:
    return f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""


def _printable(problem) -> str:
    """A parser's message with each quoted part (the file's) an excerpt, the whole bounded."""
    text = _QUOTED.sub(lambda m: excerpt(m.group(1) if m.group(1) is not None else m.group(2)), str(problem))
    return bounded(text, MAX_PROBLEM_CHARS)

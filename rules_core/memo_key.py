"""The memo key of a request's overrides: equal only for overrides equal in value and in type.

`rules_core.overrides` keeps merged profiles by this key. Types are part of it at every depth,
so that 1, 1.0, True and Pattern(1) stay apart wherever they stand (one may be refused where
another is not), inside a table entry or a set of throws as much as at the top. Lists and
tuples key alike only when their types match too. The key is one flat tuple: each value's
type, then the value itself or its contents, a list or a mapping closed by a marker (so that
the key reads back one way only). It is on the hot path of every request with overrides,
and is compiled with the rest of it.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final, cast

_END: Final = object()  # closes a list or a mapping in the key
_SEQUENCE: Final = 1
_MAPPING: Final = 2
_SET: Final = 3
_SHAPES: Final[dict[type, int]] = {
    tuple: _SEQUENCE,
    list: _SEQUENCE,
    dict: _MAPPING,
    MappingProxyType: _MAPPING,
    frozenset: _SET,
    set: _SET,
}


def memo_key(name: str, overrides: Any) -> tuple:
    """The key of ``overrides`` under the profile ``name``. It cannot be hashed when a value
    cannot (another kind of mapping, a list inside a set): the memo's look-up raises TypeError
    then, and such overrides are merged each time. (Not hashed here: a tuple keeps no hash, so
    checking it first would hash it twice.)"""
    parts: list[Any] = [name]
    _flatten(overrides, parts)
    return tuple(parts)


def _flatten(value: Any, parts: list[Any]) -> None:
    """Append ``value`` to ``parts`` as its type, then its value or its contents: a list, a
    tuple or a mapping closed by _END, a set as one frozenset of its members' own keys."""
    kind = type(value)
    parts.append(kind)
    # The kinds overrides are made of, tested by identity first: each branch then iterates its
    # own type natively when compiled, where a generic iteration costs a call per item.
    if kind is str or kind is int:
        parts.append(value)
    elif kind is dict:
        for key, item in cast(dict, value).items():
            _flatten(key, parts)
            _flatten(item, parts)
        parts.append(_END)
    elif kind is list:
        for item in cast(list, value):
            _flatten(item, parts)
        parts.append(_END)
    elif kind is tuple:
        for item in cast(tuple, value):
            _flatten(item, parts)
        parts.append(_END)
    else:
        shape = _SHAPES.get(kind, 0)
        if shape == 0:
            parts.append(value)
        elif shape == _SEQUENCE:
            for item in value:
                _flatten(item, parts)
            parts.append(_END)
        elif shape == _MAPPING:
            for key, item in value.items():
                _flatten(key, parts)
                _flatten(item, parts)
            parts.append(_END)
        else:
            members = []
            for item in value:
                member: list[Any] = []
                _flatten(item, member)
                members.append(tuple(member))
            parts.append(frozenset(members))

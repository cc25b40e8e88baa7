"""The memo key of a request's overrides: equal only for overrides equal in value and in type.

`rules_core.overrides` keeps merged profiles by this key. Types are part of it at every depth,
so that 1, 1.0, True and Pattern(1) stay apart wherever they stand (one may be refused where
another is not), inside a table entry or a set of throws as much as at the top. Lists and
tuples key alike only when their types match too. The key is a tree of ``(type, ...)`` tuples:
one native call per node once compiled (it is on the hot path of every request with
overrides, and is compiled with the rest of it).
"""

from __future__ import annotations

from collections.abc import Hashable
from types import MappingProxyType
from typing import Any


def memo_key(name: str, overrides: Any) -> Hashable | None:
    """The key of ``overrides`` under the profile ``name``, or None when a value cannot be
    hashed (another kind of mapping, a list inside a set): such overrides are merged each time."""
    key = (name, _typed(overrides))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _typed(value: Any) -> Any:
    kind = type(value)
    if kind is tuple or kind is list:
        return (kind, *[_typed(item) for item in value])
    if kind is dict or kind is MappingProxyType:
        return (kind, *[(_typed(key), _typed(item)) for key, item in value.items()])
    if kind is frozenset or kind is set:
        return (kind, frozenset([_typed(item) for item in value]))
    return (kind, value)

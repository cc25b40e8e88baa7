"""The bodies of the explorer's own endpoints (``/explorer/notation``, ``/explorer/why``,
``/explorer/profile-words``): a JSON object of known keys, nested no deeper than the page's
(`MAX_DEPTH`), or `BadExplorerBody` saying what is wrong (answered 400). Each endpoint bounds its
body's size too (``MAX_BODY_BYTES`` beside it), which the HTTP face checks as it reads it."""

from __future__ import annotations

from convert.json_text import JsonTextError, read_json
from rules_core.errors import key_path

MAX_DEPTH = 8  # a profile's dice table: {"profiles": [{"diceHuangfan": [{"dice": {...}}]}]} is 6
MAX_BODY_BYTES = 64 * 1024  # a notation or why body: a few hundred characters, 64 payments at most


class BadExplorerBody(ValueError):
    """A body that is not the JSON object the page sends."""


def read_object(body: bytes, known: tuple[str, ...], example: str) -> dict:
    """The body as a JSON object whose keys are all in ``known`` (``example``: one such body)."""
    try:
        data = read_json(body or b"{}", MAX_DEPTH)
    except JsonTextError as error:
        raise BadExplorerBody(f"the body is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise BadExplorerBody(f"the body is a JSON object such as {example}")
    unknown = sorted(set(data) - set(known))
    if unknown:
        shown = ", ".join(key_path(key) for key in unknown[:5]) + (
            f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        )
        raise BadExplorerBody(f"unknown key(s) {shown}; known: {', '.join(known)}")
    return data

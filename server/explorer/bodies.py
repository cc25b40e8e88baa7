"""The bodies of the explorer's own endpoints (``/explorer/notation``, ``/explorer/why``): a
JSON object of known keys, or `BadExplorerBody` saying what is wrong (answered 400)."""

from __future__ import annotations

from convert.json_text import JsonTextError, read_json
from rules_core.errors import key_path


class BadExplorerBody(ValueError):
    """A body that is not the JSON object the page sends."""


def read_object(body: bytes, known: tuple[str, ...], example: str) -> dict:
    """The body as a JSON object whose keys are all in ``known`` (``example``: one such body)."""
    try:
        data = read_json(body or b"{}")
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

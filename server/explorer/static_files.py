"""The page's files, read once from ``static/`` beside this module (installed as package data)."""

from __future__ import annotations

from pathlib import Path

from server.explorer.vocabulary import vocabulary_json

STATIC = Path(__file__).with_name("static")
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
}
# Nothing from another origin: scripts, styles, images and calls all come from this server.
HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"cache-control", b"no-cache"),
]


# The folder of the page's files leads to the page (a person types it, seeing the files' paths).
REDIRECTS = {"/explorer": "/", "/explorer/": "/"}


def load() -> dict[str, tuple[str, bytes]]:
    """URL path -> (content type, bytes); ``/`` is ``index.html``."""
    files = {}
    for path in sorted(STATIC.iterdir()):
        if path.suffix in _TYPES:
            files[f"/explorer/{path.name}"] = (_TYPES[path.suffix], path.read_bytes())
    files["/"] = files["/explorer/index.html"]
    files["/explorer/vocabulary.json"] = (_TYPES[".json"], vocabulary_json())
    return files

"""The digest of an effective rule profile: which rule values made an answer (API.md,
"Versioned answers").

The digest is ``sha256:`` and the SHA-256, in hex, of the profile's canonical JSON: the
proto3 JSON mapping of the `RuleProfile` message without ``name`` (and the description,
which is not in it), keyed by the ``.proto`` field names (snake_case); a field at its proto3
default (0, false, an empty list, an enum's zero) left out, in the profile and in its
entries alike, so that a field added later at its neutral default changes no digest; enum
values by name; the keyed tables (``fixed_values``, ``fan``, ``flower_values``,
``dice_huangfan``) sorted by key (the enum number, a throw low die first); the other lists as
the effective profile holds them (the pattern and throw sets in order, the sankou shares as
given); object keys sorted, no whitespace, UTF-8. A number is written as JSON's shortest
form: a whole double as an integer (``1``, not ``1.0``), as RFC 8785 and ECMAScript print
it, so every language's JSON writer agrees.

Nothing here depends on how the profile was spelled (a house file, overrides in snake_case
or camelCase, enum names or numbers): only the merged values are read. `profile_digest` stamps
the digest on the profile (`RuleProfile.digest_stamp`), so a merged profile memoised by
`rules_core.overrides` and a registry's profiles pay for it once, and the digest lives and dies
with its profile. `BUILTIN_REGISTRY` is rules_core's built-in profiles with their digests: the
registry every answer of the product is made under when no house profile is loaded.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from convert.json_write import profile_dict
from rules_core.profile import RuleProfile
from rules_core.registry import ProfileRegistry

PREFIX = "sha256:"


def _snake(camel_name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in camel_name)


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _without_defaults(value: Any) -> Any:
    """The proto3 JSON of a message value with every field at its default left out."""
    if isinstance(value, dict):
        kept = {}
        for key, item in value.items():
            item = _without_defaults(item)
            if item in (0, False, "", [], {}) or (isinstance(item, str) and item.endswith("_UNSPECIFIED")):
                continue
            kept[key] = item
        return kept
    if isinstance(value, list):  # list elements are not fields: a 0 in a list stays
        return [_without_defaults(item) for item in value]
    if isinstance(value, float):
        return _number(value)
    return value


def canonical_profile(profile: RuleProfile) -> dict[str, Any]:
    """The canonical form of a profile as a dict (snake_case keys, defaults left out)."""
    written = profile_dict(profile)  # tables sorted by key, sets in order, doubles as floats
    del written["name"]
    return _without_defaults({_snake(key): value for key, value in written.items()})


def canonical_profile_json(profile: RuleProfile) -> bytes:
    text = json.dumps(canonical_profile(profile), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def computed_digest(profile: RuleProfile) -> str:
    """``sha256:`` and 64 hex digits, computed afresh: callers use `profile_digest`."""
    return PREFIX + hashlib.sha256(canonical_profile_json(profile)).hexdigest()


def profile_digest(profile: RuleProfile) -> str:
    """The profile's digest: computed on the first call, then the stamp it left on the profile."""
    digest = profile.digest_stamp
    if not digest:
        digest = computed_digest(profile)
        object.__setattr__(profile, "digest_stamp", digest)  # frozen: set once, always to the same value
    return digest


BUILTIN_REGISTRY = ProfileRegistry(digest=profile_digest)

"""House profiles: an operator's named variants of a built-in profile, read from documents.

A document is what a profile file holds once parsed (the caller reads the file: this module
does no I/O)::

    name: shanghai-club-a        # lower-case letters, digits and '-'; not a built-in name
    base: lezi                   # a built-in profile
    description: 勒子 room, base 3, liability replaces payments
    overrides:                   # a partial RuleProfile in the proto3 JSON mapping
      ordinaryBase: 3

Every problem is a `FieldViolation` whose field is the path inside the document
(``overrides.fan[0].value``); `house_registry` adds the file each came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, NamedTuple

from convert.json_read import read_overrides
from convert.profile_digest import profile_digest
from rules_core.builtin_profiles import BUILTIN_PROFILES
from rules_core.errors import FieldViolation, excerpt, key_path
from rules_core.overrides import apply_overrides
from rules_core.registry import ProfileEntry, ProfileRegistry

DOCUMENT_FIELDS = ("name", "base", "description", "overrides")
NAME_PATTERN = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
MAX_NAME_CHARS = 63  # a metric label and a Kubernetes-style name
MAX_DESCRIPTION_CHARS = 500
MAX_HOUSE_PROFILES = 1000


class Problem(NamedTuple):
    """A problem in one profile document: the file, the field path inside it, what is wrong."""

    source: str
    field: str
    description: str

    def __str__(self) -> str:
        where = f"{self.source}: {self.field}" if self.field else self.source
        return f"{where}: {self.description}"


def _name_violation(name: Any) -> str | None:
    if not isinstance(name, str) or not name:
        return "required: a profile name such as 'shanghai-club-a'"
    if len(name) > MAX_NAME_CHARS:
        return f"at most {MAX_NAME_CHARS} characters, got {len(name)}"
    if not NAME_PATTERN.fullmatch(name):
        return f"{name!r}: lower-case letters, digits and '-' only (such as 'shanghai-club-a')"
    if name in BUILTIN_PROFILES:
        return f"{name!r} is a built-in profile; choose another name"
    return None


def read_house_profile(document: Any, source: str = "") -> tuple[ProfileEntry | None, list[FieldViolation]]:
    """The house profile a document defines, or None and every violation in it."""
    if not isinstance(document, dict):
        kind = "nothing" if document is None else type(document).__name__
        return None, [FieldViolation("", f"expected a mapping with name, base and overrides, got {kind}")]
    violations: list[FieldViolation] = []
    for key in document:
        if key not in DOCUMENT_FIELDS:
            violations.append(
                FieldViolation(key_path(key), f"unknown field; a profile has {', '.join(DOCUMENT_FIELDS)}")
            )
    name = document.get("name")
    problem = _name_violation(name)
    if problem:
        violations.append(FieldViolation("name", problem))
    base_name = document.get("base")
    base = BUILTIN_PROFILES.get(base_name) if isinstance(base_name, str) else None
    if base is None:
        shown = "required" if base_name is None else f"unknown profile {excerpt(base_name)}"
        names = ", ".join(BUILTIN_PROFILES)
        violations.append(FieldViolation("base", f"{shown}; a house profile is based on one of {names}"))
    description = document.get("description", "")
    if description is None:
        description = ""
    if not isinstance(description, str):
        violations.append(FieldViolation("description", "must be text"))
    elif len(description) > MAX_DESCRIPTION_CHARS:
        violations.append(FieldViolation("description", f"at most {MAX_DESCRIPTION_CHARS} characters"))
    read_faults: list[FieldViolation] = []
    overrides = read_overrides(document.get("overrides") or None, "overrides", read_faults)
    violations.extend(read_faults)
    profile = None
    if base is not None and not read_faults:  # the values are checked against the base even when the name is bad
        profile, faults = apply_overrides(base, overrides or {})
        violations.extend(faults)
    if violations or profile is None:
        return None, violations
    entry = ProfileEntry(replace(profile, name=name), base_name, description, source)
    return entry, []


def house_registry(documents: Iterable[tuple[str, Any]]) -> tuple[ProfileRegistry | None, list[Problem]]:
    """A registry of the built-in profiles and the house profiles of ``(source, document)`` pairs
    (read in the order given), or None and every problem: all of them are valid or none is used.
    Answers under it carry the profile digest (`convert.profile_digest`)."""
    problems: list[Problem] = []
    entries: dict[str, ProfileEntry] = {}
    for count, (source, document) in enumerate(documents, 1):
        if count > MAX_HOUSE_PROFILES:
            problems.append(Problem(source, "", f"at most {MAX_HOUSE_PROFILES} house profiles"))
            break
        entry, violations = read_house_profile(document, source)
        problems.extend(Problem(source, v.field, v.description) for v in violations)
        if entry is None:
            continue
        first = entries.get(entry.name)
        if first is not None:
            problems.append(Problem(source, "name", f"{entry.name!r} is already defined in {first.source}"))
        else:
            entries[entry.name] = entry
    if problems:
        return None, problems
    return ProfileRegistry(entries.values(), digest=profile_digest), []

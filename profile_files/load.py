"""Read every ``*.yaml``, ``*.yml`` and ``*.json`` file of a directory as one house profile.

All of them are valid or none is used: `load_profiles_dir` returns a registry, or the
problems, one line each naming the file and the field path inside it::

    profiles/club-a.yaml: overrides.ordinary_base: must be 0 to 100000, got -3
    profiles/club-b.json: not valid JSON (line 3, column 5): Expecting ',' delimiter
"""

from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from convert.house_profiles import MAX_HOUSE_PROFILES, Problem, house_registry
from convert.profile_digest import BUILTIN_REGISTRY
from profile_files.parse import parse_json, parse_yaml
from rules_core.registry import ProfileRegistry

HOUSE_SUFFIXES = (".yaml", ".yml", ".json")
MAX_FILE_BYTES = 256 * 1024  # a profile is a few hundred bytes; a larger file is a mistake
READ_BUDGET_S = 5.0  # a whole directory: a real profile takes about a millisecond, a 256 KiB file of
# small YAML values 1-2 s on a busy core (docs/RELIABILITY.md)
FOLLOW_LINKS_FLAG = "--profiles-follow-links"


@dataclass(frozen=True)
class LoadedProfiles:
    """What a directory holds: a registry (None when any file is bad) and every problem."""

    registry: ProfileRegistry | None
    problems: tuple[Problem, ...]
    documents: tuple[tuple[str, Any], ...]  # (file, parsed document): what a batch job ships to its workers

    @property
    def ok(self) -> bool:
        return self.registry is not None


def profile_files(directory: Path) -> list[Path]:
    """The profile files of a directory in name order. Hidden names are skipped: Kubernetes keeps
    a ConfigMap's real files under ``..data`` and links each key at the top level."""
    return sorted(p for p in directory.iterdir() if p.suffix.lower() in HOUSE_SUFFIXES and not p.name.startswith("."))


def _read_bytes(path: Path, inside: str, follow_links: bool) -> tuple[bytes | None, str | None]:
    """The file's first bytes, or what keeps it from being read. A symbolic link is followed
    when it stays inside the directory (``inside``, resolved), as a ConfigMap's ``..data`` links
    do, and elsewhere only when ``follow_links``; what is opened is never a device or a FIFO."""
    target = os.path.realpath(path)
    if not follow_links and os.path.commonpath((inside, target)) != inside:
        return None, f"a symbolic link out of the directory (to {target}); not read without {FOLLOW_LINKS_FLAG}"
    try:
        descriptor = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as error:
        return None, f"cannot be read: {error.strerror or error}"
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # a directory, device, FIFO or socket
        os.close(descriptor)
        return None, "not a regular file"
    with os.fdopen(descriptor, "rb") as file:
        try:
            return file.read(MAX_FILE_BYTES + 1), None
        except OSError as error:
            return None, f"cannot be read: {error.strerror or error}"


def _parse(path: Path, inside: str, follow_links: bool, deadline: float) -> tuple[Any, str | None]:
    """(document, None) or (None, what is wrong with the file as a whole)."""
    data, problem = _read_bytes(path, inside, follow_links)
    if problem is not None:
        return None, problem
    if len(data) > MAX_FILE_BYTES:
        return None, f"larger than {MAX_FILE_BYTES:,} bytes; a profile takes a few hundred"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, f"not UTF-8 text (byte {error.start})"
    if path.suffix.lower() == ".json":
        return parse_json(text)
    return parse_yaml(text, deadline)


def read_documents(
    directory: Path | str, follow_links: bool = False, budget_s: float = READ_BUDGET_S
) -> tuple[list[tuple[str, Any]], list[Problem]]:
    """The parsed document of every profile file, by file name, and the files that could not be
    read (within ``budget_s`` seconds for the whole directory)."""
    directory = Path(directory)
    try:
        paths = profile_files(directory)
    except FileNotFoundError:
        return [], [Problem(str(directory), "", "no such directory")]
    except NotADirectoryError:
        return [], [Problem(str(directory), "", "not a directory")]
    except OSError as error:
        return [], [Problem(str(directory), "", f"cannot be read: {error.strerror or error}")]
    if len(paths) > MAX_HOUSE_PROFILES:
        return [], [Problem(str(directory), "", f"{len(paths)} profile files; at most {MAX_HOUSE_PROFILES}")]
    inside = os.path.realpath(directory)
    deadline = time.monotonic() + budget_s
    documents, problems = [], []
    for path in paths:
        if time.monotonic() > deadline:
            problems.append(Problem(str(path), "", f"not read: the directory took over {budget_s:g} s to read"))
            continue
        document, problem = _parse(path, inside, follow_links, deadline)
        if problem is not None:
            problems.append(Problem(str(path), "", problem))
        else:
            documents.append((str(path), document))
    return documents, problems


def load_profiles_dir(directory: Path | str, follow_links: bool = False) -> LoadedProfiles:
    """The house profiles of a directory with the built-in ones, or every problem found."""
    documents, problems = read_documents(directory, follow_links)
    registry, invalid = house_registry(documents)
    problems = problems + invalid
    if problems:
        return LoadedProfiles(None, tuple(problems), tuple(documents))
    return LoadedProfiles(registry, (), tuple(documents))


def shippable(loaded: LoadedProfiles) -> list[list]:
    """The documents of valid house profiles as plain data, ``[[file, document], ...]``: what a
    batch job sends its workers (a worker may not see the directory) and records in its manifest."""
    return [[source, document] for source, document in loaded.documents]


_REGISTRIES: dict[str, ProfileRegistry] = {}


def registry_of(documents) -> ProfileRegistry:
    """The registry of shipped house profile documents (`shippable`), made once per process for
    the same documents, so that a worker's scoring caches stay warm from one task to the next."""
    if not documents:
        return BUILTIN_REGISTRY
    key = json.dumps(documents, sort_keys=True, ensure_ascii=False)
    registry = _REGISTRIES.get(key)
    if registry is None:
        registry, problems = house_registry((source, document) for source, document in documents)
        if registry is None:
            raise ValueError("bad house profiles: " + "; ".join(map(str, problems)))
        if len(_REGISTRIES) >= 8:
            _REGISTRIES.clear()
        _REGISTRIES[key] = registry
    return registry

"""Read every ``*.yaml``, ``*.yml`` and ``*.json`` file of a directory as one house profile.

All of them are valid or none is used: `load_profiles_dir` returns a registry, or the
problems, one line each naming the file and the field path inside it::

    profiles/club-a.yaml: overrides.ordinary_base: must be 0 to 100000, got -3
    profiles/club-b.json: not valid JSON (line 3, column 5): Expecting ',' delimiter
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from rules_core.house_profiles import MAX_HOUSE_PROFILES, Problem, house_registry
from rules_core.json_text import JsonTextError, read_json
from rules_core.registry import BUILTIN_REGISTRY, ProfileRegistry

HOUSE_SUFFIXES = (".yaml", ".yml", ".json")
MAX_FILE_BYTES = 256 * 1024  # a profile is a few hundred bytes; a larger file is a mistake

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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


def _parse(path: Path) -> tuple[Any, str | None]:
    """(document, None) or (None, what is wrong with the file as a whole)."""
    try:
        if not path.is_file():
            return None, "not a regular file"
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        return None, f"cannot be read: {error.strerror or error}"
    if len(data) > MAX_FILE_BYTES:
        return None, f"larger than {MAX_FILE_BYTES:,} bytes; a profile takes a few hundred"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, f"not UTF-8 text (byte {error.start})"
    if path.suffix.lower() == ".json":
        try:
            return read_json(text), None  # an over-long integer is read: the profile's check names its field
        except JsonTextError as error:
            where = f" (line {error.line}, column {error.column})" if error.line is not None else ""
            return None, f"not valid JSON{where}: {error.message}"
    try:
        return yaml.load(text, Loader=_Loader), None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        return None, f"not valid YAML{where}: {error.problem or error.context}"
    except (yaml.YAMLError, RecursionError) as error:
        return None, f"not valid YAML: {error}"


def read_documents(directory: Path | str) -> tuple[list[tuple[str, Any]], list[Problem]]:
    """The parsed document of every profile file, by file name, and the files that could not be read."""
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
    documents, problems = [], []
    for path in paths:
        document, problem = _parse(path)
        if problem is not None:
            problems.append(Problem(str(path), "", problem))
        else:
            documents.append((str(path), document))
    return documents, problems


def load_profiles_dir(directory: Path | str) -> LoadedProfiles:
    """The house profiles of a directory with the built-in ones, or every problem found."""
    documents, problems = read_documents(directory)
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

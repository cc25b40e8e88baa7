"""The profiles a request may name: the six built-in ones and an operator's house profiles.

A `ProfileRegistry` is immutable. A server that reloads its house profiles builds a new
registry and swaps it in whole, so a call that started with one registry settles with it
to the end. `BUILTIN_REGISTRY` holds the built-in profiles alone: the default everywhere.

A profile's digest (API.md, "Versioned answers") is the SHA-256 of a wire form of it, so the
rules do not compute it: a registry is given the function that does (the wire layer's,
`convert.profile_digest`), and answers and pinned requests under it carry and check that
digest. A registry given none, as `BUILTIN_REGISTRY` here, answers with an empty digest.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from rules_core.builtin_profiles import BUILTIN_PROFILES
from rules_core.errors import MAX_EXCERPT_CHARS, excerpt
from rules_core.profile import RuleProfile

BUILTIN_DESCRIPTIONS = MappingProxyType(
    {
        "classic": "Classic Shanghai rules: 花 counted, 1 喇 = 20 花, 底注花 3",
        "sankou": "三口 family (新算分规则): 底注花 1, 8 花 or more is 1 喇, 吃三口包五家",
        "lezi": "勒子 family: points, 1 勒 = 10 分, 底分 2, 开宝, 承包",
        "qiaoma": "敲麻, MIL 2024 competition rules: 中发白 are flowers, (1 + 花) × 2^番 up to 3 番, 无花 10 花, the knock, 承包",
        "qiaoma_lezi": "敲麻 in 勒子: 中发白 are flowers, 垃圾胡, additive 番, 底分 3, cap 8 勒, 包三口",
        "qinghunpeng": "清混碰: additive 番, 底分 2, cap 8 勒, 无花果 self-draw only, 包三口",
    }
)


@dataclass(frozen=True)
class ProfileEntry:
    """A named profile with where it comes from: ``base`` is empty for a built-in profile,
    ``source`` the file a house profile was read from."""

    profile: RuleProfile
    base: str = ""
    description: str = ""
    source: str = ""

    @property
    def name(self) -> str:
        return self.profile.name

    @property
    def is_house(self) -> bool:
        return bool(self.base)


class ProfileRegistry:
    """Profiles by name: the built-in ones first, then the house ones in name order."""

    __slots__ = ("_digest", "_entries", "_profiles", "builtin", "known")

    def __init__(
        self,
        house: Iterable[ProfileEntry] = (),
        builtin: Mapping[str, RuleProfile] = BUILTIN_PROFILES,
        digest: Callable[[RuleProfile], str] | None = None,
    ):
        """``digest``: the digest of a profile, stamped on it (`RuleProfile.digest_stamp`) by the
        function itself, so that each profile is digested once; None: no digests."""
        self.builtin = builtin
        entries = {name: ProfileEntry(p, "", BUILTIN_DESCRIPTIONS[name]) for name, p in builtin.items()}
        for entry in sorted(house, key=lambda e: e.name):
            if entry.name in entries:
                raise ValueError(f"profile {entry.name!r} is defined twice")
            entries[entry.name] = entry
        self._entries = MappingProxyType(entries)
        self._profiles = MappingProxyType({name: e.profile for name, e in entries.items()})
        self.known = ", ".join(sorted(entries))  # for the message naming an unknown profile
        self._digest = digest
        if digest is not None:  # digested now rather than by a first request
            for entry in entries.values():
                digest(entry.profile)

    def digest(self, profile: RuleProfile) -> str:
        """The digest of a profile this registry resolved (a merged one too), or "" for a
        registry given no digest function."""
        if self._digest is None:
            return ""
        return profile.digest_stamp or self._digest(profile)

    @property
    def digests(self) -> bool:
        """Whether answers under this registry carry the profile's digest."""
        return self._digest is not None

    def get(self, name: str) -> RuleProfile | None:
        return self._profiles.get(name)

    def entry(self, name: str) -> ProfileEntry | None:
        return self._entries.get(name)

    @property
    def entries(self) -> tuple[ProfileEntry, ...]:
        return tuple(self._entries.values())

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._entries)

    @property
    def house(self) -> tuple[ProfileEntry, ...]:
        return tuple(e for e in self._entries.values() if e.is_house)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __len__(self) -> int:
        return len(self._entries)


BUILTIN_REGISTRY = ProfileRegistry()


def unknown_profile(name: str, known: Iterable[str]) -> str:
    """``unknown profile 'Lezi' (did you mean lezi?); known profiles: classic, lezi, qiaoma, ...``:
    the one wording of an unknown profile, the engine's and the CLI's, with the nearest known
    name when one is near (letter case aside)."""
    known = sorted(known)
    near = None
    if len(name) <= MAX_EXCERPT_CHARS:
        lowered = {k.lower(): k for k in known}
        match = difflib.get_close_matches(name.lower(), lowered, n=1, cutoff=0.7)
        near = lowered[match[0]] if match else None
    guess = f" (did you mean {near}?)" if near else ""
    return f"unknown profile {excerpt(name)}{guess}; known profiles: {', '.join(known)}"

"""The house profiles in force in a worker, reloaded without a restart.

The registry is immutable and swapped whole: a call reads `HouseProfiles.registry` once when it
starts and settles with that registry to the end, whatever a reload does meanwhile. A reload
(on SIGHUP, or when the directory's fingerprint has changed and then held still for one
poll: a Kubernetes ConfigMap update swaps its ``..data`` link, then makes and removes the links
of its keys, and a half-done update is not read) with any bad file is refused as a whole, logged and counted; the
profiles in force stay.
"""

from __future__ import annotations

import asyncio

import structlog
from prometheus_client import Counter, Gauge

from profile_files import fingerprint, load_profiles_dir
from rules_core.registry import BUILTIN_REGISTRY, ProfileRegistry

log = structlog.get_logger("shmj.profiles")

PROFILES_LOADED = Gauge(
    "shmj_profiles_loaded",
    "House profiles in force (the built-in ones not counted); the highest of the live workers.",
    multiprocess_mode="livemax",
)
PROFILE_RELOADS = Counter(
    "shmj_profile_reloads_total",
    "Reloads of the house profiles directory by each worker, by result (`ok`, or `refused`: a bad file, the old profiles kept).",
    ("result",),
)


class ProfilesError(Exception):
    """The profiles directory holds a bad file: every problem, one line each."""

    def __init__(self, directory: str, problems):
        self.directory = directory
        self.problems = [str(p) for p in problems]
        super().__init__("; ".join(self.problems))


def load(directory: str) -> ProfileRegistry:
    """The built-in profiles with the directory's house profiles, or `ProfilesError`."""
    if not directory:
        return BUILTIN_REGISTRY
    loaded = load_profiles_dir(directory)
    if not loaded.ok:
        raise ProfilesError(directory, loaded.problems)
    return loaded.registry


class HouseProfiles:
    """The registry in force in this worker, and its reloading."""

    def __init__(self, directory: str = "", registry: ProfileRegistry | None = None):
        self.directory = directory
        self._seen = fingerprint(directory) if directory else None  # before reading: a change during it is seen
        self._settling = None  # a changed fingerprint seen once, not yet twice
        self.registry = registry if registry is not None else load(directory)
        PROFILES_LOADED.set(len(self.registry.house))
        for result in ("ok", "refused"):  # at 0 from the start: the first refusal is an increase
            PROFILE_RELOADS.labels(result)

    def reload(self, reason: str) -> bool:
        """Read the directory again; True when the new profiles are in force."""
        if not self.directory:
            return False
        self._seen = fingerprint(self.directory)
        try:
            registry = load(self.directory)
        except ProfilesError as error:
            PROFILE_RELOADS.labels("refused").inc()
            log.error(
                "house profiles reload refused; the profiles in force stay",
                reason=reason,
                directory=self.directory,
                problems=error.problems,
                kept=[e.name for e in self.registry.house],
            )
            return False
        self.registry = registry  # one reference swapped: a call in flight keeps the registry it read
        PROFILES_LOADED.set(len(registry.house))
        PROFILE_RELOADS.labels("ok").inc()
        log.info(
            "house profiles reloaded",
            reason=reason,
            directory=self.directory,
            profiles=[e.name for e in registry.house],
        )
        return True

    def poll(self) -> bool:
        """One look at the directory (a few system calls per file: cheap). A change is read once
        two looks in a row have seen it the same; True when its profiles are now in force."""
        if not self.directory:
            return False
        now = fingerprint(self.directory)
        if now == self._seen:
            self._settling = None
            return False
        if now != self._settling:
            self._settling = now
            return False
        self._settling = None
        return self.reload("the directory changed")

    async def watch(self, interval_s: float) -> None:
        """Poll the directory every ``interval_s`` seconds: a change is in force within two."""
        if not self.directory or interval_s <= 0:
            return
        while True:
            await asyncio.sleep(interval_s)
            try:
                self.poll()
            except Exception:  # a bug must not end the watching: log it, look again next time
                log.exception("house profiles watch failed", directory=self.directory)

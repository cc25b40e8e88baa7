"""The house profiles in force in a worker, reloaded without a restart.

The registry is immutable and swapped whole: a call reads `HouseProfiles.registry` once when it
starts and settles with that registry to the end, whatever a reload does meanwhile. A reload
(on SIGHUP, or when the directory's fingerprint has changed and then held still for one
poll: a Kubernetes ConfigMap update swaps its ``..data`` link, then makes and removes the links
of its keys, and a half-done update is not read) with any bad file is refused as a whole, logged and counted; the
profiles in force stay. The directory is read in a thread, within a time budget (`READ_BUDGET_S`),
so a slow or hostile file never holds the event loop; a bug while reading is a refusal too.
"""

from __future__ import annotations

import asyncio
import traceback
from pathlib import Path

import structlog
from prometheus_client import Counter, Gauge

from convert.profile_digest import BUILTIN_REGISTRY, profile_digest
from profile_files import fingerprint, load_profiles_dir
from profile_files.load import READ_BUDGET_S
from rules_core.registry import ProfileRegistry

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

PROFILE_DIGEST_CHANGES = Counter(
    "shmj_profile_digest_changes_total",
    "House profiles whose digest a reload changed (edited, added or removed), by each worker: answers under them now carry another profile_digest.",
)


def digest_changes(old: ProfileRegistry, new: ProfileRegistry) -> list[dict[str, str]]:
    """Each house profile whose rule values a reload changes, with its old and new digest (""
    for a profile that was not there, or is no longer), by name."""
    before = {e.name: profile_digest(e.profile) for e in old.house}
    after = {e.name: profile_digest(e.profile) for e in new.house}
    return [
        {"profile": name, "old_digest": before.get(name, ""), "new_digest": after.get(name, "")}
        for name in sorted(before.keys() | after.keys())
        if before.get(name) != after.get(name)
    ]


class ProfilesError(Exception):
    """The profiles directory holds a bad file: every problem, one line each."""

    def __init__(self, directory: str, problems):
        self.directory = directory
        self.problems = [str(p) for p in problems]
        super().__init__("; ".join(self.problems))


def load(directory: str, follow_links: bool = False) -> ProfileRegistry:
    """The built-in profiles with the directory's house profiles, or `ProfilesError`."""
    if not directory:
        return BUILTIN_REGISTRY
    loaded = load_profiles_dir(directory, follow_links)
    if not loaded.ok:
        raise ProfilesError(directory, loaded.problems)
    return loaded.registry


def _read(directory: str, follow_links: bool) -> ProfileRegistry | ProfilesError:
    """The new registry, or why none: whatever goes wrong, never an exception (a bug reading a
    file is a refused reload, counted, so the alert on refusals sees it)."""
    try:
        return load(directory, follow_links)
    except ProfilesError as error:
        return error
    except Exception as error:  # a bug: its kind and place only, no message (it may quote a file)
        frame = traceback.extract_tb(error.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        return ProfilesError(directory, [f"{directory}: not read: {type(error).__name__} at {where} (a bug)"])


class HouseProfiles:
    """The registry in force in this worker, and its reloading."""

    def __init__(self, directory: str = "", registry: ProfileRegistry | None = None, follow_links: bool = False):
        self.directory = directory
        self.follow_links = follow_links
        self._seen = fingerprint(directory) if directory else None  # before reading: a change during it is seen
        self._settling = None  # a changed fingerprint seen once, not yet twice
        self._reading: asyncio.Task | None = None  # a reload off the event loop, in a thread
        self._again: str | None = None  # the reason of a reload asked for while one was reading
        self.registry = registry if registry is not None else load(directory, follow_links)
        PROFILES_LOADED.set(len(self.registry.house))
        for result in ("ok", "refused"):  # at 0 from the start: the first refusal is an increase
            PROFILE_RELOADS.labels(result)

    def reload(self, reason: str) -> bool:
        """Read the directory again, in this thread; True when the new profiles are in force."""
        if not self.directory:
            return False
        self._seen = fingerprint(self.directory)
        return self._adopt(_read(self.directory, self.follow_links), reason)

    async def reload_off_loop(self, reason: str) -> bool:
        """`reload`, with the directory read in a thread: the event loop serves on meanwhile, and a
        reading over its budget is refused (the thread ends on its own budget soon after)."""
        if not self.directory:
            return False
        self._seen = fingerprint(self.directory)
        reading = asyncio.to_thread(_read, self.directory, self.follow_links)
        try:
            result = await asyncio.wait_for(reading, READ_BUDGET_S + 1.0)
        except TimeoutError:
            result = ProfilesError(self.directory, [f"{self.directory}: not read within {READ_BUDGET_S + 1.0:g} s"])
        return self._adopt(result, reason)

    def reload_soon(self, reason: str) -> None:
        """Start a reload off the loop (SIGHUP); one asked for during another runs after it."""
        if self._reading is not None and not self._reading.done():
            self._again = reason
            return
        self._reading = asyncio.get_running_loop().create_task(self._reload_until_done(reason))

    async def _reload_until_done(self, reason: str) -> None:
        while reason is not None:
            self._again = None
            await self.reload_off_loop(reason)
            reason = self._again

    def _adopt(self, result: ProfileRegistry | ProfilesError, reason: str) -> bool:
        if isinstance(result, ProfilesError):
            PROFILE_RELOADS.labels("refused").inc()
            log.error(
                "house profiles reload refused; the profiles in force stay",
                reason=reason,
                directory=self.directory,
                problems=result.problems,
                kept=[e.name for e in self.registry.house],
            )
            return False
        changes = digest_changes(self.registry, result)
        self.registry = result  # one reference swapped: a call in flight keeps the registry it read
        PROFILES_LOADED.set(len(result.house))
        PROFILE_RELOADS.labels("ok").inc()
        PROFILE_DIGEST_CHANGES.inc(len(changes))
        log.info(
            "house profiles reloaded",
            reason=reason,
            directory=self.directory,
            profiles=[e.name for e in result.house],
            digest_changes=changes,
        )
        return True

    def changed(self) -> bool:
        """One look at the directory (a few system calls per file: cheap): True when a change has
        been seen the same two looks in a row, and is to be read."""
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
        return True

    def poll(self) -> bool:
        """`changed`, then `reload` in this thread; True when new profiles are now in force."""
        return self.changed() and self.reload("the directory changed")

    async def watch(self, interval_s: float) -> None:
        """Poll the directory every ``interval_s`` seconds: a change is in force within two, read
        off the event loop."""
        if not self.directory or interval_s <= 0:
            return
        while True:
            await asyncio.sleep(interval_s)
            try:
                if self.changed():
                    self.reload_soon("the directory changed")
            except Exception:  # a bug must not end the watching: log it, look again next time
                log.exception("house profiles watch failed", directory=self.directory)

"""The built image, run as an operator runs it here: buildah (no Docker engine, no OCI runtime
that may set limits in this sandbox, so chroot isolation), the host's network on loopback ports.

`make test-image` builds the image and names it in SHMJ_IMAGE; the storage is the one
`make image` uses (deploy/image/storage.conf)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path

from tests.deploy.tools import DEPLOY

IMAGE = os.environ.get("SHMJ_IMAGE", "")
ENV = {
    **os.environ,
    "CONTAINERS_STORAGE_CONF": os.environ.get("CONTAINERS_STORAGE_CONF", str(DEPLOY / "image/storage.conf")),
}


def buildah(*args: str) -> str:
    result = subprocess.run(["buildah", *args], env=ENV, capture_output=True, text=True)
    assert result.returncode == 0, f"buildah {' '.join(args)}: {result.stderr}"
    return result.stdout


def image_config() -> dict:
    """The image's config in Docker's format (which keeps HEALTHCHECK): Entrypoint, User, Env..."""
    return json.loads(buildah("inspect", "--type", "image", IMAGE))["Docker"]["config"]


class Container:
    """A working container of the image; `start` runs the image's entrypoint in it, with its user,
    environment and working folder, as `docker run` would."""

    def __init__(self, env: dict[str, str], volumes: tuple[str, ...] = ()):
        self.name = buildah("from", "--pull-never", IMAGE).strip()
        for key, value in env.items():
            buildah("config", "--env", f"{key}={value}", self.name)
        self.volumes = volumes
        self.root = Path(buildah("mount", self.name).strip()).resolve()
        self.process: subprocess.Popen | None = None

    def run(self, *command: str, log: Path | None = None) -> subprocess.Popen:
        mounts = [arg for volume in self.volumes for arg in ("--volume", volume)]
        output = open(log, "w") if log else subprocess.PIPE  # noqa: SIM115 (the process holds it)
        return subprocess.Popen(
            ["buildah", "run", "--isolation", "chroot", "--network", "host", *mounts, self.name, "--", *command],
            env=ENV,
            stdout=output,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def start(self, log: Path) -> subprocess.Popen:
        self.process = self.run(*image_config()["Entrypoint"], log=log)
        return self.process

    def output(self, *command: str) -> tuple[int, str]:
        """Another command in the same container (its user and environment), to its end."""
        process = self.run(*command)
        out, _ = process.communicate(timeout=120)
        return process.returncode, out

    def server_pids(self) -> list[int]:
        """The entrypoint's process, then its children: below buildah's chroot helpers, which
        stand where a container runtime would."""
        parents: dict[int, int] = {}
        names: dict[int, str] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:  # the fields after the command's closing parenthesis: state, then the parent's id
                text = stat.read_text()
                command = (stat.parent / "cmdline").read_bytes()
            except OSError:  # ended meanwhile
                continue
            pid = int(stat.parent.name)
            names[pid] = command.partition(b"\0")[0].decode(errors="replace")  # buildah's run from a memfd
            parents[pid] = int(text.rpartition(")")[2].split()[1])
        family, grown = {self.process.pid}, True
        while grown:
            children = {pid for pid, parent in parents.items() if parent in family} - family
            family |= children
            grown = bool(children)
        server = {pid for pid in family - {self.process.pid} if not names[pid].startswith("buildah-chroot")}
        entrypoint = [pid for pid in server if parents[pid] not in server]
        return entrypoint + sorted(server - set(entrypoint))

    def signal_server(self, signum: int = signal.SIGTERM) -> None:
        """The signal `docker stop` sends, to the entrypoint's process (PID 1 in a container)."""
        os.kill(self.server_pids()[0], signum)

    def remove(self) -> None:
        """The container, and first its server if it still runs: killing `buildah run` alone
        would leave the server's processes running under buildah's chroot helpers."""
        if self.process is not None and self.process.poll() is None:
            pids = self.server_pids()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.process.wait(timeout=30)
            deadline = time.monotonic() + 10
            while [pid for pid in pids if running(pid)] and time.monotonic() < deadline:
                time.sleep(0.1)
        buildah("rm", self.name)


def running(pid: int) -> bool:
    """Whether a process runs: not ended, and not a zombie waiting for its parent to reap it."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False

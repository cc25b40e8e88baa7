"""Install the Debian packages the test suite uses (.ci/debian-packages) that this machine lacks.

`make test` runs this first, with the system's Python (the standard library only: it runs
before the venv exists). A package counts as present when dpkg has it installed, or an
installed package provides it (NodeSource's nodejs provides npm). Nothing missing: no apt,
no root needed. Something missing: as root with apt-get, it says what it installs and
installs it; otherwise it says exactly what to install and exits 1.

    python3 .ci/install_debian_packages.py [--list FILE] [--dry-run]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

LIST = Path(__file__).resolve().parent / "debian-packages"
# Debian's rule for a package name: lower case letters, digits and + - . , two characters at least.
PACKAGE_NAME = re.compile(r"[a-z0-9][a-z0-9+.-]+")
SKIP_VARIABLE = "SHMJ_SKIP_DEBIAN_PACKAGES"
# Another apt (an unattended upgrade, a second `make test`) may hold dpkg's lock: wait for it.
WAIT_FOR_LOCK = ("-o", "DPkg::Lock::Timeout=300")


class SetupError(Exception):
    """A line of the package list that is not `package  # why`, or a dpkg that cannot answer."""


def read_list(text: str, source: str = "debian-packages") -> list[str]:
    """The packages of a list: one a line, anything after `#` a comment, blank lines ignored."""
    packages: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) > 1 or not PACKAGE_NAME.fullmatch(words[0]):
            raise SetupError(f"{source}:{number}: expected one Debian package name then `# why`, got {line.strip()!r}")
        if words[0] not in packages:
            packages.append(words[0])
    return packages


def installed_names(dpkg_query: str) -> set[str]:
    """Every package dpkg has installed, and every name one of them provides."""
    listed = subprocess.run(
        [dpkg_query, "-W", "-f", "${db:Status-Abbrev}\t${Package}\t${Provides}\n"], capture_output=True, text=True
    )
    if listed.returncode:
        raise SetupError(f"dpkg-query cannot list the installed packages: {listed.stderr.strip()}")
    names: set[str] = set()
    for line in listed.stdout.splitlines():
        status, package, provides = (line.split("\t") + ["", ""])[:3]
        if not status.startswith("ii"):
            continue
        names.add(package)
        names.update(entry.split()[0] for entry in provides.split(",") if entry.strip())
    return names


def apt_command(packages: list[str]) -> str:
    return "apt-get install -y --no-install-recommends " + " ".join(packages)


def install(packages: list[str], apt_get: str) -> int:
    print(f"installing Debian packages: {' '.join(packages)}", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (
        [apt_get, *WAIT_FOR_LOCK, "update", "-qq"],
        [apt_get, *WAIT_FOR_LOCK, "install", "-y", "-qq", "--no-install-recommends", *packages],
    ):
        ended = subprocess.run(command, env=env, stdout=subprocess.DEVNULL)
        if ended.returncode:
            print(f"`{' '.join(command)}` failed (exit {ended.returncode})", file=sys.stderr)
            return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", type=Path, default=LIST, help="the package list (default: %(default)s)")
    parser.add_argument("--dry-run", action="store_true", help="say what is missing, install nothing")
    args = parser.parse_args(argv)
    try:
        wanted = read_list(args.list.read_text(), str(args.list))
    except (OSError, SetupError) as error:
        print(f"install_debian_packages: {error}", file=sys.stderr)
        return 2
    if os.environ.get(SKIP_VARIABLE) == "1":
        print(f"{SKIP_VARIABLE}=1: not checking the Debian packages {' '.join(wanted)}")
        return 0
    dpkg_query = shutil.which("dpkg-query")
    if dpkg_query is None:
        print(
            "not a Debian system (no dpkg-query): install the equivalents of the Debian packages\n"
            f"  {' '.join(wanted)}\n"
            f"then run again with {SKIP_VARIABLE}=1",
            file=sys.stderr,
        )
        return 1
    try:
        present = installed_names(dpkg_query)
    except SetupError as error:
        print(f"install_debian_packages: {error}", file=sys.stderr)
        return 1
    missing = [package for package in wanted if package not in present]
    if not missing:
        print(f"Debian packages the tests use: all {len(wanted)} installed")
        return 0
    if args.dry_run:
        print(f"would install Debian packages: {' '.join(missing)}")
        return 0
    apt_get = shutil.which("apt-get")
    if apt_get is None or os.geteuid() != 0:
        why = "apt-get is not on the PATH" if apt_get is None else "this is not root"
        print(
            f"missing Debian packages: {' '.join(missing)}; {why}, so install them yourself:\n"
            f"  sudo {apt_command(missing)}",
            file=sys.stderr,
        )
        return 1
    return install(missing, apt_get)


if __name__ == "__main__":
    sys.exit(main())

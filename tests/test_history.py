"""Commit subjects stay readable in `git log --oneline`: at most 72 characters, from the first
commit that kept to it on (earlier history is not rewritten)."""

from __future__ import annotations

import subprocess

from tests.server.conftest import ROOT

FIRST_SHORT = "06bb1c5"  # the last commit of the long subjects; every later one is held
LIMIT = 72


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_commit_subjects_are_at_most_72_characters():
    known = _git("cat-file", "-e", f"{FIRST_SHORT}^{{commit}}").returncode == 0
    # A shallow clone may lack the old commit: then the commits it has are held.
    span = [f"{FIRST_SHORT}..HEAD"] if known else ["HEAD"]
    log = _git("log", "--format=%h %s", *span)
    assert log.returncode == 0, log.stderr
    too_long = [line for line in log.stdout.splitlines() if len(line.split(" ", 1)[1]) > LIMIT]
    assert too_long == []

"""Shared by the deploy tests: the overlays rendered once, and one checkov run over them and the
Dockerfile (checkov takes seconds to start; once is enough)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.deploy.tools import DEPLOY, tool

OVERLAYS = ("base", "overlays/production", "overlays/production-tls", "overlays/production-mtls")


@pytest.fixture(scope="session")
def rendered(tmp_path_factory) -> dict[str, Path]:
    """Each overlay rendered by `kubectl kustomize`, as a file."""
    kubectl = tool("kubectl")
    folder = tmp_path_factory.mktemp("rendered")
    files = {}
    for overlay in OVERLAYS:
        result = subprocess.run(
            [kubectl, "kustomize", str(DEPLOY / "kubernetes" / overlay)], capture_output=True, text=True
        )
        assert result.returncode == 0, result.stderr
        files[overlay] = folder / (overlay.replace("/", "-") + ".yaml")
        files[overlay].write_text(result.stdout)
    return files


@pytest.fixture(scope="session")
def checkov(rendered) -> dict[str, tuple[int, int, int]]:
    """checkov over every rendered overlay and the Dockerfile: (passed, failed, skipped) by framework."""
    files = [arg for path in [*rendered.values(), DEPLOY / "Dockerfile"] for arg in ("-f", str(path))]
    command = [tool("checkov"), "--quiet", "--compact", "--skip-download", "--framework", "kubernetes", "dockerfile"]
    result = subprocess.run([*command, *files], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    counts = re.findall(
        r"(\w+) scan results:\s+Passed checks: (\d+), Failed checks: (\d+), Skipped checks: (\d+)", result.stdout
    )
    return {framework: tuple(map(int, numbers)) for framework, *numbers in counts}

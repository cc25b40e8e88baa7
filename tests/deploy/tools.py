"""Where the deploy files and the tools that check them are; names of the metrics the service exports."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

import server.garbage  # noqa: F401  (and the garbage collector's)
import server.metrics  # noqa: F401  (registers the service's metrics)
import server.profiles  # noqa: F401  (and the house profiles' metrics)
from server.process_metrics import LabelledProcessCollector

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
PROMETHEUS = DEPLOY / "prometheus"
OPERATIONS = ROOT / "docs" / "OPERATIONS.md"
TOOLS = ROOT / ".tools" / "bin"  # `make tools`: kubectl, kubernetes-validate, checkov, hadolint

SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"), "gauge": ("",)}


def tool(name: str) -> str:
    """A program of the tool venv made by `make tools` (the suite's `make test` makes it)."""
    path = TOOLS / name
    if not path.exists():
        pytest.fail(f"{path} is missing: run `make tools` (`make test` runs it)", pytrace=False)
    return str(path)


def exported_names() -> set[str]:
    """Sample names of every metric the service defines, used or not yet, process_* included."""
    names = set()
    collectors = list(REGISTRY._names_to_collectors.values())
    collectors.append(LabelledProcessCollector(lambda: [("supervisor", "self")]))
    for collector in collectors:
        for family in collector.collect():
            names |= {family.name + suffix for suffix in SUFFIXES.get(family.type, ("",))}
    return names


def queried_metrics(expression: str) -> set[str]:
    """The service's metric names an expression reads (recorded series, with colons, are not)."""
    return set(re.findall(r"(?<![:\w])((?:grpc_server|shmj|process)_[a-z_]+)\b(?!:)", expression))


def anchors(markdown: str) -> set[str]:
    """GitHub's anchors of the headings of a Markdown text."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", markdown, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found

"""The engine version every answer carries (API.md, "Versioned answers"): the release of the
service and the build of the rules that computed it, such as ``0.1.0+compiled``."""

from __future__ import annotations

from rules_core.compiled import BUILD

RELEASE = "0.1.0"  # the release in pyproject.toml (a test holds them equal)
ENGINE_VERSION = f"{RELEASE}+{BUILD}"

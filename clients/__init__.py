"""Clients of the scoring service: a typed library, the `shmj` CLI, batch rescoring and a load generator.

A client needs neither `server/` nor its dependencies: only `convert/`, `rules_core/`
and the generated messages. The names below are imported when first used, so that the
`shmj` command (`clients.shmj`) can set up gRPC's logging before gRPC loads.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_MODULE_OF = {
    "AsyncScoringClient": "clients.aio",
    "check_win_request": "clients.build",
    "get_profile_request": "clients.build",
    "hand": "clients.build",
    "list_profiles_request": "clients.build",
    "list_waits_request": "clients.build",
    "settle_request": "clients.build",
    "winner": "clients.build",
    "ScoringClient": "clients.client",
    "retry_service_config": "clients.client",
    "FieldViolation": "clients.errors",
    "ScoringError": "clients.errors",
}
__all__ = [
    "AsyncScoringClient",
    "FieldViolation",
    "ScoringClient",
    "ScoringError",
    "check_win_request",
    "get_profile_request",
    "hand",
    "list_profiles_request",
    "list_waits_request",
    "retry_service_config",
    "settle_request",
    "winner",
]

if TYPE_CHECKING:
    from clients.aio import AsyncScoringClient
    from clients.build import (
        check_win_request,
        get_profile_request,
        hand,
        list_profiles_request,
        list_waits_request,
        settle_request,
        winner,
    )
    from clients.client import ScoringClient, retry_service_config
    from clients.errors import FieldViolation, ScoringError


def __getattr__(name: str) -> Any:
    if name not in _MODULE_OF:
        raise AttributeError(f"module 'clients' has no attribute {name!r}")
    return getattr(importlib.import_module(_MODULE_OF[name]), name)

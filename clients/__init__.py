"""Clients of the scoring service: a typed library, the `shmj` CLI, batch rescoring and a load generator.

A client needs neither `server/` nor its dependencies: only `convert/`, `rules_core/`
and the generated messages.
"""

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

"""Clients of the scoring service: a typed library, the `shmj` CLI, batch rescoring and a load generator."""

from clients.build import hand, settle_request, winner
from clients.client import ScoringClient, retry_service_config

__all__ = ["ScoringClient", "hand", "retry_service_config", "settle_request", "winner"]

"""The per-worker budget of request body bytes the HTTP face holds at once.

Each call's body counts from its first chunk until the call ends (its bytes are held till
then); a chunk that would take the worker past the budget refuses that call (429
``resource_exhausted``) and closes its connection, whatever the other calls do. So clients
that each send most of a large body and then fall silent (the body deadline closes those,
`server.http.connections`) can hold at most the budget, never the worker's memory.
"""

from __future__ import annotations

from contextlib import contextmanager


class OverBudget(Exception):
    """A chunk that would take the worker's bodies past the budget."""


class BodyBudget:
    def __init__(self, limit_bytes: int):
        self.limit_bytes = limit_bytes
        self.held = 0  # bytes of the bodies of calls in progress

    @contextmanager
    def holding(self):
        """A call's share, given back when the call ends."""
        share = BodyShare(self)
        try:
            yield share
        finally:
            self.held -= share.bytes


class BodyShare:
    __slots__ = ("budget", "bytes")

    def __init__(self, budget: BodyBudget):
        self.budget = budget
        self.bytes = 0

    def take(self, size: int) -> None:
        budget = self.budget
        if budget.held + size > budget.limit_bytes:
            raise OverBudget
        budget.held += size
        self.bytes += size

"""A bounded memo: values made once per key, for the parts of messages that recur."""

from __future__ import annotations


class Memo(dict):
    """Values made by ``make(key)`` on first use; emptied when ``limit`` is reached, so bounded."""

    def __init__(self, make, limit: int):
        super().__init__()
        self.make = make
        self.limit = limit

    def __missing__(self, key):
        value = self.make(key)
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value

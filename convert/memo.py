"""A bounded memo: values made once per key, for the parts of messages that recur."""

from __future__ import annotations

from collections import OrderedDict


class Memo(OrderedDict):
    """Values made by ``make(key)`` on first use. Once ``limit`` are kept, the oldest goes for
    each new one: bounded, and steady (emptying it whole made a worker's memory rise and fall
    by some 10 MB each time a memo filled). A look-up is a dict's; only a miss pays for the order."""

    def __init__(self, make, limit: int):
        super().__init__()
        self.make = make
        self.limit = limit

    def __missing__(self, key):
        value = self.make(key)
        if len(self) >= self.limit:
            self.popitem(last=False)  # the oldest
        self[key] = value
        return value

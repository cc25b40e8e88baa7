"""The soak's requests: valid ones of the load generator's mix, and malformed ones taken from the
fuzz generator, kept only when the rules answer them INVALID_ARGUMENT and they are small."""

from __future__ import annotations

import random

from google.protobuf.message import DecodeError

import convert
import rules_core as rc
from clients.loadtest import DEFAULT_MIX, Workload, parse_mix
from tests.fuzz.bodies import generate
from tests.fuzz.seeds import REQUEST_TYPES

# Valid rpcs by the load generator's names; malformed bodies go to the unary rpcs the rules judge.
VALID_RPCS = {"settle": "Settle", "check_win": "CheckWin", "list_waits": "ListWaits", "settle_batch": "SettleBatch"}
_JUDGES = {
    "Settle": lambda m: rc.settle(convert.settle_request(m)),
    "CheckWin": lambda m: rc.check_win(convert.check_win_request(m)),
    "ListWaits": lambda m: rc.list_waits(convert.list_waits_request(m)),
}
MAX_MALFORMED_BYTES = 16 * 1024


def is_invalid_argument(rpc: str, body: bytes) -> bool:
    """Whether the contract makes this body INVALID_ARGUMENT: it does not decode, or the rules
    reject what it decodes to."""
    try:
        message = REQUEST_TYPES[rpc].FromString(body)
    except DecodeError:
        return True
    try:
        _JUDGES[rpc](message)
    except rc.InvalidRequest:
        return True
    return False


def malformed_bodies(seed: int, wanted: int = 1000) -> list[tuple[str, bytes]]:
    found: list[tuple[str, bytes]] = []
    start = 0
    while len(found) < wanted:
        for body in generate(seed, 2000, 1 << 20, start=start):
            if body.rpc in _JUDGES and body.size <= MAX_MALFORMED_BYTES:
                if is_invalid_argument(body.rpc, body.messages[0]):
                    found.append((body.rpc, body.messages[0]))
        start += 2000
    return found[:wanted]


class SoakLoad:
    """Picks the next call: (rpc, body, malformed) with ``malformed_share`` malformed."""

    def __init__(self, seed: int, malformed_share: float, mix: str = DEFAULT_MIX):
        self.rng = random.Random(seed)
        self.share = malformed_share
        weights = parse_mix(mix)
        self.names = [name for name, weight in weights.items() if weight > 0]
        self.weights = [weights[name] for name in self.names]
        workload = Workload(seed, batch_size=10)
        self.valid = {name: [m.SerializeToString() for m in workload.requests[name]] for name in self.names}
        self.malformed = malformed_bodies(seed)

    def next(self) -> tuple[str, bytes, bool]:
        rng = self.rng
        if rng.random() < self.share:
            rpc, body = rng.choice(self.malformed)
            return rpc, body, True
        name = rng.choices(self.names, self.weights)[0]
        return VALID_RPCS[name], rng.choice(self.valid[name]), False

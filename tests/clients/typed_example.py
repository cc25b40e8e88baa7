"""A small program using the client library, as a user would write it; `mypy --strict` accepts it.

Run it against a server: ``python -m tests.clients.typed_example 127.0.0.1:50051``.
"""

from __future__ import annotations

import asyncio
import sys

from mahjong.shanghai.v1 import settlement_pb2

from clients import (
    AsyncScoringClient,
    FieldViolation,
    ScoringClient,
    ScoringError,
    check_win_request,
    list_waits_request,
    settle_request,
    winner,
)


def seat_deltas(target: str) -> list[float]:
    with ScoringClient(target, timeout=5) as client:
        request = settle_request("classic", "self-draw", [winner(0, "111m 555m 999p EEE 77s", win="7s")])
        response: settlement_pb2.SettleResponse = client.settle(request)
        return list(response.seat_deltas)


def first_violation(target: str) -> FieldViolation | None:
    with ScoringClient(target, timeout=5) as client:
        try:
            client.settle(settle_request("classic", "self-draw", [winner(0, "111m 555m 999p EEE 7s")]))
        except ScoringError as error:
            return error.violations[0] if error.violations else None
    return None


async def waits_and_value(target: str) -> tuple[list[int], float]:
    async with AsyncScoringClient(target, timeout=5) as client:
        waits = await client.list_waits(list_waits_request("classic", "111m 555m 999p EEE 7s"))
        check = await client.check_win(
            check_win_request("classic", "discard", winner(0, "7s 7s [123m@3] [456p@3] [789s@3] [EEE@1]", win="7s"))
        )
        streamed = [r.request_id async for r in client.settle_stream([settle_request("lezi", "exhaustive-draw")])]
        assert streamed == [""]
        return [w.tile for w in waits.self_draw_waits], check.result.value


def main(argv: list[str]) -> int:
    target = argv[1] if len(argv) > 1 else "127.0.0.1:50051"
    print(seat_deltas(target))
    print(first_violation(target))
    print(asyncio.run(waits_and_value(target)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

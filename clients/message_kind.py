"""Which of the two messages a JSON object given to the CLI is, a ``SettleRequest`` or a hand
record (``SettleRecordRequest``), told by the fields only one of them has (either spelling).
Given to the wrong command, either is named with the command it belongs to, in one line,
rather than as a list of unknown fields."""

from __future__ import annotations

from clients.cli_args import UsageError

_RECORD_ONLY = frozenset({"events", "recordedDeltas", "recorded_deltas"})
_REQUEST_ONLY = frozenset(
    {"outcome", "winners", "discarderSeat", "discarder_seat", "abandoningSeat", "abandoning_seat", "liabilities"}
)


def message_kind(data: dict) -> str | None:
    """``"record"``, ``"request"``, or None when the object does not say (its reader names what is wrong)."""
    keys = set(data)
    if keys & _RECORD_ONLY and not keys & _REQUEST_ONLY:
        return "record"
    if keys & _REQUEST_ONLY and not keys & _RECORD_ONLY:
        return "request"
    return None


def refuse_a_request(data: dict, where: str) -> None:
    """`shmj replay` given a SettleRequest: a UsageError saying where it belongs."""
    if message_kind(data) == "request":
        raise UsageError(
            f"{where} is a SettleRequest, not a hand record (SettleRecordRequest): settle it with"
            " `shmj score --request FILE`, or a file of them with `shmj rescore`"
        )


def refuse_a_record(data: dict, where: str) -> None:
    """`shmj score --request` given a hand record: a UsageError saying where it belongs."""
    if message_kind(data) == "record":
        raise UsageError(
            f"{where} is a hand record (SettleRecordRequest), not a SettleRequest: replay it with `shmj replay FILE`"
        )

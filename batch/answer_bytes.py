"""A settled answer's JSON line written straight from rules_core's result, without building
its answer dict each time: the same bytes as ``records.output_line`` of
``json_write.settle_response_dict`` (a test holds them to it).

An answer's parts recur from hand to hand: the same winners' results under a profile, the same
payments, deltas and next hand. Each part's bytes are encoded once, by msgspec from the dict
``json_write`` builds (so the two writers cannot drift apart), and kept in a table keyed by the
part's value; an answer is then its request id and the join of its parts' bytes. Two limits
keep the tables exact and small: a part holding a negative zero is made each time, never looked
up nor kept (0.0 and -0.0 are one key but two texts), and a table that grows past ``MAX_PARTS``
is emptied and fills again.

``count_answer`` adds the answer to a job's counts as ``records.count_record`` does from its
dict.
"""

from __future__ import annotations

import math

import msgspec

from rules_core.json_write import settle_response_dict, winner_result_dict
from rules_core.results import SettleResult
from rules_core.version import ENGINE_VERSION

MAX_PARTS = 20_000  # entries a table holds before it is emptied
_encode = msgspec.json.Encoder().encode
_HEAD_KEYS = ("profile", "unit")
_TAIL_KEYS = ("payments", "seatDeltas", "nextHand", "penalties", "huangfanAfterDice", "engineVersion", "profileDigest")


def _members(answer: dict, keys) -> bytes:
    """The ``"key":value`` members of ``answer`` it has of ``keys``, as in its JSON text."""
    return _encode({key: answer[key] for key in keys if key in answer})[1:-1]


def _head(key) -> bytes:
    profile, unit = key
    return b"," + _members(
        settle_response_dict(SettleResult("", profile, unit, (), (), (0, 0, 0, 0), None)), _HEAD_KEYS
    )


def _winners(winners) -> bytes:
    return b',"winners":' + _encode([winner_result_dict(w) for w in winners])


def _tail(key) -> bytes:
    payments, deltas, next_hand, penalties, huangfan, digest = key
    result = SettleResult("", "", 1, (), payments, deltas, next_hand, penalties, huangfan, digest)
    return b"," + _members(settle_response_dict(result), _TAIL_KEYS) + b"}\n"


def _table(make, floats):
    """A bounded table of each part's bytes, made on first sight by ``make``; ``floats`` are
    the part's numbers, looked at for a negative zero only when one of them is zero."""
    parts: dict = {}

    def bytes_of(value) -> bytes:
        numbers = floats(value)
        if 0.0 in numbers and any(x == 0.0 and math.copysign(1.0, x) < 0 for x in numbers):
            return make(value)
        found = parts.get(value)
        if found is None:
            if len(parts) >= MAX_PARTS:
                parts.clear()
            found = parts[value] = make(value)
        return found

    return bytes_of


def _winner_floats(winners) -> list[float]:
    out = []
    for w in winners:
        out += (w.base_value, w.value)
        out += [item.contribution for item in w.items]
    return out


def _tail_floats(key) -> list[float]:
    payments, deltas, _, penalties, _, _ = key
    return [*deltas, *[p.amount for p in payments], *[p.amount for p in penalties]]


_head_bytes = _table(_head, lambda key: ())
_winners_bytes = _table(_winners, _winner_floats)
_tail_bytes = _table(_tail, _tail_floats)


def answer_line(result: SettleResult) -> bytes:
    """The answer's JSON line (UTF-8, ending in a newline), byte for byte ``output_line`` of its
    ``settle_response_dict``. A request id no UTF-8 can hold (an escaped lone surrogate) is left
    to that writer, which escapes it."""
    try:
        request_id = _encode(result.request_id)
    except UnicodeEncodeError:
        from batch.records import output_line

        return output_line(settle_response_dict(result))
    return b"".join(
        (
            b'{"requestId":',
            request_id,
            _head_bytes((result.profile, result.unit)),
            _winners_bytes(result.winners),
            _tail_bytes(
                (
                    result.payments,
                    result.seat_deltas,
                    result.next_hand,
                    result.penalties,
                    result.huangfan_after_dice,
                    result.profile_digest,
                )
            ),
        )
    )


def count_answer(counts: dict, result: SettleResult) -> None:
    """Add a settled answer to ``counts`` (``records.new_counts``), as ``count_record`` does."""
    counts["settled"] += 1
    engines = counts["engine_versions"]
    engines[ENGINE_VERSION] = engines.get(ENGINE_VERSION, 0) + 1
    if result.profile_digest:
        counts["profile_digests"][result.profile_digest] = result.profile
    for winner in result.winners:
        counts["legal_wins" if winner.legal else "illegal_wins"] += 1

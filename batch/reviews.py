"""Reviewing hand records in bulk (复盘, RULES.md 15.6): one line read into a record, its
review, and the counts a job's summary adds up.

A line is read by ``batch.records.read_line`` as ``shmj rescore`` reads it, so a bad line gets
the error record rescore would give it; a line that is no hand record (no ``events``: a
``SettleRequest``, say) is an error record naming ``events``. Its review is
``rules_core.review_record_json``'s answer, the ``ReviewRecordResponse``, and a record the
review refuses (malformed, or a bug in the rules) costs that line only.

The counts are those of RULES.md 15.6 summed over the job, over all seats and seat by seat:
discards, those among the best (``agreements``), backward (退向), dead and forced, and the
passes (漏胡); the summary says the agreement rate, agreements over discards, and the reviews
by engine version and by profile digest.
"""

from __future__ import annotations

from batch.records import error_line, read_line, request_id_of
from rules_core.registry import ProfileRegistry
from rules_core.requests import SettleRequest

SEAT_COUNTED = ("discards", "agreements", "backward", "dead_discards", "forced_discards", "passes")
COUNTED = ("records", "reviewed", "failed", *SEAT_COUNTED)
VERSIONED = ("engine_versions", "profile_digests")
# the review's keys (API.md SeatReview) -> the summary's
_SEAT_KEYS = {
    "discards": "discards",
    "agreements": "agreements",
    "backward": "backward",
    "deadDiscards": "dead_discards",
    "forcedDiscards": "forced_discards",
}
NO_EVENTS = "not a hand record: no events to review (a SettleRequest is settled by `shmj rescore`)"


def review_line(number: int, line: bytes | str | None, profiles: ProfileRegistry | None = None) -> dict:
    """The answer to input line ``number``: its ``ReviewRecordResponse``, or an error record."""
    request, error = read_line(number, line, None, {}, usual_form=False)
    return error if request is None else review_answer(request, profiles)


def review_answer(request: dict | SettleRequest, profiles: ProfileRegistry | None = None) -> dict:
    """The review of one record read (a JSON object), or its error record."""
    from batch.local import answered

    if not isinstance(request, dict) or "events" not in request:
        return error_line(request_id_of(request), f"events: {NO_EVENTS}", [("events", NO_EVENTS)])
    import rules_core as rc
    from convert.profile_digest import BUILTIN_REGISTRY

    registry = BUILTIN_REGISTRY if profiles is None else profiles
    return answered(request, lambda: rc.review_record_json(request, registry))


def review_lines(lines, first_number: int, profiles: ProfileRegistry | None = None) -> list[dict]:
    """The answer of each line (bytes, text, or None for one too long to read), numbered from
    ``first_number``."""
    return [review_line(number, line, profiles) for number, line in enumerate(lines, start=first_number)]


def new_counts() -> dict:
    counts: dict = dict.fromkeys(COUNTED, 0)
    counts["seats"] = [dict(seat=seat, **dict.fromkeys(SEAT_COUNTED, 0)) for seat in range(4)]
    counts.update((key, {}) for key in VERSIONED)
    return counts


def count_record(counts: dict, record: dict) -> None:
    """Add one output record (a review, or an error record) to ``counts``."""
    counts["records"] += 1
    if "error" in record:
        counts["failed"] += 1
        return
    counts["reviewed"] += 1
    for seat in record.get("seats", []):
        number = seat.get("seat", 0)
        if not (type(number) is int and 0 <= number <= 3):
            continue
        into = counts["seats"][number]
        for key, name in _SEAT_KEYS.items():
            value = seat.get(key, 0)
            if type(value) is int:
                into[name] += value
                counts[name] += value
        passes = len(seat.get("passes", []))
        into["passes"] += passes
        counts["passes"] += passes
    version, digest = record.get("engineVersion"), record.get("profileDigest")
    if isinstance(version, str) and version:
        engines = counts["engine_versions"]
        engines[version] = engines.get(version, 0) + 1
    if isinstance(digest, str) and digest:  # the records reviewed under each profile digest
        digests = counts["profile_digests"]
        digests[digest] = digests.get(digest, 0) + 1


def add_counts(into: dict, counts: dict) -> None:
    """Add ``counts`` to ``into`` (both `new_counts`-like)."""
    for key in COUNTED:
        into[key] += counts[key]
    for mine, theirs in zip(into["seats"], counts["seats"], strict=True):
        for key in SEAT_COUNTED:
            mine[key] += theirs[key]
    for key in VERSIONED:
        mine = into[key]
        for name, answers in counts[key].items():
            mine[name] = mine.get(name, 0) + answers


def counts_of_summary(summary: dict) -> dict | None:
    """The counts a summary written by `reported` holds, or None where it does not hold them whole."""
    if not all(type(summary.get(key)) is int for key in COUNTED):
        return None
    seats = summary.get("seats")
    if not (isinstance(seats, list) and len(seats) == 4 and all(isinstance(s, dict) for s in seats)):
        return None
    if not all(type(seat.get(key)) is int for seat in seats for key in SEAT_COUNTED):
        return None
    if not all(isinstance(summary.get(key), dict) for key in VERSIONED):
        return None
    counts = new_counts()
    add_counts(
        counts,
        {
            **{key: summary[key] for key in COUNTED},
            "seats": seats,
            **{key: summary[key] for key in VERSIONED},
        },
    )
    return counts


def rate(part: int, whole: int) -> float | None:
    """``part / whole`` to four places; None for no whole."""
    return round(part / whole, 4) if whole else None


def reported(counts: dict) -> dict:
    """The counts as a summary gives them: each with its agreement rate (agreements over discards)."""
    seats = [dict(seat, agreement_rate=rate(seat["agreements"], seat["discards"])) for seat in counts["seats"]]
    out = {key: counts[key] for key in COUNTED}
    out["agreement_rate"] = rate(counts["agreements"], counts["discards"])
    out["seats"] = seats
    out.update((key, counts[key]) for key in VERSIONED)
    return out

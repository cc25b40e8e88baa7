"""Rule-change reports: this run's results against earlier ones, joined by request id.

A record has *changed* when its legality (per winner), value (per winner) or seat deltas
differ from the earlier record with the same request id, or when it was settled under other
rules: both records carry a ``profileDigest`` (API.md, versioned answers) and they differ, a
*rule change* even where every value came out the same; an error record counts as
settling nothing (no winners, no deltas), so a request that now fails, or now settles, has
changed too. For each changed record the report keeps before and after; the tally counts
changed records by profile, outcome and pattern (a pattern of the hand before or after),
and adds up the absolute change of each seat's delta over every matched record.

Earlier results are read into an index (request id -> a few numbers), about 700 bytes a
record. ``--local`` holds it whole. On a cluster it is cut into shards by a hash of
the request id (``split_previous``, ``merge_shard``), each held by one worker; a part looks
its ids up in the shards where they live (``lookup``), so a worker holds its share of the
index, not all of it. Records read either way: proto3 JSON (lowerCamelCase) or the
Arrow/Parquet columns (.proto names).
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice

import pyarrow as pa
import pyarrow.parquet as pq
from fsspec.core import url_to_fs

from batch.parts import expand_inputs
from batch.paths import InputError
from batch.records import output_line


@dataclass(frozen=True)
class Snapshot:
    """What a rule change is judged by."""

    legal: tuple[bool, ...]
    value: tuple[float, ...]
    seat_deltas: tuple[float, ...]
    patterns: tuple[str, ...]
    error: str | None  # the error code, for an error record
    profile_digest: str = ""  # the rules it was settled under; "" for a record from before digests

    def as_json(self) -> dict:
        return {
            "legal": list(self.legal),
            "value": list(self.value),
            "seatDeltas": list(self.seat_deltas),
            "patterns": list(self.patterns),
            "error": self.error,
            "profileDigest": self.profile_digest,
        }


def _get(record: dict, camel: str, snake: str, default=None):
    value = record.get(camel)
    if value is None:
        value = record.get(snake)
    return default if value is None else value


def request_id(record: dict) -> str:
    return _get(record, "requestId", "request_id", "")


def snapshot(record: dict) -> Snapshot:
    error = record.get("error")
    winners = record.get("winners") or []
    return Snapshot(
        legal=tuple(bool(w.get("legal")) for w in winners),
        value=tuple(float(w.get("value") or 0) for w in winners),
        seat_deltas=tuple(float(d) for d in _get(record, "seatDeltas", "seat_deltas", ())),
        patterns=tuple(sorted({p for w in winners for p in w.get("patterns") or ()})),
        error=error.get("code") or "ERROR" if isinstance(error, dict) else None,
        profile_digest=str(_get(record, "profileDigest", "profile_digest", "")),
    )


def _records(url: str, kind: str) -> Iterator[tuple[int, dict | str]]:
    """Each record of a file of earlier results with its line (Parquet: row) number, or in its
    place why that line cannot be read: an earlier output may be anyone's file, and one line
    of it must cost that line alone."""
    fs, path = url_to_fs(url)
    with fs.open(path, "rb") as file:
        yield from (_parquet_records(file) if kind == "parquet" else _json_records(file))


def _parquet_records(file) -> Iterator[tuple[int, dict | str]]:
    """A row group at a time: one whose pages cannot be read (its footer can: ``check_previous``
    passed it) costs its rows alone, each left out in its turn."""
    parquet = pq.ParquetFile(file)
    present = parquet.schema_arrow.names  # older results lack profile_digest
    columns = [c for c in ("request_id", "winners", "seat_deltas", "error", "profile_digest") if c in present]
    number = 1
    for group in range(parquet.metadata.num_row_groups):
        rows, read = parquet.metadata.row_group(group).num_rows, 0
        try:
            for batch in parquet.iter_batches(columns=columns, row_groups=[group]):
                for record in batch.to_pylist():
                    yield number + read, record
                    read += 1
        except (pa.ArrowException, OSError) as error:
            why = f"row group {group} cannot be read ({_arrow_words(error)})"
            yield from ((n, why) for n in range(number + read, number + rows))
        number += rows


def _arrow_words(error: Exception) -> str:
    """What Arrow says is wrong, a line of it: the line of a message, not a page."""
    return (str(error).splitlines() or [type(error).__name__])[0][:200]


def _json_records(file) -> Iterator[tuple[int, dict | str]]:
    """Lines as bytes, split on b"\\n" alone: a line that is not UTF-8 is that line's fault."""
    from convert.json_text import JsonTextError, read_json

    for number, line in enumerate(file, 1):
        if not line.strip():
            continue  # no record: nothing to leave out
        try:
            record = read_json(line)  # bounded; its errors say where, never what the line holds
        except JsonTextError as error:
            yield number, error.message
            continue
        yield number, record if isinstance(record, dict) else "not a JSON object"


@dataclass
class Unreadable:
    """The lines of earlier results left out of the join: they cannot be read, or name no
    request. Counted, and the first named (file, line, why), so that the report says how much
    of the earlier results it could not use and where to look."""

    lines: int = 0
    first: dict | None = None

    def note(self, url: str, number: int, why: str) -> None:
        self.lines += 1
        if self.first is None:
            self.first = {"file": url, "line": number, "why": why}

    def add(self, other: Unreadable) -> None:
        """``other``: of a later file (the first named is the first in file order)."""
        self.lines += other.lines
        self.first = self.first or other.first

    def as_json(self) -> dict:
        return {"earlier_unreadable": self.lines, "first_unreadable": self.first}


@dataclass
class Split:
    """One file of earlier results as an index per shard, and the lines it left out."""

    pieces: list[dict[str, Snapshot]]
    unreadable: Unreadable


def check_previous(locations: list[str]) -> None:
    """Refuse earlier results that cannot be read at all (missing, a Parquet file cut short or
    no Parquet, no request ids to join by) with an ``InputError`` naming the file, before a job
    writes anything: found while the job runs, they cost the whole job (a traceback after its
    output was written, or every part failing). A line that cannot be read is no reason: it
    costs that line alone (``split_previous``)."""
    try:
        files = expand_inputs(locations)
    except InputError as error:
        raise InputError(f"--compare: {error}") from None
    for url, kind in files:
        fs, path = url_to_fs(url)
        try:
            with fs.open(path, "rb") as file:
                if kind == "parquet":
                    _check_parquet(url, file)
                else:
                    file.read(1)
        except pa.ArrowException as error:
            raise InputError(
                f"--compare: {url} is not a Parquet file that can be read ({_arrow_words(error)})"
            ) from None
        except OSError as error:
            raise InputError(f"--compare: {url} cannot be read: {error.strerror or error}") from None


def _check_parquet(url: str, file) -> None:
    """Its footer read, and a column of request ids to join by."""
    if "request_id" not in pq.ParquetFile(file).schema_arrow.names:
        raise InputError(f"--compare: {url} has no request_id column: not the results of a rescore")


def read_previous(locations: list[str]) -> tuple[dict[str, Snapshot], Unreadable]:
    """Earlier results by request id, whole (the last one wins for an id seen twice), and the
    lines left out of it."""
    splits = [split_previous(url, kind, 1) for url, kind in expand_inputs(locations)]
    unreadable = Unreadable()
    for split in splits:
        unreadable.add(split.unreadable)
    return merge_shard([piece(split, 0) for split in splits]), unreadable


def load_previous(locations: list[str]) -> dict[str, Snapshot]:
    """Earlier results by request id, whole; the lines that cannot be read or joined left out."""
    return read_previous(locations)[0]


def bucket_of(key: str, buckets: int) -> int:
    """The shard of a request id: the same in every process (``hash`` is not)."""
    return zlib.crc32(key.encode("utf-8", "surrogatepass")) % buckets


def split_previous(url: str, kind: str, buckets: int) -> Split:
    """One file of earlier results as an index per shard; a line that cannot be read, or whose
    record cannot be joined, is left out and counted."""
    pieces: list[dict[str, Snapshot]] = [{} for _ in range(buckets)]
    unreadable = Unreadable()
    for number, record in _records(url, kind):
        why = record if isinstance(record, str) else _indexed(record, pieces)
        if why is not None:
            unreadable.note(url, number, why)
    return Split(pieces, unreadable)


def _indexed(record: dict, pieces: list[dict[str, Snapshot]]) -> str | None:
    """Put a record in its piece of the index; None, or why it cannot be joined (said in words
    of our own: a value of the file is no part of the message)."""
    key = request_id(record)
    if not key:
        return "no request id"
    try:
        pieces[bucket_of(key, len(pieces))][key] = snapshot(record)
    except (AttributeError, TypeError, ValueError, OverflowError):
        return "not a result record: a field of the wrong type"  # an id that is no string, deltas no numbers
    return None


def piece(split: Split, bucket: int) -> dict[str, Snapshot]:
    return split.pieces[bucket]


def left_out(split: Split) -> Unreadable:
    return split.unreadable


def merge_shard(pieces: list[dict[str, Snapshot]]) -> dict[str, Snapshot]:
    """One shard from its piece of every file, in file order: the last record of an id wins,
    as in ``load_previous``."""
    shard: dict[str, Snapshot] = {}
    for piece in pieces:
        shard.update(piece)
    return shard


def lookup(shard: dict[str, Snapshot], keys: list[str]) -> list[Snapshot | None]:
    return [shard.get(key) for key in keys]


@dataclass
class ChangeTally:
    records: int = 0
    matched: int = 0  # an earlier record has the same request id
    unmatched: int = 0  # a request id the earlier results do not have
    without_request_id: int = 0
    changed: int = 0
    legality_changed: int = 0
    value_changed: int = 0
    seat_deltas_changed: int = 0
    rules_changed: int = 0  # settled under another profile digest
    by_profile: Counter = field(default_factory=Counter)
    by_outcome: Counter = field(default_factory=Counter)
    by_pattern: Counter = field(default_factory=Counter)
    absolute_change_per_seat: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0])

    def add(self, other: ChangeTally) -> None:
        for name in ("records", "matched", "unmatched", "without_request_id", "changed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("legality_changed", "value_changed", "seat_deltas_changed", "rules_changed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.by_profile.update(other.by_profile)
        self.by_outcome.update(other.by_outcome)
        self.by_pattern.update(other.by_pattern)
        self.absolute_change_per_seat = [
            a + b for a, b in zip(self.absolute_change_per_seat, other.absolute_change_per_seat, strict=True)
        ]

    def as_json(self) -> dict:
        data = {k: v for k, v in self.__dict__.items()}
        for name in ("by_profile", "by_outcome", "by_pattern"):
            data[name] = dict(sorted(data[name].items()))
        return data

    @classmethod
    def from_json(cls, data: dict) -> ChangeTally:
        tally = cls(**{k: v for k, v in data.items() if not k.startswith("by_")})
        for name in ("by_profile", "by_outcome", "by_pattern"):
            setattr(tally, name, Counter(data.get(name, {})))
        return tally


def _deltas(snap: Snapshot) -> tuple[float, ...]:
    return snap.seat_deltas if len(snap.seat_deltas) == 4 else (0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Comparable:
    """What the report needs of one new record: a few numbers, kept for a whole part."""

    key: str  # the request id; "" when neither the result nor the request has one
    after: Snapshot
    profile: str
    outcome: str


def comparables(requests: list[dict | None], results: list[dict]) -> list[Comparable]:
    """Each result with its request (None where the request could not be read)."""
    out = []
    for request, result in zip(requests, results, strict=True):
        request = request if isinstance(request, dict) else {}
        out.append(
            Comparable(
                key=request_id(result) or request_id(request),
                after=snapshot(result),
                profile=_get(result, "profile", "profile", "") or _get(request, "profile", "profile", "") or "unknown",
                outcome=str(_get(request, "outcome", "outcome", "") or "unknown"),
            )
        )
    return out


def compare(
    requests: list[dict | None], results: list[dict], previous: Mapping[str, Snapshot], tally: ChangeTally
) -> list[dict]:
    """The change records of one run of results (each with its request, or None where the
    request could not be read), counting into ``tally``."""
    return compare_comparables(comparables(requests, results), previous, tally)


def compare_comparables(items: list[Comparable], previous: Mapping[str, Snapshot], tally: ChangeTally) -> list[dict]:
    changes = []
    for item in items:
        tally.records += 1
        key = item.key
        if not key:
            tally.without_request_id += 1
            continue
        before = previous.get(key)
        if before is None:
            tally.unmatched += 1
            continue
        tally.matched += 1
        after = item.after
        old, new = _deltas(before), _deltas(after)
        change = [abs(b - a) for a, b in zip(old, new, strict=True)]
        tally.absolute_change_per_seat = [t + c for t, c in zip(tally.absolute_change_per_seat, change, strict=True)]
        what = [
            name
            for name, differs in (
                ("legality", before.legal != after.legal or before.error != after.error),
                ("value", before.value != after.value),
                ("seat_deltas", before.seat_deltas != after.seat_deltas),
                (
                    "rules",
                    bool(before.profile_digest and after.profile_digest)
                    and before.profile_digest != after.profile_digest,
                ),
            )
            if differs
        ]
        if not what:
            continue
        tally.changed += 1
        for name in what:
            setattr(tally, f"{name}_changed", getattr(tally, f"{name}_changed") + 1)
        tally.by_profile[item.profile] += 1
        tally.by_outcome[item.outcome] += 1
        for pattern in sorted(set(before.patterns) | set(after.patterns)):
            tally.by_pattern[pattern] += 1
        changes.append(
            {
                "requestId": key,
                "profile": item.profile,
                "outcome": item.outcome,
                "changed": what,
                "before": before.as_json(),
                "after": after.as_json(),
                "seatDeltaChange": [b - a for a, b in zip(old, new, strict=True)],
            }
        )
    return changes


_SNAPSHOT = pa.struct(
    [
        ("legal", pa.list_(pa.bool_())),
        ("value", pa.list_(pa.float64())),
        ("seatDeltas", pa.list_(pa.float64())),
        ("patterns", pa.list_(pa.string())),
        ("error", pa.string()),
        ("profileDigest", pa.string()),
    ]
)
CHANGES_SCHEMA = pa.schema(
    [
        ("requestId", pa.string()),
        ("profile", pa.string()),
        ("outcome", pa.string()),
        ("changed", pa.list_(pa.string())),
        ("before", _SNAPSHOT),
        ("after", _SNAPSHOT),
        ("seatDeltaChange", pa.list_(pa.float64())),
    ]
)


def compare_files(input_path, output_path, previous: str, changes_path) -> dict:
    """``shmj rescore --local --compare``: the report of one input and output file, whose
    lines pair one to one; the change records go to ``changes_path``."""
    import json

    index, unreadable = read_previous([previous])
    tally = ChangeTally()
    with (
        open(input_path, "rb") as requests,  # lines split on b"\n" alone, as they were read
        open(output_path, encoding="utf-8") as results,
        open(changes_path, "wb") as out,
    ):
        pairs = zip(requests, results, strict=True)
        while chunk := list(islice(pairs, 2000)):
            batch = [_json_object(text) for text, _ in chunk]
            changes = compare(batch, [json.loads(text) for _, text in chunk], index, tally)
            out.writelines(output_line(change) for change in changes)
    return dict(tally.as_json(), **unreadable.as_json())


def _json_object(text: bytes) -> dict | None:
    from convert.json_text import JsonTextError, read_json

    try:
        data = read_json(text)  # the input line as rescore read it: any depth, any integer
    except JsonTextError:
        return None
    return data if isinstance(data, dict) else None

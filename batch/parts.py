"""Input partitions and output part files of a batch rescoring job.

- Inputs are files, globs or directories of ``.jsonl`` / ``.parquet`` files, local paths or
  fsspec URLs. Each file is cut into partitions: a JSON Lines file into byte ranges (a line
  belongs to the range holding its first byte), a Parquet file into runs of row groups.
- Each partition becomes one part file ``part-00000.jsonl`` (or ``.parquet``) in the output
  directory. Every file of a part is written under a hidden temporary name and renamed when
  complete, the part file last: a part file that exists is complete, and so are its
  ``_stats/`` and ``changes/`` companions. ``_``- and ``.``-prefixed names are what Spark,
  DuckDB globs on ``part-*`` and Hive-style readers skip.
"""

from __future__ import annotations

import json
import posixpath
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from fsspec.core import url_to_fs

from batch.lines import MAX_LINE_BYTES, PARQUET_MAGIC
from batch.paths import InputError, refuse_same_file
from batch.records import output_line

KINDS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}
CHUNK_ROWS = 2000  # rows settled and written at a time inside a partition


@dataclass(frozen=True)
class Partition:
    index: int
    url: str
    kind: str  # "jsonl" or "parquet"
    start: int  # jsonl: first byte; parquet: first row group
    stop: int  # jsonl: byte after the range; parquet: row group after the run
    first_number: int = 1  # the line (row) number of the range's first record in its file
    records: int = -1  # how many records the range holds; -1 until counted

    def name(self, fmt: str) -> str:
        return f"part-{self.index:05d}.{fmt}"


def _kind(path: str) -> str | None:
    return next((kind for suffix, kind in KINDS.items() if path.endswith(suffix)), None)


def _kinds(fs, paths: list[str]) -> list[str | None]:
    """Each file's kind: Parquet by its first bytes whatever its name, as ``--local`` tells it
    (``batch.lines.is_parquet``), since a Parquet file named .jsonl cut into lines of text is
    nothing but error records; else by its name. The first bytes of every file are asked at
    once, concurrently on an object store; a file that gives none (empty) goes by its name."""
    heads = fs.cat_ranges(paths, [0] * len(paths), [len(PARQUET_MAGIC)] * len(paths), on_error="return")
    return ["parquet" if head == PARQUET_MAGIC else _kind(path) for path, head in zip(paths, heads, strict=True)]


def _hidden(path: str, directory: str) -> bool:
    """Whether a file found in ``directory`` is under a name starting with ``_`` or ``.`` below it,
    at any depth: Spark's and Hadoop's ``_temporary/0/...`` and ``.spark-staging/`` hold copies
    of parts being written, ``_stats/`` this job's own kind of statistics, none of them data
    (the directory itself the user named, whatever its name)."""
    below = path[len(directory.rstrip("/")) :].strip("/")
    return any(name.startswith(("_", ".")) for name in below.split("/"))


def url_of(fs, path: str) -> str:
    """A path of ``fs`` as every worker finds it: a local one as fsspec gives it (absolute: a
    relative one would be each worker's own directory's), else its URL."""
    return path if _is_local(fs) else fs.unstrip_protocol(path)


def expand_inputs(inputs: list[str]) -> list[tuple[str, str]]:
    """(url, kind) of every input file, in the order given, each directory and glob sorted. A
    directory holds inputs by their names; a file is Parquet by its first bytes (``_kinds``)."""
    found: dict[str, str] = {}
    for text in inputs:
        fs, path = url_to_fs(text)
        if any(magic in path for magic in "*?["):
            matches = [p for p in fs.glob(path) if fs.isfile(p)]
        elif fs.isdir(path):
            matches = [p for p in fs.find(path) if _kind(p) and not _hidden(p, path)]
        elif fs.exists(path):
            matches = [path]
        else:
            raise InputError(f"no such input: {text}")
        if not matches:
            raise InputError(f"{text}: no .jsonl or .parquet file there")
        matches = sorted(matches)
        for match, kind in zip(matches, _kinds(fs, matches), strict=True):
            if kind is None:
                raise InputError(f"{match}: not a .jsonl, .ndjson or .parquet file")
            found.setdefault(url_of(fs, match), kind)
    return list(found.items())


def input_sizes(files: list[tuple[str, str]]) -> dict[str, int]:
    """Each input's size in bytes, by URL: what a job record keeps so that ``--resume`` can tell
    an input that grew or shrank since the job began (its parts were cut from the bytes it had)."""
    sizes = {}
    for url, _ in files:
        fs, path = url_to_fs(url)
        sizes[url] = fs.size(path)
    return sizes


def _static_root(path: str) -> str:
    """A glob's directory before its first wildcard; a plain path as it is."""
    magic = [path.index(c) for c in "*?[" if c in path]
    return path if not magic else posixpath.dirname(path[: min(magic)])


def check_output(outdir: str, inputs: list[str], previous: list[str]) -> None:
    """The output directory is never an input, nor inside one (nor inside a glob's directory),
    nor holds one. On local disks this is ``--local``'s own check (``refuse_same_file``: links
    and inodes too); on an object store, the same by URL."""
    out_fs, out_path = url_to_fs(outdir)
    out_path = out_path.rstrip("/")
    for text in [*inputs, *previous]:
        fs, path = url_to_fs(text)
        if fs.protocol != out_fs.protocol:
            continue
        root = _static_root(path).rstrip("/")
        if _is_local(fs):
            refuse_same_file(Path(root), Path(out_path), "the output directory")
        elif out_path == root:
            raise InputError(f"the output directory {outdir} is the input {text}; choose another -o")
        elif out_path.startswith(root + "/"):
            raise InputError(f"the output directory {outdir} is inside the input {text}; choose another -o")
        elif root.startswith(out_path + "/"):
            raise InputError(f"the output directory {outdir} holds the input {text}; choose another -o")


def _is_local(fs) -> bool:
    return "file" in fs.protocol or "local" in fs.protocol


def plan_partitions(files: list[tuple[str, str]], block_bytes: int) -> list[Partition]:
    """Partitions of every file. The line numbers and record counts of JSON Lines ranges are
    only known once their lines are counted (``count_lines``, then ``numbered``)."""
    partitions: list[Partition] = []
    for url, kind in files:
        fs, path = url_to_fs(url)
        if kind == "jsonl":
            size = fs.size(path)
            for start in range(0, max(size, 1), block_bytes):
                partitions.append(Partition(len(partitions), url, kind, start, start + block_bytes))
        else:
            metadata = _parquet_metadata(fs, path, url)
            first, rows, size, number = 0, 0, 0, 1
            for group in range(metadata.num_row_groups):
                size += metadata.row_group(group).total_byte_size
                rows += metadata.row_group(group).num_rows
                if size >= block_bytes or group == metadata.num_row_groups - 1:
                    partitions.append(Partition(len(partitions), url, kind, first, group + 1, number, rows))
                    first, number, size = group + 1, number + rows, 0
                    rows = 0
            if metadata.num_row_groups == 0:
                partitions.append(Partition(len(partitions), url, kind, 0, 0, 1, 0))
    return partitions


def _parquet_metadata(fs, path: str, url: str):
    """A Parquet file's footer, read here before the job starts: a file that is not Parquet
    (cut short, empty, text named .parquet) is refused in one line naming it, where a task
    reading it would fail the job with pyarrow's traceback."""
    try:
        with fs.open(path, "rb") as file:
            return pq.ParquetFile(file).metadata
    except pa.ArrowException as error:
        why = " ".join(str(error).split())
        raise InputError(f"{url}: not a readable Parquet file ({why})") from None


def _lines(file, start: int, stop: int, block: int = 1 << 20) -> Iterator[bytes | None]:
    """The lines whose first byte is in [start, stop), each without its "\n", or None for a line
    longer than MAX_LINE_BYTES, which is read past and never held whole, as `batch.lines` reads
    a file for --local. Read a block at a time and split: a line at a time (``readline``), a
    task's record cost 1.1 µs more."""
    if start:
        file.seek(start - 1)
        file.readline()  # the rest of a line begun before the range (just "\n" if one ended there)
    position = file.tell()  # where the next line begins
    partial: list[bytes] = []  # the pieces read so far of a line longer than a block
    held = 0  # that line's bytes so far; past MAX_LINE_BYTES its pieces are dropped
    while position < stop:
        data = file.read(block)
        if not data:
            if held:  # the last line, with no "\n"
                yield b"".join(partial) if held <= MAX_LINE_BYTES else None
            return
        end = data.rfind(b"\n")
        if end < 0:
            held += len(data)
            partial = [*partial, data] if held <= MAX_LINE_BYTES else []
            continue
        lines = data[:end].split(b"\n")
        if held:  # the line begun in an earlier block ends in this one
            length = held + len(lines[0])
            first = b"".join([*partial, lines[0]]) if length <= MAX_LINE_BYTES else None
            del lines[0]
            if position >= stop:
                return
            position += length + 1
            yield first
        rest = data[end + 1 :]
        partial, held = [rest], len(rest)
        for line in lines:
            if position >= stop:
                return
            position += len(line) + 1
            yield line if len(line) <= MAX_LINE_BYTES else None


def count_lines(url: str, start: int, stop: int) -> int:
    fs, path = url_to_fs(url)
    with fs.open(path, "rb") as file:
        return sum(1 for _ in _lines(file, start, stop))


def numbered(partitions: list[Partition], counts: dict[int, int]) -> list[Partition]:
    """The partitions with the records of each JSON Lines range (``counts`` by index) and
    the line number its first record has in its file."""
    out, next_number = [], {}
    for p in partitions:
        if p.kind == "jsonl":
            number = next_number.get(p.url, 1)
            next_number[p.url] = number + counts[p.index]
            p = replace(p, first_number=number, records=counts[p.index])
        out.append(p)
    return out


def read_partition(partition: Partition) -> Iterator[tuple[pa.RecordBatch | list[bytes | None], int]]:
    """(requests, first line number) chunks of a partition, at most CHUNK_ROWS rows each: a
    Parquet partition's as record batches, a JSON Lines partition's as its lines (bytes, or
    None for one too long to read), which the line reader reads as it reads --local's."""
    fs, path = url_to_fs(partition.url)
    number = partition.first_number
    with fs.open(path, "rb") as file:
        if partition.kind == "jsonl":
            # Lines as bytes, split on "\n" alone: the reader refuses invalid UTF-8, naming the line.
            chunk: list[bytes | None] = []
            for line in _lines(file, partition.start, partition.stop):
                chunk.append(line)
                if len(chunk) == CHUNK_ROWS:
                    yield chunk, number
                    number, chunk = number + len(chunk), []
            if chunk:
                yield chunk, number
        elif partition.stop > partition.start:
            groups = range(partition.start, partition.stop)
            for batch in pq.ParquetFile(file).iter_batches(batch_size=CHUNK_ROWS, row_groups=groups):
                yield batch, number
                number += batch.num_rows


class PartWriter:
    """One output file written under a temporary name; ``commit`` renames it into place."""

    def __init__(self, fs, path: str, fmt: str, schema: pa.Schema | None = None):
        self.fs, self.path, self.fmt, self.schema = fs, path, fmt, schema
        directory, name = posixpath.split(path)
        self.temporary = posixpath.join(directory, f".{name}.{uuid.uuid4().hex}.tmp")
        self.file = fs.open(self.temporary, "wb")
        self.parquet = pq.ParquetWriter(self.file, schema) if fmt == "parquet" else None

    def write(self, records: list[dict] | None, batch: pa.RecordBatch | None = None) -> None:
        """The records as JSON lines, or as Parquet: ``batch`` when given (then ``records`` may be None)."""
        if self.parquet is None:
            self.file.write(b"".join(output_line(r) for r in records))
        else:
            self.parquet.write_batch(batch if batch is not None else pa.RecordBatch.from_pylist(records, self.schema))

    def write_lines(self, block: bytes) -> None:
        """JSON lines already written (a block of them, each with its newline)."""
        self.file.write(block)

    def commit(self) -> None:
        if self.parquet is not None:
            self.parquet.close()
        self.file.close()
        self.fs.mv(self.temporary, self.path)

    def abandon(self) -> None:
        try:
            if self.parquet is not None:
                self.parquet.close()
            self.file.close()
            self.fs.rm(self.temporary)
        except Exception:  # noqa: S110  best effort: a stale temporary is removed by the next run
            pass


def write_json(fs, path: str, data: dict) -> None:
    """A small JSON file, written under a temporary name and renamed."""
    directory, name = posixpath.split(path)
    temporary = posixpath.join(directory, f".{name}.{uuid.uuid4().hex}.tmp")
    with fs.open(temporary, "w") as file:
        file.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    fs.mv(temporary, path)


def read_json(fs, path: str):
    with fs.open(path, "r") as file:
        return json.load(file)


@contextmanager
def writer(fs, path: str, fmt: str, schema: pa.Schema | None = None):
    part = PartWriter(fs, path, fmt, schema)
    try:
        yield part
    except BaseException:
        part.abandon()
        raise

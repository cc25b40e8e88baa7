"""End to end, the native readers and writers change no byte of a job's output: `shmj rescore
--local` on a file of hostile lines (valid, bytes changed, cut short, odd request ids and
numbers) writes the same output file and summary with them as without them (SHMJ_NATIVE_DIR naming a folder
with no build), and the Arrow core answers a crafted Parquet file with the same result batch,
buffer for buffer, natively written or by the Python twin."""

from __future__ import annotations

import copy
import io
import json
import os
import random
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from google.protobuf.json_format import MessageToDict

import convert
from batch import arrow_results, native, records
from batch.arrow import settle_arrow_batch
from batch.arrow_schema import REQUEST, REQUEST_SCHEMA, record_batch
from generators.random_hands import generate_requests
from tests.server.conftest import ROOT

pytestmark = pytest.mark.native
BUILT = all(native.load(name) is not None for name in native.sources())
needs_build = pytest.mark.skipif(not BUILT, reason="the native modules are not built (make install)")
ODD_IDS = ["\u00e9\u6e05", "\ud800", "x" * 64, "x" * 65, 'a"b', "\u2028", "\x7f", "\x00", ""]
ODD_NUMBERS = [1.0, -0.0, 1e2, 2**31, 2**63, True, "1", None, -1]
BYTES = b' \t{}[]",:0123456789-.eEnulltrfa\x00\x80\xff\\'


def hostile_lines(count: int, seed: int) -> bytes:
    """JSON Lines of generated requests, about half of them changed as a hostile file would be."""
    rng = random.Random(seed)
    out = []
    for request in generate_requests(count, seed=seed):
        line = json.dumps(MessageToDict(convert.settle_request_message(request)), separators=(",", ":")).encode()
        draw = rng.random()
        if draw < 0.2:
            mutated = bytearray(line)
            for _ in range(rng.randint(1, 3)):
                mutated[rng.randrange(len(mutated))] = rng.choice(BYTES)
            line = bytes(mutated).replace(b"\n", b" ")
        elif draw < 0.3:
            data = json.loads(line)
            data["requestId"] = rng.choice(ODD_IDS)
            line = json.dumps(data, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
        elif draw < 0.4:
            data = json.loads(line)
            data["dealerSeat"] = rng.choice(ODD_NUMBERS)
            line = json.dumps(data).encode()
        elif draw < 0.5:
            line = line[: rng.randrange(len(line))]
        out.append(line)
    return b"\n".join(out) + b"\n"


RUN_OWN = ("seconds", "lines_per_second", "output")  # the summary's keys that differ run by run


def rescore(tmp_path, name: str, env: dict, *options: str) -> tuple[bytes, dict]:
    """The output file's bytes and the summary (but what is the run's own)."""
    output = tmp_path / f"{name}.jsonl"
    command = [sys.executable, "-m", "clients.shmj", "rescore", "--local", "--workers", "1", "--no-progress"]
    command += [*options, "-o", str(output), str(tmp_path / "hostile.jsonl")]
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True, timeout=300)
    summary = json.loads((tmp_path / f"{name}.jsonl.summary.json").read_text())
    return output.read_bytes(), {key: value for key, value in summary.items() if key not in RUN_OWN}


@needs_build
@pytest.mark.parametrize("options", [(), ("--profile", "classic")], ids=["as asked", "under another profile"])
def test_rescore_local_writes_the_same_bytes_with_and_without_the_native_modules(tmp_path, options):
    (tmp_path / "hostile.jsonl").write_bytes(hostile_lines(300, seed=7))
    (tmp_path / "no-build").mkdir()
    env = {key: value for key, value in os.environ.items() if key != "SHMJ_PURE_PYTHON"}
    with_native, native_summary = rescore(tmp_path, "native", env, *options)
    without, summary = rescore(tmp_path, "python", {**env, native.DIR_ENV: str(tmp_path / "no-build")}, *options)
    assert with_native == without
    assert native_summary == summary  # the counts made in C (json_answer.counted_line) too
    assert summary["settled"] + summary["rejected"] == 300
    lines = with_native.splitlines()
    assert len(lines) == 300
    assert 80 < sum(b'"error"' in line for line in lines) < 220  # both kinds of answer, many of each


ODD_STRINGS = ["TILE_M0", "", None, "tile_m1", "TILE_M1 ", "\u6e05", "OUTCOME_SELF_DRAW", "MELD_KIND_PUNG"]


def mutated(value, rng: random.Random):
    """A row (or part of one) with values changed at random: nulls, unknown names, lists over
    their bounds, long or non-ASCII request ids and digests, int32's ends."""
    if isinstance(value, dict):
        return {
            k: None if rng.random() < 0.1 else mutated(v, rng) if rng.random() < 0.3 else v for k, v in value.items()
        }
    if isinstance(value, list):
        items = [mutated(v, rng) if rng.random() < 0.3 else v for v in value]
        return items * rng.randint(2, 40) if items and rng.random() < 0.1 else items
    if isinstance(value, str):
        return rng.choice([*ODD_STRINGS, value, "x" * rng.choice([63, 64, 65]), "\u00e9" * 64])
    if isinstance(value, bool):
        return rng.choice([True, False, None])
    if isinstance(value, int):
        return rng.choice([0, -1, 2**31 - 1, -(2**31), value, None, 1000, 1001])
    return value


def crafted_parquet(seed: int) -> pa.Table:
    rng = random.Random(seed)
    rows = record_batch(
        REQUEST, [MessageToDict(convert.settle_request_message(r)) for r in generate_requests(150, seed=seed)]
    ).to_pylist()
    rows = [mutated(copy.deepcopy(row), rng) if rng.random() < 0.6 else row for row in rows * 2]
    sink = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(rows, schema=REQUEST_SCHEMA), sink)
    return pq.read_table(io.BytesIO(sink.getvalue()))


def stream_bytes(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


@needs_build
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_arrow_core_answers_a_crafted_parquet_file_buffer_for_buffer_as_the_python_twin(seed, monkeypatch):
    table = crafted_parquet(seed)
    assert arrow_results.NATIVE is not None
    with_native = settle_arrow_batch(table)
    monkeypatch.setattr(arrow_results, "NATIVE", None)
    without = settle_arrow_batch(table)
    assert stream_bytes(with_native) == stream_bytes(without)
    errors = [e for e in with_native.column("error").to_pylist() if e is not None]
    assert 50 < len(errors) < 250 and {e["reason"] for e in errors} >= {"", "PROFILE_DIGEST_MISMATCH"}


def test_the_end_to_end_tests_take_the_native_readers_and_writers_where_they_are_built():
    assert (records._read_native is not None) == (records._write_native is not None) == BUILT

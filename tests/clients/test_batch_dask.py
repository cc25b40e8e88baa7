"""`shmj rescore --dask` on a real cluster: a `dask scheduler` and two `dask worker` processes
on loopback. Same answers as --local and --target, Parquet read back with pyarrow and DuckDB,
the worked examples of RULES.md, resume, rule-change reports, a worker lost mid-job."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from google.protobuf.json_format import ParseDict
from mahjong.shanghai.v1 import settlement_pb2 as pb

from batch.arrow_schema import RESULT, json_record
from clients.cli import main
from generators.random_hands import generate_requests
from tests.clients.test_rescore import check_mixed_output, mixed_file, request_line
from tests.server.conftest import ROOT, free_port
from tests.worked_examples import WORKED_EXAMPLES

EXAMPLES = ROOT / "examples"
DASK = str(Path(sys.executable).parent / "dask")


@contextmanager
def started(command: list[str], log: Path):
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def worker(address: str, tmp: Path, name: str):
    command = [DASK, "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1"]
    return started([*command, "--name", name, "--local-directory", str(tmp / name)], tmp / f"{name}.log")


def wait_for_workers(address: str, count: int, timeout: float = 60.0) -> None:
    from distributed import Client

    with Client(address, timeout="30s") as client:
        client.wait_for_workers(count, timeout=timeout)


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dask")
    address = f"tcp://127.0.0.1:{free_port()}"
    port = address.rsplit(":", 1)[1]
    command = [DASK, "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"]
    with started(command, tmp / "scheduler.log"), worker(address, tmp, "w1"), worker(address, tmp, "w2"):
        wait_for_workers(address, 2)
        yield address


def rescore(*args) -> int:
    return main(["rescore", *map(str, args)])


def parts(directory: Path, pattern: str = "part-*.jsonl") -> str:
    return "".join(p.read_text() for p in sorted(directory.glob(pattern)))


def as_message(record: dict) -> pb.SettleResponse:
    return ParseDict(json_record(record, RESULT), pb.SettleResponse())


def test_same_answers_with_local_target_and_dask(tmp_path, scheduler, server, capsys, monkeypatch):
    source = tmp_path / "in.jsonl"
    lines = mixed_file(source)
    source.write_text("\n".join(lines) + "\n" + (EXAMPLES / "hands.jsonl").read_text())
    local, remote, cluster = tmp_path / "local.jsonl", tmp_path / "remote.jsonl", tmp_path / "cluster"
    assert rescore(source, "-o", local, "--local", "--no-progress") == 0
    assert rescore(source, "-o", remote, "--target", server.address, "--no-progress") == 0
    capsys.readouterr()
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # the bar shows on a terminal only
    # Ranges of 2 kB: several parts, lines cut across range ends, error lines numbered in the file.
    assert rescore(source, "-o", cluster, "--dask", scheduler, "--block-size", 0.002) == 0
    err = capsys.readouterr().err
    assert "43/43" in err  # the progress bar, fed by the workers' events, reached the end
    assert "Dask dashboard" not in err  # this scheduler serves none
    assert len(list(cluster.glob("part-*.jsonl"))) == -(-source.stat().st_size // 2097)  # 0.002 MB
    assert parts(cluster) == local.read_text() == remote.read_text()
    check_mixed_output_prefix(cluster)
    summary = json.loads((cluster / "summary.json").read_text())
    assert (summary["records"], summary["settled"], summary["rejected"]) == (43, 37, 6)
    assert summary["parts"] == summary["parts_complete"] == len(list(cluster.glob("part-*.jsonl")))
    assert summary["failed_parts"] == []


def test_lines_are_bytes_split_on_newlines_alone_on_the_cluster_too(tmp_path, scheduler):
    """Issue 21, finding 9: a CR inside a line, CRLF endings, invalid UTF-8 and binary bytes give
    the cluster's parts exactly the lines --local writes, one per input line."""
    import random

    source, local, cluster = tmp_path / "in.jsonl", tmp_path / "local.jsonl", tmp_path / "cluster"
    legal, _, illegal, *_ = mixed_file(tmp_path / "mixed.jsonl")
    bad_utf8 = b'{"requestId": "ID-\xff\xfe", "profile": "classic"}'
    junk = random.Random(9).randbytes(6000)
    text = legal.replace('", "', '",\r "', 1).encode() + b"\n" + illegal.encode() + b"\r\n" + bad_utf8 + b"\n"
    source.write_bytes(text + junk + b"\n" + legal.encode() + b"\n")
    lines = (text + junk).count(b"\n") + 2
    assert rescore(source, "-o", local, "--local", "--no-progress") == 0
    assert rescore(source, "-o", cluster, "--dask", scheduler, "--block-size", 0.002, "--no-progress") == 0
    assert parts(cluster) == local.read_text()
    rows = [json.loads(line) for line in local.read_text().splitlines()]
    assert len(rows) == lines
    assert rows[0]["seatDeltas"] == rows[-1]["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert rows[2]["error"]["message"] == "line 3: not valid UTF-8 (byte 0xff at column 19)"


def test_a_line_longer_than_any_request_is_refused_on_the_cluster_as_locally(tmp_path, scheduler):
    """Found from outside: a request padded past 1,048,576 bytes was refused by --local ("longer
    than 1,048,576 bytes") and settled by the cluster, whose parts were to hold --local's lines."""
    source, local, cluster = tmp_path / "in.jsonl", tmp_path / "local.jsonl", tmp_path / "cluster"
    legal, *_ = mixed_file(tmp_path / "mixed.jsonl")
    padded = legal.replace('"profile"', '"pad": "' + "x" * (1 << 21) + '", "profile"', 1)
    source.write_text(f"{legal}\n{padded}\n{legal}\n")
    assert rescore(source, "-o", local, "--local", "--no-progress") == 0
    assert rescore(source, "-o", cluster, "--dask", scheduler, "--block-size", 1, "--no-progress") == 0
    assert parts(cluster) == local.read_text()
    rows = [json.loads(line) for line in local.read_text().splitlines()]
    message = "line 2: longer than 1,048,576 bytes, more than any request"
    assert rows[1] == {
        "requestId": "",
        "error": {"code": "INVALID_ARGUMENT", "message": message, "fieldViolations": []},
    }
    assert rows[0]["seatDeltas"] == rows[2]["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]


def check_mixed_output_prefix(cluster: Path) -> None:
    head = cluster / "head.jsonl"
    head.write_text("".join(parts(cluster).splitlines(keepends=True)[:8]))
    check_mixed_output(head)
    head.unlink()


def test_distributed_output_holds_to_the_worked_examples(tmp_path, scheduler):
    out = tmp_path / "out"
    assert (
        rescore(EXAMPLES / "hands.jsonl", "-o", out, "--dask", scheduler, "--block-size", 0.004, "--no-progress") == 0
    )
    rows = {r["requestId"]: r for r in map(json.loads, parts(out).splitlines())}
    for name, _, deltas, next_hand in WORKED_EXAMPLES:
        row = rows[f"ex-{name}"]
        assert row["seatDeltas"] == list(map(float, deltas)), name
        if next_hand is None:
            assert "nextHand" not in row, name
        else:
            assert row["nextHand"].get("dealerSeat", 0) == next_hand.dealer_seat, name
            assert row["nextHand"].get("huangfanCount", 0) == next_hand.huangfan_count, name
    assert rows["abandon-lezi"]["seatDeltas"] == [0.0, 0.0, -15.0, 0.0]
    assert rows["abandon-classic"]["error"]["fieldViolations"] == [
        {"field": "outcome", "description": "profile 'classic' has no abandon rule"}
    ]


def test_parquet_in_and_out_read_back_with_pyarrow_and_duckdb(tmp_path, scheduler):
    jsonl, parquet = tmp_path / "jsonl", tmp_path / "parquet"
    assert rescore(EXAMPLES / "hands.jsonl", "-o", jsonl, "--dask", scheduler, "--no-progress") == 0
    arguments = ["--dask", scheduler, "--format", "parquet", "--block-size", 0.001, "--no-progress"]
    assert rescore(EXAMPLES / "hands.parquet", "-o", parquet, *arguments) == 0
    files = sorted(parquet.glob("part-*.parquet"))
    assert len(files) == 4  # one per row group of 10 hands
    expected = [as_message(json.loads(line)) for line in parts(jsonl).splitlines()]
    rows = [row for f in files for row in pq.read_table(f).to_pylist()]
    assert [as_message(row) for row in rows] == expected
    query = f"""
        select request_id, seat_deltas, winners[1].legal, winners[1].value, next_hand.dealer_seat, error.code
        from read_parquet('{parquet}/part-*.parquet', filename = true) order by filename, file_row_number
    """
    from_duckdb = duckdb.sql(query).fetchall()
    from_json = []
    for m in expected:
        winner = m.winners[0] if m.winners else None
        from_json.append(
            (
                m.request_id,
                list(m.seat_deltas),
                winner.legal if winner else None,
                winner.value if winner else None,
                m.next_hand.dealer_seat if m.HasField("next_hand") else None,
                m.error.code if m.HasField("error") else None,
            )
        )
    assert from_duckdb == from_json


def test_resume_redoes_only_the_missing_parts(tmp_path, scheduler):
    source, out = tmp_path / "in.jsonl", tmp_path / "out"
    source.write_text("".join(request_line(r) + "\n" for r in generate_requests(400, 3)))
    arguments = ["--dask", scheduler, "--block-size", 0.02, "--no-progress"]
    assert rescore(source, "-o", out, *arguments) == 0
    full = parts(out)
    third = out / "part-00002.jsonl"
    redo = len(third.read_text().splitlines())
    third.unlink()  # as if the job had been killed before this part was renamed into place
    (out / ".part-00002.jsonl.0123.tmp").write_text(full[:100])  # and its torn temporary left
    assert rescore(source, "-o", out, *arguments) == 2  # not over a job's output without --resume
    assert rescore(source, "-o", out, *arguments, "--resume") == 0
    assert parts(out) == full
    assert not list(out.glob(".*.tmp"))
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["records"], summary["records_this_run"], summary["skipped_by_resume"]) == (400, redo, 400 - redo)
    assert rescore(source, "-o", out, "--dask", scheduler, "--block-size", 0.01, "--resume", "--no-progress") == 2


def test_rule_change_report_on_the_cluster_matches_local(tmp_path, scheduler):
    before, local, cluster = tmp_path / "before.jsonl", tmp_path / "local.jsonl", tmp_path / "cluster"
    hands = EXAMPLES / "hands.jsonl"
    assert rescore(hands, "-o", before, "--local", "--no-progress") == 0
    change = ["--profile", "lezi", "--override", "ordinary_base=3", "--compare", before, "--no-progress"]
    assert rescore(hands, "-o", local, "--local", *change) == 0
    arguments = ["--dask", scheduler, "--format", "parquet", "--block-size", 0.004]
    assert rescore(hands, "-o", cluster, *arguments, *change) == 0
    expected = json.loads((tmp_path / "local.jsonl.summary.json").read_text())["changes"]
    assert json.loads((cluster / "summary.json").read_text())["changes"] == expected
    # the four hands holding a dragon as a flower, refused under lezi, counted under the profile they had
    assert expected["records"] == 35 and set(expected["by_profile"]) == {"lezi", "qiaoma", "qiaoma_lezi"}
    changes = [
        row for f in sorted((cluster / "changes").glob("part-*.parquet")) for row in pq.read_table(f).to_pylist()
    ]
    local_changes = [json.loads(line) for line in (tmp_path / "local.jsonl.changes.jsonl").read_text().splitlines()]
    assert changes == local_changes


def test_the_output_is_never_the_input_nor_inside_it(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    (data / "hands.jsonl").write_text((EXAMPLES / "hands.jsonl").read_text())
    (tmp_path / "link").symlink_to(data)  # the input under another name: --local's check sees through it
    for out, why in (
        (data, f"is the input directory {data}"),
        (data / "out", f"is inside the input {data}"),
        (tmp_path, f"holds the input {data}"),
        (tmp_path / "link" / "out", f"is inside the input {data}"),
        (tmp_path / "link", f"is the input directory {data}"),
    ):
        assert rescore(data, "-o", out, "--dask", "local:1", "--no-progress") == 2
        assert capsys.readouterr().err == f"shmj: the output directory {out} {why}; choose another -o\n"
    assert rescore(data / "*.jsonl", "-o", data / "x", "--dask", "local:1", "--no-progress") == 2
    assert f"the output directory {data / 'x'} is inside the input {data}" in capsys.readouterr().err
    assert rescore(tmp_path / "missing.jsonl", "-o", tmp_path / "o", "--dask", "local:1", "--no-progress") == 2
    assert "no such input" in capsys.readouterr().err
    assert rescore(data / "hands.jsonl", "-o", tmp_path / "o", "--dask", "local:x", "--no-progress") == 2
    assert "--dask local:N takes a number of workers, got 'local:x'" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()  # nothing written before the cluster is there
    assert rescore(data / "hands.jsonl", data / "hands.jsonl", "-o", tmp_path / "o.jsonl", "--local") == 2
    assert "need --dask" in capsys.readouterr().err


@pytest.fixture(scope="module")
def many_hands(tmp_path_factory):
    """6,000 generated hands, what --local makes of them, and their number of 0.1 MB parts."""
    tmp = tmp_path_factory.mktemp("many")
    source, local = tmp / "in.jsonl", tmp / "local.jsonl"
    source.write_text("".join(request_line(r) + "\n" for r in generate_requests(6000, 5)))
    assert rescore(source, "-o", local, "--local", "--no-progress") == 0
    return source, local.read_text(), -(-source.stat().st_size // int(0.1 * (1 << 20)))


def start_job(source: Path, out: Path, scheduler: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "clients.cli", "rescore", str(source), "-o", str(out), "--dask", scheduler]
    return subprocess.Popen(
        [*command, "--block-size", "0.1", "--no-progress"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a signal for the job goes to the job alone
    )


def wait_for_parts(out: Path, count: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(out.glob("part-*.jsonl"))) < count:
        time.sleep(0.01)


def test_a_task_lost_with_its_worker_is_run_again(tmp_path, scheduler, many_hands):
    source, expected, count = many_hands
    out = tmp_path / "out"
    with worker(scheduler, tmp_path, "doomed") as doomed:
        wait_for_workers(scheduler, 3)
        job = start_job(source, out, scheduler)
        wait_for_parts(out, 2)
        os.kill(doomed.pid, signal.SIGKILL)  # mid-job, with a part of its own in hand
        assert job.wait(120) == 0
    assert parts(out) == expected
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["records"], summary["parts_complete"], summary["failed_parts"]) == (6000, count, [])


def test_ctrl_c_stops_the_job_with_a_summary_and_resume_finishes_it(tmp_path, scheduler, many_hands):
    source, expected, count = many_hands
    for attempt in range(3):  # a job that ends before the signal reaches it (a busy machine) runs again
        out = tmp_path / f"out-{attempt}"
        job = start_job(source, out, scheduler)
        wait_for_parts(out, 1)
        job.send_signal(signal.SIGINT)
        err = job.communicate(timeout=120)[1]
        if job.returncode != 0:
            break
    else:
        pytest.skip("the job finished before it could be interrupted, three times")
    assert job.returncode == 130, err
    assert "Traceback" not in err and "run again with --resume" in err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["interrupted"] is True and 1 <= summary["parts_complete"] < count
    first = summary["records"]
    assert summary["records_this_run"] == first  # a part a cancelled task still finished included
    assert rescore(source, "-o", out, "--dask", scheduler, "--block-size", 0.1, "--resume", "--no-progress") == 0
    assert parts(out) == expected
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["records"], summary["parts_complete"], summary["interrupted"]) == (6000, count, False)
    # a task running when the job was cancelled may still have finished its part after the summary
    assert summary["skipped_by_resume"] >= first
    assert summary["records_this_run"] + summary["skipped_by_resume"] == 6000


def wait_for_file(path: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not path.exists():
        time.sleep(0.002)
    assert path.exists(), f"{path} never appeared"


@pytest.mark.parametrize(
    ("signum", "word", "code"), [(signal.SIGINT, "interrupted", 130), (signal.SIGTERM, "terminated", 143)]
)
def test_a_signal_as_soon_as_the_job_has_begun_stops_it_as_one_later_would(
    tmp_path, scheduler, many_hands, signum, word, code
):
    """Ctrl-C or SIGTERM the moment the job's manifest is written, while it counts its input's
    lines or sends its tasks (and no part may be written yet), stops the job as a signal while it
    waits for its parts does: a summary, the exit code of the signal, and --resume to finish."""
    source, expected, count = many_hands
    out = tmp_path / "out"
    job = start_job(source, out, scheduler)
    wait_for_file(out / "_job.json")
    job.send_signal(signum)
    err = job.communicate(timeout=120)[1]
    assert job.returncode == code, err
    assert "Traceback" not in err
    assert err.splitlines()[-1] == f"shmj rescore: {word}; run again with --resume to finish the job"
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["interrupted"], summary["stopped"]) == (True, word)
    assert summary["parts_complete"] < count and summary["records_this_run"] == summary["records"]
    assert rescore(source, "-o", out, "--dask", scheduler, "--block-size", 0.1, "--resume", "--no-progress") == 0
    assert parts(out) == expected
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["records"], summary["parts_complete"], summary["stopped"]) == (6000, count, None)


def test_ctrl_c_at_any_moment_of_a_local_cluster_job_is_answered_in_one_line(tmp_path):
    """A terminal's Ctrl-C, which reaches the whole process group, the cluster's worker processes
    too: while the command starts, while its cluster starts (stopped midway, distributed printed
    a traceback of its own), while the job runs (each worker printed its KeyboardInterrupt) or
    once it is done: one line, no traceback, and what it says is what is on disk."""
    said = {
        "shmj: interrupted": 130,  # before the command began
        "shmj rescore: interrupted before the job began; nothing was written": 130,
        "shmj rescore: interrupted; run again with --resume to finish the job": 130,
    }
    for delay in (0.3, 0.6, 0.9, 1.2, 1.6, 2.0):
        out = tmp_path / f"out-{delay}"
        command = [sys.executable, "-m", "clients.shmj", "rescore", str(EXAMPLES / "hands.jsonl"), "-o", str(out)]
        job = subprocess.Popen(
            [*command, "--dask", "local:2", "--no-progress"],
            cwd=ROOT,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        time.sleep(delay)
        os.killpg(job.pid, signal.SIGINT)
        err = job.communicate(timeout=120)[1]
        assert "Traceback" not in err, (delay, err)
        if job.returncode == -signal.SIGINT and not err:  # before Python handles signals
            assert not out.exists()
            continue
        last = err.splitlines()[-1]
        if job.returncode in (0, -signal.SIGINT):  # done before the signal, or done and then stopped by it
            assert last.startswith("35 records"), (delay, err)
            assert json.loads((out / "summary.json").read_text())["stopped"] is None
            continue
        assert said.get(last) == job.returncode, (delay, err)
        if "nothing was written" in last or last == "shmj: interrupted":
            assert not out.exists()
        else:
            assert json.loads((out / "summary.json").read_text())["stopped"] == "interrupted"


def test_a_local_cluster_prints_its_dashboard_address(tmp_path, capsys):
    import re

    assert rescore(EXAMPLES / "hands.jsonl", "-o", tmp_path / "out", "--dask", "local:1") == 0
    err = capsys.readouterr().err
    assert re.search(r"^Dask dashboard: http://127\.0\.0\.1:\d+/status$", err, re.MULTILINE), err
    assert "35 records 本次条数 in " in err


def test_the_compare_index_is_spread_over_the_workers_in_shards(tmp_path, scheduler):
    """Each worker holds its share of the earlier results, none the whole: together the shards
    are the index --local builds, each id in the shard its hash names."""
    from distributed import Client, wait

    from batch.compare import bucket_of, load_previous
    from batch.dask_job import SHARDS_PER_WORKER, previous_shards

    previous = tmp_path / "previous"
    previous.mkdir()
    assert rescore(EXAMPLES / "hands.jsonl", "-o", previous / "a.jsonl", "--local", "--no-progress") == 0
    lines = [request_line(r) for r in generate_requests(200, 4)]
    (previous / "b.jsonl").write_text("".join(line + "\n" for line in lines))  # requests: ids, no winners' values
    with Client(scheduler, timeout="30s") as client:
        shards = previous_shards(client, str(previous))
        wait(shards)
        assert len(shards) == 2 * SHARDS_PER_WORKER
        holders = client.who_has(shards)
        per_worker = {}
        for shard in shards:
            for address in holders[shard.key]:
                per_worker[address] = per_worker.get(address, 0) + 1
        assert sorted(per_worker.values()) == [SHARDS_PER_WORKER, SHARDS_PER_WORKER]
        contents = client.gather(shards)
    whole = load_previous([str(previous)])
    assert len(whole) == 235 and sum(len(shard) for shard in contents) == 235  # 35 hands, 200 requests
    for number, shard in enumerate(contents):
        assert all(bucket_of(key, len(shards)) == number for key in shard)
        assert all(whole[key] == snap for key, snap in shard.items())


def test_hand_record_lines_are_settled_on_the_cluster_as_locally(tmp_path, scheduler, capsys):
    from tests.clients.test_rescore_records import mixed_records

    source = tmp_path / "mixed.jsonl"
    mixed_records(source)
    local, cluster = tmp_path / "local.jsonl", tmp_path / "cluster"
    assert rescore(source, "-o", local, "--local", "--no-progress") == 0
    capsys.readouterr()
    assert rescore(source, "-o", cluster, "--dask", scheduler, "--block-size", 0.01) == 0
    said = capsys.readouterr().err
    assert "60 lines settled 已结算行, 1 rejected 被拒行; their claimed wins 所报胡牌: " in said
    assert "; 3 hand record(s) whose recorded deltas differ 记录与结算不符的牌谱;" in said
    assert parts(cluster) == local.read_text()
    summary = json.loads((cluster / "summary.json").read_text())
    assert (summary["records"], summary["settled"], summary["rejected"], summary["mismatched_records"]) == (
        61,
        60,
        1,
        3,
    )

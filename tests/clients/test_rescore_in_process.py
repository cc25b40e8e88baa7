"""`shmj rescore --local --workers 1` settles its chunks in this process, with no worker process to
start and feed, and gives all that a pool worker gives: the same output bytes and summary, a bug
in the rules costing its line only, the cycle collector paused around a chunk. (Ctrl-C, SIGTERM
and a killed job at --workers 1: tests/clients/test_rescore_safety.py, test_rescore.py; house
profiles: test_house_profiles_cli.py.)"""

from __future__ import annotations

import gc
import json

import rules_core as rc
from clients import rescore, rescore_workers
from clients.cli import main
from generators.random_hands import generate_requests
from tests.clients.test_rescore import mixed_file, request_line


def rescore_local(source, out, workers: str, *more: str) -> dict:
    """The job's exit code and summary, its run's timing left out."""
    command = ["rescore", str(source), "-o", str(out), "--local", "--workers", workers, "--no-progress", *more]
    assert main(command) == 0
    summary = json.loads(out.with_name(out.name + ".summary.json").read_text())
    return {key: value for key, value in summary.items() if key not in ("seconds", "lines_per_second", "output")}


def no_pool(*args, **kwargs):
    raise AssertionError("--local --workers 1 started a worker process")


def test_one_worker_starts_no_process_and_writes_what_a_pool_worker_writes(tmp_path, monkeypatch):
    source = tmp_path / "in.jsonl"
    lines = mixed_file(source)
    generated = [request_line(r) for r in generate_requests(600, 3)]
    source.write_text("\n".join(lines + generated) + "\n")
    pooled = rescore_local(source, tmp_path / "pool.jsonl", "2", "--chunk", "7")
    monkeypatch.setattr(rescore, "ProcessPoolExecutor", no_pool)
    here = rescore_local(source, tmp_path / "here.jsonl", "1", "--chunk", "7")
    assert (tmp_path / "here.jsonl").read_bytes() == (tmp_path / "pool.jsonl").read_bytes()
    assert here == pooled
    assert (here["lines"], here["complete"], here["settled"] + here["rejected"]) == (608, True, 608)


def test_at_one_worker_a_bug_in_the_rules_costs_that_line_only(tmp_path, monkeypatch):
    """The rules run in this process here: a bug on line 3 (the mixed file's only discard win)
    is that line's INTERNAL error record, the job goes on and completes."""
    import rules_core

    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    mixed_file(source)
    real = rules_core.settle

    def buggy(request, *more):
        if request.outcome == rc.Outcome.DISCARD:
            raise ZeroDivisionError("a bug")
        return real(request, *more)

    monkeypatch.setattr(rules_core, "settle", buggy)
    summary = rescore_local(source, out, "1")
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[2]["error"]["code"] == "INTERNAL" and "ZeroDivisionError('a bug')" in rows[2]["error"]["message"]
    assert rows[0]["seatDeltas"] == rows[7]["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert (summary["lines"], summary["settled"], summary["rejected"], summary["complete"]) == (8, 2, 6, True)


def test_at_one_worker_the_collector_is_paused_around_each_chunk_and_resumed_after(tmp_path, monkeypatch):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text("".join(request_line(r) + "\n" for r in generate_requests(5, 4)))
    seen = []
    real = rescore_workers.settle_answer
    monkeypatch.setattr(rescore_workers, "settle_answer", lambda r, p: seen.append(gc.isenabled()) or real(r, p))
    assert gc.isenabled()
    summary = rescore_local(source, out, "1", "--chunk", "2")
    assert (seen, summary["lines"], gc.isenabled()) == ([False] * 5, 5, True)


def test_at_one_worker_a_collector_turned_off_by_the_program_stays_off(tmp_path):
    """run_rescore called from a program that runs without the cycle collector leaves it off."""
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text("".join(request_line(r) + "\n" for r in generate_requests(3, 4)))
    gc.disable()
    try:
        summary = rescore.run_rescore(source, out, {"local": True, "profile": None, "overrides": {}}, workers=1)
        assert (summary.lines, summary.complete, gc.isenabled()) == (3, True, False)
    finally:
        gc.enable()


def test_a_job_that_needs_no_count_first_reads_the_input_once(tmp_path, monkeypatch):
    """Counting the input's lines is a pass over the whole file (0.2 CPU µs a line, 1% of a
    record): done first only to check a resumed output against it or for the progress bar's
    total. A job that ends as it should has read every line, and says how many."""
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    mixed_file(source)

    def no_count(*args):
        raise AssertionError("the input's lines were counted in a pass of their own")

    monkeypatch.setattr(rescore, "count_lines", no_count)
    for workers in ("1", "2"):
        summary = rescore_local(source, out, workers, "--force", "--chunk", "3")
        assert (summary["input_lines"], summary["lines"], summary["complete"]) == (8, 8, True)

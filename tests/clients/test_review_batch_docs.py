"""What docs/BATCH.md and docs/CLI.md show of `shmj review -o` runs as written, in a clone as
the guides leave it: every command (against a real server and a real Dask scheduler where they
name one), the summary figures BATCH.md quotes, and CLI.md's session line for line."""

from __future__ import annotations

import json
import re
import subprocess

from tests.clients.test_batch_dask import parts, scheduler  # noqa: F401  (the cluster)
from tests.test_readme import fenced, guide, run_console, section, server, user_dir  # noqa: F401  (fixtures)

BATCH_SECTION = "Reviewing hand records in bulk: `shmj review -o`"


def test_batch_md_review_commands_run_as_written(user_dir, server, scheduler):  # noqa: F811
    text = section(BATCH_SECTION, guide("BATCH.md"))
    (block,) = fenced(text, "sh")
    lines = [line.split("  #")[0].strip() for line in block.strip().splitlines()]
    assert len(lines) == 4
    for line in lines:
        command = line.replace("127.0.0.1:50051", server.address).replace("tcp://127.0.0.1:8786", scheduler)
        result = subprocess.run(
            ["bash", "-c", command + " --no-progress"], cwd=user_dir, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, (command, result.stderr)
    scratch = user_dir / "scratch"
    local = (scratch / "reviews.jsonl").read_text()
    assert len(local.splitlines()) == 23
    assert (scratch / "served.jsonl").read_text() == local == parts(scratch / "reviewed")
    summary = json.loads((scratch / "reviews.jsonl.summary.json").read_text())
    assert (summary["records"], summary["reviewed"], summary["failed"]) == (23, 23, 0)
    assert "For `examples/records.jsonl` (23 records, all reviewed, none failed)" in text
    (quoted,) = fenced(text, "json")
    figures = json.loads(quoted)
    assert {key: summary[key] for key in figures} == figures
    served = json.loads((scratch / "served.jsonl.summary.json").read_text())
    assert (served["skipped_by_resume"], served["lines_this_run"], served["complete"]) == (23, 0, True)
    clustered = json.loads((scratch / "reviewed/summary.json").read_text())
    assert {key: clustered[key] for key in figures} == figures


def test_batch_md_names_the_summary_fields_the_job_writes(tmp_path):
    from clients.cli import main
    from tests.server.conftest import ROOT

    output = tmp_path / "reviews.jsonl"
    assert main(["review", str(ROOT / "examples/records.jsonl"), "-o", str(output), "--local", "--no-progress"]) == 0
    summary = json.loads((tmp_path / "reviews.jsonl.summary.json").read_text())
    text = section(BATCH_SECTION, guide("BATCH.md"))
    table = text[text.index("| field | meaning |") : text.index("For `examples/records.jsonl`")]
    named = set(re.findall(r"`(\w+)`", table.replace("`agreements / discards`", "").replace("`null`", "")))
    review_fields = set(summary) - {
        "lines",
        "input_lines",
        "lines_this_run",
        "skipped_by_resume",
        "seconds",
        "stopped",
        "settings",
        "complete",
        "lines_per_second",
        "input",
        "output",
        "output_bytes",
    }
    assert named == review_fields
    assert set(summary["seats"][0]) == {"seat"} | (named & set(summary["seats"][0]))


def test_cli_md_review_session_prints_what_it_shows(user_dir):  # noqa: F811
    (block,) = fenced(section("Reviewing a file of records", guide("CLI.md")), "console")
    run_console(block, user_dir)

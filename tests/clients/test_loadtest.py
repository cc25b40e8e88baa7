"""`shmj loadtest`: a few seconds of open-loop load, a JSON report and a PNG plot."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from clients.cli import main
from clients.loadtest import parse_mix
from tests.server.conftest import ROOT, run_server


def test_loadtest_reports_rate_errors_and_latency(server, tmp_path, capsys):
    report_path, plot_path = tmp_path / "report.json", tmp_path / "latency.png"
    code = main(
        [
            "loadtest",
            "--target",
            server.address,
            "--rate",
            "150",
            "--duration",
            "2",
            "--seed",
            "3",
            "--report",
            str(report_path),
            "--plot",
            str(plot_path),
        ]
    )
    assert code == 0, capsys.readouterr().err
    report = json.loads(report_path.read_text())
    assert report["sent"] == 300 and report["completed"] == 300
    assert report["errors_by_code"] == {}
    assert 120 <= report["achieved_rate"] <= 160  # the schedule holds the rate (a loaded machine may lag a little)
    latency = report["latency_ms"]
    assert 0 < latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["max"]
    assert set(report["by_rpc"]) == {"settle", "check_win", "list_waits", "settle_batch"}
    assert sum(r["count"] for r in report["by_rpc"].values()) == 300
    assert plot_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "errors none" in capsys.readouterr().err


def test_loadtest_counts_errors_by_code(tmp_path):
    report_path = tmp_path / "report.json"
    with run_server(tmp_path, "--max-batch-size", "5") as small:
        assert (
            main(
                [
                    "loadtest",
                    "--target",
                    small.address,
                    "--rate",
                    "100",
                    "--duration",
                    "1",
                    "--mix",
                    "settle=1,settle_batch=1",
                    "--batch-size",
                    "10",
                    "--report",
                    str(report_path),
                    "--plot",
                    "",
                ]
            )
            == 1
        )
    report = json.loads(report_path.read_text())
    assert set(report["errors_by_code"]) == {"INVALID_ARGUMENT"}
    assert report["errors_by_code"]["INVALID_ARGUMENT"] == report["by_rpc"]["settle_batch"]["count"]
    assert report["completed"] == 100


def test_loadtest_without_a_server_says_so(tmp_path, capsys):
    report_path = tmp_path / "report.json"
    assert (
        main(["loadtest", "--target", "127.0.0.1:1", "--duration", "1", "--report", str(report_path), "--plot", ""])
        == 1
    )
    assert "no server answers" in capsys.readouterr().err


def test_mix_is_validated():
    assert parse_mix("settle=1,settle_batch=3") == {"settle": 1.0, "settle_batch": 3.0}
    with pytest.raises(ValueError, match="unknown rpc 'Settle'"):
        parse_mix("Settle=1")


@pytest.mark.parametrize(
    ("signum", "code", "reason"), [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")]
)
def test_ctrl_c_or_sigterm_writes_the_report_of_what_was_sent(server, tmp_path, signum, code, reason):
    """Issue 8: Ctrl-C during a load test lost everything measured so far (no report)."""
    report_path = tmp_path / "report.json"
    command = [sys.executable, "-m", "clients.cli", "loadtest", "--target", server.address, "--rate", "50"]
    command += ["--duration", "60", "--report", str(report_path), "--plot", str(tmp_path / "latency.png")]
    process = subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    time.sleep(4)  # the interpreter starts, the workload is made, calls go out
    process.send_signal(signum)
    _, err = process.communicate(timeout=60)
    assert process.returncode == code, err
    report = json.loads(report_path.read_text())
    assert report["stopped_by"] == signum.name
    assert 0 < report["sent"] < 50 * 60
    assert report["completed"] + report["errors_by_code"].get("UNFINISHED", 0) == report["sent"]
    assert (tmp_path / "latency.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert err.splitlines()[-1].startswith(f"shmj loadtest: {reason} after ")
    assert err.splitlines()[-1].endswith(" s of 60; the report covers the calls sent until then")
    assert "Traceback" not in err

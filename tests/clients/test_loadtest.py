"""`shmj loadtest`: a few seconds of open-loop load, a JSON report and a PNG plot."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from clients.cli import main
from clients.loadtest import Run, Sample, build_report, latency_figure, parse_mix
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
    assert "; errors 错误 none 无; latency ms 延迟（毫秒） p50 " in capsys.readouterr().err


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
    assert capsys.readouterr().err == (
        "shmj loadtest: no server answers at 127.0.0.1:1: start the server (make run), "
        "or name it with --target or SHMJ_TARGET\n"
    )


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
    before = scoring_calls_started(server)
    process = subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    # The interpreter starts, the workload is made, calls go out: 10 of them reach the server
    # (a few seconds on a quiet machine, more under load), the signal handlers set before.
    give_up = time.monotonic() + 120
    while scoring_calls_started(server) < before + 10 and process.poll() is None and time.monotonic() < give_up:
        time.sleep(0.05)
    assert process.poll() is None, process.communicate()[1]
    process.send_signal(signum)
    _, err = process.communicate(timeout=60)
    assert process.returncode == code, err
    report = json.loads(report_path.read_text())
    assert report["stopped_by"] == signum.name
    assert 10 <= report["sent"] < 50 * 60
    assert report["completed"] + report["errors_by_code"].get("UNFINISHED", 0) == report["sent"]
    assert (tmp_path / "latency.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert err.splitlines()[-1].startswith(f"shmj loadtest: {reason} after ")
    assert err.splitlines()[-1].endswith(" s of 60; the report covers the calls sent until then")
    assert "Traceback" not in err


def scoring_calls_started(server) -> float:
    """The ScoringService calls the server has started, all methods together."""
    started = 'grpc_server_started_total{grpc_method="'
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in server.metrics().splitlines()
        if line.startswith(started) and 'grpc_service="mahjong.shanghai.v1.ScoringService"' in line
    )


# --- a generator that cannot keep its schedule says so ---------------------------------------


def test_a_generator_that_falls_behind_says_so_and_marks_its_report(server, tmp_path, capsys):
    """40,000 calls a second is more than this client can start: the figures are its own delay."""
    report_path = tmp_path / "report.json"
    argv = ["loadtest", "--target", server.address, "--rate", "40000", "--duration", "0.25", "--mix", "settle=1"]
    main([*argv, "--report", str(report_path), "--plot", ""])
    report = json.loads(report_path.read_text())
    assert (report["generator_fell_behind"], report["measures_the_server"]) == (True, False)
    assert report["late_calls"] > 100 and report["max_send_lag_ms"] > 10
    assert report["late_after_ms"] == 10
    warning = (
        f"the generator fell behind its schedule: {report['late_calls']:,} of 10,000 calls started more than 10 ms "
        f"late, up to {report['max_send_lag_ms']:,.0f} ms; the latencies measure this client, not the server "
        "(lower --rate, or send the load from more processes). 负载生成器跟不上计划：10,000 次调用中"
        f" {report['late_calls']:,} 次晚于 10 ms 才开始，最多晚 {report['max_send_lag_ms']:,.0f} ms；"
        "这些延迟反映的是本客户端，而不是服务器（降低 --rate，或用更多进程发送负载）"
    )
    assert report["warning"] == warning
    assert f"shmj loadtest: {warning}\n" in capsys.readouterr().err


@pytest.mark.parametrize("late_calls, behind", [(0, False), (10, False), (11, True)])
def test_more_than_one_call_in_a_hundred_late_is_falling_behind(late_calls, behind):
    run = Run(sent=1000, late_calls=late_calls, max_send_lag=0.5 if late_calls else 0.002, sending_seconds=1.0)
    report = build_report(run, "127.0.0.1:1", 1000, 1, {"settle": 1})
    assert (report["generator_fell_behind"], report["measures_the_server"]) == (behind, not behind)
    assert (report["warning"] is not None) == behind


def _slow_tail_run() -> Run:
    """Ten seconds of calls from 0.3 ms to 4 s, the slowest at the end (top right)."""
    samples = []
    for index in range(2000):
        scheduled = index / 200
        latency = 0.0003 * (1 + index % 7) if index < 1900 else 0.04 * (index - 1899)
        samples.append(
            Sample(scheduled, latency, ("settle", "check_win", "list_waits", "settle_batch")[index % 4], "OK")
        )
    return Run(samples=samples, sent=2000, sending_seconds=10.0)


def test_the_plot_labels_its_log_axis_without_overlaps_and_its_legend_hides_no_point():
    figure = latency_figure(_slow_tail_run(), "127.0.0.1:50051: 200/s for 10 s")
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    axis = figure.axes[0]
    low, high = axis.get_ylim()
    labels = [
        label
        for tick, label in zip(axis.get_yticks(), axis.get_yticklabels(), strict=True)
        if low <= tick <= high and label.get_text()
    ]
    assert [label.get_text() for label in labels][:3] == ["0.2", "0.5", "1"]
    boxes = sorted((label.get_window_extent(renderer) for label in labels), key=lambda box: box.y0)
    assert all(lower.y1 <= upper.y0 for lower, upper in zip(boxes, boxes[1:], strict=False)), "tick labels overlap"
    assert [label.get_text() for label in axis.get_yticklabels(minor=True)] == [""] * len(
        axis.get_yticklabels(minor=True)
    )
    legend = axis.get_legend().get_window_extent(renderer)
    assert not legend.overlaps(axis.get_window_extent(renderer)), "the legend covers the plot"
    assert figure.bbox.contains(legend.x1, legend.y1), "the legend is cut off"


def test_the_closing_line_says_each_figure_and_error_code_in_words():
    """Issue 20: the line printed the errors as a dict of code names ({'UNAVAILABLE': 3})."""
    from clients.loadtest import summary_line

    report = {
        "sent": 1000,
        "achieved_rate": 100.0,
        "completed": 990,
        "errors_by_code": {"UNAVAILABLE": 3, "UNFINISHED": 7},
        "latency_ms": {"p50": 1.2, "p90": 2.5, "p99": 9.1, "max": 20.0},
    }
    assert summary_line(report, "loadtest.json", "loadtest.png") == (
        "sent 已发送 1,000 at 100/s, completed 已完成 990; errors 错误 server unavailable 无法连接服务器 (UNAVAILABLE) 3,"
        " UNFINISHED 7; latency ms 延迟（毫秒） p50 1.2 p90 2.5 p99 9.1 max 20.0; report 报告 loadtest.json,"
        " plot 图 loadtest.png"
    )

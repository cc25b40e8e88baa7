"""`shmj` given wrong input, as a new user would: one line saying what is wrong, exit 2 for a
usage mistake and 1 for a failure at run time, never a traceback, and nothing written or run
before the mistake is reported (issue 8, "The command line, tried as a new user would")."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from clients.cli import main
from rules_core.overrides import CHECKS
from tests.server.conftest import ROOT

HAND = ["111m 555m 999p EEE 77s", "--win", "7s"]


def run(argv, capsys) -> tuple[int, str]:
    """Exit status and stderr of `shmj argv`, whether main returns or argparse exits."""
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
    return code, capsys.readouterr().err


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run in an empty directory, so a default output file written by mistake shows."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    "argv, message",
    [
        (["rescore", "in.jsonl", "-o", "out.jsonl", "--workers", "0"], "argument --workers: must be a whole number of at least 1, got '0'"),
        (["rescore", "in.jsonl", "-o", "out.jsonl", "--chunk", "0"], "argument --chunk: must be a whole number of at least 1, got '0'"),
        (["rescore", "in.jsonl", "-o", "out.jsonl", "--chunk", "many"], "argument --chunk: must be a whole number of at least 1, got 'many'"),
        (["rescore", "in.jsonl", "-o", "/nonexistent/dir/x.jsonl"], "argument -o/--output: no directory /nonexistent/dir to write x.jsonl in"),
        (["rescore", "in.jsonl", "-o", "out.jsonl", "--summary", "/nonexistent/s.json"], "argument --summary: no directory /nonexistent to write s.json in"),
        (["rescore", "in.jsonl", "-o", "out.jsonl", "--profile", "Lezi"], "argument --profile: unknown profile 'Lezi' (did you mean lezi?); known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou"),
        (["rescore", "in.jsonl", "-o", "out.jsonl", "--timeout", "0"], "argument --timeout: must be a number above 0, got '0'"),
        (["rescore", "in.jsonl", "-o", "out.jsonl", "--override", "ordinary_base"], "argument --override: takes KEY=VALUE, such as ordinary_base=5, got 'ordinary_base'"),
        (["rescore", "in.jsonl", "-o", "out", "--dask", "local:1", "--block-size", "0"], "argument --block-size: must be a number above 0, got '0'"),
        (["rescore", "in.jsonl", "-o", "out", "--dask", "local:1", "--retries", "-1"], "argument --retries: must be a whole number of at least 0, got '-1'"),
        (["rescore", "in.jsonl", "-o", ""], "argument -o/--output: must name a file"),
        (["loadtest", "--seed", "x"], "argument --seed: must be a whole number, got 'x'"),
        (["score", *HAND, "--ca", "/etc/hostname"], "argument --ca: /etc/hostname is not a PEM file (no -----BEGIN line)"),
        (["loadtest", "--rate", "0"], "argument --rate: must be a number above 0, got '0'"),
        (["loadtest", "--rate", "nan"], "argument --rate: must be a number above 0, got 'nan'"),
        (["loadtest", "--duration", "-1"], "argument --duration: must be a number above 0, got '-1'"),
        (["loadtest", "--duration", "inf"], "argument --duration: must be a number above 0, got 'inf'"),
        (["loadtest", "--drain-timeout", "-1"], "argument --drain-timeout: must be a number of at least 0, got '-1'"),
        (["loadtest", "--batch-size", "0"], "argument --batch-size: must be a whole number from 1 to 1000, got '0'"),
        (["loadtest", "--batch-size", "5000"], "argument --batch-size: must be a whole number from 1 to 1000, got '5000'"),
        (["loadtest", "--mix", "settle"], "argument --mix: settle needs a weight, such as settle=80"),
        (["loadtest", "--mix", "settle=often"], "argument --mix: the weight of settle must be a number of at least 0, got 'often'"),
        (["loadtest", "--mix", "settle=-1,check_win=2"], "argument --mix: the weight of settle must be a number of at least 0, got '-1'"),
        (["loadtest", "--mix", "settle=nan"], "argument --mix: the weight of settle must be a number of at least 0, got 'nan'"),
        (["loadtest", "--mix", "Settle=1"], "argument --mix: unknown rpc 'Settle'; known: settle, check_win, list_waits, settle_batch"),
        (["loadtest", "--mix", "settle=0"], "argument --mix: needs a positive weight"),
        (["loadtest", "--plot", "/nonexistent/x.png"], "argument --plot: no directory /nonexistent to write x.png in"),
        (["loadtest", "--plot", "latency.jpeg"], "argument --plot: latency.jpeg: the plot is written as .png, .svg or .pdf"),
        (["loadtest", "--report", "/nonexistent/r.json"], "argument --report: no directory /nonexistent to write r.json in"),
        (["score", *HAND, "--seat", "4"], "argument --seat: must be a seat 0-3, got '4'"),
        (["score", *HAND, "--discarder", "-1"], "argument --discarder: must be a seat 0-3, got '-1'"),
        (["score", *HAND, "--huangfan", "-3"], "argument --huangfan: must be a whole number of at least 0, got '-3'"),
        (["score", *HAND, "--dice", "7,7"], "argument --dice: takes two dice 1-6 such as 3,3, got '7,7'"),
        (
            ["score", *HAND, "--claims", "1-2"],
            "argument --claims: a claim is CLAIMER:SOURCE:COUNT with seats 0-3, such as 1:2:3, got '1-2'",
        ),
        (["score", *HAND, "--outcome", "ron"], "argument --outcome: unknown outcome 'ron'; one of self-draw, discard, robbing-kong, eight-flowers, exhaustive-draw, abandon"),
        (["score", *HAND, "--override", "ordinary_base=abc"], "argument --override: ordinary_base: expected a whole number, got 'abc'"),
        (["score", *HAND, "--override", "ordinary_base=-2"], "argument --override: ordinary_base: must be 0 to 100000, got -2"),
        (["score", *HAND, "--override", "name=lezi"], "argument --override: the profile name cannot be overridden; use --profile"),
        (["score", *HAND, "--ca", "/nope.pem"], "argument --ca: cannot read /nope.pem: No such file or directory"),
        (["score", "--request", "nofile.json"], "argument --request: cannot read nofile.json: No such file or directory"),
        (["waits", "111m 555m 999p EEE 7s", "--profile", "Lezi"], "argument --profile: unknown profile 'Lezi' (did you mean lezi?); known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou"),
        (["profiles", "--name", "Lezi"], "argument --name: unknown profile 'Lezi' (did you mean lezi?); known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou"),
    ],
)  # fmt: skip
def test_a_bad_flag_is_one_line_and_exit_2_before_anything_runs(argv, message, in_tmp, capsys):
    assert run(argv, capsys) == (2, f"shmj {argv[0]}: {message}\n")
    assert list(in_tmp.iterdir()) == []  # no default report, no output, no summary


def test_an_unknown_override_key_lists_the_snake_case_keys(capsys):
    code, err = run(["score", *HAND, "--override", "foo=1"], capsys)
    keys = ", ".join(CHECKS)
    assert (code, err) == (2, f"shmj score: argument --override: unknown key 'foo'; the keys are {keys}\n")
    assert "ordinary_base" in keys and "ordinaryBase" not in err


def test_an_override_key_is_accepted_in_either_spelling(capsys):
    for key in ("ordinary_base", "ordinaryBase"):
        assert main(["score", *HAND, "--override", f"{key}=5", "--local", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["seatDeltas"] == [
            36.0,
            -12.0,
            -12.0,
            -12.0,
        ]  # (1 + 5) x 2 门清, not (1 + 3) x 2


def test_score_request_file_that_is_not_a_request(tmp_path, capsys):
    bad, array, folder = tmp_path / "bad.json", tmp_path / "array.json", tmp_path / "folder"
    bad.write_text("[1")
    array.write_text("[1, 2]")
    folder.mkdir()
    assert run(["score", "--request", str(bad)], capsys) == (
        2,
        f"shmj score: argument --request: {bad} is not JSON: Expecting ',' delimiter (line 1, column 3)\n",
    )
    assert run(["score", "--request", str(array)], capsys) == (
        2,
        f"shmj score: argument --request: {array} must hold a JSON object (a SettleRequest), not a list\n",
    )
    assert run(["score", "--request", str(folder)], capsys) == (
        2,
        f"shmj score: argument --request: cannot read {folder}: Is a directory\n",
    )


def test_score_request_file_is_settled(tmp_path, capsys):
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"profile": "classic", "outcome": "OUTCOME_EXHAUSTIVE_DRAW", "huangfanCount": 1}))
    assert main(["score", "--request", str(request), "--local", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nextHand"] == {"dealerSeat": 0, "huangfanCount": 2}


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--outcome", "discard"], "--outcome discard needs --discarder SEAT, the seat whose discard won"),
        (["--outcome", "robbing-kong"], "--outcome robbing-kong needs --discarder SEAT, the seat whose kong was robbed"),
        (["--outcome", "abandon"], "--outcome abandon needs --abandoning SEAT, the seat that left"),
        (["--discarder", "2"], "--discarder goes with --outcome discard or robbing-kong, not self-draw"),
        (["--abandoning", "2", "--outcome", "discard", "--discarder", "1"], "--abandoning goes with --outcome abandon, not discard"),
        (["--cert", "cert.pem"], "--cert and --key (or SHMJ_CERT and SHMJ_KEY) go together (mutual TLS)"),
        (["--request", "request.json"], "give a hand or --request FILE, not both"),
    ],
)  # fmt: skip
def test_flags_that_do_not_go_together(flags, message, in_tmp, capsys):
    (in_tmp / "request.json").write_text("{}")
    (in_tmp / "cert.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    assert run(["score", *HAND, *flags, "--local"], capsys) == (2, f"shmj: {message}\n")


@pytest.mark.parametrize("command", ["score", "request"])
def test_a_winning_hand_without_its_winning_tile_asks_for_win(command, capsys):
    """Not the request's field path (winners[0].hand.winning_tile), which the user never wrote."""
    assert run([command, "111m 555m 999p EEE 77s", "--local"][: 2 if command == "request" else 3], capsys) == (
        2,
        "shmj: give the winning tile with --win, such as --win 7s\n",
    )


def test_an_abandon_names_its_seat(capsys):
    assert main(["score", "--outcome", "abandon", "--abandoning", "2", "--profile", "lezi", "--local", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seatDeltas"] == [0.0, 0.0, -15.0, 0.0]  # 逃跑: seat 2, not seat 0


def test_loadtest_refuses_more_calls_than_it_can_hold(in_tmp, capsys):
    assert run(["loadtest", "--rate", "100000", "--duration", "3600"], capsys) == (
        2,
        "shmj: --rate x --duration asks for 360,000,000 calls; at most 10,000,000 in one run\n",
    )
    assert list(in_tmp.iterdir()) == []


def test_loadtest_refuses_one_file_for_report_and_plot(in_tmp, capsys):
    assert run(["loadtest", "--report", "same.png", "--plot", "same.png"], capsys) == (
        2,
        "shmj: --report and --plot name the same file same.png\n",
    )


def shmj(*argv, **options) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "clients.cli", *argv], cwd=ROOT, stderr=subprocess.PIPE, **options)


def test_output_into_a_closed_pipe_exits_quietly():
    """`shmj profiles | head -1`: the reader is gone before shmj writes; no BrokenPipeError."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # a reader that has already stopped reading, as `head` after its lines
    try:
        result = shmj("profiles", "--local", stdout=write_end)
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (1, b"")


def test_no_server_is_one_line_and_exit_1(capsys):
    code, err = run(["score", *HAND, "--target", "127.0.0.1:1", "--timeout", "2"], capsys)
    assert (
        code == 1 and err.startswith("shmj: server unavailable 无法连接服务器 (UNAVAILABLE): ") and err.count("\n") == 1
    )


def test_the_mistakes_cli_md_shows_are_what_a_user_gets(tmp_path):
    import re
    import shutil

    from tests.test_readme import fenced, guide

    cli = guide("CLI.md")
    (block,) = fenced(cli[cli.index("Every flag is checked where it is read") :], "console")[:1]
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")  # a copy: the refusal is what is tested
    (tmp_path / "scratch").mkdir()  # as the README says to make it
    before = (tmp_path / "examples" / "requests.jsonl").read_bytes()
    steps = re.findall(r"^\$ (.*)\n((?:(?!\$ ).*\n)*)", block, flags=re.M)
    assert len(steps) == 3
    for command, shown in steps:
        result = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert (result.returncode, result.stdout, result.stderr) == (2, "", shown), command
    assert (tmp_path / "examples" / "requests.jsonl").read_bytes() == before


def test_a_request_file_is_read_alike_locally_against_a_server_and_by_request(server, tmp_path, capsys):
    """Its faults named by field in snake_case, not in protobuf's words with its camelCase list."""
    request = tmp_path / "request.json"
    request.write_text(
        json.dumps({"profile": "classic", "outcome": "OUTCOME_EXHAUSTIVE_DRAW", "colour": 1, "huangfanCount": "x"})
    )
    said = (
        2,
        "shmj: invalid request 请求有误 (INVALID_ARGUMENT)\n  colour: unknown field\n  huangfan_count: expected a whole number, got 'x'\n",
    )
    assert run(["score", "--request", str(request), "--local"], capsys) == said
    assert run(["score", "--request", str(request), "--target", server.address], capsys) == said
    assert run(["request", "--request", str(request)], capsys) == said


def test_batch_work_in_the_servers_install_says_what_installs_dask_and_pyarrow(tmp_path):
    """`make run` installs neither Dask nor pyarrow: a rescore that needs them is one line, exit 2."""
    requests = tmp_path / "in.jsonl"
    requests.write_text(json.dumps({"profile": "classic", "outcome": "OUTCOME_EXHAUSTIVE_DRAW"}) + "\n")
    program = (
        "import sys\n"
        "for name in ('pyarrow', 'dask', 'distributed'):\n"
        "    sys.modules[name] = None  # as if not installed: importing it raises ModuleNotFoundError\n"
        "from clients.shmj import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    command = ["rescore", str(requests), "--output", str(tmp_path / "out.jsonl"), "--dask", "local:1"]
    ran = subprocess.run(
        [sys.executable, "-c", program, *command], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert (ran.returncode, ran.stderr) == (
        2,
        "shmj: this needs pyarrow, which this environment lacks: `make install` installs it with Dask"
        " (requirements-batch.txt)\n",
    )

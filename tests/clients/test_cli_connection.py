"""`shmj` finds its server from the environment as the server reads its own (`SHMJ_*`), and a
failed call ends in one line and the exit status of what went wrong: 2 for the user's mistake,
whoever found it, 1 for anything else (issue 20, the CLI's findings)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib

import grpc
import pytest

import clients
from clients.cli import main
from clients.cli_failures import exit_status
from tests.server.conftest import ROOT, free_port

HAND = ["111m 555m 999p EEE 77s", "--win", "7s"]
KNOWN = "known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou"
NOT_A_TARGET = "is neither HOST:PORT (a port 1-65535) nor a gRPC target such as dns:///HOST:PORT"
_COMMANDS = ("score", "request", "waits", "replay", "profiles", "rescore", "loadtest", "health")


@pytest.fixture(autouse=True)
def no_connection_variables(monkeypatch):
    """The developer's own SHMJ_* must not reach these tests."""
    for name in ("SHMJ_TARGET", "SHMJ_TLS", "SHMJ_CA", "SHMJ_CERT", "SHMJ_KEY"):
        monkeypatch.delenv(name, raising=False)


def run(argv, capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_shmj_target_names_the_server_when_no_flag_does(server, monkeypatch, capsys):
    monkeypatch.setenv("SHMJ_TARGET", server.address)
    code, out, err = run(["score", *HAND, "--json"], capsys)
    assert (code, err) == (0, "")
    assert json.loads(out)["seatDeltas"] == [24.0, -8.0, -8.0, -8.0]


def test_a_flag_wins_over_the_environment(server, monkeypatch, capsys):
    monkeypatch.setenv("SHMJ_TARGET", f"127.0.0.1:{free_port()}")  # nothing listens there
    monkeypatch.setenv("SHMJ_TLS", "1")
    code, out, err = run(["score", *HAND, "--target", server.address, "--no-tls"], capsys)
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "Next hand 下一手  dealer 庄家 seat 0, 荒番 count 荒番数 0"


@pytest.mark.parametrize("target", ["127.0.0.1", "localhost", "127.0.0.1:0", "127.0.0.1:99999", ":50051", "[::1]"])
def test_a_target_without_a_port_is_refused_rather_than_sent_to_443(target, capsys):
    """gRPC takes a bare host as port 443: `--target localhost` was refused by nothing there, named
    as if the user's own address were wrong. The Go, Java and C++ clients refuse it the same way."""
    assert run(["score", *HAND, "--target", target], capsys) == (
        2,
        "",
        f"shmj score: argument --target: {target!r} {NOT_A_TARGET}\n",
    )


@pytest.mark.parametrize("target", ["127.0.0.1:50051", "[::1]:50051", "dns:///scoring:50051", "unix:/run/shmj.sock"])
def test_a_target_with_a_port_or_a_scheme_is_taken(target):
    from clients.cli_args import target as checked

    assert checked(target) == target


@pytest.mark.parametrize(
    "variable, value, said",
    [
        ("SHMJ_TLS", "maybe", "shmj: SHMJ_TLS must be 1 or 0 (true or false), got 'maybe'\n"),
        ("SHMJ_CA", "/nope.pem", "shmj: SHMJ_CA: cannot read /nope.pem: No such file or directory\n"),
        ("SHMJ_CERT", "/etc/hostname", "shmj: SHMJ_CERT: /etc/hostname is not a PEM file (no -----BEGIN line)\n"),
        ("SHMJ_TARGET", "localhost", f"shmj: SHMJ_TARGET: 'localhost' {NOT_A_TARGET}\n"),
    ],
)
def test_a_bad_variable_is_named_and_exit_2(variable, value, said, monkeypatch, capsys):
    monkeypatch.setenv(variable, value)
    assert run(["score", *HAND], capsys) == (2, "", said)


def test_a_client_certificate_from_the_environment_needs_its_key(tmp_path, monkeypatch, capsys):
    pem = tmp_path / "client.pem"
    pem.write_text("-----BEGIN CERTIFICATE-----\n")
    monkeypatch.setenv("SHMJ_CERT", str(pem))
    assert run(["score", *HAND], capsys) == (
        2,
        "",
        "shmj: --cert and --key (or SHMJ_CERT and SHMJ_KEY) go together (mutual TLS)\n",
    )


def test_help_names_the_variables(capsys):
    code, out, _ = run(["score", "--help"], capsys)
    assert code == 0
    for variable in ("$SHMJ_TARGET", "$SHMJ_TLS", "$SHMJ_CA", "$SHMJ_CERT", "$SHMJ_KEY"):
        assert variable in out
    code, out, _ = run(["--help"], capsys)
    assert code == 0
    assert " ".join(out.split()).endswith(  # as argparse wraps it
        "Where to connect, when no flag says: SHMJ_TARGET, SHMJ_TLS (1 or 0), SHMJ_CA, SHMJ_CERT, SHMJ_KEY."
    )


@pytest.mark.parametrize("command", [[], *([name] for name in _COMMANDS), ["profiles", "check"]], ids=" ".join)
def test_help_is_plain_text_without_the_docstrings_markup(command, capsys):
    code, out, _ = run([*command, "--help"], capsys)
    assert code == 0
    assert out.startswith("usage: shmj")
    assert re.findall(r"``|:(?:class|func|mod):", out) == []


def test_every_option_with_a_default_says_it_in_its_help():
    """A newcomer reads `shmj rescore --help`, not the source, for how many workers and lines a chunk."""
    import argparse

    from clients.cli import build_parser

    silent = []

    def walk(parser, name):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for command, subparser in action.choices.items():
                    walk(subparser, f"{name} {command}")
            elif action.option_strings and action.default not in (None, False, "", argparse.SUPPRESS):
                if not isinstance(action, argparse._HelpAction) and "default" not in (action.help or ""):
                    silent.append(f"{name} {action.option_strings[-1]}")

    walk(build_parser(), "shmj")
    assert silent == []


# --- one mistake, one exit status, whoever finds it ----------------------------------------


def test_an_unknown_profile_is_exit_2_whether_the_cli_or_the_server_finds_it(server, capsys):
    assert run(["profiles", "--name", "Lezi", "--target", server.address], capsys) == (
        2,
        "",
        f"shmj profiles: argument --name: unknown profile 'Lezi' (did you mean lezi?); {KNOWN}\n",
    )
    assert run(["profiles", "--name", "riichi", "--target", server.address], capsys) == (
        2,
        "",
        f"shmj: not found 未找到 (NOT_FOUND): unknown profile 'riichi'; {KNOWN}\n",
    )
    assert run(["waits", "111m 555m 999p EEE 7s", "--profile", "riichi", "--target", server.address], capsys) == (
        2,
        "",
        f"shmj: invalid request 请求有误 (INVALID_ARGUMENT)\n  profile: unknown profile 'riichi'; {KNOWN}\n",
    )


def test_a_server_answer_of_another_kind_is_exit_1(capsys):
    """Only what the user asked for wrong is 2; no server (UNAVAILABLE), a deadline, an overload,
    the server's own fault are 1."""
    mistakes = {code.name for code in grpc.StatusCode if exit_status(code) == 2}
    assert mistakes == {"INVALID_ARGUMENT", "NOT_FOUND", "OUT_OF_RANGE"}
    code, out, err = run(["profiles", "--target", f"127.0.0.1:{free_port()}", "--timeout", "2"], capsys)
    assert (code, out) == (1, "") and err.startswith("shmj: server unavailable 无法连接服务器 (UNAVAILABLE): ")


# --- TLS spoken to a plaintext server, as the installed command says it ---------------------


def test_the_installed_command_is_the_entry_point_that_quiets_grpc_core():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["shmj"] == "clients.shmj:main"
    assert "from clients.shmj import main" in (ROOT / ".venv/bin/shmj").read_text()


def test_tls_against_a_plaintext_server_is_one_clear_line(server):
    ended = subprocess.run(
        [str(ROOT / ".venv/bin/shmj"), "score", *HAND, "--tls", "--target", server.address, "--timeout", "5"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (ended.returncode, ended.stdout) == (1, "")
    assert ended.stderr == (
        f"shmj: server unavailable 无法连接服务器 (UNAVAILABLE): {server.address} does not speak TLS (WRONG_VERSION_NUMBER): leave out --tls and SHMJ_TLS\n"
    )


def test_no_server_at_the_target_says_how_to_start_one_or_name_another():
    """A new user's first `shmj score` before `make run` got gRPC's `failed to connect to all addresses`."""
    port = free_port()
    refused = "refuses the connection (Connection refused): start the server (make run), or name it with --target or SHMJ_TARGET"
    said = f"shmj: server unavailable 无法连接服务器 (UNAVAILABLE): 127.0.0.1:{port} {refused}\n"
    for command in (["score", *HAND], ["health"]):
        ended = subprocess.run(
            [str(ROOT / ".venv/bin/shmj"), *command, "--target", f"127.0.0.1:{port}"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (ended.returncode, ended.stdout, ended.stderr) == (1, "", said), command


def test_the_package_loads_grpc_only_when_a_client_is_used():
    """`import clients` alone leaves gRPC unloaded, so `clients.shmj` can set its logging first;
    every name of the package is still there."""
    code = "import sys, clients; print('grpc' in sys.modules); clients.ScoringClient; print('grpc' in sys.modules)"
    ended = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (ended.stdout, ended.stderr) == ("False\nTrue\n", "")
    assert set(clients.__all__) == set(clients._MODULE_OF)
    assert all(getattr(clients, name).__name__ == name for name in clients.__all__)


def test_ctrl_c_while_the_command_loads_is_one_line_not_a_traceback(monkeypatch, capsys):
    """A Ctrl-C in the first tenth of a second, while `shmj` imports its modules, printed a
    KeyboardInterrupt traceback through clients/shmj.py: the import here raises it as the
    signal did."""
    import importlib.abc

    from clients import shmj

    class InterruptedImport(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == "clients.cli":
                raise KeyboardInterrupt
            return None

    # shmj sets GRPC_VERBOSITY for the process: set here, it is put back as it was after the test, for
    # the servers later tests start (at ERROR, gRPC's core logs no failed TLS handshake: test_logs.py)
    monkeypatch.setenv("GRPC_VERBOSITY", "ERROR")
    monkeypatch.delitem(sys.modules, "clients.cli")
    monkeypatch.setattr(sys, "meta_path", [InterruptedImport(), *sys.meta_path])
    assert shmj.main(["health"]) == 130
    assert capsys.readouterr() == ("", "shmj: interrupted\n")


def test_ctrl_c_while_the_interpreter_exits_keeps_the_command_s_exit_status():
    """Found from outside: a Ctrl-C right after a rescore's summary, while the interpreter ran its
    exit handlers, killed the process by SIGINT though the job was done. An exit handler sends it
    here, as the terminal did."""
    code = (
        "import atexit, os, signal, sys, time\n"
        "from clients import shmj\n"
        "atexit.register(lambda: (os.kill(os.getpid(), signal.SIGINT), time.sleep(0.2), print('exited', flush=True)))\n"
        "sys.exit(shmj.main(['profiles', '--name', 'classic', '--local']))\n"
    )
    ended = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (ended.returncode, ended.stderr) == (0, "")
    assert ended.stdout.endswith("exited\n")

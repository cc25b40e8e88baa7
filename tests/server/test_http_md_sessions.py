"""docs/HTTP.md's curl session runs as written (against a server on a free port) and prints
what it shows; so do the curl lines of docs/CLI.md and the error examples of HTTP.md."""

from __future__ import annotations

import json
import re
import subprocess

import rules_core as rc
from tests.debian_tools import debian_tool
from tests.server.conftest import ROOT
from tests.test_readme import guide


def session() -> list[tuple[str, str]]:
    """The (command, output) pairs of HTTP.md's curl session; a heredoc is part of its command."""
    text = guide("HTTP.md")
    section = text[text.index("## A curl session") :]
    block = re.search(r"```console\n(.*?)```", section, flags=re.S).group(1)
    pairs: list[tuple[str, str]] = []
    lines = block.splitlines()
    index = 0
    while index < len(lines):
        command = lines[index].removeprefix("$ ")
        index += 1
        if "<<'EOF'" in command:
            end = lines.index("EOF", index)
            command = "\n".join([command, *lines[index : end + 1]])
            index = end + 1
        output = []
        while index < len(lines) and not lines[index].startswith("$ "):
            output.append(lines[index])
            index += 1
        pairs.append((command, "".join(line + "\n" for line in output)))
    return pairs


def test_the_curl_session_of_http_md_prints_what_it_shows(server, tmp_path):
    port = server.http_url.rsplit(":", 1)[1]
    (tmp_path / "scratch").mkdir()  # as the README says to make it
    pairs = session()
    assert [command.split()[0] for command, _ in pairs] == ["cat", "curl", "curl", "curl"]
    debian_tool("curl")
    for command, shown in pairs:
        ran = subprocess.run(
            ["bash", "-c", command.replace("127.0.0.1:8080", f"127.0.0.1:{port}")],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert (ran.returncode, ran.stderr) == (0, "")
        # HTTP.md shows the compiled build `make run` gives; the suite may run either
        shown = shown.replace('"engineVersion":"0.1.0+compiled"', f'"engineVersion":"{rc.ENGINE_VERSION}"')
        assert ran.stdout == shown, command


def test_the_curl_line_in_notation_of_http_md_prints_what_it_shows(server):
    """The hand of the curl session written in notation: the same answer, byte for byte."""
    section = guide("HTTP.md")[guide("HTTP.md").index("## Hands in notation") :]
    block = re.search(r"```console\n(.*?)```", section, flags=re.S).group(1)
    (command, shown) = block.removeprefix("$ ").split("\n", 1)
    assert '"concealed": "111m 555m 999p EEE 77s"' in command
    settled = dict(session())
    assert shown == settled[next(c for c in settled if "@scratch/req.json" in c)]
    port = server.http_url.rsplit(":", 1)[1]
    ran = subprocess.run(
        ["bash", "-c", command.replace("curl ", f"{debian_tool('curl')} ", 1).replace(":8080", f":{port}")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (ran.returncode, ran.stderr) == (0, "")
    shown = shown.replace('"engineVersion":"0.1.0+compiled"', f'"engineVersion":"{rc.ENGINE_VERSION}"')
    assert ran.stdout == shown


def test_the_example_request_files_are_answered_over_http_as_cli_md_shows(server):
    """CLI.md's curl line, as written, for each of the three files and its rpc."""
    (command,) = re.findall(
        r"`(curl -s -H 'Content-Type: application/json' -d @examples/check-win[^`]*)`", guide("CLI.md")
    )
    port = server.http_url.rsplit(":", 1)[1]
    for name, method in [("check-win", "CheckWin"), ("settle", "Settle"), ("list-waits", "ListWaits")]:
        line = command.replace("check-win", name).replace("/CheckWin", f"/{method}").replace(":8080", f":{port}")
        ended = subprocess.run(
            ["bash", "-c", line.replace("curl ", f"{debian_tool('curl')} ", 1)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        answer = json.loads(ended.stdout)
        request = json.loads((ROOT / f"examples/{name}-request.json").read_text())
        assert (ended.returncode, answer["requestId"], "code" in answer) == (0, request["requestId"], False), name


def _shown_errors() -> list[tuple[str, dict]]:
    """docs/HTTP.md's error examples: each curl command and the JSON body shown after it."""
    text = (ROOT / "docs/HTTP.md").read_text()
    section = text[text.index("## Errors") : text.index("| reason | code | when |")]
    pairs = re.findall(r"```sh\n(curl .*?)```.*?```json\n(.*?)```", section, flags=re.S)
    return [(command, json.loads(body)) for command, body in pairs]


def _matches(shown, got) -> bool:
    """Equal, but for a string the page cuts short with "…", which need only begin the same."""
    if isinstance(shown, dict):
        return isinstance(got, dict) and shown.keys() == got.keys() and all(_matches(shown[k], got[k]) for k in shown)
    if isinstance(shown, list):
        return isinstance(got, list) and len(shown) == len(got) and all(map(_matches, shown, got))
    if isinstance(shown, str) and shown.endswith("…"):
        return isinstance(got, str) and got.startswith(shown.removesuffix("…"))
    return shown == got


def test_http_md_error_examples_are_what_the_server_answers(server):
    shown = _shown_errors()
    assert [body["code"] for _, body in shown] == ["invalid_argument", "not_found"]
    port = server.http_url.rsplit(":", 1)[1]
    for command, body in shown:
        ran = subprocess.run(
            [
                "bash",
                "-c",
                command.replace("curl ", f"{debian_tool('curl')} -w '\\n%{{http_code}}' ", 1).replace(
                    ":8080", f":{port}"
                ),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        answer, status = ran.stdout.rsplit("\n", 1)
        assert (ran.returncode, status) == (0, {"invalid_argument": "400", "not_found": "404"}[body["code"]])
        assert _matches(body, json.loads(answer)), answer

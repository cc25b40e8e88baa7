"""The README's HTTP/JSON session runs as written (against a server on a free port) and
prints what the README shows."""

from __future__ import annotations

import re
import subprocess

import rules_core as rc
from tests.debian_tools import debian_tool
from tests.test_readme import README


def session() -> list[tuple[str, str]]:
    """The (command, output) pairs of the README's HTTP/JSON console block; a heredoc is
    part of its command."""
    section = README[README.index("### HTTP/JSON") :]
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


def test_the_readme_http_session_prints_what_it_shows(server, tmp_path):
    port = server.http_url.rsplit(":", 1)[1]
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
        # the README shows the compiled build `make run` gives; the suite may run either
        shown = shown.replace('"engineVersion":"0.1.0+compiled"', f'"engineVersion":"{rc.ENGINE_VERSION}"')
        assert ran.stdout == shown, command

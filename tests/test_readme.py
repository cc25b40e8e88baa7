"""The README says what the project does: its library example runs, its flag table is complete."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from server.config import ServerConfig

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_readme_opens_with_the_two_commands():
    first_block = re.search(r"```sh\n(.*?)```", README, flags=re.S).group(1)
    assert [line.split()[:2] for line in first_block.strip().splitlines()] == [["make", "run"], ["make", "test"]]
    assert "make test" in (Path(__file__).resolve().parents[1] / ".ci/run").read_text()


def test_library_example_runs_and_its_comments_are_true():
    namespace: dict = {}
    exec(python_blocks()[0], namespace)
    result = namespace["result"]
    assert str(result.winners[0].patterns) == "(<Pattern.ALL_PUNGS: 1>,)"
    assert result.winners[0].value == 12.0
    assert result.seat_deltas == (-12.0, -12.0, -12.0, 36.0)
    assert (result.next_hand.dealer_seat, result.next_hand.huangfan_count) == (3, 0)


def test_every_server_flag_is_documented():
    for f in fields(ServerConfig):
        flag = "--" + f.name.replace("_", "-")
        assert f"`{flag}`" in README, flag

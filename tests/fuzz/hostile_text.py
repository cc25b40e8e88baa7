"""The readers of untrusted text as fuzz targets, and the hostile texts their corpora start from
(issue 21): the JSON request reader behind HTTP bodies and batch lines, and the profile file
reader. Each target may only answer or report a problem; anything else is a crash."""

from __future__ import annotations

import time

import rules_core as rc
from convert.house_profiles import read_house_profile
from convert.json_read import read_list_waits_request, read_settle_request
from convert.json_text import JsonTextError, read_json
from profile_files.parse import parse_json, parse_yaml
from rules_core.errors import InvalidRequest

LONG = "1" + "0" * 4999  # over Python's 4,300-digit limit for int()


def alias_bomb(levels: int) -> str:
    lines = ["name: club-bomb", "base: classic", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join([*lines, f"overrides: *a{levels - 1}"]) + "\n"


HOSTILE_JSON = [
    b'{"dealerSeat": ' + LONG.encode() + b', "winners": [{"seat": -' + LONG.encode() + b"}]}",
    b'{"overrides": {"sankouSelfDrawShares": [' + LONG.encode() + b'], "unit": ' + LONG.encode() + b"}}",
    b'{"overrides": {"sankouSelfDrawShares": [1' + b"0" * 400 + b"]}}",  # found by the json target
    b'{"winners": ' + b"[" * 100_000,
    b'{"winners": ' + b"[" * 65 + b"]" * 65 + b"}",
    b'{"requestId": "' + b"[" * 1000 + b'", "winners": [[[]]]}',
    b'{"requestId": "\\"]]]", "profile": "classic"}',
    '{"winners": [{"hand": {"concealed": ["東"]}}]}'.encode("utf-16"),
    b'{"\\u001b[31m": 1, "root:$6$salt$hash:19000::": 2}',
]
HOSTILE_PROFILES = [
    alias_bomb(9).encode(),
    b"base: &b classic\nname: club-m\noverrides:\n  <<: *b\n",
    b"name: club-l\nbase: classic\noverrides:\n  ordinaryBase: " + LONG.encode() + b"\n",
    b"name: club-h\nbase: classic\noverrides:\n  laziValue: 0x" + b"f" * 10_000 + b"\n",
    b"name: club-s\nbase: classic\noverrides:\n  huangfanMultiplier: " + b":".join([b"59"] * 5000) + b"\n",
    b"a: 2001-13-01\n",
    b"a: !!int abc\nb: !!float x\n",
    b"a: !!int \n",  # found by the profile target: PyYAML's int constructor raised IndexError
    b"a: !!python/object:os.system x\n",
    b"[" * 65 + b"]" * 65,
    b"[" * 100_000,
    b"root:$6$salt$hash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n",
    b'{"name": "club-j", "base": "classic", "overrides": {"ordinaryBase": ' + LONG.encode() + b"}}",
]


def json_request(data: bytes) -> None:
    """Any text, read as the server reads a JSON body, then settled and its waits listed."""
    try:
        document = read_json(data)
    except JsonTextError:
        return
    for read, answer in ((read_settle_request, rc.settle), (read_list_waits_request, rc.list_waits)):
        try:
            answer(read(document))
        except InvalidRequest:
            pass


def profile_file(data: bytes, seconds: float = 5.0) -> str | None:
    """Any bytes as a profile file, YAML then JSON: the first problem, or None for a valid profile."""
    text = data.decode("utf-8", "replace")
    problems = []
    for document, problem in (parse_yaml(text, time.monotonic() + seconds), parse_json(text)):
        if problem is None:
            entry, violations = read_house_profile(document, "fuzz")
            problem = None if entry is not None else "; ".join(f"{v.field}: {v.description}" for v in violations)
        problems.append(problem)
    return problems[0]

"""`bench.http_json_bodies` (docs/HTTP.md quotes it): an HTTP JSON body read as the HTTP face
reads it against protobuf's ParseDict, both making the same message of every body."""

from __future__ import annotations

import re

from tests.bench import bench_lines


def test_both_readings_of_every_body_are_timed_and_printed():
    lines = bench_lines("http_json_bodies", "--records", "12", "--passes", "1")
    pattern = r"(.*): \d+ CPU µs read as the HTTP face reads it, \d+ by ParseDict"
    assert [re.fullmatch(pattern, line).group(1) for line in lines] == [
        "a request of requests.jsonl (37)",
        "a simulated hand record (12)",
    ]

"""What a fuzz run leaves behind on the server side: every call counted in the metrics, and a
log of JSON lines, none of them huge."""

from __future__ import annotations

import json
import re

LONGEST_LOG_LINE = 16 * 1024
_STARTED = re.compile(
    r'^grpc_server_started_total\{[^}]*grpc_service="mahjong\.shanghai\.v1\.ScoringService"[^}]*\} (\S+)$'
)
_HANDLED = re.compile(
    r'^grpc_server_handled_total\{[^}]*grpc_service="mahjong\.shanghai\.v1\.ScoringService"[^}]*\} (\S+)$'
)


def counted_calls(metrics_text: str) -> tuple[int, int]:
    """(started, handled) calls of ScoringService, all codes and methods added up."""
    started = handled = 0.0
    for line in metrics_text.splitlines():
        if match := _STARTED.match(line):
            started += float(match.group(1))
        elif match := _HANDLED.match(line):
            handled += float(match.group(1))
    return int(started), int(handled)


def log_problems(log_text: str) -> list[str]:
    """Lines that are not one JSON object, and lines over the bound (a few of each, quoted short)."""
    not_json, too_long = [], []
    for line in log_text.splitlines():
        if len(line) > LONGEST_LOG_LINE:
            too_long.append(len(line))
        try:
            if isinstance(json.loads(line), dict):
                continue
        except ValueError:
            pass
        not_json.append(line[:120])
    problems = []
    if not_json:
        problems.append(f"{len(not_json)} log line(s) not JSON, such as {not_json[0]!r}")
    if too_long:
        problems.append(f"{len(too_long)} log line(s) over {LONGEST_LOG_LINE} bytes, longest {max(too_long)}")
    return problems

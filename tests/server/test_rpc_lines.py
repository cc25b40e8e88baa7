"""Issue 12: the line each call writes is built without structlog's processor chain; it must
stay the very line structlog would write (keys, values and their order), bounded, and off
above the info level."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.server.conftest import ROOT

WRITER = r"""
import sys, structlog
from server import logs
logs.configure_logging(sys.argv[1])
log = structlog.get_logger("shmj.rpc")
head = logs.rpc_line_head("mahjong.shanghai.v1.ScoringService/Settle", "INVALID_ARGUMENT")
fields = dict(duration_ms=0.125, request_id='id "汉字"\\\n', profile="club-" + "a" * 3000,
              profile_digest="sha256:" + "ab" * 32, peer="ipv6:[::1]:" + "9" * 3000)

def both():
    logs.write_rpc_line(head, fields["duration_ms"], fields["request_id"], fields["profile"],
                        fields["profile_digest"], fields["peer"])
    log.info("rpc", method="mahjong.shanghai.v1.ScoringService/Settle", code="INVALID_ARGUMENT", **fields)

both()
with structlog.contextvars.bound_contextvars(protocol="connect", codec="json"):
    both()
"""


def _lines(level: str) -> list[str]:
    ended = subprocess.run(
        [sys.executable, "-c", WRITER, level], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    return ended.stdout.splitlines()


def test_the_rpc_line_is_the_line_structlog_writes():
    lines = _lines("info")
    assert len(lines) == 4
    for ours, structlogs in (lines[0:2], lines[2:4]):
        mine, theirs = json.loads(ours), json.loads(structlogs)
        assert mine.pop("timestamp").endswith("Z") and theirs.pop("timestamp").endswith("Z")
        assert list(mine.items()) == list(theirs.items())  # the same keys in the same order
    first, bound = json.loads(lines[0]), json.loads(lines[2])
    assert first["request_id"] == 'id "汉字"\\\n' and first["duration_ms"] == 0.125
    assert len(first["peer"]) < 1100 and "characters cut" in first["peer"]
    assert len(first["profile"]) < 1100 and first["profile"].startswith("club-aaa")
    assert first["profile_digest"] == "sha256:" + "ab" * 32
    assert (bound["protocol"], bound["codec"]) == ("connect", "json")
    assert "protocol" not in first


def test_no_rpc_line_above_the_info_level():
    assert _lines("warning") == []


class _Stream:
    def __init__(self):
        self.written: list[str] = []
        self.flushes = 0

    def write(self, text: str) -> None:
        self.written.append(text)

    def flush(self) -> None:
        self.flushes += 1


def test_lines_written_in_one_pass_of_the_loop_are_flushed_once_at_its_end():
    import asyncio

    from server.logs import _RpcLines, rpc_line_head

    lines, stream = _RpcLines(), _Stream()
    lines.configure(True, stream)
    head = rpc_line_head("s/M", "OK")

    async def calls() -> list[int]:
        flushes = []
        for _ in range(3):
            lines.write(head, 1.0, "", "", "", "peer")
        flushes.append(stream.flushes)
        await asyncio.sleep(0)  # the loop's next pass
        flushes.append(stream.flushes)
        lines.write(head, 1.0, "", "", "", "peer")
        await asyncio.sleep(0)
        flushes.append(stream.flushes)
        return flushes

    assert asyncio.run(calls()) == [0, 1, 2]
    assert len(stream.written) == 4
    lines.write(head, 1.0, "", "", "", "peer")  # no loop running: flushed at once
    assert stream.flushes == 3


def test_the_timestamp_is_the_one_datetime_writes():
    """Formatted once a second: the same text as structlog's TimeStamper(fmt="iso", utc=True),
    which writes no fraction at a whole second."""
    import datetime

    from server.logs import _UtcClock

    clock = _UtcClock()
    for nanoseconds in (
        1_700_000_000_000_000_000,
        1_700_000_000_000_001_999,
        1_700_000_000_999_999_999,
        1_700_000_001_500_000_000,
        1_699_999_999_000_999_000,
    ):
        second, fraction = divmod(nanoseconds, 1_000_000_000)
        instant = datetime.datetime.fromtimestamp(second, tz=datetime.UTC).replace(microsecond=fraction // 1000)
        assert clock.at(nanoseconds) == instant.isoformat().replace("+00:00", "Z")
    assert clock.at(1_700_000_000_000_000_000) == "2023-11-14T22:13:20Z"
    assert clock.at(1_700_000_000_000_001_999) == "2023-11-14T22:13:20.000001Z"

"""`bench.unary_parts` (docs/PERFORMANCE.md shows it) times the handler the server registers
today: a unary method is a stream-unary handler that reads its request with ``context.read()``.
It had failed with a traceback since that change (the bench still called a unary handler),
and each run left its metrics' directory behind in the temporary directory."""

from __future__ import annotations

import os

from tests.bench import bench_lines


def test_every_layer_of_the_registered_handler_is_timed(tmp_path):
    environ = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    lines = bench_lines("unary_parts", "--calls", "50", env={**environ, "TMPDIR": str(tmp_path)})
    assert lines[0].startswith("CPU per call in one process, microseconds (load average ")
    layers = [line.rsplit(maxsplit=2)[0].strip() for line in lines[2:]]
    assert layers == ["core", "+ domain metrics", "servicer Settle", "+ call wrapper, call metrics, log line"]
    assert list(tmp_path.iterdir()) == []  # its metrics' directory and log file removed at its end

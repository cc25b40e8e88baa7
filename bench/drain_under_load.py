"""How calls end across a SIGTERM under heavy load: 64 clients sending non-stop, plus clients
sending SettleBatch calls of 10,000 hands, against a real 2-worker server.

    python -m bench.drain_under_load                 # 5 runs with 4 batch clients
    python -m bench.drain_under_load --runs 10 --batches 0

Prints each run's count of calls by status code, and the runs' CANCELLED. Each run is one of
`tests/server/test_drain.py`'s tests under load (``--batches 0``: the one without batches;
4: the one with them), which assert 0 CANCELLED; repeated (docs/RELIABILITY.md).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from tests.server.test_drain import sigterm_under_load


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="SIGTERMs, one server each (default 5)")
    parser.add_argument("--batches", type=int, default=4, help="clients sending long SettleBatch calls (default 4)")
    args = parser.parse_args(argv)
    cancelled = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            codes = sigterm_under_load(Path(folder), args.batches)
        cancelled.append(sum(n for code, n in codes.items() if code.name == "CANCELLED"))
        print(json.dumps({"run": run + 1, "codes": dict(sorted((code.name, n) for code, n in codes.items()))}))
    print(json.dumps({"batches": args.batches, "cancelled_per_run": cancelled}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The engine's rate against a baseline commit's, side by side: rules_core's `settle` over the
same generated requests, in a child process per tree, the two trees' runs interleaved.

    git worktree add /tmp/baseline 06bb1c5 && (cd /tmp/baseline && ln -s $PWD/gen gen && \
        ../path/to/.venv/bin/python compile_core.py)      # the baseline, compiled as make install does
    .venv/bin/python -m bench.engine_ab --baseline /tmp/baseline --runs 7

Each child imports the tree it runs in (its rules_core, compiled when that tree's build is), makes
the requests with that tree's generator and seed, and prints settlements per CPU-second, best of
``--passes`` passes. A tree from before the wire layer moved out of rules_core has its generator
in rules_core and its digest on the profile; a later one has them in `generators/` and
`convert.profile_digest`: the child finds whichever the tree has. The medians of the runs, their
ratio and every run go to ``--json`` under the key ``engine``, merged into what the file holds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import gc, json, sys, time
try:
    from generators.random_hands import generate_requests
except ImportError:
    from rules_core.random_hands import generate_requests
import rules_core as rc
try:
    from convert.profile_digest import BUILTIN_REGISTRY
    settle = lambda request: rc.settle(request, BUILTIN_REGISTRY)
except ImportError:
    settle = rc.settle
count, passes = int(sys.argv[1]), int(sys.argv[2])
requests = generate_requests(count, 2026)
gc.collect(); gc.freeze()
best = 0.0
for _ in range(passes):
    start = time.process_time()
    for request in requests:
        try:
            settle(request)
        except rc.InvalidRequest:
            pass
    best = max(best, count / (time.process_time() - start))
print(json.dumps({"rate": best, "build": rc.BUILD}))
"""


def rate(tree: Path, count: int, passes: int) -> dict:
    ended = subprocess.run(
        [sys.executable, "-c", CHILD, str(count), str(passes)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    if ended.returncode != 0:
        raise SystemExit(f"engine_ab: the run in {tree} failed: {ended.stderr.strip().splitlines()[-1:]}")
    return json.loads(ended.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the baseline commit's tree, compiled")
    parser.add_argument("--runs", type=int, default=7, help="runs of each tree, interleaved (default 7)")
    parser.add_argument("--count", type=int, default=20_000, help="generated requests (default 20,000)")
    parser.add_argument("--passes", type=int, default=3, help="passes a run, the best kept (default 3)")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "baseline.json")
    args = parser.parse_args(argv)
    baseline, current = [], []
    builds = set()
    for _ in range(args.runs):
        for tree, rates in ((args.baseline, baseline), (ROOT, current)):
            found = rate(tree, args.count, args.passes)
            rates.append(round(found["rate"]))
            builds.add(found["build"])
    result = {
        "baseline_median_per_cpu_second": statistics.median(baseline),
        "current_median_per_cpu_second": statistics.median(current),
        "current_over_baseline": round(statistics.median(current) / statistics.median(baseline), 3),
        "baseline_runs": baseline,
        "current_runs": current,
        "builds": sorted(builds),
        "command": f"python -m bench.engine_ab --baseline BASELINE --runs {args.runs} --count {args.count}",
    }
    held = json.loads(args.json.read_text()) if args.json.exists() else {}
    held["engine"] = result
    args.json.write_text(json.dumps(held, indent=1) + "\n")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

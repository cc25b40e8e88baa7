"""Instructions per unary Settle in one process, counted by valgrind: an A/B the host's load cannot move.

    .venv/bin/python -m bench.unary_instructions [--baseline DIR] [--calls N]

The handler the server registers for Settle (`bench.unary_parts`' last layer: the call wrapper,
its metrics and log line, the servicer, the rules) runs ``--calls`` times after a warm-up, in a
process under valgrind's callgrind, which counts the instructions only once the warm-up is done
(``callgrind_control --instr=on``, and off after the last call). With ``--baseline`` the same runs in another checkout (its
own code, this checkout's Python), and the figure is this checkout's count per call over the
baseline's. gRPC's core is not in it (about nine tenths of a worker's CPU per call,
`bench.unary_cost`), so a difference in Python's share reads here at several times its size in
the worker's. Timing an A/B of a few hundred nanoseconds a call on a shared host takes dozens
of rounds and still moves by a few percent (docs/PERFORMANCE.md); a count moves by up to 0.3%
from run to run (the calls' durations, which the metrics and the log line take, differ). The
baseline checkout must have `bench.unary_parts` at 3dc27cd or later.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARM_UP_CALLS = 500


def _count_here(calls: int) -> None:
    """In the process valgrind runs: warm up, switch counting on, make ``calls`` calls."""
    from bench import unary_parts  # (its metrics go to a directory it removes at exit)
    from bench.unary_cost import bench_request
    from server import logs

    body, _ = bench_request(2026)
    step = list(unary_parts.layers(body).values())[-1]  # the whole registered handler

    def counting(on: bool) -> None:  # bench.callgrind.counting, which a baseline checkout may lack
        switch = ["callgrind_control", f"--instr={'on' if on else 'off'}", str(os.getpid())]
        subprocess.run(switch, stdout=subprocess.DEVNULL, check=True)

    async def run() -> None:  # one event loop: its start and end are not counted
        for _ in range(WARM_UP_CALLS):
            await step()
        counting(True)
        for _ in range(calls):
            await step()
        counting(False)  # nor is the interpreter's exit

    out = sys.stdout
    with open(os.devnull, "w") as sink:  # the calls' log lines
        sys.stdout = sink
        logs.configure_logging("info")
        asyncio.run(run())
        sys.stdout = out


def instructions_per_call(checkout: Path, calls: int) -> float:
    """Instructions per call of the handler of ``checkout``'s code, counted by callgrind."""
    from bench.callgrind import instructions  # here: this file also runs in a baseline checkout without it

    # run from a path in -c, so that the checkout (the working directory) comes first on sys.path
    run_this = f"import runpy; runpy.run_path({str(Path(__file__).resolve())!r}, run_name='__main__')"
    command = [sys.executable, "-c", run_this, "--count-here", str(calls)]
    env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONHASHSEED": "0"}
    return instructions(command, checkout, env, f"in {checkout}") / calls


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000, help="calls counted, after a warm-up of 500")
    parser.add_argument("--baseline", type=Path, help="another checkout of the project, counted the same way")
    parser.add_argument("--count-here", type=int, help=argparse.SUPPRESS)  # the process valgrind runs
    args = parser.parse_args(argv)
    if args.count_here:
        _count_here(args.count_here)
        return 0
    from bench.callgrind import missing_tools

    missing = missing_tools()
    if missing:
        print(f"bench.unary_instructions: {' and '.join(missing)} not found: apt-get install valgrind", file=sys.stderr)
        return 1
    from bench.unary_cost import checkout_commit, core_build

    checkouts = {"service": ROOT, **({"baseline": args.baseline.resolve()} if args.baseline else {})}
    counts = {}
    for name, checkout in checkouts.items():
        counts[name] = instructions_per_call(checkout, args.calls)
        print(
            f"  {name} ({checkout_commit(checkout)}, rules_core {core_build(checkout)}):"
            f" {counts[name]:,.0f} instructions per unary Settle",
            flush=True,
        )
    if args.baseline:
        extra = counts["service"] - counts["baseline"]
        print(f"  service / baseline {counts['service'] / counts['baseline']:.4f} ({extra:+,.0f} instructions a call)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

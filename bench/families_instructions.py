"""Instructions per settlement under the rule families against `classic`, counted by valgrind.

    .venv/bin/python -m bench.families_instructions [--requests N]

The same generated requests (`generators.random_hands`, seed 2026) are settled under `classic`
and under each profile of RULES.md section 14, every seat knocked so that `qiaoma`'s wins are
judged in full, as `bench.rules_core_bench`'s families comparison settles them; requests a
profile refuses (a dragon among the tiles under dragons_are_flowers) count as they cost. Each
profile runs in its own process under callgrind, which counts only after a warm-up pass
(``callgrind_control --instr=on``). A count moves by well under 1% from run to run, where CPU
time on a shared host moves by tens of percent: this is the A/B the host's load cannot move.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bench.callgrind import instructions, missing_tools

ROOT = Path(__file__).resolve().parents[1]
PROFILES = ("classic", "qiaoma", "qiaoma_lezi", "qinghunpeng")


def _count_here(profile: str, count: int) -> None:
    """In the process valgrind runs: settle the requests once to warm the caches, then count
    a second pass."""
    from bench.callgrind import counting
    from generators.random_hands import generate_requests
    from rules_core import InvalidRequest, settle
    from rules_core.requests import replace

    requests = [replace(r, profile=profile, declared_seats=(0, 1, 2, 3)) for r in generate_requests(count, 2026)]

    def settle_all() -> None:
        for request in requests:
            try:
                settle(request)
            except InvalidRequest:
                pass

    settle_all()
    counting(True)
    settle_all()
    counting(False)


def instructions_per_settle(profile: str, count: int) -> float:
    """Instructions per settlement of ``count`` generated requests under ``profile``."""
    command = [sys.executable, "-m", "bench.families_instructions", "--count-here", profile, "--requests", str(count)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return instructions(command, ROOT, env, f"under {profile}") / count


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="generated requests settled per profile")
    parser.add_argument("--count-here", choices=PROFILES, help=argparse.SUPPRESS)  # the process valgrind runs
    args = parser.parse_args(argv)
    if args.count_here:
        _count_here(args.count_here, args.requests)
        return 0
    missing = missing_tools()
    if missing:
        print(
            f"bench.families_instructions: {' and '.join(missing)} not found: apt-get install valgrind", file=sys.stderr
        )
        return 1
    from rules_core import BUILD

    counts = {profile: instructions_per_settle(profile, args.requests) for profile in PROFILES}
    print(f"  rules_core {BUILD}, {args.requests} generated requests a profile")
    for profile, count in counts.items():
        ratio = "" if profile == "classic" else f"  {count / counts['classic']:.3f}x classic"
        print(f"  {profile:<12} {count:>12,.0f} instructions per settlement{ratio}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: replaying hand records (牌谱) against settling the requests they imply.

    make bench-records      # or: python -m bench.records_bench [--count 400] [--families] [--json FILE]

Simulated hands (`generators.record_simulator`) of 80 to 120 events, about 100, are replayed
with `settle_record` (every event checked, the 漏胡 passes judged, the derived request settled)
and their derived requests settled alone with `settle`, on one core, in the compiled and the
pure-Python builds (each in a child process, ``SHMJ_PURE_PYTHON=1`` for the second). CPU time
(`time.process_time`), the best of several rounds: the machine is shared. The figure that
matters is the ratio: a record's CPU against its derived settle's (target: at most 20x). The
costliest record known (`bench.costliest_record`, a hostile one) is measured too, against the
mean simulated record. With ``--families`` the hands are those of the rule families of
RULES.md section 14 (`qiaoma`, `qiaoma_lezi`, `qinghunpeng`: dragon flowers, the knock).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from bench.costliest_record import costliest_record

ROUNDS = 5


def measure(count: int, seed: int, families: bool = False) -> dict:
    """Records per second and the CPU ratio, in this process's build."""
    from functools import partial

    from generators.record_simulator import FAMILY_PROFILES, PROFILES, RecordSimulator
    from rules_core import BUILD
    from rules_core import settle as settle_alone
    from rules_core import settle_record as replay_alone
    from rules_core.registry import BUILTIN_REGISTRY as registry

    settle, settle_record = partial(settle_alone, profiles=registry), partial(replay_alone, profiles=registry)
    simulator = RecordSimulator(seed, FAMILY_PROFILES if families else PROFILES, registry)
    records = []
    index = 0
    while len(records) < count:
        record = simulator.record(index)
        index += 1
        if 80 <= len(record.events) <= 120:
            records.append(record)
    derived = [settle_record(r).derived for r in records]
    replay_times, settle_times = [], []
    for _ in range(ROUNDS):
        start = time.process_time()
        for record in records:
            settle_record(record)
        replay_times.append(time.process_time() - start)
        start = time.process_time()
        for _ in range(5):
            for request in derived:
                settle(request)
        settle_times.append((time.process_time() - start) / 5)
    replay, alone = min(replay_times), min(settle_times)
    costliest = _costliest_us()
    return {
        "build": BUILD,
        "profiles": "families" if families else "classic, sankou, lezi",
        "records": len(records),
        "mean_events": round(sum(len(r.events) for r in records) / len(records), 1),
        "records_per_second": round(len(records) / replay),
        "record_us": round(replay / len(records) * 1e6, 1),
        "derived_settle_us": round(alone / len(records) * 1e6, 2),
        "ratio": round(replay / alone, 1),
        "costliest_events": len(costliest_record().events),
        "costliest_record_us": round(costliest, 1),
        "costliest_over_mean_record": round(costliest / (replay / len(records) * 1e6), 1),
    }


def _costliest_us() -> float:
    """CPU of the costliest record known (`bench.costliest_record`), best of the rounds."""
    from rules_core import settle_record

    record = costliest_record()
    times = []
    for _ in range(ROUNDS):
        start = time.process_time()
        for _ in range(20):
            settle_record(record)
        times.append((time.process_time() - start) / 20)
    return min(times) * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=400, help="records of 80-120 events (default 400)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--families", action="store_true", help="hands of qiaoma, qiaoma_lezi and qinghunpeng")
    parser.add_argument("--json", help="write the figures to this file too")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.count, args.seed, args.families)))
        return 0
    results = []
    for pure in (False, True):
        env = {**os.environ, "SHMJ_PURE_PYTHON": "1" if pure else "0"}
        command = [sys.executable, "-m", "bench.records_bench", "--child", "--count", str(args.count)]
        command += ["--seed", str(args.seed)] + (["--families"] if args.families else [])
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        results.append(json.loads(done.stdout))
    for result in results:
        print(
            f"{result['build']:>8}: {result['records_per_second']:>6} records/s"
            f"  {result['record_us']:>7} us a record of {result['mean_events']} events"
            f"  {result['derived_settle_us']:>6} us its derived settle  ratio {result['ratio']}x;"
            f"  the costliest record ({result['costliest_events']} events) {result['costliest_record_us']} us,"
            f" {result['costliest_over_mean_record']}x"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

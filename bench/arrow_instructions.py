"""Instructions per record of the Arrow core against the engine's settle, counted by valgrind.

    .venv/bin/python -m bench.arrow_instructions [--records N] [--every-field]

`bench.native_ab`'s records (5% malformed; ``--every-field`` as this product writes its JSON)
as nested RecordBatches of 2,000 rows: the engine settles the requests already read
(``native_ab.engine``), the Arrow core settles the batches (``batch.arrow.settle_arrow_batch``,
``native_ab.arrow_core``). Each runs in its own process under callgrind, which counts only the
second of two passes (``callgrind_control --instr=on``). A count moves by well under 1% from
run to run, where the CPU time `bench.native_ab` measures moves by tens of percent on a shared
host: this is the ratio the host's load cannot move. It leaves out what instructions do not
show (cache misses: a batch's requests are all read before they are settled), so the time
ratio of a quiet machine is a few hundredths above it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bench.callgrind import instructions, missing_tools

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("engine", "arrow")


def _count_here(part: str, count: int, every_field: bool) -> None:
    """In the process valgrind runs: one pass to warm up, then the counted one."""
    import gc

    from bench import native_ab
    from bench.callgrind import counting

    lines, batches = native_ab.generated(count, seed=11, every_field=every_field)
    work, data = (
        (native_ab.engine, native_ab.requests_of(lines)) if part == "engine" else (native_ab.arrow_core, batches)
    )
    gc.collect()
    gc.freeze()  # the generated data is not the paths' cost, as in bench.native_ab
    work(data)
    counting(True)
    work(data)
    counting(False)


def instructions_per_record(part: str, count: int, every_field: bool) -> float:
    command = [sys.executable, "-m", "bench.arrow_instructions", "--count-here", part, "--records", str(count)]
    command += ["--every-field"] if every_field else []
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return instructions(command, ROOT, env, f"of the {part}") / count


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=4000, help="generated records (2,000 a batch)")
    parser.add_argument("--every-field", action="store_true", help="records as this product writes JSON")
    parser.add_argument("--count-here", choices=PARTS, help=argparse.SUPPRESS)  # the process valgrind runs
    args = parser.parse_args(argv)
    if args.count_here:
        _count_here(args.count_here, args.records, args.every_field)
        return 0
    missing = missing_tools()
    if missing:
        print(f"bench.arrow_instructions: {' and '.join(missing)} not found: apt-get install valgrind", file=sys.stderr)
        return 1
    from rules_core import BUILD

    counts = {part: instructions_per_record(part, args.records, args.every_field) for part in PARTS}
    form = "every field written" if args.every_field else "as MessageToDict writes them"
    print(f"  rules_core {BUILD}, {args.records} generated records, {form}")
    print(f"  engine {counts['engine']:>12,.0f} instructions per record")
    print(
        f"  arrow  {counts['arrow']:>12,.0f} instructions per record  {counts['arrow'] / counts['engine']:.3f}x the engine"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

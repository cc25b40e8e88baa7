"""Coverage-guided fuzzing (atheris, over libFuzzer) of each native module of batch/native,
differential against its Python twin (`tests.fuzz.native_twins`), then every input it kept
replayed against the build with AddressSanitizer and UndefinedBehaviorSanitizer:

    python -m tests.fuzz.native_guided json_request --corpus DIR -max_total_time=30
    SHMJ_NATIVE_DIR=build/native-sanitized/batch/native LD_PRELOAD=... \\
        python -m tests.fuzz.native_guided json_request --replay DIR

``make fuzz-native`` runs both for each module. A disagreement with the twin stops the fuzzing
with the input that caused it; a read outside a buffer or undefined behaviour stops the replay.
The two steps are apart because atheris's coverage cannot be had beside gcc's sanitizer
runtime (both provide the coverage hooks), and gcc cannot build the C with libFuzzer's
coverage: atheris guides by the coverage of the Python it instruments (the twins and the
readers before them), and the C is reached through what that finds.

The input is a JSON Lines line, the form all four modules meet; the corpus starts from the
lines of generated requests and the hostile texts of `tests.fuzz.hostile_text`.
"""

from __future__ import annotations

import sys
from pathlib import Path

USAGE = "usage: python -m tests.fuzz.native_guided MODULE (--corpus DIR [libFuzzer flags] | --replay DIR)"


def replay(name: str, folder: Path) -> None:
    """Every input of ``folder`` through the target."""
    from tests.fuzz.native_twins import MODULES, TARGETS

    built(name, MODULES)
    inputs = sorted(path for path in folder.iterdir() if path.is_file())
    for path in inputs:
        TARGETS[name](path.read_bytes())
    print(f"batch.native.{name}: {len(inputs)} inputs replayed, each answered as its Python twin answers")


def fuzz(name: str, corpus: Path, argv: list[str]) -> None:
    import atheris

    with atheris.instrument_imports(include=["batch", "convert", "rules_core"]):  # before anything imports them
        from tests.fuzz.native_twins import MODULES, TARGETS, json_seeds
    from tests.fuzz.coverage_guided import _dictionary, run  # its own instrumenting ends a block

    built(name, MODULES)
    run(name, TARGETS[name], json_seeds(), _dictionary("json"), argv, corpus)


def built(name: str, modules: dict) -> None:
    if modules[name] is None:
        print(f"batch.native.{name} is not built (make install, or make fuzz-native's build)", file=sys.stderr)
        raise SystemExit(2)


MODULE_NAMES = ("json_request", "json_answer", "arrow_results")


def main(argv: list[str]) -> None:
    if len(argv) < 4 or argv[1] not in MODULE_NAMES or argv[2] not in ("--corpus", "--replay"):
        print(USAGE, file=sys.stderr)
        raise SystemExit(2)
    name, folder = argv[1], Path(argv[3])
    if argv[2] == "--replay":
        replay(name, folder)
    else:
        fuzz(name, folder, [argv[0], name, *argv[4:]])  # run() takes libFuzzer's flags from argv[2:]


if __name__ == "__main__":
    main(sys.argv)

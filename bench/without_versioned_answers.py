"""Issue 25's per-call work with tracing off, A/B: this commit against itself without that work.

    .venv/bin/python -m bench.without_versioned_answers [--checkout DIR] [bench.unary_cost options]
    make bench-tracing-off

DIR (by default a sibling of this checkout, ``<name>-without-versioned-answers``) becomes a
git worktree of HEAD with `bench/without_versioned_answers.patch` applied and committed there
(detached, so its commit has a hash to name), compiled with `make install`; then
`bench.unary_cost` runs with it as ``--baseline``, so both servers are measured in one run,
rounds interleaved. The figure is "service / baseline": this checkout's worker CPU per unary
Settle over the same code without the span hooks, the answer's digest and versions and the
pin check. Commit first: the service side is this working tree, the baseline is made from HEAD.
A patch that no longer applies (its lines changed on a later main) ends the run before
anything is measured, naming the commit it was made against.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from bench import unary_cost

ROOT = Path(__file__).resolve().parents[1]
PATCH = ROOT / "bench" / "without_versioned_answers.patch"
BENCH_IDENTITY = ("-c", "user.name=shmj bench", "-c", "user.email=bench@localhost")


class Unmade(Exception):
    """The baseline checkout could not be made (said in one line, no traceback)."""


def git(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise Unmade(f"git {' '.join(args)}: {(done.stderr or done.stdout).strip()}")
    return done.stdout.strip()


def made_against() -> str:
    """The commit the patch names in its preamble ("Made against main at ...")."""
    for line in PATCH.read_text().splitlines():
        if "Made against main at " in line:
            return line.split("Made against main at ", 1)[1].split()[0].rstrip(".")
    return "an unnamed commit"


def make_baseline(checkout: Path) -> str:
    """``checkout`` as HEAD with the patch applied and committed; returns its commit."""
    head = git("rev-parse", "HEAD")
    if (checkout / ".git").exists():
        git("checkout", "--quiet", "--force", "--detach", head, cwd=checkout)
    else:
        git("worktree", "add", "--quiet", "--detach", str(checkout), head)
    done = subprocess.run(["git", "apply", "--check", str(PATCH)], cwd=checkout, capture_output=True, text=True)
    if done.returncode != 0:
        raise Unmade(
            f"{PATCH.relative_to(ROOT)} does not apply to HEAD ({head[:7]}); it was made against"
            f" {made_against()}: take issue 25's per-call work out of today's code again and"
            f" write the patch anew (git diff). {done.stderr.strip().splitlines()[0]}"
        )
    git("apply", str(PATCH), cwd=checkout)
    message = f"main at {head[:7]} without issue 25's per-call work ({PATCH.relative_to(ROOT)}): A/B baseline"
    git(*BENCH_IDENTITY, "commit", "--quiet", "--all", "--message", message, cwd=checkout)
    print(f"baseline: {checkout} at {git('rev-parse', '--short', 'HEAD', cwd=checkout)} (HEAD {head[:7]} + patch)")
    built = subprocess.run(["make", "install"], cwd=checkout, capture_output=True, text=True)
    if built.returncode != 0:
        raise Unmade(f"make install in {checkout} failed:\n{built.stdout[-2000:]}{built.stderr[-2000:]}")
    return git("rev-parse", "HEAD", cwd=checkout)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--checkout",
        type=Path,
        default=ROOT.parent / f"{ROOT.name}-without-versioned-answers",
        help="where the baseline checkout is made (a git worktree; reused when it is one)",
    )
    args, rest = parser.parse_known_args(argv)
    try:
        make_baseline(args.checkout.resolve())
    except Unmade as error:
        print(f"bench.without_versioned_answers: {error}", file=sys.stderr)
        return 1
    return unary_cost.main(["--baseline", str(args.checkout.resolve()), *rest])


if __name__ == "__main__":
    sys.exit(main())

"""``python -m tests.fuzz``: start a server, send it fuzz bodies, report; exit 1 on any finding.

python -m tests.fuzz --seed 1 --count 50000 --report fuzz-report.json
python -m tests.fuzz --seed 1 --only 4711,4712      # replay findings by index
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

from tests.fuzz.runner import Finding, run_fuzz
from tests.fuzz.server_checks import counted_calls, log_problems
from tests.server.conftest import run_server


def _positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {value}")
    return value


def _indexes(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected indexes such as 12,40, got {text!r}") from None


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the bodies (default 1)")
    parser.add_argument("--count", type=_positive, default=50_000, help="bodies to send (default 50000)")
    parser.add_argument("--start", type=int, default=0, help="index of the first body (default 0)")
    parser.add_argument("--only", type=_indexes, help="send only these body indexes (comma-separated)")
    parser.add_argument("--workers", type=_positive, default=2, help="server worker processes (default 2)")
    parser.add_argument(
        "--max-message-bytes", type=_positive, default=1 << 20, help="the server's limit (default 1048576)"
    )
    parser.add_argument("--deadline", type=float, default=5.0, help="seconds a call may take (default 5)")
    parser.add_argument("--report", default="fuzz-report.json", help="JSON report path (default fuzz-report.json)")
    return parser.parse_args(argv)


def describe(findings: list[Finding], shown: int = 30) -> str:
    """Findings grouped by rpc, kind and problem, with the first indexes of each."""
    groups: dict[tuple, list[int]] = {}
    for finding in findings:
        key = (finding.rpc, finding.kind.split(":")[0], finding.problem.split(" (")[0])
        groups.setdefault(key, []).append(finding.index)
    lines = []
    for (rpc, kind, problem), indexes in sorted(
        groups.items(), key=lambda item: (item[0][2].startswith("answered"), -len(item[1]))
    )[:shown]:
        lines.append(f"  {len(indexes):6}  {rpc or 'server'} {kind} {problem}  (e.g. {indexes[:5]})")
    return "\n".join(lines)


def main(argv=None) -> int:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="shmj-fuzz-") as tmp:
        server_args = ("--max-message-bytes", str(args.max_message_bytes))
        with run_server(Path(tmp), *server_args, workers=args.workers) as server:
            report = run_fuzz(
                server.address,
                args.seed,
                args.count,
                args.max_message_bytes,
                supervisor=server.process.pid,
                deadline=args.deadline,
                start=args.start,
                only=args.only,
                progress=lambda done, r: print(f"  {done} bodies, {len(r.findings)} findings", file=sys.stderr),
            )
            if server.process.poll() is None:
                started, handled = counted_calls(server.metrics())
                expected = report.reaching_handlers
                if (started, handled) != (expected, expected):
                    report.findings.append(
                        Finding(-1, "", "", f"metrics count {started} started, {handled} handled of {expected} calls")
                    )
            report.findings.extend(Finding(-1, "", "", problem) for problem in log_problems(server.log()))
    Path(args.report).write_text(report.to_json() + "\n")
    print(report.summary())
    if report.findings:
        print(f"findings by rpc, kind and problem (report {args.report}):\n{describe(report.findings)}")
    kinds = Counter(report.kinds)
    print(f"bodies by kind: {dict(kinds.most_common())}")
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())

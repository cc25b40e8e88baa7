"""Benchmark: an HTTP JSON body read into its request message, as the HTTP face reads it against
protobuf's ``ParseDict``.

    .venv/bin/python -m bench.http_json_bodies [--records N] [--passes P]

The HTTP face reads a `Settle` or `SettleRecord` body with the wire layer's JSON reader (the
reader of `settle_json`, `shmj replay` and `shmj rescore`) and makes the message from what it
read (`server/http/json_requests.py`); ``json_format.ParseDict`` would make the message at once.
Both read the same decoded bodies: every request of `examples/requests.jsonl`, and ``--records``
simulated hand records under every built-in profile; each set timed in CPU time by both in
turn, best of ``--passes`` passes each, in one process, so that a shared machine's load falls on
both alike. Prints CPU µs a body each way.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from google.protobuf import json_format
from mahjong.shanghai.v1 import records_pb2, settlement_pb2

import convert
from bench.json_read import best_pass
from convert.json_read import read_settle_record_request, read_settle_request
from convert.json_write import settle_record_request_dict
from generators.record_simulator import FAMILY_PROFILES, PROFILES, simulate_records

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "requests.jsonl"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--passes", type=int, default=25)
    args = parser.parse_args(argv)
    requests = [json.loads(line) for line in EXAMPLES.read_text(encoding="utf-8").splitlines()]
    records = [
        settle_record_request_dict(r) for r in simulate_records(args.records, profiles=PROFILES + FAMILY_PROFILES)
    ]
    forms = (
        (
            f"a request of {EXAMPLES.name} ({len(requests)})",
            requests,
            lambda body: convert.settle_request_message(read_settle_request(body)),
            lambda body: json_format.ParseDict(body, settlement_pb2.SettleRequest()),
        ),
        (
            f"a simulated hand record ({len(records)})",
            records,
            lambda body: convert.settle_record_request_message(read_settle_record_request(body)),
            lambda body: json_format.ParseDict(body, records_pb2.SettleRecordRequest()),
        ),
    )
    for name, bodies, ours, protobufs in forms:
        assert all(ours(body) == protobufs(body) for body in bodies), f"{name}: the two readings differ"
        mine, theirs = (best_pass(read, bodies, args.passes) / len(bodies) for read in (ours, protobufs))
        print(f"{name}: {mine * 1e6:.0f} CPU µs read as the HTTP face reads it, {theirs * 1e6:.0f} by ParseDict")


if __name__ == "__main__":
    main()

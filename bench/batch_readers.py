"""SettleBatch's entry readers side by side: each reader alone, and the whole handler with each.

The readers of a SettleBatchRequest's entries that this checkout has, on the same bodies in one
process, interleaved in each of ``--runs`` runs (medians reported), CPU µs per entry:

- ``protobuf``: protobuf's own parse of the body (upb, in C) and `convert.settle_request` of
  each entry, as Settle reads its one request;
- ``bytes``: the body's bytes read straight into core values (`convert.proto_bytes`, or
  `rules_core.proto_read` where a checkout has it there), compiled where the hot path is;
- ``native``: `batch.native.proto_request` (C), where a checkout has it and it is built.

``handler with <reader>``: `ScoringService.SettleBatch` called as gRPC calls it (the body parsed
by protobuf first, handed over with its bytes), reading its entries with that reader, settled,
written and counted, in a worker's collector thresholds (`bench.batch_in_process`).

    .venv/bin/python -m bench.batch_readers [--runs 7] [--hands 10000] [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable

from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
import rules_core as rc
from bench.batch_in_process import _NoDeadline, as_in_a_worker
from generators.random_hands import generate_requests
from server import service
from server.config import ServerConfig
from server.parsed_body import ParsedBody

BATCH = 1000


def bodies(hands: int, seed: int = 23) -> list[bytes]:
    """Serialised SettleBatchRequests of `BATCH` generated requests each."""
    messages = [convert.settle_request_message(r) for r in generate_requests(hands, seed=seed)]
    return [
        svc.SettleBatchRequest(requests=messages[start : start + BATCH]).SerializeToString()
        for start in range(0, len(messages), BATCH)
    ]


def _converted(body: bytes) -> list:
    read = []
    for message in svc.SettleBatchRequest.FromString(body).requests:
        try:
            read.append(convert.settle_request(message))
        except rc.InvalidRequest as error:
            read.append(error)
    return read


def _module(*names: str):
    for name in names:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


def readers() -> dict[str, Callable[[bytes], object]]:
    """Each reader this checkout has: the body's entries as core values."""
    found: dict[str, Callable[[bytes], object]] = {"protobuf": _converted}
    from_bytes = _module("convert.proto_bytes", "rules_core.proto_read")
    if from_bytes is not None:
        found["bytes"] = from_bytes.read_batch
    native = _module("batch.native")
    built = native.load("proto_request") if native is not None and hasattr(native, "load") else None
    if built is not None:
        found["native"] = built.read_batch
    return found


def _handler(payloads: list[bytes], reader: Callable[[bytes], object] | None) -> Callable[[], None]:
    """One pass of SettleBatch over ``payloads``, its entries read by ``reader`` (None: from the
    message, field by field)."""
    servicer = servicer_reading_with(reader)
    context = _NoDeadline()

    async def every_batch() -> None:
        for body in payloads:
            await servicer.SettleBatch(ParsedBody(svc.SettleBatchRequest.FromString(body), body), context)

    return lambda: asyncio.run(every_batch())


def servicer_reading_with(reader: Callable[[bytes], object] | None) -> service.ScoringService:
    """The servicer, reading its entries with ``reader`` (None: none from the bytes, every
    entry from its message)."""
    service.read_batch = reader if reader is not None else (lambda body: None)
    return service.ScoringService(ServerConfig(max_batch_size=BATCH))


def _cpu(run: Callable[[], object]) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def measure(hands: int, runs: int) -> dict[str, list[float]]:
    """CPU µs per entry of each reader and of the handler with each, one list per benchmark."""
    payloads = bodies(hands)
    found = readers()
    benchmarks: dict[str, Callable[[], object]] = {
        f"read, {name}": (lambda read=read: [read(body) for body in payloads]) for name, read in found.items()
    }
    original = getattr(service, "read_batch", None)
    for name, read in found.items():
        reader = None if name == "protobuf" else read
        benchmarks[f"handler with {name}"] = _handler(payloads, reader)
    figures: dict[str, list[float]] = {name: [] for name in benchmarks}
    with as_in_a_worker():
        for _ in range(runs):
            for name, run in benchmarks.items():
                if name.startswith("handler"):
                    reader_name = name.removeprefix("handler with ")
                    servicer_reading_with(None if reader_name == "protobuf" else found[reader_name])
                figures[name].append(_cpu(run) * 1e6 / hands)
    if original is not None:
        service.read_batch = original
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--out", help="write the figures as JSON here")
    args = parser.parse_args(argv)
    command = "python -m bench.batch_readers " + " ".join(sys.argv[1:] if argv is None else argv)
    figures = measure(args.hands, args.runs)
    report = {
        name: {
            "median_us_per_entry": round(statistics.median(values), 3),
            "runs_us_per_entry": [round(v, 3) for v in values],
            "build": rc.BUILD,
            "command": command.strip(),
        }
        for name, values in figures.items()
    }
    for name, entry in report.items():
        print(f"{name:28} {entry['median_us_per_entry']:8.2f} µs/entry  (runs {entry['runs_us_per_entry']})")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2, ensure_ascii=False)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

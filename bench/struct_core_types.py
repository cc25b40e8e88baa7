"""Would msgspec Structs as the core request types remove a reader? A measured prototype.

The same JSON Lines lines (generated requests, as protobuf writes them), read four
ways in one process, interleaved in each of ``--runs`` runs (medians reported), CPU µs a line:

- ``bounded``: `convert.json_read` of ``json.loads`` (every form, every fault named);
- ``fast``: `batch.fast_requests.read_json_request` (msgspec into its structs, then the core
  NamedTuples by a table look-up per enum: the conversion pass);
- ``native``: `batch.native.json_request` (C), where it is built;
- ``structs``: msgspec decoding straight into frozen ``gc=False`` Structs shaped as the core
  types (a prototype, `StructRequest`): no conversion pass, enums left as their proto names,
  since a core enum is an IntEnum by its core value and msgspec reads an IntEnum by number only;
- ``settle``: `rules_core.settle` of the core request, the engine's own cost, for scale.

    .venv/bin/python -m bench.struct_core_types [--lines 5000] [--runs 7] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Annotated

import msgspec
from google.protobuf.json_format import MessageToDict

import rules_core as rc
from batch import native
from batch.fast_requests import read_json_request
from convert.json_read import read_settle_request
from convert.messages import settle_request_message
from generators.random_hands import generate_requests


class _Struct(msgspec.Struct, frozen=True, gc=False, rename="camel", forbid_unknown_fields=True):
    pass


Int32 = Annotated[int, msgspec.Meta(ge=-(2**31), le=2**31 - 1)]


class StructMeld(_Struct):
    kind: str = "MELD_KIND_UNSPECIFIED"
    tiles: tuple[str, ...] = ()
    from_seat: Int32 = 0


class StructHand(_Struct):
    concealed: tuple[str, ...] = ()
    winning_tile: str = "TILE_UNSPECIFIED"
    melds: tuple[StructMeld, ...] = ()
    flowers: tuple[str, ...] = ()
    dragon_flowers: tuple[str, ...] = ()


class StructWinner(_Struct):
    seat: Int32 = 0
    hand: StructHand | None = None
    passed_tiles: tuple[str, ...] = ()
    replacement_draw: bool = False
    first_go_around: bool = False
    last_tile: bool = False


class StructDice(_Struct):
    first: Int32 = 0
    second: Int32 = 0


class StructRelation(_Struct):
    claimer_seat: Int32 = 0
    source_seat: Int32 = 0
    claims: Int32 = 0
    pattern_kept: bool = False


class StructRequest(_Struct):
    request_id: str = ""
    profile: str = ""
    dealer_seat: Int32 = 0
    dice: StructDice | None = None
    huangfan_count: Int32 = 0
    outcome: str = "OUTCOME_UNSPECIFIED"
    discarder_seat: Int32 = 0
    winners: tuple[StructWinner, ...] = ()
    liabilities: tuple[StructRelation, ...] = ()
    abandoning_seat: Int32 = 0
    profile_digest: str = ""
    declared_seats: tuple[Int32, ...] = ()


def lines_of(count: int, seed: int) -> list[bytes]:
    """The lines as protobuf writes them (fields at their default left out)."""
    return [json.dumps(MessageToDict(settle_request_message(r))).encode() for r in generate_requests(count, seed=seed)]


def per_line(read, lines: list) -> float:
    """CPU µs a line of ``read`` over every line."""
    start = time.process_time()
    for line in lines:
        read(line)
    return (time.process_time() - start) / len(lines) * 1e6


def settled(request: rc.SettleRequest):
    try:
        return rc.settle(request)
    except rc.InvalidRequest as error:  # the generator's malformed few: refused, as a service would
        return error


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--out", default="", help="write the figures as JSON here")
    args = parser.parse_args(argv)
    lines = lines_of(args.lines, args.seed)
    requests = [read_settle_request(json.loads(line)) for line in lines]
    assert [read_json_request(line) for line in lines] == requests, "the fast reader declined or misread a line"
    decode = msgspec.json.Decoder(StructRequest).decode
    readers = {
        "bounded": lambda line: read_settle_request(json.loads(line)),
        "fast": read_json_request,
        "structs": decode,
    }
    reader_in_c = native.load("json_request")
    if reader_in_c is not None:
        assert [reader_in_c.read(line) for line in lines] == requests, "the C reader declined or misread a line"
        readers["native"] = reader_in_c.read
    runs: dict[str, list[float]] = {name: [] for name in [*readers, "settle"]}
    for _ in range(args.runs):
        for name, read in readers.items():
            runs[name].append(per_line(read, lines))
        runs["settle"].append(per_line(settled, requests))
    figures = {name: round(statistics.median(values), 2) for name, values in runs.items()}
    figures["conversion pass (fast - structs)"] = round(figures["fast"] - figures["structs"], 2)
    report = {"build": rc.BUILD, "lines": args.lines, "runs": args.runs, "us_per_line": figures}
    print(json.dumps(report, indent=1))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=1)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

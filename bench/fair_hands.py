"""The fair rules benchmark: the same complete hands through rules_core, `mahjong` and PyMahjongGB.

Run as a child of `bench.rules_core_bench` with the reference libraries first on the path
(`mahjong`'s top-level package would shadow the generated `mahjong.shanghai.v1`; rules_core,
being pure, never imports that). Prints the figures as JSON on stdout.

The hands are the claimed wins of the seeded mix whose tiles form four sets and a pair (so
each library has a real win to value), one winner per request, each converted beforehand to
the library's own input: a `SettleRequest` for rules_core, 136-tile arrays, `Meld`s and a
`HandConfig` for `mahjong`, tile-code tuples for PyMahjongGB. Each library is timed on whole
categories in CPU time, the best of interleaved rounds, so that the host's load falls alike
on each.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from generators.random_hands import generate_requests
from rules_core import BUILD, InvalidRequest, MeldKind, Outcome, SettleRequest, settle
from rules_core.tiles import FIRST_HONOUR, TILE_KINDS

WIN_OUTCOMES = (Outcome.SELF_DRAW, Outcome.DISCARD, Outcome.ROBBING_KONG)
CATEGORIES = ("closed", "with melds", "flush", "honours", "many decompositions")
CATEGORY_TEXT = {
    "closed": "no melds",
    "with melds": "one to four melds",
    "flush": "one suit, with or without honours",
    "honours": "holds an honour set or pair",
    "many decompositions": "concealed tiles split into sets and a pair two or more ways",
}


def decompositions(counts: list[int]) -> int:
    """How many ways the concealed counts split into sets and one pair (sets only when the
    total is a multiple of 3). Written apart from rules_core.shape, which never enumerates."""

    def sets_only(start: int) -> int:
        i = start
        while i < TILE_KINDS and not counts[i]:
            i += 1
        if i == TILE_KINDS:
            return 1
        ways = 0
        if counts[i] >= 3:
            counts[i] -= 3
            ways += sets_only(i)
            counts[i] += 3
        if i < FIRST_HONOUR and i % 9 < 7 and counts[i + 1] and counts[i + 2]:
            for t in (i, i + 1, i + 2):
                counts[t] -= 1
            ways += sets_only(i)
            for t in (i, i + 1, i + 2):
                counts[t] += 1
        return ways

    if sum(counts) % 3 == 0:
        return sets_only(0)
    ways = 0
    for tile in range(TILE_KINDS):
        if counts[tile] >= 2:
            counts[tile] -= 2
            ways += sets_only(0)
            counts[tile] += 2
    return ways


def complete_hands(count: int, seed: int) -> list[tuple[SettleRequest, tuple[str, ...]]]:
    """Up to ``count`` one-winner requests of complete hands from the seeded mix, with their
    categories. Requests the rules refuse as malformed are left out."""
    hands = []
    for request in generate_requests(count * 3, seed):
        if request.outcome not in WIN_OUTCOMES:
            continue
        for winner in request.winners:
            single = request._replace(winners=(winner,), request_id="")
            try:
                settle(single)
            except InvalidRequest:
                continue
            hand = winner.hand
            counts = [0] * TILE_KINDS
            for tile in hand.concealed:
                counts[tile] += 1
            ways = decompositions(counts)
            if not ways:
                continue
            tiles = list(hand.concealed) + [t for meld in hand.melds for t in meld.tiles]
            suits = {t // 9 for t in tiles if t < FIRST_HONOUR}
            categories = ["with melds" if hand.melds else "closed"]
            if len(suits) == 1:
                categories.append("flush")
            if any(t >= FIRST_HONOUR for t in tiles):
                categories.append("honours")
            if ways >= 2:
                categories.append("many decompositions")
            hands.append((single, tuple(categories)))
            if len(hands) == count:
                return hands
    return hands


# ---- mahjong (MahjongRepository, riichi rules) ----------------------------------------------

# rules_core's tile index -> `mahjong`'s 34-index: the suits and winds agree; the dragons are
# red, green, white here and white (haku), green (hatsu), red (chun) there.
_TO_RIICHI = list(range(31)) + [33, 32, 31]


def to_mahjong(request: SettleRequest):
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld

    winner = request.winners[0]
    hand = winner.hand
    copies = [0] * TILE_KINDS

    def take(tile: int) -> int:
        index = _TO_RIICHI[tile] * 4 + copies[tile]
        copies[tile] += 1
        return index

    concealed = [take(t) for t in hand.concealed]
    win_tile = concealed[hand.concealed.index(hand.winning_tile)]
    melds = []
    tiles = list(concealed)
    for meld in hand.melds:
        meld_tiles = [take(t) for t in sorted(meld.tiles)]
        tiles.extend(meld_tiles)
        kind = {MeldKind.CHOW: Meld.CHI, MeldKind.PUNG: Meld.PON, MeldKind.ADDED_KONG: Meld.SHOUMINKAN}.get(
            meld.kind, Meld.KAN
        )
        melds.append(Meld(kind, meld_tiles, opened=meld.kind != MeldKind.CONCEALED_KONG))
    config = HandConfig(
        is_tsumo=request.outcome == Outcome.SELF_DRAW,
        is_rinshan=winner.replacement_draw,
        is_chankan=request.outcome == Outcome.ROBBING_KONG,
        player_wind=27 + winner.seat,
        round_wind=27,
    )
    return tiles, win_tile, melds, config


def mahjong_runner(hands):
    from mahjong.hand_calculating.hand import HandCalculator

    estimate = HandCalculator.estimate_hand_value

    def run():
        for tiles, win_tile, melds, config in hands:
            estimate(tiles, win_tile, melds=melds, config=config)

    return run


# ---- PyMahjongGB (C++, Chinese Official rules) ----------------------------------------------

_GB_CODES = (
    [f"W{n}" for n in range(1, 10)]  # 万 characters
    + [f"B{n}" for n in range(1, 10)]  # 筒 dots
    + [f"T{n}" for n in range(1, 10)]  # 条 bamboo
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)


def to_gb(request: SettleRequest):
    winner = request.winners[0]
    hand = winner.hand
    packs = []
    for meld in hand.melds:
        tiles = sorted(meld.tiles)
        if meld.kind == MeldKind.CHOW:
            packs.append(("CHI", _GB_CODES[tiles[1]], 1))
        elif meld.kind == MeldKind.PUNG:
            packs.append(("PENG", _GB_CODES[tiles[0]], (meld.from_seat - winner.seat) % 4 or 1))
        else:
            offer = 0 if meld.kind == MeldKind.CONCEALED_KONG else (meld.from_seat - winner.seat) % 4 or 1
            packs.append(("GANG", _GB_CODES[tiles[0]], offer))
    standing = list(hand.concealed)
    standing.remove(hand.winning_tile)
    self_draw = request.outcome == Outcome.SELF_DRAW
    return (
        tuple(packs),
        tuple(_GB_CODES[t] for t in standing),
        _GB_CODES[hand.winning_tile],
        len(hand.flowers),
        self_draw,
        False,  # the fourth tile
        request.outcome == Outcome.ROBBING_KONG or winner.replacement_draw,
        False,  # the wall's last tile
        winner.seat,
        0,  # prevalent wind: east
    )


def gb_runner(hands):
    from MahjongGB import MahjongFanCalculator

    def run():
        for args in hands:
            try:
                MahjongFanCalculator(*args)
            except TypeError:  # its way of saying a hand is not a win
                pass

    return run


def rules_core_runner(requests):
    def run():
        for request in requests:
            settle(request)

    return run


def best_cpu_seconds(runners: dict, rounds: int) -> dict[str, float]:
    best = dict.fromkeys(runners, float("inf"))
    clock = time.process_time
    for _ in range(rounds):
        for name, run in runners.items():
            start = clock()
            run()
            best[name] = min(best[name], clock() - start)
    return best


def measure(count: int, seed: int, rounds: int, names: tuple[str, ...] = ("mahjong", "PyMahjongGB")) -> dict:
    hands = complete_hands(count, seed)
    libraries = {"rules_core": (lambda r: r, rules_core_runner)}
    missing = {}
    for name, convert, runner, module in (
        ("mahjong", to_mahjong, mahjong_runner, "mahjong.hand_calculating.hand"),
        ("PyMahjongGB", to_gb, gb_runner, "MahjongGB"),
    ):
        if name not in names:
            continue
        try:
            __import__(module)
        except ImportError as error:
            missing[name] = str(error)
            continue
        libraries[name] = (convert, runner)
    groups = {"all complete hands": [r for r, _ in hands]}
    for category in CATEGORIES:
        groups[category] = [r for r, categories in hands if category in categories]
    figures: dict = {
        "build": BUILD,
        "hands": len(hands),
        "rounds": rounds,
        "missing": missing,
        "categories": {},
    }
    for group, requests in groups.items():
        runners = {name: runner([convert(r) for r in requests]) for name, (convert, runner) in libraries.items()}
        seconds = best_cpu_seconds(runners, rounds)
        figures["categories"][group] = {
            "hands": len(requests),
            "us_per_hand": {name: s / len(requests) * 1e6 for name, s in seconds.items()},
        }
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=6000, help="complete hands")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--references", default="mahjong,PyMahjongGB", help="the other libraries to time")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.count, args.seed, args.rounds, tuple(args.references.split(",")))))
    return 0


if __name__ == "__main__":
    sys.exit(main())

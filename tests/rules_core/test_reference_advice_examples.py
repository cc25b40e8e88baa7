"""The independent reference of section 15 (tests/rules_core/reference_advice) on RULES.md 15.7's
worked examples, so that the reference is held to the rules on its own, not only to the engine."""

from __future__ import annotations

from tests.rules_core.reference_advice import advise, review


def _tiles(text: str) -> list[str]:
    names = {"m": "TILE_M", "p": "TILE_P", "s": "TILE_S"}
    honours = {
        "E": "TILE_EAST",
        "S": "TILE_SOUTH",
        "W": "TILE_WEST",
        "N": "TILE_NORTH",
        "C": "TILE_RED",
        "F": "TILE_GREEN",
        "P": "TILE_WHITE",
    }
    out = []
    for part in text.split():
        if part[-1] in names:
            out += [names[part[-1]] + digit for digit in part[:-1]]
        else:
            out += [honours[h] for h in part]
    return out


def _meld(kind: str, text: str, source: int | None) -> dict:
    meld = {"kind": f"MELD_KIND_{kind}", "tiles": _tiles(text)}
    return meld if source is None else dict(meld, fromSeat=source)


def test_example_3_big_hanging_under_classic_and_dead_under_lezi():
    melds = [_meld("CHOW", "123m", 3), _meld("CHOW", "456p", 3), _meld("CHOW", "789s", 3), _meld("PUNG", "EEE", 1)]
    hand = {"concealed": _tiles("7s"), "melds": melds}
    classic = advise({"profile": "classic", "seat": 0, "hand": hand})
    assert classic["paths"] == [{"pattern": "PATTERN_BIG_HANGING", "suit": "SUIT_UNSPECIFIED", "shanten": 0}]
    assert classic["waits"] == [{"tile": "TILE_S7", "live": 2, "value": 20.0}]
    lezi = advise({"profile": "lezi", "seat": 0, "hand": hand})
    assert (lezi["reachable"], "shanten" in lezi, lezi["paths"]) == (False, False, [])


def test_example_5_four_copies():
    answer = advise({"profile": "classic", "seat": 0, "hand": {"concealed": _tiles("EEEE 123p 456p 789p")[:13]}})
    assert answer["shanten"] == 1 and answer["liveTotal"] == 51
    assert "TILE_EAST" not in [u["tile"] for u in answer["useful"]]


def test_example_6_big_hanging_whose_tile_is_gone():
    melds = [_meld("CHOW", "123m", 3), _meld("CHOW", "456p", 3), _meld("PUNG", "777s", 1), _meld("PUNG", "EEE", 2)]
    answer = advise({"profile": "classic", "seat": 0, "hand": {"concealed": _tiles("7s"), "melds": melds}})
    assert (answer["shanten"], len(answer["useful"]), answer["liveTotal"]) == (1, 32, 122)


def test_example_7_all_honours_in_any_shape():
    answer = advise({"profile": "classic", "seat": 0, "hand": {"concealed": _tiles("EE SS WW NN CC FF P")}})
    assert answer["shanten"] == 0 and answer["liveTotal"] == 15
    assert {w["value"] for w in answer["waits"]} == {40.0}
    assert [p["pattern"] for p in answer["paths"][:3]] == [
        "PATTERN_ALL_HONOURS",
        "PATTERN_ALL_PUNGS",
        "PATTERN_ALL_HONOURS_PUNGS",
    ]


def test_example_9_live_value_comes_before_live_total():
    answer = advise({"profile": "classic", "seat": 1, "hand": {"concealed": _tiles("111p 222p 333p 7789p C")}})
    rows = [(o["tile"], o["shanten"], o["liveValue"], o["liveTotal"], o["best"]) for o in answer["options"]]
    assert rows == [
        ("TILE_RED", 0, 40.0, 2, True),
        ("TILE_P7", 0, 18.0, 3, False),
        ("TILE_P1", 1, 0.0, 24, False),
        ("TILE_P2", 1, 0.0, 20, False),
        ("TILE_P3", 1, 0.0, 20, False),
        ("TILE_P9", 1, 0.0, 15, False),
        ("TILE_P8", 1, 0.0, 11, False),
    ]


def test_example_11_review_of_a_short_record():
    def event(kind, seat, tiles=None):
        out = {"kind": f"EVENT_KIND_{kind}", "seat": seat}
        if tiles:
            found = _tiles(tiles)
            out.update({"tiles": found} if kind == "DEAL" else {"tile": found[0]})
        return out

    record = {
        "profile": "classic",
        "dealerSeat": 0,
        "events": [
            event("DEAL", 0, "111p 222p 333p 7789p C"),
            event("DEAL", 1, "77p 111s 555s 99m EE 4m"),
            event("DEAL", 2, "123m 456m 78m SS W F 9s"),
            event("DEAL", 3, "EE SS WW NN CC FF P"),
            event("DISCARD", 0, "7p"),
            event("PUNG", 1),
            event("DISCARD", 1, "4m"),
            event("DRAW", 2, "9m"),
            event("DISCARD", 2, "W"),
            {"kind": "EVENT_KIND_EXHAUSTIVE_DRAW"},
        ],
    }
    answer = review(record)
    assert [
        (d["eventIndex"], d["shanten"], d["bestTiles"], d["agrees"], d["backward"]) for d in answer["discards"]
    ] == [
        (4, 0, ["TILE_RED"], False, False),
        (6, 0, ["TILE_M4"], True, False),
        (8, 1, ["TILE_S9"], False, False),
    ]
    summary = [(s["discards"], s["agreements"], s["backward"], s["deadDiscards"]) for s in answer["seats"]]
    assert summary == [(1, 0, 0, 0), (1, 1, 0, 0), (1, 0, 0, 0), (0, 0, 0, 0)]
    passes = [(p["seat"], p["tile"], p["eventIndex"]) for p in answer["seats"][3]["passes"]]
    assert passes == [(3, "TILE_WEST", 8)]

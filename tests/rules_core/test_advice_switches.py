"""RULES.md 15.2-15.3 under section 14's switches: `ordinary_hand_wins` makes a complete hand with
no qualifying pattern a target (the path ORDINARY, 垃圾胡), and `seven_pairs` with SEVEN_PAIRS
qualifying makes a seven-pairs hand a target. The values are those `settle_json` gives the winning
hand as a self-draw by seat 1 (CONCEALED, no 花: (3 + 0) x 2 = 6)."""

from __future__ import annotations

from rules_core import advise_json
from tests.rules_core.reference_advice.holdings import ALL_SHAPE

CLASSIC_WITH_SEVEN_PAIRS = ALL_SHAPE + ["PATTERN_BIG_HANGING", "PATTERN_SEVEN_PAIRS"]


def _tiles(text: str) -> list[str]:
    names = {"m": "TILE_M", "p": "TILE_P", "s": "TILE_S"}
    return [names[part[-1]] + digit for part in text.split() for digit in part[:-1]]


def test_with_ordinary_hand_wins_a_mixed_hand_one_tile_short_is_ready_on_the_path_ordinary():
    """`123m 234m 456p 789s 5s` under classic with `ordinary_hand_wins`: `5s` completes a mixed
    hand with no qualifying pattern, legal as a self-draw (垃圾胡), so the holding is ready and the
    path ORDINARY (PATTERN_UNSPECIFIED) comes first at shanten 0."""
    answer = advise_json(
        {
            "profile": "classic",
            "overrides": {"ordinaryHandWins": True},
            "seat": 1,
            "hand": {"concealed": _tiles("123m 234m 456p 789s 5s")},
        }
    )
    assert answer["shanten"] == 0
    assert answer["paths"][0] == {"pattern": "PATTERN_UNSPECIFIED", "suit": "SUIT_UNSPECIFIED", "shanten": 0}
    assert answer["waits"] == [{"tile": "TILE_S5", "live": 3, "value": 6.0}]
    assert (answer["liveTotal"], answer["liveValue"]) == (3, 18.0)


def test_with_seven_pairs_six_pairs_and_a_single_are_ready_on_the_path_seven_pairs():
    """`11m 99m 22p 55p 88p 33s 7s` under classic with `seven_pairs` and SEVEN_PAIRS qualifying:
    `7s` makes seven pairs (not four sets and a pair), a legal self-draw, so the holding is ready
    and SEVEN_PAIRS is the first path at shanten 0."""
    answer = advise_json(
        {
            "profile": "classic",
            "overrides": {"sevenPairs": True, "qualifyingPatterns": CLASSIC_WITH_SEVEN_PAIRS},
            "seat": 1,
            "hand": {"concealed": _tiles("11m 99m 22p 55p 88p 33s 7s")},
        }
    )
    assert answer["shanten"] == 0
    assert answer["paths"][0] == {"pattern": "PATTERN_SEVEN_PAIRS", "suit": "SUIT_UNSPECIFIED", "shanten": 0}
    assert answer["waits"] == [{"tile": "TILE_S7", "live": 3, "value": 6.0}]
    assert (answer["liveTotal"], answer["liveValue"]) == (3, 18.0)

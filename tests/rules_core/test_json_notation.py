"""A hand in proto3 JSON may be written in the notation of RULES.md section 2: ``concealed`` (the
whole hand, melds and flowers included, as the CLI takes it), ``melds`` (bracketed melds),
``flowers`` and ``passedTiles`` as strings, ``winningTile`` as one tile. It settles exactly as
the same hand in TILE_ names does, and a fault points into the string."""

import pytest
from google.protobuf.json_format import MessageToDict

import convert
from convert import json_read
from rules_core import InvalidRequest, list_waits_json, settle_json
from tests.worked_examples import REQUESTS


def _names(example: str) -> dict:
    """A worked example's request in proto3 JSON with TILE_ names, as protobuf writes it."""
    return MessageToDict(convert.settle_request_message(REQUESTS[example]))


def _with_hand(example: str, **hand_and_winner) -> dict:
    """The example's request with its one winner's hand (and passedTiles) given as ``hand_and_winner``."""
    request = _names(example)
    (winner,) = request["winners"]
    passed = hand_and_winner.pop("passedTiles", None)
    winner["hand"] = hand_and_winner
    if passed is not None:
        winner["passedTiles"] = passed
    return request


NOTATION_EXAMPLES = [
    ("1", {"concealed": "111m 555m 999p EEE 77s", "winningTile": "7s", "flowers": "1f 5f"}),
    ("4", {"concealed": "456p 789p 111p 55p", "melds": "[123p@1]", "winningTile": "5p"}),
    ("4", {"concealed": "456p 789p 111p 55p [123p@1]", "winningTile": "5p"}),
    ("9", {"concealed": "222m 333p 999s 55m", "melds": "[EEE@2]", "winningTile": "5m", "flowers": "2f 3f 4f"}),
    ("9", {"concealed": "222m 333p 999s 55m [EEE@2] 2f 3f 4f", "winningTile": "5m"}),
    ("11", {"concealed": "111p 555s 777s 33m", "melds": "[9999m@0]", "winningTile": "3m", "flowers": "6f"}),
    ("12", {"concealed": "678p 99p", "melds": "[WWW@1] [NNN@1] [SSS@1]", "winningTile": "8p"}),
    (
        "19-self",
        {"concealed": "222m333p999s55m[EEE@2]", "winningTile": "5m", "flowers": "2f3f4f", "passedTiles": "5m"},
    ),
]


@pytest.mark.parametrize(
    ("example", "hand"), NOTATION_EXAMPLES, ids=[f"{e}-{i}" for i, (e, _) in enumerate(NOTATION_EXAMPLES)]
)
def test_a_hand_in_notation_settles_as_in_tile_names(example, hand):
    written = _with_hand(example, **hand)
    replacement = REQUESTS[example].winners[0].replacement_draw
    if replacement:
        written["winners"][0]["replacementDraw"] = True
    assert settle_json(written) == settle_json(_names(example))


def test_example_1_in_notation_pays_as_rules_md_says():
    answer = settle_json(_with_hand("1", concealed="111m 555m 999p EEE 77s", winningTile="7s", flowers="1f 5f"))
    assert answer["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert answer["winners"][0]["patterns"] == ["PATTERN_ALL_PUNGS", "PATTERN_CONCEALED"]


def test_snake_case_keys_take_notation_too():
    request = _names("19-self")
    request["winners"][0] = {
        "seat": 3,
        "hand": {"concealed": "222m 333p 999s 55m", "melds": "[EEE@2]", "winning_tile": "5m", "flowers": "2f 3f 4f"},
        "passed_tiles": "5m",
    }
    assert settle_json(request) == settle_json(_names("19-self"))


def test_a_meld_given_both_ways_is_a_fault_naming_both():
    request = _with_hand("4", concealed="456p 789p 111p 55p [123p@1]", melds="[123p@1]", winningTile="5p")
    with pytest.raises(InvalidRequest) as raised:
        settle_json(request)
    assert [(v.field, v.description) for v in raised.value.violations] == [
        (
            "winners[0].hand.melds",
            "given twice: as winners[0].hand.melds and in the notation of winners[0].hand.concealed; give melds one way",
        )
    ]


def test_flowers_given_both_ways_is_a_fault_naming_both():
    request = _with_hand("1", concealed="111m 555m 999p EEE 77s 1f", winningTile="7s", flowers=["FLOWER_PLUM"])
    with pytest.raises(InvalidRequest) as raised:
        settle_json(request)
    assert [(v.field, v.description) for v in raised.value.violations] == [
        (
            "winners[0].hand.flowers",
            "given twice: as winners[0].hand.flowers and in the notation of winners[0].hand.concealed; "
            "give flowers one way",
        )
    ]


def _faults(**hand) -> list[tuple[str, str]]:
    with pytest.raises(InvalidRequest) as raised:
        settle_json(_with_hand("1", **hand))
    return [(v.field, v.description) for v in raised.value.violations]


def test_a_fault_in_the_notation_names_the_field_and_points_at_its_character():
    assert _faults(concealed="111m 555m x99p EEE 77s", winningTile="7s") == [
        (
            "winners[0].hand.concealed",
            "bad notation at position 10 ('111m 555m ⟨x⟩99p EEE 77…'): "
            "unexpected 'x': tiles are 1-9 with m/p/s, E S W N C F P, flowers 1f-8f",
        )
    ]


def test_each_string_of_a_hand_is_checked_apart():
    assert _faults(concealed="111m 555m 999p EEE 77", winningTile="7z", flowers="1f 9f", melds="555p") == [
        (
            "winners[0].hand.concealed",
            "bad notation at position 21 ('…99p EEE 77⟨⟩'): numbers must end with a suit letter m, p, s or f",
        ),
        (
            "winners[0].hand.winning_tile",
            "bad notation at position 1 ('7⟨z⟩'): unexpected 'z': tiles are 1-9 with m/p/s, E S W N C F P, flowers 1f-8f",
        ),
        (
            "winners[0].hand.melds",
            "bad notation at position 0 ('⟨5⟩55p'): melds are written in brackets, as in '[555p@1]'",
        ),
        ("winners[0].hand.flowers", "bad notation at position 3 ('1f ⟨9⟩f'): flowers run from 1f to 8f"),
    ]


def test_a_winning_tile_is_one_tile():
    assert _faults(concealed="111m 555m 999p EEE 77s", winningTile="77s") == [
        ("winners[0].hand.winning_tile", "bad notation at position 0 ('⟨7⟩7s'): expected exactly one tile, read 2")
    ]


def test_a_name_that_is_no_tile_is_still_answered_with_the_names():
    (fault,) = _faults(concealed="111m 555m 999p EEE 77s", winningTile="s7")
    assert fault == ("winners[0].hand.winning_tile", "unknown value 's7' (did you mean TILE_S7?)")


def test_flowers_and_melds_have_no_place_among_passed_tiles():
    hand = {"concealed": "111m 555m 999p EEE 77s", "winningTile": "7s"}
    assert _faults(**hand, passedTiles="7s 1f") == [
        ("winners[0].passed_tiles", "bad notation at position 4 ('7s 1⟨f⟩'): flowers are not tiles here")
    ]


def test_a_long_string_is_refused_by_its_length_before_it_is_read(monkeypatch):
    def unread(text):
        raise AssertionError("parsed")

    monkeypatch.setattr(json_read, "parse_hand", unread)
    (fault,) = _faults(concealed="1m " * 3_500_000, winningTile="7s")
    assert fault == ("winners[0].hand.concealed", "at most 400 characters of notation, got 10,500,000")
    assert _faults(concealed="1m" * 201, winningTile="7s") == [
        ("winners[0].hand.concealed", "at most 400 characters of notation, got 402")
    ]


def test_a_string_of_more_tiles_than_a_hand_holds_is_refused_as_such_a_list_is():
    assert _faults(concealed="1m" * 200, winningTile="7s") == [
        ("winners[0].hand.concealed", "at most 14 entries, got 200")
    ]


def test_list_waits_takes_notation():
    names = {
        "profile": "classic",
        "hand": {"concealed": ["TILE_M1"] * 3 + ["TILE_M5"] * 3 + ["TILE_P9"] * 3 + ["TILE_EAST"] * 3 + ["TILE_S7"]},
        "passedTiles": ["TILE_S8"],
    }
    notation = {"profile": "classic", "hand": {"concealed": "111m 555m 999p EEE 7s"}, "passedTiles": "8s"}
    assert list_waits_json(notation) == list_waits_json(names)


def test_dragon_flowers_in_notation_are_the_hands_dragon_flowers():
    """``Cf Ff Pf`` among the flowers (or in the whole hand's string) fill `dragon_flowers`."""
    listed = {"concealed": "123m 456p 789s 234s EE", "winningTile": "E", "flowers": ["FLOWER_SPRING"]}
    listed["dragonFlowers"] = ["TILE_RED", "TILE_GREEN"]
    expected = json_read.read_hand(listed, "hand", [])
    for written in (
        {"concealed": "123m 456p 789s 234s EE", "winningTile": "E", "flowers": "1f Cf Ff"},
        {"concealed": "123m 456p 789s 234s EE 1f Cf Ff", "winningTile": "E"},
        {"concealed": "123m 456p 789s 234s EE Cf", "winningTile": "E", "flowers": "1f Ff"},
    ):
        violations: list = []
        assert json_read.read_hand(written, "hand", violations) == expected and violations == []
    both = {
        "concealed": "123m 456p 789s 234s EE",
        "winningTile": "E",
        "flowers": "1f Cf",
        "dragonFlowers": ["TILE_RED"],
    }
    violations = []
    json_read.read_hand(both, "hand", violations)
    assert [(v.field, v.description) for v in violations] == [
        (
            "hand.dragon_flowers",
            "given twice: as hand.dragon_flowers and in notation (Cf Ff Pf); give the dragon flowers one way",
        )
    ]

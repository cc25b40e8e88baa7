"""rules_core.settle_json: the proto3 JSON mapping of API.md, without gRPC."""

import pytest

from rules_core import InvalidRequest, settle_json
from tests.rules_core.words import ONE_OF_TILES

EXAMPLE_1 = {
    "requestId": "ex1",
    "profile": "classic",
    "outcome": "OUTCOME_SELF_DRAW",
    "winners": [
        {
            "seat": 0,
            "hand": {
                "concealed": ["TILE_M1"] * 3 + ["TILE_M5"] * 3 + ["TILE_P9"] * 3 + ["TILE_EAST"] * 3 + ["TILE_S7"] * 2,
                "winningTile": "TILE_S7",
                "flowers": ["FLOWER_SPRING", "FLOWER_PLUM"],
            },
        }
    ],
}


def test_example_1_in_json():
    response = settle_json(EXAMPLE_1)
    assert response["requestId"] == "ex1"
    assert response["unit"] == "UNIT_FLOWER"
    assert response["seatDeltas"] == [36.0, -12.0, -12.0, -12.0]
    assert response["nextHand"] == {"dealerSeat": 0, "huangfanCount": 0}  # defaults are printed
    (winner,) = response["winners"]
    assert winner["patterns"] == ["PATTERN_ALL_PUNGS", "PATTERN_CONCEALED"]
    assert winner["flowers"] == 3 and winner["value"] == 12.0
    assert winner["seat"] == 0 and winner["illegalReasons"] == []  # defaults are printed
    assert [p["fromSeat"] for p in response["payments"]] == [1, 2, 3]


def test_snake_case_keys_and_enum_numbers_are_accepted():
    snake = {
        "request_id": "ex1",
        "profile": "classic",
        "outcome": 1,
        "winners": [
            {
                "seat": 0,
                "hand": {
                    "concealed": EXAMPLE_1["winners"][0]["hand"]["concealed"],
                    "winning_tile": 25,
                    "flowers": [1, 5],
                },
            }
        ],
    }
    assert settle_json(snake) == settle_json(EXAMPLE_1)


def test_short_reading_names_are_accepted_in_overrides():
    request = dict(EXAMPLE_1, huangfanCount=2, overrides={"huangfanMode": "PER_LEVEL"})
    assert settle_json(request)["seatDeltas"] == [144.0, -48.0, -48.0, -48.0]


def test_malformed_json_names_each_field():
    bad = {
        "profile": "classic",
        "outcome": "OUTCOME_SELF_DRAW",
        "dice": {"first": "six"},
        "winners": [{"seat": 0, "hand": {"concealed": ["TILE_Q"], "colour": 1}}],
        "overrides": {"fixedValues": [{"value": 3}]},
    }
    with pytest.raises(InvalidRequest) as error:
        settle_json(bad)
    assert [v.field for v in error.value.violations] == [
        "overrides.fixed_values[0].pattern",
        "dice.first",
        "winners[0].hand.colour",
        "winners[0].hand.concealed[0]",
    ]


def test_semantic_errors_come_from_validation():
    with pytest.raises(InvalidRequest) as error:
        settle_json(dict(EXAMPLE_1, profile="Classic"))
    assert error.value.violations[0].field == "profile"


def test_not_an_object():
    with pytest.raises(InvalidRequest) as error:
        settle_json([1, 2])
    assert error.value.violations[0].field == "request"


def test_enum_lists_may_mix_names_and_numbers():
    hand = EXAMPLE_1["winners"][0]["hand"]
    numbered = dict(hand, concealed=[1, "TILE_M1", 1] + hand["concealed"][3:])  # TILE_M1 is number 1
    request = dict(EXAMPLE_1, winners=[dict(EXAMPLE_1["winners"][0], hand=numbered)])
    assert settle_json(request) == settle_json(EXAMPLE_1)


def test_each_bad_entry_of_an_enum_list_is_named_by_its_index():
    hand = {"concealed": ["TILE_M1", 2, [1], "TILE_NOPE", "TILE_UNSPECIFIED", {"a": 1}]}
    with pytest.raises(InvalidRequest) as error:
        settle_json(dict(EXAMPLE_1, winners=[{"seat": 0, "hand": hand}]))
    assert [tuple(v) for v in error.value.violations] == [
        ("winners[0].hand.concealed[2]", "expected a TILE_* name, got a list"),
        ("winners[0].hand.concealed[3]", "unknown value 'TILE_NOPE'" + ONE_OF_TILES),
        ("winners[0].hand.concealed[5]", "expected a TILE_* name, got an object"),
    ]


@pytest.mark.parametrize("written", ["2", "2.0", "2e0", "20e-1", "0.2E1"])
def test_a_whole_number_in_a_string_is_read_as_json_writes_numbers(written):
    """proto3 JSON lets an integer field come as a string holding a JSON number, in any of its
    forms (protobuf takes "2e0" and "2.0"); the value must be whole."""
    assert settle_json(dict(EXAMPLE_1, dealerSeat=written)) == settle_json(dict(EXAMPLE_1, dealerSeat=2))


@pytest.mark.parametrize("written", [" 2", "2 ", "2_0", "２", "+2", "02", "2.5", "0x2", "1e400", "2.", ".5e1", ""])
def test_a_string_that_is_no_json_number_is_no_whole_number(written):
    """Python's int() takes spaces, underscores, other scripts' digits and a plus sign; JSON's
    number grammar does not, so neither does this reader."""
    with pytest.raises(InvalidRequest) as error:
        settle_json(dict(EXAMPLE_1, dealerSeat=written))
    assert [(v.field, v.description.split(",")[0]) for v in error.value.violations] == [
        ("dealer_seat", "expected a whole number")
    ]

"""Dice and claims in one notation for the CLI and the explorer, each accepting the other's form."""

from __future__ import annotations

import pytest

from rules_core.errors import NotationError
from rules_core.table_notation import Claim, format_claims, format_dice, parse_claims, parse_dice, parse_seats


@pytest.mark.parametrize("text", ["3,3", "3 3", "3+3", " 3 , 3 "])
def test_dice_in_either_form(text):
    assert parse_dice(text) == (3, 3)


def test_dice_print_in_the_one_canonical_form():
    assert format_dice(*parse_dice("2 5")) == "2,5"


@pytest.mark.parametrize("text", ["3", "3,7", "0 3", "3,3,3", "a b"])
def test_dice_that_are_not_two_dice_say_so(text):
    with pytest.raises(NotationError) as raised:
        parse_dice(text)
    assert raised.value.message == "two dice 1-6 such as 3,3"


def test_claims_in_either_form_with_the_count_defaulting_to_three():
    assert parse_claims("1<2:3, 2:1:4 3<0 0:3") == (Claim(1, 2, 3), Claim(2, 1, 4), Claim(3, 0, 3), Claim(0, 3, 3))
    assert parse_claims("") == ()


def test_claims_print_in_the_one_canonical_form():
    assert format_claims(parse_claims("1<2:3,2<1")) == "1:2:3, 2:1:3"


@pytest.mark.parametrize(("text", "position"), [("1:2:3, 4:1", 7), ("1-2", 0), ("1:2x", 0), ("1:2:3 x", 6)])
def test_a_bad_claim_is_pointed_at(text, position):
    with pytest.raises(NotationError) as raised:
        parse_claims(text)
    assert (raised.value.position, raised.value.message) == (
        position,
        "a claim is CLAIMER:SOURCE:COUNT with seats 0-3, such as 1:2:3",
    )


def test_a_claim_may_say_its_pattern_is_kept_and_knocked_seats_are_listed():
    """RULES.md 14.10.1: `pattern_kept` as ``:kept`` after a claim; `declared_seats` as ``0,2``."""
    assert parse_claims("1:2:3:kept, 2<1:kept 0:3") == (Claim(1, 2, 3, True), Claim(2, 1, 3, True), Claim(0, 3, 3))
    assert format_claims(parse_claims("1<2:4 : kept,2<1")) == "1:2:4:kept, 2:1:3"
    assert parse_seats("0,2") == parse_seats(" 0 2 ") == (0, 2)
    assert parse_seats("") == ()
    for bad, position in (("0,4", 2), ("02", 0), ("0;2", 0)):
        with pytest.raises(NotationError) as error:
            parse_seats(bad)
        assert error.value.position == position
    with pytest.raises(NotationError):
        parse_claims("1:2:3:kep")

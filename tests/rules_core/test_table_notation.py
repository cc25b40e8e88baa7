"""Dice and claims in one notation for the CLI and the explorer, each accepting the other's form."""

from __future__ import annotations

import pytest

from rules_core.errors import NotationError
from rules_core.table_notation import Claim, format_claims, format_dice, parse_claims, parse_dice


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

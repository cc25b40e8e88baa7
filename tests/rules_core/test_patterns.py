"""RULES.md section 4: patterns and who may win."""

import pytest

from rules_core import IllegalReason as R
from rules_core import Pattern as P
from rules_core import settle
from rules_core.build import winner

from .conftest import DISCARD, ROB, SELF, request


def judge(text, win, profile="classic", outcome=SELF, seat=0, **flags):
    w = winner(seat, text, win=win, **flags)
    extra = {"discarder_seat": (seat + 1) % 4} if outcome in (DISCARD, ROB) else {}
    (result,) = settle(request(profile, outcome, [w], **extra)).winners
    return result


@pytest.mark.parametrize(
    ("text", "patterns"),
    [
        ("111m 555m 999p EEE 77s", (P.ALL_PUNGS, P.CONCEALED)),
        ("123m 456m 789m EEE 77m", (P.HALF_FLUSH, P.CONCEALED)),
        ("123m 456m 789m 111m 77m", (P.FULL_FLUSH, P.CONCEALED)),
        ("111m 555m 999m EEE 77m", (P.ALL_PUNGS, P.HALF_FLUSH, P.HALF_FLUSH_PUNGS, P.CONCEALED)),
        ("111m 555m 999m 333m 77m", (P.ALL_PUNGS, P.FULL_FLUSH, P.FULL_FLUSH_PUNGS, P.CONCEALED)),
        ("EEE SSS WWW CCC PP", (P.ALL_PUNGS, P.ALL_HONOURS, P.ALL_HONOURS_PUNGS, P.CONCEALED)),
        ("ESWN CFP ESWN CFP", (P.ALL_HONOURS, P.CONCEALED)),  # 乱风向: any shape
    ],
)
def test_shape_patterns_list_every_condition_that_holds(text, patterns):
    result = judge(text, text.split()[-1][-1] if text[-1].isupper() else text[-2:])
    assert result.patterns == patterns
    assert result.legal


def test_all_pungs_decomposition_is_preferred():
    # 111222333m can be three chows or three pungs: the pungs make 清碰.
    result = judge("111222333m 555m 99m", "9m")
    assert P.FULL_FLUSH_PUNGS in result.patterns
    assert result.value == 40


def test_incomplete_hand_has_the_single_reason():
    result = judge("123m 456m 789m 11p 2s 3s 5s", "5s")
    assert result.illegal_reasons == (R.INCOMPLETE_SHAPE,)
    assert result.patterns == (P.CONCEALED,)
    assert result.value == 0


def test_mixed_chow_hand_needs_a_special_pattern():
    result = judge("123m 456p 789s 234s EE", "E")
    assert result.illegal_reasons == (R.NO_QUALIFYING_PATTERN,)


def test_kong_bloom_qualifies_in_classic_not_in_lezi():
    text = "123m 456p 789s 234s EE"
    assert judge(text, "E", replacement_draw=True).patterns == (P.KONG_BLOOM, P.CONCEALED)
    assert judge(text, "E", replacement_draw=True).legal
    assert not judge(text, "E", profile="lezi", replacement_draw=True).legal


def test_earthly_needs_a_non_dealer_in_the_first_go_around():
    text = "123m 456p 789s 234s EE"
    assert judge(text, "E", seat=1, first_go_around=True).patterns == (P.EARTHLY, P.CONCEALED)
    assert judge(text, "E", seat=1, outcome=DISCARD, first_go_around=True).value == 160
    assert not judge(text, "E", seat=0, outcome=DISCARD, first_go_around=True).legal


def test_heavenly_needs_the_dealer_self_drawing_without_melds():
    assert judge("123m 456p 789s 234s EE", "E", first_go_around=True).patterns == (P.HEAVENLY, P.CONCEALED)
    result = judge("456p 789s 234s EE [123m@3]", "E", first_go_around=True)
    assert result.patterns == ()


def test_concealed_allows_concealed_kongs_only():
    assert P.CONCEALED in judge("555m 999p EEE 77s [1111m]", "7s").patterns
    assert P.CONCEALED not in judge("555m 999p EEE 77s [111m@1]", "7s").patterns


def test_robbing_kong_is_listed_but_does_not_qualify_alone():
    result = judge("123m 456p 789s 234s EE", "E", outcome=ROB)
    assert result.patterns == (P.CONCEALED, P.ROBBING_KONG)
    assert result.illegal_reasons == (R.NO_QUALIFYING_PATTERN,)


def test_missed_win_with_no_pattern_reports_both():
    result = judge("123m 456p 789s 234s EE", "E", outcome=DISCARD, passed="E")
    assert result.illegal_reasons == (R.NO_QUALIFYING_PATTERN, R.MISSED_WIN)


def test_missed_win_applies_to_robbing_a_kong():
    result = judge("111m 555m 999p EEE 77s", "7s", outcome=ROB, passed="7s")
    assert result.illegal_reasons == (R.MISSED_WIN,)

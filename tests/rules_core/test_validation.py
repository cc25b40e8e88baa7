"""RULES.md section 3: impossible input is rejected, naming the field as API.md spells it."""

import pickle

import pytest

from rules_core import Dice, FieldViolation, Hand, InvalidRequest, Meld, MeldKind, Outcome, Tile, settle
from rules_core.build import claims, winner
from rules_core.requests import replace

from .conftest import DISCARD, EIGHT, SELF, request

GOOD = winner(0, "111m 555m 999p EEE 77s", win="7s", flowers="1f 5f")


def violations(req):
    with pytest.raises(InvalidRequest) as error:
        settle(req)
    return [(v.field, v.description) for v in error.value.violations]


def fields(req):
    return [f for f, _ in violations(req)]


def with_hand(**changes):
    return replace(GOOD, hand=replace(GOOD.hand, **changes))


def test_a_good_request_is_accepted():
    assert settle(request("classic", SELF, [GOOD])).winners[0].legal


@pytest.mark.parametrize("name", ["Classic", "", "riichi"])
def test_unknown_profile_names_the_known_ones(name):
    (found,) = violations(request(name, SELF, [GOOD]))
    assert found[0] == "profile"
    assert "classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou" in found[1]


def test_more_than_four_copies_is_the_hand_as_a_whole():
    w = with_hand(concealed=GOOD.hand.concealed[:-2] + (Tile.M1, Tile.M1), winning_tile=Tile.M1)
    assert fields(request("classic", SELF, [w])) == ["winners[0].hand"]


def test_copies_count_melded_tiles_too():
    w = winner(0, "111m 999p EEE 77s [1111m]", win="7s")
    assert fields(request("classic", SELF, [w])) == ["winners[0].hand"]


def test_a_flower_twice():
    assert fields(request("classic", SELF, [with_hand(flowers=GOOD.hand.flowers * 2)])) == [
        "winners[0].hand.flowers[2]",
        "winners[0].hand.flowers[3]",
    ]


def test_wrong_concealed_count():
    found = violations(request("classic", SELF, [with_hand(concealed=GOOD.hand.concealed[1:])]))
    assert found == [("winners[0].hand.concealed", "0 meld(s) leave 14 concealed tiles, got 13")]


def test_winning_tile_missing_or_unspecified():
    assert fields(request("classic", SELF, [with_hand(winning_tile=Tile.S8)])) == ["winners[0].hand.winning_tile"]
    assert fields(request("classic", SELF, [with_hand(winning_tile=None)])) == ["winners[0].hand.winning_tile"]


def test_unspecified_tiles_are_named_by_index():
    w = with_hand(concealed=GOOD.hand.concealed[:3] + (None,) + GOOD.hand.concealed[4:])
    assert fields(request("classic", SELF, [w])) == ["winners[0].hand.concealed[3]"]


def test_meld_tiles_must_form_its_kind():
    w = winner(0, "555m 999p EEE 77s", win="7s")
    bad = Meld(MeldKind.CHOW, (Tile.M1, Tile.M2, Tile.M4), 3)
    w = replace(w, hand=replace(w.hand, melds=(bad,)))
    assert violations(request("classic", SELF, [w])) == [
        ("winners[0].hand.melds[0]", "1m 2m 4m do not form a chow (three consecutive tiles of one suit)")
    ]


def test_meld_kind_unspecified_and_bad_sources():
    w = winner(1, "999p EEE 77s [111m@0] [555m@2]", win="7s")
    melds = w.hand.melds
    assert settle(request("classic", SELF, [w])).winners[0].legal
    unspecified = replace(w, hand=replace(w.hand, melds=(replace(melds[0], kind=None), melds[1])))
    assert fields(request("classic", SELF, [unspecified])) == ["winners[0].hand.melds[0].kind"]
    own = replace(w, hand=replace(w.hand, melds=(melds[0], replace(melds[1], from_seat=1))))
    assert fields(request("classic", SELF, [own])) == ["winners[0].hand.melds[1].from_seat"]


def test_a_chow_comes_from_the_previous_player_only():
    w = winner(1, "999p EEE 77s 555m [123m@2]", win="7s")
    found = violations(request("classic", SELF, [w]))
    assert found == [("winners[0].hand.melds[0].from_seat", "a chow is claimed from the 上家 (seat 0), not seat 2")]


def test_seats_and_dice_out_of_range():
    req = request("classic", DISCARD, [replace(GOOD, seat=4)], dealer_seat=-1, discarder_seat=5, dice=Dice(0, 7))
    assert fields(req) == ["dealer_seat", "dice.first", "dice.second", "discarder_seat", "winners[0].seat"]


def test_outcome_must_be_specified():
    assert fields(request("classic", None, [GOOD])) == ["outcome"]


@pytest.mark.parametrize("outcome", [SELF, EIGHT])
def test_self_draw_and_eight_flowers_need_exactly_one_winner(outcome):
    assert fields(request("classic", outcome, [])) == ["winners"]
    assert fields(request("classic", outcome, [GOOD, replace(GOOD, seat=1)])) == ["winners"]


def test_discard_wins_need_winners_and_draws_have_none():
    assert fields(request("classic", DISCARD, [], discarder_seat=1)) == ["winners"]
    assert fields(request("classic", Outcome.ROBBING_KONG, [], discarder_seat=1)) == ["winners"]
    assert fields(request("classic", Outcome.EXHAUSTIVE_DRAW, [GOOD])) == ["winners"]
    assert fields(request("lezi", Outcome.ABANDON, [GOOD])) == ["winners"]


def test_the_same_seat_twice_and_a_winning_discarder():
    assert fields(request("classic", DISCARD, [GOOD, GOOD], discarder_seat=1)) == ["winners[1].seat"]
    assert fields(request("classic", DISCARD, [GOOD], discarder_seat=0)) == ["winners[0].seat"]


def test_seats_outside_0_to_3_are_impossible_whatever_the_outcome():
    assert fields(request("classic", SELF, [GOOD], discarder_seat=7)) == ["discarder_seat"]
    assert fields(request("classic", SELF, [GOOD], abandoning_seat=-1)) == ["abandoning_seat"]


def test_liability_relations():
    req = request("lezi", SELF, [GOOD], liabilities=(claims(2, 2), claims(1, 9), claims(1, 2, -1)))
    assert fields(req) == ["liabilities[0]", "liabilities[1].source_seat", "liabilities[2].claims"]


def test_negative_huangfan_count():
    assert fields(request("classic", SELF, [GOOD], huangfan_count=-1)) == ["huangfan_count"]


def test_replacement_draw_only_on_a_self_draw():
    w = replace(GOOD, replacement_draw=True)
    assert fields(request("classic", DISCARD, [w], discarder_seat=1)) == ["winners[0].replacement_draw"]


def test_abandon_needs_an_abandon_rule():
    assert violations(request("classic", Outcome.ABANDON)) == [("outcome", "profile 'classic' has no abandon rule")]
    assert fields(request("lezi", Outcome.ABANDON, abandoning_seat=4)) == ["abandoning_seat"]


def test_eight_flowers_accepts_13_or_14_tiles_and_no_winning_tile():
    flowers = "1f 2f 3f 4f 5f 6f 7f 8f"
    for text in ("123m 456p 789s 234s E", "123m 456p 789s 234s EE"):
        result = settle(request("lezi", EIGHT, [winner(0, text, flowers=flowers)]))
        assert result.winners[0].legal
    w = winner(0, "123m 456p 789s 234s", flowers=flowers)
    assert fields(request("lezi", EIGHT, [w])) == ["winners[0].hand.concealed"]


def test_overrides_are_validated_by_field():
    req = request("classic", SELF, [GOOD], overrides={"lazi_value": -1, "discard_share": 0.3, "bogus": 1})
    assert fields(req) == ["overrides.lazi_value", "overrides.discard_share", "overrides.bogus"]


def test_every_fault_is_reported_once():
    w = Hand((), None, (), ())
    found = fields(request("classic", SELF, [replace(GOOD, hand=w)]))
    assert found == ["winners[0].hand.concealed", "winners[0].hand.winning_tile"]


# Bounds (issue 8): whatever the input, an error is small and found quickly.


def test_a_list_longer_than_a_real_hand_is_one_violation_and_its_elements_are_not_read():
    w = with_hand(concealed=(None,) * 1_000_000)  # a million unspecified tiles: one violation, not a million
    assert violations(request("classic", SELF, [w])) == [
        ("winners[0].hand.concealed", "at most 14 entries, got 1000000")
    ]


@pytest.mark.parametrize(
    ("change", "field", "limit", "count"),
    [
        (lambda w: replace(w, passed_tiles=(Tile.M1,) * 137), "winners[0].passed_tiles", 136, 137),
        (lambda w: replace(w, hand=replace(w.hand, flowers=(None,) * 9)), "winners[0].hand.flowers", 8, 9),
        (
            lambda w: replace(w, hand=replace(w.hand, melds=(Meld(MeldKind.PUNG, ()),) * 5)),
            "winners[0].hand.melds",
            4,
            5,
        ),
        (
            lambda w: replace(w, hand=replace(w.hand, melds=(Meld(MeldKind.PUNG, (Tile.M1,) * 5, 1),))),
            "winners[0].hand.melds[0].tiles",
            4,
            5,
        ),
    ],
)
def test_each_repeated_field_has_a_bound(change, field, limit, count):
    assert (field, f"at most {limit} entries, got {count}") in violations(request("classic", SELF, [change(GOOD)]))


def test_too_many_winners_or_liabilities():
    assert violations(request("classic", DISCARD, [GOOD] * 5, discarder_seat=1)) == [
        ("winners", "at most 4 entries, got 5")
    ]
    many = (claims(1, 2, 1),) * 49
    assert violations(request("classic", SELF, [GOOD], liabilities=many)) == [
        ("liabilities", "at most 48 entries, got 49")
    ]


def test_at_most_twenty_violations_are_listed_then_how_many_more():
    w = replace(GOOD, passed_tiles=(None,) * 30)
    found = violations(request("classic", SELF, [w]))
    assert len(found) == 21
    assert found[:2] == [
        ("winners[0].passed_tiles[0]", "must be a specified tile"),
        ("winners[0].passed_tiles[1]", "must be a specified tile"),
    ]
    assert found[20] == ("request", "10 more violation(s) not listed")


def test_a_long_profile_name_is_named_by_an_excerpt():
    name = "x" * 10_000
    ((field, description),) = violations(request(name, SELF, [GOOD]))
    assert field == "profile"
    assert (
        description
        == "unknown profile '"
        + "x" * 32
        + "'… (10,000 characters); known profiles: classic, lezi, qiaoma, qiaoma_lezi, qinghunpeng, sankou"
    )


def test_the_violations_together_stay_within_their_byte_budget():
    error = InvalidRequest([("f" * 500, "d" * 500)] * 30)
    assert len(error.violations) == 8  # 7 of 400 bytes (UTF-8) fit in 3,000, then the count of the rest
    assert error.violations[0] == ("f" * 120 + "… (500 characters)", "d" * 240 + "… (500 characters)")
    assert error.violations[7] == ("request", "23 more violation(s) not listed")


def test_a_refusal_keeps_its_violations_and_message_across_a_process_boundary():
    error = InvalidRequest(
        [FieldViolation("winners[0].seat", "must be a seat 0-3"), ("dealer_seat", "must be a seat 0-3")]
    )
    for refusal in (error, pickle.loads(pickle.dumps(error))):
        assert refusal.violations == [("winners[0].seat", "must be a seat 0-3"), ("dealer_seat", "must be a seat 0-3")]
        assert str(refusal) == "winners[0].seat: must be a seat 0-3; dealer_seat: must be a seat 0-3"
        assert repr(refusal) == "InvalidRequest('winners[0].seat: must be a seat 0-3; dealer_seat: must be a seat 0-3')"


def test_a_request_id_is_at_most_256_bytes():
    assert settle(request("classic", SELF, [GOOD], request_id="é" * 128)).request_id == "é" * 128  # 256 bytes
    assert violations(request("classic", SELF, [GOOD], request_id="é" * 129)) == [
        ("request_id", "at most 256 bytes, got 258")
    ]
    assert violations(request("classic", SELF, [GOOD], request_id="x" * 64 * 1024 * 1024)) == [
        ("request_id", f"at most 256 bytes, got {64 * 1024 * 1024}")
    ]


def test_the_json_path_has_the_same_bounds():
    from rules_core import settle_json

    body = {
        "requestId": "x" * 300,
        "profile": "classic",
        "outcome": "OUTCOME_SELF_DRAW",
        "winners": [{"hand": {"concealed": ["TILE_NOPE"] * 100_000, "flowers": [1] * 9}}],
    }
    with pytest.raises(InvalidRequest) as error:
        settle_json(body)
    assert [(v.field, v.description) for v in error.value.violations] == [
        ("request_id", "at most 256 bytes, got 300"),
        ("winners[0].hand.concealed", "at most 14 entries, got 100000"),
        ("winners[0].hand.flowers", "at most 8 entries, got 9"),
    ]
    with pytest.raises(InvalidRequest) as error:
        settle_json({"profile": "classic", **{f"unknown{i}": 1 for i in range(1000)}})
    assert len(error.value.violations) == 21
    assert error.value.violations[-1] == ("request", "980 more violation(s) not listed")


def test_a_lone_surrogate_in_notation_is_named_in_text_utf_8_can_hold():
    """Found as a hostile client: JSON may escape a lone surrogate ("\\ud800"), which no UTF-8 can
    hold; a hand in notation holding one was refused with a description quoting it raw, and the
    refusal itself then failed (an internal error over HTTP, from settle_json and advise_json)."""
    from rules_core import advise_json, settle_json

    with pytest.raises(InvalidRequest) as advice:
        advise_json({"profile": "classic", "hand": {"concealed": "111m 555m 999p CC 77s"}, "seen": "C \ud800"})
    with pytest.raises(InvalidRequest) as settlement:
        settle_json(
            {"profile": "classic", "outcome": "OUTCOME_SELF_DRAW", "winners": [{"hand": {"concealed": "\udfff"}}]}
        )
    unexpected = "tiles are 1-9 with m/p/s, E S W N C F P, flowers 1f-8f"
    assert advice.value.violations == [
        ("seen", f"bad notation at position 2 ('C ⟨\\ud800⟩'): unexpected '\\ud800': {unexpected}")
    ]
    assert settlement.value.violations[0] == (
        "winners[0].hand.concealed",
        f"bad notation at position 0 ('⟨\\udfff⟩'): unexpected '\\udfff': {unexpected}",
    )
    assert str(advice.value).encode("utf-8")
